/**
 * Foundry v14 against the test world in its v14 mode (test/world: levels on scenes, tokens, movements and regions,
 * core's expiry mark on temporary effects, the `_del` deletion operator; each modelled behaviour names its public
 * source there). What v14 changed under the module (docs/compat.md): a move between scene levels is no fall; sight
 * between levels is tested in the looking token's level and only between levels that see each other; an expired
 * effect is ignored and Aventure's own are deleted; keys are deleted with the form of the running generation; route
 * terrain regions use the region's own point test. The same tests on v13 show that nothing changed there.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  FakeRegion,
  FakeRegionBehavior,
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
import { useClientTimers } from "../world/timers.js";
import { DEL } from "../world/data.js";
import { watchEffects } from "../world/pursuit.js";
import { deletion, deletes } from "../../src/core/compat.js";
import { measureOnScene } from "../../src/travel/route/scene.js";
import { cardsOf } from "./card-state.js";

vi.setConfig({ testTimeout: 60_000 });
// Each client's timers (a debounced light or detection pass) run as that client; Date is fake too (the request
// channel's flood limit: the tests move it a second before each chase step, as a person clicking would).
beforeEach(() => useClientTimers());
afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
});

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const LEVELS = (upSeesGround = false) => [
  { _id: "ground", name: "Ground floor", elevation: { bottom: 0, top: 6 } },
  {
    _id: "upper",
    name: "Upper floor",
    elevation: { bottom: 6, top: 12 },
    visibility: { levels: upSeesGround ? ["ground"] : [] },
  },
];

// ------------------------------------------------------------------------------------------------ 1. stairs

describe("v14: a move to another level (stairs, a lift) is not a fall", () => {
  const errors = (world: FakeWorld) => world.notifications.filter((n) => n.type === "error").map((n) => n.message);
  const fallCards = (world: FakeWorld) => cardsOf(world.messages.contents, "fall");
  async function boot(generation: number) {
    const world = await bootWorld({ system: "dnd5e", users: [GM, GM2, PLAYER], generation });
    const scene = world.addScene({
      _id: "s1",
      grid: { size: 100, units: "m", distance: 1.5 },
      ...(generation >= 14 ? { levels: LEVELS() } : {}),
    });
    for (const c of world.liveClients()) viewScene(world, c, scene);
    const actor = addDnd5eActor(world, {
      id: "hero",
      name: "Aldric",
      owner: "p1",
      hp: { value: 20, max: 20, temp: null },
    });
    await set(world, "fallOnDrop", "automatic");
    return { world, scene, actor };
  }
  const place = (world: FakeWorld, scene: FakeScene, level: string | undefined, elevation: number) =>
    world.addToken(scene, {
      _id: "t1",
      name: "Aldric",
      actorId: "hero",
      actorLink: true,
      elevation,
      ...(level ? { level } : {}),
    });

  it("down the stairs from the upper floor (6 m) to the ground floor: the level changes, nothing falls", async () => {
    const { world, scene } = await boot(14);
    const token = place(world, scene, "upper", 6);
    world.queueRolls(3, 4); // what a fall of 6 m would roll (2d6): nothing may use them
    await world.as("p1", () => moveToken(world, token, { x: 300, elevation: 0, level: "ground" }));
    await world.settle();
    expect(token.level).toBe("ground");
    expect(fallCards(world)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    expect(errors(world)).toEqual([]);
  });

  it("a waypoint on another level (a Change Level behaviour passed mid-move): nothing falls", async () => {
    const { world, scene } = await boot(14);
    const token = place(world, scene, "upper", 6);
    world.queueRolls(3, 4);
    await world.as("p1", () =>
      moveToken(world, token, {
        x: 300,
        elevation: 0,
        waypoints: [
          { x: 200, y: 0, elevation: 0, action: "walk", level: "ground" },
          { x: 300, y: 0, elevation: 0, action: "walk", level: "upper" },
        ],
      }),
    );
    await world.settle();
    expect(fallCards(world)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    expect(errors(world)).toEqual([]);
  });

  it.each([13, 14])("v%i: a 6 m drop on the same level is still a fall (2d6, RULES.md §4.1)", async (generation) => {
    const { world, scene, actor } = await boot(generation);
    const token = place(world, scene, generation >= 14 ? "upper" : undefined, 12);
    world.queueRolls(3, 4);
    await world.as("p1", () => moveToken(world, token, { elevation: 6 }));
    await world.settle();
    expect(world.rollsMade.map((r) => (r as { formula: string }).formula)).toEqual(["2d6"]);
    expect(fallCards(world)).toHaveLength(1);
    expect(actor.statuses.has("prone")).toBe(true);
  });

  it("the test world refuses levels on v13 (a v14 field)", async () => {
    const { world, scene } = await boot(13);
    expect(() => place(world, scene, "upper", 6)).toThrow(/v14/);
  });
});

// ------------------------------------------------------------------------------------------------ 2. sight through floors

type DetectApi = {
  hide(
    token: unknown,
    options?: { observers?: string[] },
  ): Promise<{ dc: number; hiddenFrom: string[]; hidden: boolean } | null | undefined>;
  refreshLight(): Promise<void>;
};

describe("v14: sight between levels (hiding, ambient detection)", () => {
  const load = async () => ({ ...(await import("../../src/module.js")) });
  const cards = (world: FakeWorld) => cardsOf(world.messages.contents, "detect");
  const as = <T>(world: FakeWorld, fn: (a: DetectApi) => Promise<T>) =>
    world.as("gm1", () => fn(world.api<DetectApi>("gm1")));
  async function tick(world: FakeWorld) {
    await vi.advanceTimersByTimeAsync(500);
    await world.settle();
  }
  function token(
    world: FakeWorld,
    scene: FakeScene,
    id: string,
    actor: FakeActor,
    at: [number, number],
    level: string,
    disposition: number,
  ): FakeToken {
    const elevation = level === "upper" ? 6 : 0;
    return world.addToken(scene, {
      _id: id,
      name: actor.name,
      x: at[0] * 100 - 50,
      y: at[1] * 100 - 50,
      elevation,
      level,
      actorId: actor.id,
      actorLink: true,
      disposition,
      sight: { enabled: false, range: 0, visionMode: "basic" },
      detectionModes: {},
    });
  }
  /**
   * A lit two-storey building (global light: bright everywhere). Rogue (p1's) hides on the ground floor from a guard
   * (passive 5) with a Stealth total of 12; a watcher (passive 17 ≥ 12) stands at `watcherLevel`; the GM views
   * `gmViews`. The watcher would notice the rogue if it saw its spot.
   */
  async function building(opts: { watcherLevel: string; gmViews: string; upSeesGround?: boolean }) {
    const world = await bootWorld({ system: "dnd5e", users: [GM, PLAYER], generation: 14, load });
    const scene = world.addScene({ _id: "scene1", darkness: 0, globalLight: true, levels: LEVELS(opts.upSeesGround) });
    for (const c of world.liveClients()) viewScene(world, c, scene, c.user.isGM ? opts.gmViews : "ground");
    // The guard stands behind a wall: the rogue hides from it (a hider must not be seen by anyone who may notice it).
    await world.as("gm1", () => scene.createEmbeddedDocuments("Wall", [{ c: [1500, 0, 1500, 3000] }]));
    const rogue = token(
      world,
      scene,
      "rogue",
      addDnd5eActor(world, { id: "rogue", name: "Rogue", owner: "p1", passive: 10 }),
      [10, 10],
      "ground",
      1,
    );
    token(
      world,
      scene,
      "guard",
      addDnd5eActor(world, { id: "guard", name: "Guard", passive: 5 }),
      [20, 10],
      "ground",
      -1,
    );
    await as(world, (a) => a.refreshLight());
    world.queueRolls(12);
    expect(await as(world, (a) => a.hide("rogue", { observers: ["guard"] }))).toMatchObject({ dc: 12, hidden: true });
    await tick(world);
    await world.as("gm1", () =>
      scene.createEmbeddedDocuments(
        "Token",
        [
          {
            _id: "watcher",
            name: "Watcher",
            x: 1150,
            y: 1050,
            elevation: opts.watcherLevel === "upper" ? 6 : 0,
            level: opts.watcherLevel,
            actorId: addDnd5eActor(world, { id: "watcher", name: "Watcher", passive: 17 }).id,
            actorLink: true,
            disposition: -1,
            sight: { enabled: false, range: 0, visionMode: "basic" },
            detectionModes: {},
          },
        ],
        { keepId: true },
      ),
    );
    await tick(world);
    return { world, scene, rogue };
  }

  it("the GM views the upper floor: a watcher on the ground floor still notices the rogue there (the test runs in the tokens' level)", async () => {
    const { world } = await building({ watcherLevel: "ground", gmViews: "upper" });
    expect(cards(world).map((m) => m.content)).toEqual([
      expect.stringContaining("Watcher notices Rogue (passive 17 vs Stealth 12)"),
    ]);
  });

  it("a watcher upstairs right above the rogue does not notice it (floors block sight)", async () => {
    const { world } = await building({ watcherLevel: "upper", gmViews: "ground" });
    expect(cards(world)).toEqual([]);
  });

  it("a balcony (the upper floor sees the ground floor, LevelData.visibility): the watcher upstairs notices it", async () => {
    const { world } = await building({ watcherLevel: "upper", gmViews: "ground", upSeesGround: true });
    expect(cards(world).map((m) => m.content)).toEqual([
      expect.stringContaining("Watcher notices Rogue (passive 17 vs Stealth 12)"),
    ]);
  });

  it("hiding: a creature upstairs does not stop a hide downstairs; one on the same floor that sees the spot does", async () => {
    for (const [level, hidden] of [
      ["upper", true],
      ["ground", false],
    ] as const) {
      const world = await bootWorld({ system: "dnd5e", users: [GM, PLAYER], generation: 14, load });
      const scene = world.addScene({ _id: "scene1", darkness: 0, globalLight: true, levels: LEVELS() });
      for (const c of world.liveClients()) viewScene(world, c, scene, "ground");
      token(
        world,
        scene,
        "rogue",
        addDnd5eActor(world, { id: "rogue", name: "Rogue", owner: "p1" }),
        [10, 10],
        "ground",
        1,
      );
      token(
        world,
        scene,
        "guard",
        addDnd5eActor(world, { id: "guard", name: "Guard", passive: 5 }),
        [11, 10],
        level,
        -1,
      );
      await as(world, (a) => a.refreshLight());
      world.queueRolls(12);
      const r = await as(world, (a) => a.hide("rogue", { observers: ["guard"] }));
      expect(!!(r && "hidden" in r && r.hidden)).toBe(hidden);
    }
  });
});

// ------------------------------------------------------------------------------------------------ 3. expired effects

interface ChaseDialog {
  start(): Promise<{ id: string } | null>;
  dungeon(op: "round"): Promise<unknown>;
}

describe("v14: an expired effect is ignored, Aventure's own is deleted (running exhaustion in two chases in a row)", () => {
  const runEffects = (a: FakeActor) =>
    a.effects.filter((e) => (e.flags.aventure as { runExhaustion?: boolean } | undefined)?.runExhaustion === true);
  async function boot() {
    const world = await bootWorld({ system: "dnd5e", users: [GM, GM2, PLAYER], generation: 14, extend: watchEffects });
    await set(world, "ruleset", "ose");
    const scene = world.addScene({ _id: "scene1" });
    for (const c of world.liveClients()) viewScene(world, c, scene);
    const aldric = addDnd5eActor(world, { id: "aldric", name: "Aldric", owner: "p1", walk: 30 });
    addDnd5eActor(world, { id: "gob", name: "Gobelin", type: "npc", walk: 40 });
    world.addToken(scene, { _id: "tA", name: "Aldric", actorId: "aldric", actorLink: true, disposition: 1 });
    world.addToken(scene, { _id: "g1", name: "Gobelin", actorId: "gob", actorLink: true, disposition: -1 });
    return { world, scene, aldric };
  }
  async function chase(world: FakeWorld, scene: FakeScene): Promise<void> {
    const d = await world.as("gm1", () =>
      world
        .api<{ openPursuit(o: object): Promise<ChaseDialog> }>("gm1")
        .openPursuit({ tokens: [scene.tokens.get("tA"), scene.tokens.get("g1")] }),
    );
    await world.settle();
    vi.setSystemTime(Date.now() + 1000);
    expect(await world.as("gm1", () => d.start())).not.toBeNull();
    for (let i = 0; i < 30; i++) {
      vi.setSystemTime(Date.now() + 1000);
      await world.as("gm1", () => d.dungeon("round"));
    }
    await world.settle();
  }

  it("the first chase's exhaustion expires after three turns of rest (core marks it), the active GM deletes it once; the second chase exhausts again", async () => {
    const { world, scene, aldric } = await boot();
    await chase(world, scene);
    expect(runEffects(aldric)).toHaveLength(1);
    await world.as("gm1", () => game.time.advance(1800)); // three turns (RULES.md §1: 1 turn = 10 min)
    await world.settle();
    expect(runEffects(aldric)).toEqual([]);
    // Two GMs connected: each runner's effect (Aldric's, the goblin's) deleted once, by the active GM.
    const deleted = world.writes.filter((w) => w.action === "delete" && w.documentName === "ActiveEffect");
    expect(deleted.map((w) => w.user)).toEqual(["gm1", "gm1"]);
    expect(new Set(deleted.map((w) => w.id)).size).toBe(2);
    await chase(world, scene);
    expect(runEffects(aldric)).toHaveLength(1);
    expect(runEffects(aldric)[0]!.duration).toMatchObject({ value: 30, units: "minutes" });
  });

  it("an expired exhaustion left on the actor (not deleted) does not block the next one", async () => {
    const { world, scene, aldric } = await boot();
    await world.as("gm1", () =>
      aldric.createEmbeddedDocuments("ActiveEffect", [
        {
          name: "Exhausted from running",
          duration: { value: 30, units: "minutes", expiry: null, expired: true },
          system: { changes: [] },
          flags: { aventure: { runExhaustion: true, chase: "old.31" } },
        },
      ]),
    );
    await chase(world, scene);
    expect(runEffects(aldric).map((e) => (e.duration as { expired?: boolean }).expired === true)).toEqual([
      true,
      false,
    ]);
  });
});

// ------------------------------------------------------------------------------------------------ 4. deleting a key

describe("deleting a key: -=key on v13, _del on v14 (one helper, compat.ts)", () => {
  it.each([13, 14])(
    "v%i: the helper's form, and a searching mark set then cleared by a GM with no deprecated form",
    async (generation) => {
      const world = await bootWorld({ system: "dnd5e", users: [GM], generation });
      const scene = world.addScene({ _id: "scene1" });
      for (const c of world.liveClients()) viewScene(world, c, scene);
      world.addToken(scene, { _id: "t1", name: "Aldric" });
      const form = world.as("gm1", () => deletion("flags.aventure.x"));
      if (generation === 13) expect(form).toEqual({ "flags.aventure.-=x": null });
      else expect(form).toEqual({ "flags.aventure.x": world.as("gm1", () => (globalThis as { _del?: unknown })._del) });
      expect(world.as("gm1", () => deletes(deletion("x"), "x"))).toBe(true);
      const api = world.api<{ setSearching(t: unknown, on?: boolean): Promise<boolean | undefined> }>("gm1");
      expect(await world.as("gm1", () => api.setSearching("t1", true))).toBe(true);
      expect(scene.getFlag("aventure", "searching")).toEqual({ t1: true });
      await world.as("gm1", () => api.setSearching("t1", false));
      await world.settle();
      expect(scene.getFlag("aventure", "searching")).toEqual({});
      expect(world.deprecations).toEqual([]);
    },
  );

  it("v14: the test world records a deprecated -=key write (and v13 refuses _del)", async () => {
    const w14 = await bootWorld({ system: "dnd5e", users: [GM], generation: 14 });
    const s14 = w14.addScene({ _id: "scene1", flags: { aventure: { searching: { t1: true } } } });
    await w14.as("gm1", () => s14.update({ "flags.aventure.searching.-=t1": null }));
    expect(w14.deprecations).toEqual(["Scene flags.aventure.searching.-=t1"]);
    expect(s14.getFlag("aventure", "searching")).toEqual({});
    const w13 = await bootWorld({ system: "dnd5e", users: [GM], generation: 13 });
    const s13 = w13.addScene({ _id: "scene1" });
    expect(w13.as("gm1", () => (globalThis as { _del?: unknown })._del)).toBeUndefined();
    await expect(w13.as("gm1", () => s13.update({ "flags.aventure.searching.t1": DEL }))).rejects.toThrow(
      /v14 operator/,
    );
  });
});

// ------------------------------------------------------------------------------------------------ 5. route terrain

describe("route terrain at a region's top: the region's own point test", () => {
  async function map(
    generation: number,
    region: { elevation: { bottom: number | null; top: number | null }; levels?: string[] },
  ) {
    const world = await bootWorld({ system: "dnd5e", users: [GM], generation });
    const scene = world.addScene({
      _id: "map",
      grid: { size: 100, distance: 1, units: "km" },
      width: 4000,
      height: 2000,
      ...(generation >= 14 ? { levels: LEVELS() } : {}),
    });
    const forest = new FakeRegion(
      world,
      {
        _id: "foret",
        name: "Bois",
        shapes: [{ type: "rectangle", x: 1000, y: 300, width: 1000, height: 400 }],
        ...region,
      },
      scene,
    );
    forest.behaviors.set(
      new FakeRegionBehavior(
        world,
        { _id: "b", type: "aventure.travelTerrain", system: { terrain: "difficult", label: "" } },
        forest,
      ),
    );
    scene.regions.set(forest);
    const measure = (elevation: number, level: string | null = null) =>
      world
        .as("gm1", () =>
          measureOnScene(
            scene as never,
            [
              { x: 100, y: 500 },
              { x: 3100, y: 500 },
            ],
            elevation,
            level,
          ),
        )
        .legs.map((l) => [l.terrain, l.metres]);
    return { measure };
  }

  it("v14: a party at the region's top is outside it (topInclusive false by default); inside below the top", async () => {
    const { measure } = await map(14, { elevation: { bottom: 0, top: 10 } });
    expect(measure(10)).toEqual([["normal", 30000]]);
    expect(measure(5)).toEqual([
      ["normal", 9000],
      ["difficult", 10000],
      ["normal", 11000],
    ]);
  });

  it("v14: a region on the upper floor does not slow a party on the ground floor (RegionData.levels)", async () => {
    const { measure } = await map(14, { elevation: { bottom: null, top: null }, levels: ["upper"] });
    expect(measure(0, "ground")).toEqual([["normal", 30000]]);
    expect(measure(6, "upper")).toEqual([
      ["normal", 9000],
      ["difficult", 10000],
      ["normal", 11000],
    ]);
  });

  it("v13: unchanged, the top is inside", async () => {
    const { measure } = await map(13, { elevation: { bottom: 0, top: 10 } });
    expect(measure(10)).toEqual([
      ["normal", 9000],
      ["difficult", 10000],
      ["normal", 11000],
    ]);
    expect(measure(11)).toEqual([["normal", 30000]]);
  });
});
