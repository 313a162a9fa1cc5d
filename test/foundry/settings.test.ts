import { describe, expect, it } from "vitest";
import { bootWorld, GM, PLAYER, type FakeWorld } from "../world/index.js";
import { defaultRulesetFor } from "../../src/core/core-settings.js";
import { declaredSettings } from "../fixtures/declared-settings.js";

const gm = (world: FakeWorld) => world.clientOf("gm1");
const get = (world: FakeWorld, key: string) =>
  world.as("gm1", () => game.settings.get("aventure" as never, key as never));
const set = (world: FakeWorld, user: string, key: string, value: unknown) =>
  world.as(user, () => game.settings.set("aventure" as never, key as never, value as never));

describe("settings", () => {
  it("registers every declared setting with a localized name and hint, on every client", async () => {
    const world = await bootWorld({ system: "dnd5e", users: [GM, PLAYER] });
    const schema = declaredSettings("dnd5e");
    for (const user of ["gm1", "p1"]) {
      const c = world.clientOf(user);
      for (const key of Object.keys(schema)) {
        const def = c.settingDefs.get(`aventure.${key}`) as unknown as { name: string; hint: string };
        expect(def, key).toBeDefined();
        expect(c.i18n.has(def.name), def.name).toBe(true);
        expect(c.i18n.has(def.hint), def.hint).toBe(true);
      }
    }
  });

  it("registers the declared settings, in their order, and no other", async () => {
    const world = await bootWorld({ system: "dnd5e" });
    const registered = [...world.clientOf("gm1").settingDefs.keys()].filter((id) => id.startsWith("aventure."));
    expect(registered).toEqual(Object.keys(declaredSettings("dnd5e")).map((k) => `aventure.${k}`));
  });

  it("defaults the ruleset from the game system", async () => {
    expect(defaultRulesetFor("dnd5e")).toBe("dnd5e");
    expect(defaultRulesetFor("ose")).toBe("ose");
    expect(defaultRulesetFor("pf2e")).toBe("rnp");
    expect(get(await bootWorld({ system: "ose" }), "ruleset")).toBe("ose");
    expect(get(await bootWorld({ system: "worldbuilding" }), "ruleset")).toBe("rnp");
  });

  it("defaults distances to metres and the foot to 0.3 m", async () => {
    const world = await bootWorld();
    expect(get(world, "distanceDisplay")).toBe("metres");
    expect(get(world, "feetFactor")).toBe(0.3);
  });

  it("throws on an undeclared key (the fake is strict)", async () => {
    const world = await bootWorld();
    expect(() => get(world, "nope")).toThrow(/not a registered game setting/);
  });

  it("refuses a ruleset that is not a choice, and a player writing a world setting", async () => {
    const world = await bootWorld({ users: [GM, PLAYER] });
    await expect(set(world, "gm1", "ruleset", "gurps")).rejects.toThrow(/not a valid choice/);
    await expect(set(world, "p1", "ruleset", "pmt")).rejects.toThrow(/lacks permission/);
    await set(world, "gm1", "ruleset", "pmt");
    expect(get(world, "ruleset")).toBe("pmt");
    expect(world.as("p1", () => game.settings.get("aventure", "ruleset"))).toBe("pmt"); // every client reads the world's value
  });

  it("re-renders open Aventure windows on every client when the ruleset changes", async () => {
    const world = await bootWorld({ users: [GM, PLAYER] });
    const renders: string[] = [];
    for (const u of ["gm1", "p1"])
      world.as(u, () => Hooks.on("renderTravelDialog" as never, (() => void renders.push(u)) as never));
    await world.as("gm1", () => world.api<{ openTravel(o?: object): unknown }>("gm1").openTravel({ actorIds: [] }));
    await world.as("p1", () => world.api<{ openTravel(o?: object): unknown }>("p1").openTravel({ actorIds: [] }));
    await world.settle();
    renders.length = 0;
    await set(world, "gm1", "ruleset", "ose");
    await world.settle();
    expect(renders.sort()).toEqual(["gm1", "p1"]);
  });
});

describe("module entry", () => {
  it("exposes the API with the rules engine", async () => {
    const world = await bootWorld();
    const api = world.api<{ rules: { roundSeconds: (r: string) => number }; ruleset: () => string }>("gm1");
    expect(api.rules.roundSeconds("ose")).toBe(10);
    expect(world.as("gm1", () => api.ruleset())).toBe("dnd5e");
  });

  it("registers the Actor data menu, GM only", async () => {
    const world = await bootWorld();
    const menu = gm(world).menus.get("aventure.actorDataMenu") as { restricted: boolean; name: string };
    expect(menu.restricted).toBe(true);
    expect(gm(world).i18n.has(menu.name)).toBe(true);
  });

  it("adds its own status effects only where the system lacks them, where they survive the system (dnd5e rebuilds its list in i18nInit)", async () => {
    const dnd = await bootWorld({ system: "dnd5e" });
    const ids = gm(dnd)
      .statusEffectList()
      .map((e) => e.id);
    expect(ids).toContain("aventure-dim");
    expect(ids).not.toContain("aventure-hidden"); // dnd5e has "hiding"
    expect(ids).toContain("aventure-surprised"); // dnd5e's "surprised" gives disadvantage on initiative (2024 rules)
    const core = await bootWorld({ system: "worldbuilding" });
    const coreIds = gm(core)
      .statusEffectList()
      .map((e) => e.id);
    expect(coreIds).toContain("aventure-hidden");
    expect(coreIds).toContain("aventure-surprised");
  });
});

describe("unsupported systems", () => {
  it("warns the GM once at ready when no adapter and no paths exist", async () => {
    const world = await bootWorld({ system: "worldbuilding" });
    expect(world.notifications).toEqual([
      { user: "gm1", type: "warn", message: expect.stringContaining("worldbuilding") },
    ]);
  });
  it("stays quiet for dnd5e", async () => {
    const world = await bootWorld({ system: "dnd5e" });
    expect(world.notifications).toEqual([]);
  });
});

describe("keybindings", () => {
  it("are registered in init with localized names and no default key", async () => {
    const world = await bootWorld();
    const kbs = gm(world).keybindings as Map<string, { name: string; editable: unknown[]; restricted?: boolean }>;
    expect([...kbs.keys()].sort()).toEqual([
      "aventure.encounter",
      "aventure.hide",
      "aventure.jumps",
      "aventure.travel",
    ]);
    for (const kb of kbs.values()) {
      expect(gm(world).i18n.has(kb.name)).toBe(true);
      expect(kb.editable).toEqual([]);
    }
    expect(kbs.get("aventure.travel")!.restricted).toBe(true);
  });
});

describe("settings typed by their fields (core/settings.ts declareSettings; the test world's DataField settings)", () => {
  it("attack: a malformed exploration record is refused when written, and the stored one stays", async () => {
    const world = await bootWorld({ users: [GM, PLAYER] });
    const before = get(world, "explorationState");
    const mark = world.writes.length;
    const good = { v: 1, rev: 1, state: null, time: 0, party: [], restDue: false, op: null };
    await expect(set(world, "gm1", "explorationState", { ...good, rev: -1 })).rejects.toThrow(
      /rev: must be at least 0/,
    );
    await expect(
      set(world, "gm1", "explorationState", { ...good, party: [{ sceneId: "../x", tokenId: "t", name: "A" }] }),
    ).rejects.toThrow(/party\.0\.sceneId: is not a valid value/);
    await expect(
      set(world, "gm1", "explorationState", { ...good, state: { ruleset: "ose", turn: -3 } }),
    ).rejects.toThrow(/state: is not a valid value/);
    await expect(set(world, "gm1", "feetFactor", 3)).rejects.toThrow(/at most 0.35/);
    await expect(set(world, "gm1", "fallOnDrop", "sometimes")).rejects.toThrow(/not a valid choice/);
    expect(world.writes.length).toBe(mark);
    expect(get(world, "explorationState")).toEqual(before);
    await set(world, "gm1", "explorationState", good);
    expect(get(world, "explorationState")).toEqual(good);
  });

  it("the actor data paths: a path missing from a written value is filled with none, an unknown key dropped", async () => {
    const world = await bootWorld();
    await set(world, "gm1", "actorData", { hp: "system.hp", nope: "x" });
    const paths = get(world, "actorData") as Record<string, string>;
    expect(paths.hp).toBe("system.hp");
    expect(paths.conMod).toBe("");
    expect("nope" in paths).toBe(false);
  });
});
