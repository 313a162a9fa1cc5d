/**
 * Who acts where Aventure and dnd5e both automate a rule (src/core/dnd5e-owners.ts, docs/compat.md "Who acts under
 * dnd5e"): one world setting per overlap, never both. The dnd5e behaviour relied on is modelled in the test world
 * (test/world/systems.ts, each part naming its dnd5e 5.3.3 file): its movement cost functions and Difficult Terrain
 * (terrain difficulty 2, or core's + 1), its `movementAutomation` setting, its pseudo conditions Falling and
 * Suffocation (markers with no automation). Expected costs from RULES.md §3.1 (difficult 2 m per metre; climbing or
 * crawling 2, 3 in difficult terrain); falls from §4.1 (1d6 per full 3 m, prone); suffocation from §4.2.
 */
import { describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  dnd5eSystem,
  dnd5eTerrainCost,
  FakeWorld as World,
  GM,
  GM2,
  moveToken,
  PLAYER,
  viewScene,
  type FakeActor,
  type FakeScene,
  type FakeToken,
  type FakeWorld,
} from "../world/index.js";
import { cardsOf } from "./card-state.js";

vi.setConfig({ testTimeout: 30_000 });

type CostFn = (baseCost: number, from: unknown, to: unknown, distance: number, segment: unknown) => number;
type Owners = Record<string, { owner: string; dnd5eHas: boolean }>;
type Api = {
  dnd5eOwners(): Owners;
  holdBreath(t: unknown): Promise<unknown>;
  breatheAgain(t: unknown): Promise<{ op: string } | undefined>;
  openTravel(o?: { actorIds?: string[] }): Promise<{
    change(name: string, value: string): Promise<unknown>;
    apply(): Promise<unknown>;
  }>;
};

async function boot(system = "dnd5e", users: { id: string; isGM: boolean }[] = [GM]) {
  const world = await bootWorld({ system, users });
  const scene = world.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 } });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  world.worldTime = 1000;
  return { world, scene };
}
const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const set = (world: FakeWorld, key: string, value: unknown, ns = "aventure") =>
  world.as("gm1", () => game.settings.set(ns as never, key as never, value as never));
/** A dnd5e creature: walks 30 ft, no climbing or swimming speed, Constitution 14 (+2), 20 hit points. */
function creature(
  world: FakeWorld,
  scene: FakeScene,
  opts: { owner?: string; elevation?: number } = {},
): { actor: FakeActor; token: FakeToken } {
  const actor = addDnd5eActor(world, {
    id: "hero",
    name: "Aldric",
    owner: opts.owner,
    abilities: { con: 14 },
    hp: { value: 20, max: 20, temp: null },
  });
  const token = world.addToken(scene, {
    _id: "t1",
    name: "Aldric",
    actorId: "hero",
    actorLink: true,
    x: 0,
    y: 0,
    elevation: opts.elevation ?? 0,
  });
  return { actor, token };
}
/** The cost core would count for one segment of `distance` metres by `action`, through dnd5e's terrain (TerrainData5e). */
function segmentCost(
  world: FakeWorld,
  token: FakeToken,
  action: string,
  distance: number,
  terrain: { coreDifficulty?: number; dnd5eDifficult?: boolean },
): number {
  const client = world.clientOf("gm1");
  return world.as("gm1", () => {
    const { baseCost, segment } = dnd5eTerrainCost(client, distance, terrain);
    const config = (
      CONFIG.Token as unknown as {
        movement: { actions: Record<string, { getCostFunction(t: unknown, o?: unknown): CostFn }> };
      }
    ).movement.actions[action]!;
    return config.getCostFunction(token, {})(baseCost, {}, {}, distance, segment);
  });
}
const hp = (a: FakeActor) => (a.system.attributes as { hp: { value: number } }).hp.value;
const damageCalls = (a: FakeActor) => (a as unknown as { damageCalls: unknown[] }).damageCalls;
const statusEffectsOf = (a: FakeActor, id: string) => a.effects.filter((e) => e.statuses.has(id));
const fallCards = (world: FakeWorld) => cardsOf(world.messages.contents, "fall");
const hudActions = (world: FakeWorld, token: FakeToken, user = "gm1") =>
  [...world.renderTokenHUD(token, user).querySelectorAll<HTMLElement>(".aventure-hud-palette [data-action]")].map(
    (b) => b.dataset.action,
  );

describe("one owner per rule under dnd5e: the settings", () => {
  it("a setting per overlap, shown in a dnd5e world only; dnd5e counts movement costs, Aventure handles falls and suffocation by default", async () => {
    const { world } = await boot();
    const defs = world.clientOf("gm1").settingDefs;
    for (const key of ["dnd5eOwnerMovementCosts", "dnd5eOwnerFalls", "dnd5eOwnerSuffocation"]) {
      // The choices are the StringField's (the setting's type).
      expect(defs.get(`aventure.${key}`)).toMatchObject({
        scope: "world",
        config: true,
        type: { options: { choices: { aventure: "AVENTURE.Owner.aventure", dnd5e: "AVENTURE.Owner.dnd5e" } } },
      });
    }
    expect(world.as("gm1", () => api(world).dnd5eOwners())).toEqual({
      movementCosts: { owner: "dnd5e", dnd5eHas: true },
      falls: { owner: "aventure", dnd5eHas: true },
      suffocation: { owner: "aventure", dnd5eHas: true },
    });
    const ose = (await boot("ose")).world;
    expect(ose.clientOf("gm1").settingDefs.get("aventure.dnd5eOwnerFalls")).toMatchObject({ config: false });
    // Another system: the setting says dnd5e, Aventure still acts (dnd5e is not there).
    await set(ose, "dnd5eOwnerFalls", "dnd5e");
    expect(ose.as("gm1", () => api(ose).dnd5eOwners()).falls).toEqual({ owner: "aventure", dnd5eHas: false });
  });
});

describe("movement costs under dnd5e (RULES.md §3.1; dnd5e 5.3.3 module/data/terrain-data.mjs, module/documents/token.mjs)", () => {
  it("dnd5e's (default): its own functions run alone; a square of its Difficult Terrain costs 2 per metre walking, 3 climbing", async () => {
    const { world, scene } = await boot();
    const { token } = creature(world, scene);
    expect(segmentCost(world, token, "walk", 1.5, { dnd5eDifficult: true })).toBeCloseTo(3, 9);
    expect(segmentCost(world, token, "climb", 1.5, { dnd5eDifficult: true })).toBeCloseTo(4.5, 9);
    expect(segmentCost(world, token, "crawl", 1.5, {})).toBeCloseTo(3, 9);
    // dnd5e's own rule stacks its Difficult Terrain on core's Modify Movement Cost (+1): Aventure does not add to it.
    expect(segmentCost(world, token, "walk", 1.5, { coreDifficulty: 2, dnd5eDifficult: true })).toBeCloseTo(4.5, 9);
  });

  it("Aventure's: the square counts once, never dnd5e's difficulty times Aventure's (walking 2 per metre, climbing and crawling 3)", async () => {
    const { world, scene } = await boot();
    await set(world, "dnd5eOwnerMovementCosts", "aventure");
    const { token } = creature(world, scene);
    expect(segmentCost(world, token, "walk", 1.5, { dnd5eDifficult: true })).toBeCloseTo(3, 9); // not 6 (2 × 2)
    expect(segmentCost(world, token, "climb", 1.5, { dnd5eDifficult: true })).toBeCloseTo(4.5, 9); // not 6 nor 9
    expect(segmentCost(world, token, "crawl", 1.5, { dnd5eDifficult: true })).toBeCloseTo(4.5, 9);
    // Core's region and dnd5e's on the same square: difficult once (2 per metre), where dnd5e alone counts 3.
    expect(segmentCost(world, token, "walk", 1.5, { coreDifficulty: 2, dnd5eDifficult: true })).toBeCloseTo(3, 9);
    expect(segmentCost(world, token, "walk", 1.5, {})).toBeCloseTo(1.5, 9);
  });

  it("by version: dnd5e 5.1 counts its costs (no automation setting yet), dnd5e 5.0 has none (Aventure's costs act)", async () => {
    for (const [version, has] of [
      ["5.1.10", true],
      ["5.0.4", false],
    ] as const) {
      const world = await World.boot({ system: dnd5eSystem(version), users: [GM] });
      const scene = world.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 } });
      viewScene(world, world.clientOf("gm1"), scene);
      const { token } = creature(world, scene);
      expect(world.as("gm1", () => api(world).dnd5eOwners()).movementCosts).toEqual({
        owner: has ? "dnd5e" : "aventure",
        dnd5eHas: has,
      });
      // 5.1: core's region and dnd5e's on one square, dnd5e counts 3 per metre; 5.0 (no dnd5e region): core's alone, Aventure's 2.
      expect(segmentCost(world, token, "walk", 1.5, { coreDifficulty: 2, dnd5eDifficult: has })).toBeCloseTo(
        has ? 4.5 : 3,
        9,
      );
    }
  });

  it("dnd5e's own movement automation off ('none'): dnd5e counts nothing, so Aventure's costs act whatever the owner setting", async () => {
    const { world, scene } = await boot();
    const { token } = creature(world, scene);
    await set(world, "movementAutomation", "none", "dnd5e");
    expect(world.as("gm1", () => api(world).dnd5eOwners()).movementCosts).toEqual({
      owner: "aventure",
      dnd5eHas: false,
    });
    expect(segmentCost(world, token, "crawl", 1.5, {})).toBeCloseTo(3, 9); // Aventure's crawl: 2 per metre
    await set(world, "movementCosts", false);
    expect(segmentCost(world, token, "crawl", 1.5, {})).toBeCloseTo(1.5, 9); // dnd5e's, automation off: the base cost
  });
});

describe("falls under dnd5e (RULES.md §4.1; dnd5e 5.3.3 has a Falling condition and no fall damage)", () => {
  it("Aventure's (default): a 6 m drop deals 2d6 once and one prone; a Falling marker set by hand is left alone", async () => {
    const { world, scene } = await boot("dnd5e", [GM, GM2, PLAYER]);
    await set(world, "fallOnDrop", "automatic");
    const { actor, token } = creature(world, scene, { owner: "p1", elevation: 6 });
    await world.as("gm1", () => actor.toggleStatusEffect("falling", { active: true }));
    world.queueRolls(3, 4);
    await world.as("p1", () => moveToken(world, token, { elevation: 0 }));
    await world.settle();
    expect(damageCalls(actor)).toEqual([[{ value: 7, type: "bludgeoning" }]]);
    expect(hp(actor)).toBe(13);
    expect(statusEffectsOf(actor, "prone")).toHaveLength(1);
    expect(fallCards(world)).toHaveLength(1);
    expect(actor.statuses.has("falling")).toBe(true);
    expect(hudActions(world, token)).toContain("aventure-fall");
  });

  it("handed to dnd5e: a drop and the HUD do nothing of Aventure's (no damage, no prone, no card)", async () => {
    const { world, scene } = await boot("dnd5e", [GM, PLAYER]);
    await set(world, "fallOnDrop", "automatic");
    await set(world, "dnd5eOwnerFalls", "dnd5e");
    const { actor, token } = creature(world, scene, { owner: "p1", elevation: 9 });
    world.queueRolls(6, 6, 6);
    await world.as("p1", () => moveToken(world, token, { elevation: 0 }));
    await world.settle();
    expect(damageCalls(actor)).toEqual([]);
    expect(actor.statuses.has("prone")).toBe(false);
    expect(fallCards(world)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    expect(hudActions(world, token)).not.toContain("aventure-fall");
  });
});

describe("suffocation under dnd5e (RULES.md §4.2; dnd5e 5.3.3 has a Suffocation condition and counts nothing)", () => {
  it("Aventure's (default): the drop comes once with dnd5e's Unconscious; no status of Aventure's own, dnd5e's Suffocation untouched", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene);
    await world.as("gm1", () => api(world).holdBreath(token));
    await world.as("gm1", () => game.time.advance(192)); // CON +2: 180 s, then 2 rounds of 6 s
    await world.settle();
    await world.as("gm1", () => game.time.advance(60));
    await world.settle();
    expect(hp(actor)).toBe(0);
    expect(statusEffectsOf(actor, "unconscious")).toHaveLength(1);
    expect(actor.statuses.has("suffocation")).toBe(false);
    expect([...actor.statuses].filter((s) => s.startsWith("aventure"))).toEqual([]);
  });

  it("handed to dnd5e: Hold breath is refused with a clear message and is not on the HUD; a breath held before drops nobody and can still end", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene);
    await world.as("gm1", () => api(world).holdBreath(token)); // held while Aventure owned it
    await set(world, "dnd5eOwnerSuffocation", "dnd5e");
    expect(hudActions(world, token)).not.toContain("aventure-hold-breath");
    await world.as("gm1", () => game.time.advance(600));
    await world.settle();
    expect(hp(actor)).toBe(20);
    expect(actor.statuses.has("unconscious")).toBe(false);
    expect(await world.as("gm1", () => api(world).breatheAgain(token))).toMatchObject({ op: "release" });
    await world.as("gm1", () => api(world).holdBreath(token));
    expect(world.notifications.filter((n) => n.type === "error").map((n) => n.message)).toEqual([
      "In this world, dnd5e handles suffocation (module settings).",
    ]);
  });
});

describe("exhaustion under dnd5e: Aventure writes levels, dnd5e applies what they do (2024 rules: −2 per level to d20 tests)", () => {
  it("a failed forced-march save adds one level through system.attributes.exhaustion; the save goes to dnd5e with no penalty of Aventure's", async () => {
    const { world } = await boot();
    const actor = addDnd5eActor(world, { id: "tired", name: "Tess", abilities: { con: 14 }, exhaustion: 2 });
    const dialog = await world.as("gm1", () => api(world).openTravel({ actorIds: ["tired"] }));
    await world.as("gm1", () => dialog.change("hoursPerDay", "9"));
    world.queueRolls(8); // 8 + 2 = 10 < DC 11 (RULES.md §2.4): one level
    await world.as("gm1", () => dialog.apply());
    expect((actor.system.attributes as { exhaustion: number }).exhaustion).toBe(3);
    const calls = (actor as unknown as { rollCalls: { kind: string; config: Record<string, unknown> }[] }).rollCalls;
    expect(calls.map((c) => c.kind)).toEqual(["save"]);
    // No disadvantage and no extra part: dnd5e adds its own exhaustion reduction to the roll (actor.mjs addRollExhaustion).
    expect(calls[0]!.config).not.toHaveProperty("disadvantage");
    expect(calls[0]!.config).not.toHaveProperty("parts");
    expect(statusEffectsOf(actor, "exhaustion")).toEqual([]); // Aventure toggles no exhaustion status: dnd5e shows the level
  });
});

describe("surprise under dnd5e: Aventure's borrowed surprise takes the first round; dnd5e's 2024 Surprised gives disadvantage on initiative", () => {
  const statusIds = (world: FakeWorld) =>
    world
      .clientOf("gm1")
      .statusEffectList()
      .map((e) => e.id);
  const surprisedId = (world: FakeWorld) =>
    world.as("gm1", () =>
      (game.modules.get("aventure") as unknown as { api: { adapter(): { statusId(c: string): string | null } } }).api
        .adapter()
        .statusId("surprised"),
    );

  it("2024 rules (dnd5e's default): Aventure marks the surprised with its own marker, never dnd5e's (the two never both act)", async () => {
    const { world } = await boot();
    expect(statusIds(world)).toEqual(expect.arrayContaining(["surprised", "aventure-surprised"]));
    expect(surprisedId(world)).toBe("aventure-surprised");
    expect(
      world
        .clientOf("gm1")
        .statusEffectList()
        .find((e) => e.id === "aventure-surprised")!.name,
    ).toBe("AVENTURE.Status.surprisedRound");
  });

  it("2014 rules (dnd5e's applyLegacyRules takes surprised out of initiative disadvantage): dnd5e's Surprised is the marker", async () => {
    const world = await bootWorld({
      system: "dnd5e",
      users: [GM],
      extend: (client) =>
        (
          client.CONFIG.DND5E as { conditionEffects: { initiativeDisadvantage: Set<string> } }
        ).conditionEffects.initiativeDisadvantage.delete("surprised"),
    });
    expect(statusIds(world)).not.toContain("aventure-surprised");
    expect(surprisedId(world)).toBe("surprised");
  });
});

describe("hiding under dnd5e: a Hiding status and no automation (dnd5e 5.3.3 module/config.mjs statusEffects.hiding)", () => {
  it("Aventure hides with dnd5e's own Hiding status and registers no hidden status of its own: one condition", async () => {
    const { world } = await boot();
    const ids = world
      .clientOf("gm1")
      .statusEffectList()
      .map((e) => e.id);
    expect(ids).toContain("hiding");
    expect(ids).not.toContain("aventure-hidden");
    expect(
      world.as("gm1", () =>
        (game.modules.get("aventure") as unknown as { api: { adapter(): { statusId(c: string): string | null } } }).api
          .adapter()
          .statusId("hidden"),
      ),
    ).toBe("hiding");
  });
});
