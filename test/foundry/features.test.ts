/**
 * What each game gets in a world (docs/rules.md §0): `api.features()` reads the ruleset setting and the borrow
 * settings (one world setting per feature, GM only, choices = the games whose own rule it is).
 */
import { describe, expect, it } from "vitest";
import { addDnd5eActor, bootWorld, GM, PLAYER, viewScene, type FakeWorld } from "../world/index.js";
import { declaredSettings } from "../fixtures/declared-settings.js";

type State = { on: boolean; source: string | null; borrowed: boolean; from: string | null };
type Api = { features(ruleset?: string): Record<"falls" | "jumps" | "hiding" | "encounter" | "polaris", State> };
const set = (world: FakeWorld, user: string, key: string, value: unknown) =>
  world.as(user, () => game.settings.set("aventure" as never, key as never, value as never));
const features = (world: FakeWorld, user: string, ruleset?: string) =>
  world.as(user, () => world.api<Api>(user).features(ruleset));

describe("api.features (docs/rules.md §0)", () => {
  it("reads the world's ruleset: an OSE world has encounters and OSE falls, no jumps, no hiding", async () => {
    const world = await bootWorld({ system: "ose", users: [GM, PLAYER] });
    const f = features(world, "gm1");
    expect(f.encounter).toEqual({ on: true, source: "Old-School Essentials", borrowed: false, from: "ose" });
    expect(f.falls.on).toBe(true);
    expect(f.falls.source).toMatch(/OSE SRD/);
    expect(f.jumps).toEqual({ on: false, source: null, borrowed: false, from: null });
    expect(f.hiding.on).toBe(false);
    expect(Object.keys(f)).toHaveLength(17);
    expect(features(world, "p1")).toEqual(f); // every client reads the same world
  });

  it("takes another ruleset as argument, with the world's borrowings", async () => {
    const world = await bootWorld({ system: "dnd5e" });
    expect(features(world, "gm1").jumps.on).toBe(true);
    expect(features(world, "gm1", "polaris").jumps.on).toBe(false);
    expect(features(world, "gm1", "polaris").polaris.on).toBe(true);
    expect(() => features(world, "gm1", "gurps")).toThrow(/UnknownRuleset/);
  });

  it("a GM borrows a feature: it is on and names the game it comes from; the game's own stays its own", async () => {
    const world = await bootWorld({ system: "ose", users: [GM, PLAYER] });
    await set(world, "gm1", "borrowJumps", "rnp");
    await set(world, "gm1", "borrowFalls", "rnp"); // ose has its own falls: ignored
    const f = features(world, "p1");
    expect(f.jumps).toEqual({ on: true, source: "Rôle'n Play", borrowed: true, from: "rnp" });
    expect(f.falls.borrowed).toBe(false);
    expect(f.falls.from).toBe("ose");
    await set(world, "gm1", "borrowJumps", "none");
    expect(features(world, "gm1").jumps.on).toBe(false);
  });

  it("refuses a borrowing from a game without the rule, and a player's borrowing", async () => {
    const world = await bootWorld({ system: "ose", users: [GM, PLAYER] });
    await expect(set(world, "gm1", "borrowJumps", "pmt")).rejects.toThrow(/not a valid choice/);
    await expect(set(world, "gm1", "borrowJumps", "gurps")).rejects.toThrow(/not a valid choice/);
    await expect(set(world, "p1", "borrowJumps", "rnp")).rejects.toThrow(/lacks permission/);
    expect(features(world, "gm1").jumps.on).toBe(false);
  });

  it("declares one borrow setting per feature some game lacks, offering only the games that have it", () => {
    const schema = declaredSettings("ose");
    const keys = Object.keys(schema).filter((k) => k.startsWith("borrow"));
    expect(keys).toHaveLength(16);
    expect(keys).not.toContain("borrowLightLevel");
    expect(Object.keys(schema.borrowFalls!.choices!)).toEqual(["none", "rnp", "dnd5e", "ose"]);
    expect(Object.keys(schema.borrowSideInitiative!.choices!)).toEqual(["none", "pmt", "ose"]);
    for (const k of keys) expect([schema[k]!.default, schema[k]!.scope]).toEqual(["none", "world"]);
  });

  it("re-renders open Aventure windows when a borrowing changes", async () => {
    const world = await bootWorld({ system: "ose" });
    const renders: string[] = [];
    world.as("gm1", () => Hooks.on("renderEncounterDialog" as never, (() => void renders.push("gm1")) as never));
    await world.as("gm1", () => world.api<{ openEncounter(): Promise<unknown> }>("gm1").openEncounter());
    await world.settle();
    renders.length = 0;
    await set(world, "gm1", "borrowTravel", "rnp");
    await world.settle();
    expect(renders).toEqual(["gm1"]);
  });

  it("pursuit and exploration are refused where the game has none, and follow the game they are borrowed from", async () => {
    const world = await bootWorld({ system: "dnd5e" });
    type Api = {
      openPursuit(): Promise<{ lastContext: unknown } | undefined>;
      exploration: { start(t?: unknown[]): Promise<unknown>; status(): { state: { ruleset: string } | null } };
    };
    const api = world.api<Api>("gm1");
    const scene = world.addScene({ _id: "s1" });
    for (const c of world.liveClients()) viewScene(world, c, scene);
    addDnd5eActor(world, { id: "aldric", name: "Aldric" });
    const token = world.addToken(scene, {
      _id: "tA",
      name: "Aldric",
      actorId: "aldric",
      actorLink: true,
      disposition: 1,
    });
    expect(await world.as("gm1", () => api.openPursuit())).toBeUndefined();
    expect(world.notifications.at(-1)).toEqual({
      user: "gm1",
      type: "info",
      message: "The D&D 5e (French SRD) book has no rule for flight and pursuit.",
    });
    await world.as("gm1", () => api.exploration.start([token]));
    await world.settle();
    expect(world.as("gm1", () => api.exploration.status()).state).toBeNull(); // refused on the GM: nothing written
    expect(world.notifications.at(-1)!.message).toBe("The D&D 5e (French SRD) book has no rule for exploration time.");
    await set(world, "gm1", "borrowPursuit", "pmt");
    await set(world, "gm1", "borrowExploration", "ose");
    const d = (await world.as("gm1", () => api.openPursuit()))!;
    await world.settle();
    expect((d.lastContext as { rulesetLabel: string }).rulesetLabel).toBe("Portes, Monstres & Trésors");
    await world.as("gm1", () => api.exploration.start([token]));
    await world.settle();
    expect(world.as("gm1", () => api.exploration.status()).state?.ruleset).toBe("ose");
  });
});
