/**
 * Light at tokens, light effects, the module's statuses and hiding (RULES.md §5–§6) against the fake world
 * (test/world): scenes with AmbientLight and Wall documents, each client drawing its own canvas, every player → GM
 * action through the trusted request channel, attacks on every request path, two GMs at once, and crashes before each
 * write of a hide. Grid: 100 px squares of 1.5 m. A torch: bright 6 m (400 px), dim 12 m (800 px).
 */
import { listen } from "../world/listen.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  control,
  dnd5eSystem,
  forgeCard,
  forgeRequest,
  gameWrites,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  viewScene,
  FakeWorld,
  type FakeActor,
  type FakeChatMessage,
  type FakeClient,
  type FakeScene,
  type FakeToken,
  type UserSpec,
} from "../world/index.js";
import type { SystemProfile } from "../world/world.js";
import { useClientTimers } from "../world/timers.js";
import {
  computeLightLevels,
  computeLightLevelsNaive,
  polygonContains,
  type PlainLightSource,
  type PlainToken,
} from "../../src/light/compute.js";
import { lightHudContext } from "../../src/light/light-hud-context.js";
import { hideCardContext } from "../../src/light/hide-card-context.js";
import { SAMPLES } from "../templates/samples/light.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectRequestCrashLogs } from "./crash-logs.js";

type Outcome = {
  dc: number;
  spottedBy: string[];
  hiddenFrom: string[];
  hidden: boolean;
  unknown: string[];
  searchRolls: Record<string, number>;
};
type Api = {
  hide(
    token: unknown,
    options?: { observers?: string[]; searching?: string[] },
  ): Promise<Outcome | { proposed: true } | null | undefined>;
  setSearching(token: unknown, searching?: boolean): Promise<boolean | undefined>;
  hideSelected(): Promise<unknown>;
  endHide(token: unknown, event?: string): Promise<boolean | undefined>;
  lightAt(token: unknown): {
    level: string;
    perceived: string;
    sense: string;
    effect: string;
    senses: { sense: string; range: number; from: string }[];
  } | null;
  refreshLight(): Promise<void>;
};
type Tracker = {
  flushes: number;
  states: Map<string, { light: { level: string } }>;
  compute(c: unknown, ids?: ReadonlySet<string>): unknown[];
  reset(): void;
  schedule(ids?: string[]): void;
  flush(): Promise<unknown>;
};
type Icons = { lightIconOf(token: unknown): string | null };

/** Each client's module with the light feature's own modules of that same instance (tracker, icons). */
const load = async () => ({
  ...(await import("../../src/module.js")),
  tracker: (await import("../../src/light/tracker.js")).lightTracker,
  icons: await import("../../src/light/icons.js"),
});

const USERS: UserSpec[] = [GM, GM2, PLAYER, PLAYER2];

/** Night underground (no global light), a wall east of the torch at x = 13 (rows 7–13), the torch at (10, 10). */
async function torchScene(
  opts: { users?: UserSpec[]; system?: SystemProfile | string; generation?: number; torch?: boolean } = {},
) {
  const system = typeof opts.system === "object" ? opts.system : undefined;
  const world = system
    ? await FakeWorld.boot({ system, users: opts.users ?? USERS, generation: opts.generation, load })
    : await bootWorld({
        system: (opts.system as string | undefined) ?? "dnd5e",
        users: opts.users ?? USERS,
        generation: opts.generation,
        load,
      });
  const scene = world.addScene({ _id: "scene1", darkness: 1, globalLight: false });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await world.as("gm1", () => scene.createEmbeddedDocuments("Wall", [{ c: [1300, 700, 1300, 1300] }]));
  if (opts.torch !== false) await addLight(world, scene, "torch", [10, 10], 6, 12);
  await world.settle();
  return { world, scene };
}

/** An AmbientLight at (x, y) grid squares, radii in the scene's units (metres), created by gm1. */
async function addLight(
  world: FakeWorld,
  scene: FakeScene,
  id: string,
  at: [number, number],
  bright: number,
  dim: number,
  negative = false,
) {
  await world.as("gm1", () =>
    scene.createEmbeddedDocuments(
      "AmbientLight",
      [{ _id: id, x: at[0] * 100, y: at[1] * 100, config: { bright, dim, ...(negative ? { negative } : {}) } }],
      { keepId: true },
    ),
  );
}

/** A token whose centre is at (x, y) grid squares. */
function addToken(
  world: FakeWorld,
  scene: FakeScene,
  data: {
    id: string;
    name: string;
    at: [number, number];
    actor?: FakeActor;
    disposition?: number;
    sight?: object;
    detectionModes?: unknown[];
    linked?: boolean;
  },
): FakeToken {
  return world.addToken(scene, {
    _id: data.id,
    name: data.name,
    x: data.at[0] * 100 - 50,
    y: data.at[1] * 100 - 50,
    actorId: data.actor?.id ?? null,
    actorLink: data.linked ?? true,
    disposition: data.disposition ?? 1,
    sight: (data.sight ?? { enabled: true, range: 0, visionMode: "basic" }) as Record<string, unknown>,
    detectionModes: data.detectionModes ?? [],
  });
}

/** A dnd5e actor: passive Perception, Stealth modifier, darkvision in feet. */
function actor(
  world: FakeWorld,
  d: { id: string; name: string; passive?: number; stealthMod?: number; darkvision?: number; owner?: string },
): FakeActor {
  return addDnd5eActor(world, {
    id: d.id,
    name: d.name,
    owner: d.owner,
    passive: d.passive ?? 10,
    skills: { ste: d.stealthMod ?? 0 },
    darkvision: d.darkvision,
  });
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const as = <T>(world: FakeWorld, user: string, fn: (a: Api) => Promise<T>) =>
  world.as(user, () => fn(api(world, user)));
const refresh = (world: FakeWorld) => as(world, "gm1", (a) => a.refreshLight());
const lightAt = (world: FakeWorld, id: string, user = "gm1") => world.as(user, () => api(world, user).lightAt(id));
const moveTo = (world: FakeWorld, token: FakeToken, at: [number, number]) =>
  world.as("gm1", () => token.update({ x: at[0] * 100 - 50, y: at[1] * 100 - 50 }));
const moduleOf = (world: FakeWorld, user: string) =>
  world.clientOf(user).exports as unknown as { tracker: Tracker; icons: Icons };
const set = (world: FakeWorld, key: string, value: unknown, user = "gm1") =>
  world.as(user, () => game.settings.set("aventure" as never, key as never, value as never));
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
/** Each client's hooks, as core fires them on every client. */
const everyClient = (world: FakeWorld, hook: string, ...args: unknown[]) => world.broadcast(hook, ...args);
/** Lets the debounced recomputation run (fake timers), then waits for the writes it caused. */
async function tick(world: FakeWorld, ms = 500) {
  await vi.advanceTimersByTimeAsync(ms);
  await world.settle();
}
/** Status effects created or deleted since `mark`: "create <actor> <status> by <user>". */
function statusWrites(world: FakeWorld, mark = 0): string[] {
  return world
    .writesSince(mark)
    .filter((w) => w.documentName === "ActiveEffect")
    .map((w) => {
      const created = world.writes.find(
        (c) => c.action === "create" && c.documentName === "ActiveEffect" && c.id === w.id,
      );
      const statuses = (created?.data as { statuses?: string[] } | undefined)?.statuses ?? [];
      return `${w.action} ${statuses.join(",") || w.id} by ${w.user}`;
    });
}
/** A token's hiding state: on its scene (GM-written), never on the token. */
const hideFlag = (token: FakeToken) =>
  (token.scene.getFlag("aventure", "hides") as Record<string, Record<string, unknown>> | undefined)?.[token.id];
/** A GM (a macro) writes a token's hiding state on its scene. */
const setHide = (token: FakeToken, entry: Record<string, unknown>) =>
  token.scene.update({ flags: { aventure: { hides: { [token.id]: entry } } } });
/** Whether a GM marked the token as searching: the mark on its scene (src/light/searching.ts). */
const searchMark = (world: FakeWorld, tokenId: string) =>
  (world.scenes.get("scene1")!.getFlag("aventure", "searching") as Record<string, unknown> | undefined)?.[tokenId];
const cardsWith = (world: FakeWorld, key: string) => cardsOf(world.messages.contents, key);
const opOf = (m: FakeChatMessage, key: string) =>
  (cardOf(m, key) as { op?: { status: string; resumed?: boolean } | null }).op;

// Each test boots a world of up to four clients, each loading its own module: on a loaded machine that takes seconds.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  // Each client's timers run as that client (test/world/timers.ts); setImmediate (the world's round trips) stays real.
  useClientTimers();
});
afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
});

describe("pure light computation (src/light/compute.ts)", () => {
  it("tests points against a polygon (even-odd)", () => {
    const square = [0, 0, 10, 0, 10, 10, 0, 10];
    expect(polygonContains(square, 5, 5)).toBe(true);
    expect(polygonContains(square, 15, 5)).toBe(false);
    expect(polygonContains([0, 0, 1, 1], 0, 0)).toBe(false); // not a polygon
  });

  it("gives the same levels as the naive all-pairs version", () => {
    let seed = 7;
    const r = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const lights: PlainLightSource[] = Array.from({ length: 40 }, (_, i) => {
      const x = r() * 3000;
      const y = r() * 3000;
      const dim = 100 + r() * 400;
      const pts: number[] = [];
      for (let k = 0; k < 24; k++) {
        const a = (k / 24) * Math.PI * 2;
        const reach = dim * (r() < 0.3 ? 0.3 : 1);
        pts.push(x + Math.cos(a) * reach, y + Math.sin(a) * reach);
      }
      return { id: `l${i}`, x, y, bright: dim / 2, dim, points: pts };
    });
    const tokens: PlainToken[] = Array.from({ length: 200 }, (_, i) => ({
      id: `t${i}`,
      x: r() * 3000,
      y: r() * 3000,
      elevation: 0,
      darkness: r(),
      globalLight: r() < 0.5,
    }));
    const darkness = [{ id: "d", x: 1500, y: 1500, radius: 300 }];
    const fast = computeLightLevels(tokens, lights, darkness);
    const slow = computeLightLevelsNaive(tokens, lights, darkness);
    for (const t of tokens) expect(fast.get(t.id)!.level, t.id).toBe(slow.get(t.id)!.level);
    const levels = new Set([...fast.values()].map((v) => v.level));
    expect(levels).toEqual(new Set(["bright", "dim", "dark"]));
  });

  it("calls the exact shape test only for sources whose box and radius contain the token", () => {
    let exact = 0;
    const near: PlainLightSource = { id: "near", x: 0, y: 0, bright: 100, dim: 200, test: () => (exact++, true) };
    const far: PlainLightSource = { id: "far", x: 5000, y: 5000, bright: 100, dim: 200, test: () => (exact++, true) };
    const out = computeLightLevels(
      [{ id: "t", x: 150, y: 0, elevation: 0, darkness: 1, globalLight: false }],
      [far, near],
    );
    expect(out.get("t")!.level).toBe("dim");
    expect(exact).toBe(1);
  });
});

describe("light level at tokens (scenes with walls and lights)", () => {
  it("a token beside a torch is bright, at the edge of its dim radius dim, behind a wall dark", async () => {
    const { world, scene } = await torchScene({ users: [GM] });
    addToken(world, scene, { id: "beside", name: "Beside", at: [11, 10] }); // 1.5 m from the torch
    addToken(world, scene, { id: "edge", name: "Edge", at: [10, 18] }); // exactly 12 m south
    addToken(world, scene, { id: "beyond", name: "Beyond", at: [10, 18.1] }); // 12.15 m
    addToken(world, scene, { id: "behind", name: "Behind", at: [14, 10] }); // 6 m east, behind the wall
    await refresh(world);
    expect(lightAt(world, "beside")!.level).toBe("bright");
    expect(lightAt(world, "edge")!.level).toBe("dim");
    expect(lightAt(world, "beyond")!.level).toBe("dark");
    expect(lightAt(world, "behind")!.level).toBe("dark");
  });

  it("ignores the global light source but uses global illumination with the darkness thresholds", async () => {
    const world = await bootWorld({ users: [GM], load });
    const scene = world.addScene({ _id: "scene1", darkness: 0.1, globalLight: true });
    viewScene(world, world.clientOf("gm1"), scene);
    addToken(world, scene, { id: "a", name: "A", at: [5, 5] });
    await refresh(world);
    expect(lightAt(world, "a")!.level).toBe("bright"); // daylight
    const darkness = (level: number) => world.as("gm1", () => scene.update({ environment: { darknessLevel: level } }));
    await darkness(0.5); // dusk
    await refresh(world);
    expect(lightAt(world, "a")!.level).toBe("dim");
    await darkness(0.8); // night, although the global light source is still in the list
    await refresh(world);
    expect(lightAt(world, "a")!.level).toBe("dark");
    await set(world, "lightThresholdDim", 0.9);
    await refresh(world);
    expect(lightAt(world, "a")!.level).toBe("dim");
  });

  it("a darkness source puts out the light inside it", async () => {
    const { world, scene } = await torchScene({ users: [GM] });
    await addLight(world, scene, "spell", [10, 12], 3, 3, true);
    addToken(world, scene, { id: "in", name: "In", at: [10, 12] });
    addToken(world, scene, { id: "out", name: "Out", at: [9, 10] });
    await refresh(world);
    expect(lightAt(world, "in")!.level).toBe("dark");
    expect(lightAt(world, "out")!.level).toBe("bright");
  });

  it("darkvision turns darkness into dim for the creature itself (token vision mode or the actor's senses)", async () => {
    const { world, scene } = await torchScene({ users: [GM] });
    const elf = actor(world, { id: "elf", name: "Elf", darkvision: 60 }); // 60 ft = 18 m
    addToken(world, scene, { id: "elf", name: "Elf", at: [14, 10], actor: elf });
    addToken(world, scene, {
      id: "orc",
      name: "Orc",
      at: [14, 11],
      sight: { enabled: true, range: 12, visionMode: "darkvision" },
    });
    addToken(world, scene, { id: "man", name: "Man", at: [14, 12] });
    await refresh(world);
    const e = lightAt(world, "elf")!;
    expect([e.level, e.perceived, e.sense, e.effect]).toEqual(["dark", "dim", "darkvision", "disadvantage"]);
    expect(e.senses).toEqual([{ sense: "darkvision", range: 18, from: "actor" }]);
    const o = lightAt(world, "orc")!;
    expect([o.perceived, o.effect]).toEqual(["dim", "disadvantage"]);
    expect(o.senses).toEqual([{ sense: "darkvision", range: 12, from: "vision" }]); // the scene's units are metres
    const m = lightAt(world, "man")!;
    expect([m.perceived, m.effect]).toEqual(["dark", "blinded"]);
  });

  it("reads seeAll as truesight and senseAll as blindsight from the detection modes", async () => {
    const { world, scene } = await torchScene({ users: [GM] });
    addToken(world, scene, {
      id: "bat",
      name: "Bat",
      at: [20, 20],
      detectionModes: [
        { id: "senseAll", enabled: true, range: 9 },
        { id: "seeAll", enabled: false, range: 30 },
      ],
    });
    await refresh(world);
    const b = lightAt(world, "bat")!;
    expect(b.senses).toEqual([{ sense: "blindsight", range: 9, from: "detection" }]);
    expect([b.level, b.perceived, b.sense, b.effect]).toEqual(["dark", "bright", "blindsight", "none"]);
  });

  it("is debounced: many hooks, one recomputation, and a moved token alone is recomputed", async () => {
    const { world, scene } = await torchScene({ users: [GM] });
    const t = moduleOf(world, "gm1").tracker;
    addToken(world, scene, { id: "a", name: "A", at: [11, 10] });
    const b = addToken(world, scene, { id: "b", name: "B", at: [30, 30] });
    await tick(world);
    const before = t.flushes;
    for (let i = 0; i < 20; i++) everyClient(world, "lightingRefresh");
    expect(t.flushes).toBe(before);
    await tick(world);
    expect(t.flushes).toBe(before + 1);
    expect(t.states.get("b")!.light.level).toBe("dark");
    const computed: string[][] = [];
    const compute = t.compute.bind(t);
    t.compute = (c, ids) => (computed.push(ids ? [...ids] : ["*"]), compute(c, ids));
    await moveTo(world, b, [10, 11]);
    await tick(world);
    expect(t.flushes).toBe(before + 2);
    expect(computed).toEqual([["b"]]); // only the moved token was recomputed
    expect(t.states.get("b")!.light.level).toBe("bright");
    // Hooks every 50 ms for 3 s (a long animation): recomputed at least once a second, not 60 times.
    const mid = t.flushes;
    for (let i = 0; i < 60; i++) {
      everyClient(world, "lightingRefresh");
      await vi.advanceTimersByTimeAsync(50);
    }
    await tick(world);
    expect(t.flushes - mid).toBeGreaterThanOrEqual(3);
    expect(t.flushes - mid).toBeLessThanOrEqual(4);
  });

  it("recomputes after light, token-light and scene lighting updates of the viewed scene only", async () => {
    const { world, scene } = await torchScene({ users: [GM] });
    const t = moduleOf(world, "gm1").tracker;
    const a = addToken(world, scene, { id: "a", name: "A", at: [30, 30] });
    const other = world.addScene({ _id: "elsewhere" });
    await tick(world);
    const recompute = async (write: () => Promise<unknown>) => {
      const before = t.flushes;
      await world.as("gm1", write);
      await tick(world);
      return t.flushes - before;
    };
    // Lit without a lighting refresh: the light document's own hook suffices.
    expect(await recompute(() => addLight(world, scene, "lantern", [30, 31], 6, 12))).toBe(1);
    expect(t.states.get("a")!.light.level).toBe("bright");
    const lantern = scene.lights.get("lantern")!;
    expect(await recompute(() => lantern.update({ config: { dim: 3 } }))).toBe(1);
    expect(await recompute(() => lantern.delete())).toBe(1);
    expect(await recompute(() => a.update({ light: { bright: 3 } }))).toBe(1);
    expect(await recompute(() => scene.update({ environment: { darknessLevel: 0.2 } }))).toBe(1);
    expect(await recompute(() => scene.update({ name: "Crypt" }))).toBe(0);
    expect(await recompute(() => other.update({ environment: { darknessLevel: 0 } }))).toBe(0);
    expect(
      await recompute(() =>
        other.createEmbeddedDocuments("AmbientLight", [{ x: 0, y: 0, config: { bright: 1, dim: 2 } }]),
      ),
    ).toBe(0);
  });

  it("draws a sun / half / moon icon for the GM and the owner only; the client setting hides it", async () => {
    const { world, scene } = await torchScene({ users: [GM, PLAYER] });
    const mine = actor(world, { id: "mine", name: "Mine", owner: "p1" });
    const m = addToken(world, scene, { id: "mine", name: "Mine", at: [11, 10], actor: mine });
    const theirs = addToken(world, scene, { id: "theirs", name: "Theirs", at: [10, 17] });
    const placeable = (user: string, token: FakeToken) => world.clientOf(user).placeables.get(token.id);
    await refresh(world);
    const gmIcons = moduleOf(world, "gm1").icons;
    expect(gmIcons.lightIconOf(placeable("gm1", m))).toBe("☀");
    expect(gmIcons.lightIconOf(placeable("gm1", theirs))).toBe("◐");
    // The player's own client: only their own token.
    await as(world, "p1", (a) => a.refreshLight());
    const p1Icons = moduleOf(world, "p1").icons;
    expect(p1Icons.lightIconOf(placeable("p1", m))).toBe("☀");
    expect(p1Icons.lightIconOf(placeable("p1", theirs))).toBeNull();
    await set(world, "lightIcons", false, "p1");
    expect(p1Icons.lightIconOf(placeable("p1", m))).toBeNull();
    expect(gmIcons.lightIconOf(placeable("gm1", m))).toBe("☀"); // a client setting: the GM's icons stay
  });
});

describe("light effects (active GM only)", () => {
  let world: FakeWorld;
  let scene: FakeScene;
  beforeEach(async () => {
    ({ world, scene } = await torchScene({ users: [GM, GM2] }));
    await set(world, "lightEffects", true);
  });

  it("adds blinded in darkness and the dim marker in dim light once with two GMs, and removes them when a light is lit", async () => {
    const lit = actor(world, { id: "lit", name: "Lit" });
    const dim = actor(world, { id: "dim", name: "Dim" });
    const dark = actor(world, { id: "dark", name: "Dark" });
    addToken(world, scene, { id: "lit", name: "Lit", at: [11, 10], actor: lit });
    addToken(world, scene, { id: "dim", name: "Dim", at: [10, 17], actor: dim });
    addToken(world, scene, { id: "dark", name: "Dark", at: [14, 10], actor: dark }); // behind the wall
    const mark = world.writes.length;
    everyClient(world, "lightingRefresh");
    await world.settle();
    expect(world.writesSince(mark)).toEqual([]); // the hooks only schedule
    await tick(world);
    expect(statusWrites(world, mark).sort()).toEqual(["create blinded by gm1", "create aventure-dim by gm1"].sort());
    // Aventure's own, flagged in the same write that adds them.
    for (const w of world.writesSince(mark))
      expect((w.data as { flags: { aventure?: { applied?: boolean } } }).flags.aventure?.applied).toBe(true);
    // Both GMs see another refresh, and the second GM recomputes itself: nothing is added twice.
    everyClient(world, "lightingRefresh");
    await tick(world);
    await as(world, "gm2", (a) => a.refreshLight());
    await world.settle();
    expect(statusWrites(world, mark)).toHaveLength(2);
    // A lantern is lit beyond the wall's south end: both tokens stand in its bright light.
    const mark2 = world.writes.length;
    await addLight(world, scene, "lantern", [13.5, 14], 9, 18);
    await tick(world);
    expect(statusWrites(world, mark2).sort()).toEqual(["delete blinded by gm1", "delete aventure-dim by gm1"].sort());
    expect(dark.statuses.has("blinded")).toBe(false);
    expect(dim.statuses.has("aventure-dim")).toBe(false);
  });

  it("a linked actor with two tokens in different light gets the mildest effect, whichever token moves", async () => {
    const twin = actor(world, { id: "twin", name: "Twin" });
    const lit = addToken(world, scene, { id: "lit", name: "Twin", at: [11, 10], actor: twin }); // bright, by the torch
    const dark = addToken(world, scene, { id: "dark", name: "Twin", at: [14, 10], actor: twin }); // behind the wall
    await refresh(world);
    expect(twin.statuses.size).toBe(0); // one of its tokens sees: never blinded
    const mark = world.writes.length;
    await moveTo(world, dark, [14, 12]); // still dark: nothing changes
    await tick(world);
    expect(statusWrites(world, mark)).toEqual([]);
    await moveTo(world, lit, [14, 11]); // now both behind the wall
    await tick(world);
    expect(statusWrites(world, mark)).toEqual(["create blinded by gm1"]);
    await moveTo(world, dark, [10, 17]); // one in the torch's dim light
    await tick(world);
    expect(statusWrites(world, mark)).toEqual([
      "create blinded by gm1",
      "delete blinded by gm1",
      "create aventure-dim by gm1",
    ]);
  });

  it("never adds effects on a GM that is not the active GM", async () => {
    const a = actor(world, { id: "a", name: "A" });
    addToken(world, scene, { id: "a", name: "A", at: [14, 10], actor: a });
    const mark = world.writes.length;
    await as(world, "gm2", (x) => x.refreshLight());
    await world.settle();
    expect(a.statuses.size).toBe(0);
    expect(world.writesSince(mark)).toEqual([]);
  });

  it("leaves a blinded condition set by hand when the light comes back", async () => {
    const a = actor(world, { id: "a", name: "A" });
    await world.as("gm1", () => a.toggleStatusEffect("blinded", { active: true })); // the GM's own ruling
    addToken(world, scene, { id: "a", name: "A", at: [14, 10], actor: a });
    await refresh(world);
    await addLight(world, scene, "lantern", [15, 10], 9, 18);
    await refresh(world);
    expect(lightAt(world, "a")!.level).toBe("bright");
    expect(a.statuses.has("blinded")).toBe(true);
  });
});

describe("the module's statuses survive the system (issue 11): dim light really applies", () => {
  const dimChange = { key: "system.skills.prc.roll.mode", mode: 2, value: "-1" };

  it("dnd5e rebuilds CONFIG.statusEffects in i18nInit: aventure-dim is there on every client, with disadvantage on Perception", async () => {
    const { world, scene } = await torchScene({ users: [GM, PLAYER] });
    for (const user of ["gm1", "p1"]) {
      const ids = world
        .clientOf(user)
        .statusEffectList()
        .map((e) => e.id);
      expect(ids).toContain("aventure-dim");
      expect(ids).toContain("hiding"); // dnd5e's own: no aventure-hidden
      expect(ids).not.toContain("aventure-hidden");
      expect(ids).toContain("aventure-surprised"); // dnd5e's Surprised gives disadvantage on initiative (2024 rules)
      expect(
        world
          .clientOf(user)
          .statusEffectList()
          .find((e) => e.id === "aventure-dim")!.changes,
      ).toEqual([dimChange]);
    }
    await set(world, "lightEffects", true);
    const a = actor(world, { id: "a", name: "A" });
    addToken(world, scene, { id: "a", name: "A", at: [10, 17], actor: a }); // the torch's dim light
    await refresh(world);
    const [effect] = a.effects.filter((e) => e.statuses.has("aventure-dim"));
    expect(effect).toBeDefined();
    expect(effect!.changes).toEqual([dimChange]);
    expect(effect!.getFlag("aventure", "applied")).toBe(true);
    // The setting turned off removes only what Aventure added.
    await set(world, "lightEffects", false);
    await world.settle();
    expect(a.statuses.has("aventure-dim")).toBe(false);
  });

  it("a core world gets aventure-dim (a visible marker, no change), aventure-hidden and core's blind", async () => {
    const { world, scene } = await torchScene({ users: [GM], system: "worldbuilding" });
    await set(world, "lightEffects", true);
    const ids = world
      .clientOf("gm1")
      .statusEffectList()
      .map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining(["aventure-dim", "aventure-hidden", "aventure-surprised", "blind"]));
    const a = world.addUserActor({ _id: "a", name: "A" });
    const b = world.addUserActor({ _id: "b", name: "B" });
    addToken(world, scene, { id: "a", name: "A", at: [30, 30], actor: a });
    addToken(world, scene, { id: "b", name: "B", at: [10, 17], actor: b });
    await refresh(world);
    expect([...a.statuses]).toEqual(["blind"]);
    expect([...b.statuses]).toEqual(["aventure-dim"]);
    expect(b.effects.contents[0]!.changes).toEqual([]);
  });

  it("v14 with a status list keyed by id: dnd5e's dim marker carries its change as system.changes (type add)", async () => {
    // A system that keys CONFIG.statusEffects by id after dnd5e's rebuild (allowed by the v14 docs: NOTES.md "v14").
    const keyed: SystemProfile = {
      ...dnd5eSystem(),
      install(client: FakeClient) {
        dnd5eSystem().install(client);
        client.hooks.once("i18nInit", () => {
          client.CONFIG.statusEffects = Object.fromEntries(client.statusEffectList().map((e) => [e.id, e]));
        });
      },
    };
    const { world, scene } = await torchScene({ users: [GM], system: keyed, generation: 14 });
    const change = { key: "system.skills.prc.roll.mode", type: "add", value: "-1" };
    const raw = world.clientOf("gm1").CONFIG.statusEffects as Record<string, { system?: unknown; changes?: unknown }>;
    expect(Array.isArray(raw)).toBe(false);
    expect(raw["aventure-dim"]!.system).toEqual({ changes: [change] });
    expect(raw["aventure-dim"]!.changes).toBeUndefined();
    await set(world, "lightEffects", true);
    const a = actor(world, { id: "a", name: "A" });
    addToken(world, scene, { id: "a", name: "A", at: [10, 17], actor: a });
    await refresh(world);
    expect(a.effects.find((e) => e.statuses.has("aventure-dim"))!.system).toEqual({ changes: [change] });
  });

  it("ready re-checks: statuses a system removed after setup are logged and added back", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      // The system's ready handler runs before the module's and drops every status it does not know.
      const late: SystemProfile = {
        ...dnd5eSystem(),
        install(client: FakeClient) {
          dnd5eSystem().install(client);
          client.hooks.once("ready", () => {
            client.CONFIG.statusEffects = client.statusEffectList().filter((e) => !e.id.startsWith("aventure-"));
          });
        },
      };
      const { world } = await torchScene({ users: [GM], system: late });
      expect(
        world
          .clientOf("gm1")
          .statusEffectList()
          .map((e) => e.id),
      ).toContain("aventure-dim");
      expect(warn).toHaveBeenCalledWith(
        "aventure | status effects removed after setup by the system or another module, added again: aventure-dim, aventure-surprised",
      );
    } finally {
      warn.mockRestore();
    }
  });
});

/** A rogue (p1's, Stealth +3) in darkness, three hostile guards without darkvision whose passive Perception is 10, 14 and 18. */
async function guards(users: UserSpec[] = USERS) {
  const { world, scene } = await torchScene({ users });
  const rogue = actor(world, { id: "rogue", name: "Rogue", stealthMod: 3, owner: "p1" });
  const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [30, 10], actor: rogue, disposition: 1 });
  [10, 14, 18].forEach((passive, i) => {
    const g = actor(world, { id: `g${passive}`, name: `Guard ${passive}`, passive });
    addToken(world, scene, {
      id: `g${passive}`,
      name: `Guard ${passive}`,
      at: [33 + i, 12],
      actor: g,
      disposition: -1,
    });
  });
  await refresh(world);
  return { world, scene, rogue, token };
}
/** dnd5e fires dnd5e.postRollAttack(rolls, {subject}) on the roller's client only (subject: the attack activity). */
const attackRolled = (world: FakeWorld, user: string, attacker: unknown) =>
  world.as(user, () =>
    (Hooks.callAll as unknown as (hook: string, ...args: unknown[]) => void)("dnd5e.postRollAttack", [], {
      subject: { actor: attacker },
    }),
  );
const rollCalls = (a: FakeActor) =>
  (a as unknown as { rollCalls: { config: { skill: string }; user: string }[] }).rollCalls;
const hiding = (a: FakeActor) => a.statuses.has("hiding");

describe("hiding (RULES.md §6)", () => {
  it("a Stealth total of 15 against passive 10, 14 and 18: hidden from 10 and 14, spotted by 18; GM card", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12); // 12 + 3 = 15
    const out = await as(world, "gm1", (a) => a.hide("rogue"));
    expect(out).toMatchObject({ dc: 15, spottedBy: ["g18"], hiddenFrom: ["g10", "g14"], hidden: true });
    expect(rollCalls(rogue)[0]!.config.skill).toBe("ste");
    expect(hiding(rogue)).toBe(true);
    expect(hideFlag(token)).toMatchObject({ dc: 15, from: ["g10", "g14"] });
    const [card] = cardsWith(world, "hide");
    expect(card!.author!.id).toBe("gm1");
    expect(card!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(card!.content).toMatch(/Guard 18[\s\S]*Spots it/);
    expect(card!.content).toMatch(/Guard 10[\s\S]*Misses it/);
    expect(card!.content).toContain("DC 15");
    expect(opOf(card!, "hide")).toMatchObject({ status: "applied" });
  });

  it("an observer the GM marks as searching rolls Wisdom (Perception) instead of its passive score", async () => {
    const { world, scene } = await guards();
    expect(await as(world, "gm1", (a) => a.setSearching("g14"))).toBe(true);
    expect(searchMark(world, "g14")).toBe(true);
    expect(scene.tokens.get("g14")!.getFlag("aventure", "searching")).toBeUndefined(); // on the scene, not the token
    world.queueRolls(12, 16); // Stealth 12 + 3 = 15; Guard 14 searches and rolls 16 (passive 14 would miss)
    const out = await as(world, "gm1", (a) => a.hide("rogue"));
    expect(out).toMatchObject({ dc: 15, spottedBy: ["g14", "g18"], hiddenFrom: ["g10"], searchRolls: { g14: 16 } });
    expect(rollCalls(world.actors.get("g14")!).map((c) => c.config.skill)).toEqual(["prc"]);
    const card = cardsWith(world, "hide")[0]!;
    expect(card.content).toMatch(/Guard 14[\s\S]*16<br><small>\(searching\)<\/small>[\s\S]*Spots it/);
    // Unmarked: back to passive scores.
    expect(await as(world, "gm1", (a) => a.setSearching("g14", false))).toBe(false);
    expect(searchMark(world, "g14")).toBeUndefined();
  });

  it("an observer that starts searching rolls once against each creature already hidden from it", async () => {
    const { world, rogue, token } = await guards();
    const hidden = listen(world, "aventure.hidden");
    const revealed = listen(world, "aventure.revealed");
    world.queueRolls(12); // Stealth 15: hidden from Guard 10 and Guard 14
    await as(world, "gm1", (a) => a.hide("rogue"));
    expect(hidden.map((c) => [c.user, c.data.stealth, (c.data.token as { id: string }).id])).toEqual([
      ["gm1", 15, token.id],
    ]);
    const made = world.rollsMade.length;
    await as(world, "gm1", (a) => a.setSearching("g18")); // nothing is hidden from Guard 18 (it spotted the rogue): no roll
    expect(world.rollsMade.length).toBe(made);
    world.queueRolls(15); // Guard 10 searches: 15 ≥ DC 15, spots it
    await as(world, "gm1", (a) => a.setSearching("g10"));
    expect(hideFlag(token)).toMatchObject({ dc: 15, from: ["g14"] });
    expect(hiding(rogue)).toBe(true);
    const card = cardsWith(world, "search").at(-1)!;
    expect(card.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(card.content).toContain("Guard 10 searches");
    expect(card.content).toContain("Wisdom (Perception): 15");
    // The searcher's point of view: finding the rogue is a success, in words and an icon, not only in colour.
    expect(card.content).toMatch(
      /aventure-search-success">\s*<td>Rogue<br><small>still hidden from other observers<\/small>[\s\S]*15[\s\S]*fa-circle-check[\s\S]*Success: finds it/,
    );
    world.queueRolls(3); // Guard 14 searches: 3, misses it
    await as(world, "gm1", (a) => a.setSearching("g14"));
    expect(hideFlag(token)).toMatchObject({ from: ["g14"] });
    await as(world, "gm1", (a) => a.setSearching("g14", false));
    world.queueRolls(20); // searches again: 20, spots it; hidden from nobody now
    await as(world, "gm1", (a) => a.setSearching("g14"));
    expect(hideFlag(token)).toBeUndefined();
    expect(revealed).toHaveLength(1); // hooks for other modules: once, when it is hidden from nobody any more
    expect(revealed[0]).toMatchObject({ user: "gm1", data: { event: "spotted" } });
    expect(hidden).toHaveLength(1);
    expect(hiding(rogue)).toBe(false);
    expect(world.messages.contents.at(-1)!.content).toContain("no longer hidden");
  });

  it("the GM may name searching observers; a low roll misses even with a high passive; a player's choice goes to the GM", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12, 5); // Stealth 15; Guard 18 searches and rolls 5
    expect(await as(world, "gm1", (a) => a.hide("rogue", { searching: ["g18"] }))).toMatchObject({
      dc: 15,
      spottedBy: [],
      hiddenFrom: ["g10", "g14", "g18"],
      searchRolls: { g18: 5 },
    });
    await as(world, "gm1", (a) => a.endHide("rogue"));
    const made = world.rollsMade.length;
    // "Nobody searches" would overrule the GM's marks on the guards: a proposal, not a roll.
    expect(await as(world, "p1", (a) => a.hide("rogue", { searching: [] }))).toEqual({ proposed: true });
    expect(await as(world, "p1", (a) => a.setSearching("g10"))).toBeUndefined();
    expect(world.notifications.filter((n) => n.user === "p1").map((n) => [n.type, n.message])).toEqual([
      ["info", "Your request to hide Rogue names creatures that are not yours: it was sent to the GM, who decides."],
      ["error", "Only a GM can do this."],
    ]);
    expect(world.rollsMade.length).toBe(made);
    expect(hiding(rogue)).toBe(false);
    expect(searchMark(world, "g10")).toBeUndefined();
    // A player's request still honours the GM's marks (the player's answer names no guard: they stand in the dark).
    await as(world, "gm1", (a) => a.setSearching("g10"));
    world.queueRolls(12, 15); // Stealth 15; Guard 10 searches and rolls 15: spots it
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toMatchObject({
      dc: 15,
      hidden: true,
      spottedBy: [],
      hiddenFrom: [],
      searchRolls: {},
    });
    expect(hideFlag(token)).toMatchObject({ from: ["g14"], seenBy: ["g10", "g18"] });
  });

  it("a chosen observer without an actor is listed for the GM to decide; another GM's own choice is honoured", async () => {
    const { world, scene } = await guards();
    addToken(world, scene, { id: "statue", name: "Statue", at: [34, 14], disposition: -1 });
    world.queueRolls(12);
    const statue = await as(world, "gm1", (a) => a.hide("rogue", { observers: ["statue"], searching: ["statue"] }));
    expect(statue).toMatchObject({ dc: 15, unknown: ["statue"], hidden: false });
    expect(cardsWith(world, "hide").at(-1)!.content).toMatch(/Statue[\s\S]*GM decides/);
    world.queueRolls(12, 2); // Stealth 15; Guard 18 searches and rolls 2
    const out = await as(world, "gm2", (a) => a.hide("rogue", { observers: ["g18"], searching: ["g18"] }));
    expect(out).toMatchObject({ dc: 15, spottedBy: [], hiddenFrom: ["g18"], searchRolls: { g18: 2 } });
    expect(rollCalls(world.actors.get("g18")!).map((c) => c.user)).toEqual(["gm1"]); // rolled by the active GM
  });

  it("refuses (nothing rolled, nothing changed) when an observer sees the hider", async () => {
    const { world, rogue, token } = await guards();
    await moveTo(world, token, [10, 16]); // the torch's dim light, in the guards' view
    await refresh(world);
    const mark = world.writes.length;
    expect(await as(world, "gm1", (a) => a.hide("rogue"))).toBeUndefined();
    expect(errors(world, "gm1")).toEqual([
      "Rogue cannot hide: seen by Guard 10 (in light), Guard 14 (in light), Guard 18 (in light).",
    ]);
    expect(rogue.statuses.size).toBe(0);
    expect(world.rollsMade).toHaveLength(0);
    expect(world.writesSince(mark)).toEqual([]);
  });

  it("darkvision sees the hider in darkness within its range only", async () => {
    const { world, scene } = await torchScene();
    const rogue = actor(world, { id: "rogue", name: "Rogue" });
    addToken(world, scene, { id: "rogue", name: "Rogue", at: [30, 10], actor: rogue, disposition: 1 });
    const orc = actor(world, { id: "orc", name: "Orc", darkvision: 60 }); // 18 m
    const o = addToken(world, scene, { id: "orc", name: "Orc", at: [30, 20], actor: orc, disposition: -1 }); // 15 m away
    await refresh(world);
    await as(world, "gm1", (a) => a.hide("rogue"));
    expect(errors(world, "gm1").at(-1)).toMatch(/seen by Orc \(darkvision\)/);
    await moveTo(world, o, [30, 23]); // 19.5 m: out of range
    await refresh(world);
    world.queueRolls(15);
    expect(await as(world, "gm1", (a) => a.hide("rogue"))).toMatchObject({ dc: 15, hiddenFrom: ["orc"] });
    // The card labels the condition (why the rogue could try) apart from the outcome (whether the orc notices it).
    const card = cardsWith(world, "hide").at(-1)!;
    expect(card.content).toMatch(/Orc<br><small>can hide from it: cannot see in the darkness<\/small>/);
  });

  it("a player's request runs on the active GM; a non-owner is refused; a refusal reaches the player in words", async () => {
    const { world, scene, rogue, token } = await guards();
    world.queueRolls(12);
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toMatchObject({ dc: 15, hidden: true });
    expect(hiding(rogue)).toBe(true);
    expect(rollCalls(rogue).map((c) => c.user)).toEqual(["gm1"]);
    expect(await as(world, "p1", (a) => a.hide("g10"))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["You do not own Guard 10."]);
    expect(hideFlag(scene.tokens.get("g10")!)).toBeUndefined();
    // Refused on the GM's side: the player gets the reason, nothing changes. The guards stand in the dark, where the
    // rogue cannot see them: the player is not told who they are (the GM is).
    await as(world, "gm1", (a) => a.endHide("rogue"));
    await moveTo(world, token, [10, 16]);
    await refresh(world);
    const before = world.rollsMade.length;
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toBeUndefined();
    expect(errors(world, "p1").at(-1)).toBe("Rogue cannot hide: seen by someone you cannot see.");
    expect(world.rollsMade.length).toBe(before);
    expect(hiding(rogue)).toBe(false);
  });

  it("a player who names only their own tokens as observers hides at once; naming a guard makes a proposal the GM applies", async () => {
    const { world, scene, rogue, token } = await guards();
    const dog = actor(world, { id: "dog", name: "Dog", passive: 12, owner: "p1" });
    addToken(world, scene, { id: "dog", name: "Dog", at: [32, 14], actor: dog, disposition: -1 });
    await refresh(world);
    world.queueRolls(12);
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["dog"] }))).toMatchObject({
      dc: 15,
      hiddenFrom: ["dog"],
    });
    await as(world, "gm1", (a) => a.endHide("rogue"));
    // Someone else's guard: nothing rolls, the GMs get a card to decide.
    const made = world.rollsMade.length;
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["g10", "dog"], searching: ["g10"] }))).toEqual({
      proposed: true,
    });
    expect(world.rollsMade.length).toBe(made);
    expect(hiding(rogue)).toBe(false);
    const proposal = cardsWith(world, "proposal").at(-1)!;
    expect(proposal.author!.id).toBe("gm1");
    expect(proposal.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(proposal.content).toContain("Rogue tries to hide.");
    expect(proposal.content).toContain("Observers: Guard 10, Dog.");
    expect(proposal.content).toContain("Searching: Guard 10.");
    expect(world.renderMessage(proposal, "p1").querySelector("[data-action='aventure-proposal']")).toBeNull();
    // The second GM applies it: the active GM runs it once with the stored request.
    world.queueRolls(12, 9); // Stealth 15; Guard 10 searches: 9, misses it
    world.click(
      "gm2",
      world.renderMessage(proposal, "gm2").querySelector("[data-action='aventure-proposal'][data-accept='true']"),
    );
    await world.settle();
    expect(hideFlag(token)).toMatchObject({ dc: 15, from: ["g10", "dog"] });
    expect(hiding(rogue)).toBe(true);
    expect(proposal.content).toContain("Rogue is hidden (Stealth DC 15).");
    const told = world.messages.contents.at(-1)!;
    expect(told.whisper).toEqual(["p1"]);
    expect(told.content).toContain("was applied by the GM");
  });

  it("ends on a dnd5e attack rolled by its owner (through the request channel), with a GM card and no Perception check", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12);
    await as(world, "gm1", (a) => a.hide("rogue"));
    // dnd5e fires dnd5e.postRollAttack on the roller's client only (subject: the attack activity).
    attackRolled(world, "p1", rogue);
    await world.settle();
    expect(hideFlag(token)).toBeUndefined();
    expect(hiding(rogue)).toBe(false);
    const [card] = cardsWith(world, "hideEnd");
    expect(card!.author!.id).toBe("gm1");
    expect(card!.content).toContain("It attacked");
    expect(card!.content).toContain("no check needed");
    expect(world.writes.filter((w) => w.user === "p1" && w.action === "create").map((w) => w.documentName)).toEqual([
      "ChatMessage",
    ]); // the request
  });

  it("ambient detection off: ends when it leaves the darkness, and the card asks for checks against the DC", async () => {
    const { world, token } = await guards();
    await set(world, "detectionMode", "off");
    world.queueRolls(12);
    await as(world, "gm1", (a) => a.hide("rogue"));
    await moveTo(world, token, [10, 16]); // dim light of the torch, in the guards' view
    await tick(world);
    expect(hideFlag(token)).toBeUndefined();
    expect(world.messages.contents.at(-1)!.content).toContain(
      "It left the zone of no visibility that hid it (darkness, thick fog).",
    );
    expect(world.messages.contents.at(-1)!.content).toContain(
      "The observers each get a Wisdom (Perception) check against DC 15.",
    );
  });

  it("ambient detection off: ends when an observer moves to a spot it sees the hider from (behind a wall, then around it)", async () => {
    const { world, scene } = await torchScene();
    await set(world, "detectionMode", "off");
    const rogue = actor(world, { id: "rogue", name: "Rogue" });
    const r = addToken(world, scene, { id: "rogue", name: "Rogue", at: [11, 10], actor: rogue, disposition: 1 }); // bright, by the torch
    const guard = actor(world, { id: "guard", name: "Guard", passive: 5 });
    const g = addToken(world, scene, { id: "guard", name: "Guard", at: [14, 10], actor: guard, disposition: -1 }); // behind the wall
    await refresh(world);
    world.queueRolls(10);
    expect(await as(world, "gm1", (a) => a.hide("rogue"))).toMatchObject({ hiddenFrom: ["guard"] });
    expect(hideFlag(r)).toMatchObject({ because: { guard: "cover" } });
    await moveTo(world, g, [14, 15]); // around the wall's end
    await tick(world);
    expect(hideFlag(r)).toBeUndefined();
    expect(world.messages.contents.at(-1)!.content).toContain("An observer moved and now sees it.");
  });

  it("ambient detection off: ends when it moves, still in light, out of its cover into an observer's view", async () => {
    const { world, scene } = await torchScene();
    await set(world, "detectionMode", "off");
    await addLight(world, scene, "lantern", [16, 10], 6, 12); // east of the wall
    const rogue = actor(world, { id: "rogue", name: "Rogue" });
    const r = addToken(world, scene, { id: "rogue", name: "Rogue", at: [14, 10], actor: rogue, disposition: 1 }); // lantern's bright light
    const guard = actor(world, { id: "guard", name: "Guard", passive: 5 });
    addToken(world, scene, { id: "guard", name: "Guard", at: [11, 10], actor: guard, disposition: -1 }); // west of the wall
    await refresh(world);
    world.queueRolls(10);
    expect(await as(world, "gm1", (a) => a.hide("rogue"))).toMatchObject({ hiddenFrom: ["guard"] });
    expect(hideFlag(r)).toMatchObject({ light: "bright", because: { guard: "cover" } });
    await moveTo(world, r, [14, 12]); // still behind the wall: still hidden
    await tick(world);
    expect(hideFlag(r)).toBeDefined();
    await moveTo(world, r, [14, 15]); // past the wall's end, in the lantern's dim light
    await tick(world);
    expect(hideFlag(r)).toBeUndefined();
    expect(hiding(rogue)).toBe(false);
    expect(world.messages.contents.at(-1)!.content).toContain("It moved into an observer&#x27;s field of view.");
  });

  it("the GM ends it from the HUD; hideSelected hides the controlled tokens; GM targets choose the observers", async () => {
    const { world, rogue, token } = await guards();
    const targets = world.users.get("gm1")!.targets;
    targets.add({ id: "g10" });
    world.queueRolls(5); // 8: only g10 observes, and spots it
    control(world.clientOf("gm1"), "rogue");
    const [out] = (await as(world, "gm1", (a) => a.hideSelected())) as Outcome[];
    expect(out).toMatchObject({ dc: 8, spottedBy: ["g10"], hiddenFrom: [] });
    expect(hiding(rogue)).toBe(false); // everyone noticed: not hidden
    targets.clear();
    world.queueRolls(15);
    await as(world, "gm1", (a) => a.hide("rogue"));
    expect(hiding(rogue)).toBe(true);
    world.click("gm2", world.renderTokenHUD(token, "gm2").querySelector("[data-action='aventure-end-hide']"));
    await world.settle();
    expect(hiding(rogue)).toBe(false);
    expect(hideFlag(token)).toBeUndefined();
    expect(cardsWith(world, "hideEnd").map((m) => m.author!.id)).toEqual(["gm1"]);
  });
});

describe("token HUD (renderTokenHUD in the test world's DOM)", () => {
  async function hudFor(world: FakeWorld, user: string, token: FakeToken) {
    const root = world.renderTokenHUD(token, user);
    // The panel's template renders asynchronously.
    for (
      let i = 0;
      i < 50 && root.querySelector(".aventure-light-hud-slot") && !root.querySelector(".aventure-light-panel");
      i++
    )
      await new Promise((r) => setImmediate(r));
    return {
      root,
      // This feature's buttons (other features add theirs to the same HUD).
      buttons: [...root.querySelectorAll("button")]
        .map((b) => (b as HTMLElement).dataset.action)
        .filter((a) => /^aventure-(hide|end-hide|search|stop-search)$/.test(a ?? "")),
      panel: root.querySelector(".aventure-light-panel"),
    };
  }

  it("shows the panel and the buttons to the GM and the owner, nothing to another player", async () => {
    const { world, scene } = await torchScene({ users: [GM, PLAYER, PLAYER2] });
    const elf = actor(world, { id: "elf", name: "Elf", darkvision: 60, owner: "p1" });
    const token = addToken(world, scene, { id: "elf", name: "Elf", at: [14, 10], actor: elf }); // behind the wall: dark, darkvision 18 m
    await refresh(world);
    for (const u of ["p1", "p2"]) await as(world, u, (a) => a.refreshLight());

    const gm = await hudFor(world, "gm1", token);
    expect(gm.buttons).toEqual(["aventure-hide", "aventure-search"]);
    expect(
      [...gm.root.querySelectorAll(".col.right button[data-action]")].map((b) => (b as HTMLElement).dataset.action),
    ).toEqual(expect.arrayContaining(["aventure-hide", "aventure-search"]));
    expect(gm.panel!.classList.contains("aventure-light-dark")).toBe(true);
    const text = gm.panel!.textContent!;
    expect(text).toContain("Darkness");
    expect(text).toContain("Darkvision 18 m");
    expect(text).toContain("Dim light");
    expect(text).toContain("thanks to Darkvision");
    expect(text).toContain("Disadvantage on sight-based Wisdom (Perception) checks");
    expect(text).toContain("(not applied: setting off)");
    expect(gm.root.querySelector(".aventure-light-searching")).toBeNull();

    const owner = await hudFor(world, "p1", token);
    expect(owner.buttons).toEqual(["aventure-hide"]);
    expect(owner.panel).not.toBeNull();

    const other = await hudFor(world, "p2", token);
    expect(other.buttons).toEqual([]);
    expect(other.panel).toBeNull();

    // Hidden and searching: the GM gets End hiding and No longer searching; the panel says both.
    await as(world, "gm1", (a) => a.setSearching("elf"));
    await world.as("gm1", () => setHide(token, { dc: 14, from: ["x"], because: {}, light: "dark", x: 0, y: 0 }));
    const again = await hudFor(world, "gm1", token);
    expect(again.buttons).toEqual(["aventure-end-hide", "aventure-stop-search"]);
    expect(again.root.querySelector(".aventure-light-hidden")!.textContent).toContain(
      "Stealth DC 14, hidden from 1 observer",
    );
    expect(again.root.querySelector(".aventure-light-searching")!.textContent).toContain("Searching");
    // The one-line head: the level and icons, each icon labelled (tooltip and aria-label); the scene's darkness in the body.
    const head = again.root.querySelector(".aventure-light-head")!;
    expect(head.querySelector(".aventure-light-darkness")).toBeNull();
    for (const icon of head.querySelectorAll("i[role=img]")) {
      expect(icon.getAttribute("aria-label")).toBeTruthy();
      expect(icon.getAttribute("data-tooltip")).toBe(icon.getAttribute("aria-label"));
    }
    expect(head.querySelectorAll("i[role=img]")).toHaveLength(2);
    expect(again.root.querySelector(".aventure-light-body .aventure-light-darkness")!.textContent).toMatch(
      /^Scene darkness: \d+%$/,
    );
  });
});

describe("HUD panel and card contexts", () => {
  it("builds the HUD context from the state (the screenshot sample)", () => {
    const ctx = SAMPLES["light/hud.hbs"]!.context((k) => k) as ReturnType<typeof lightHudContext>;
    expect(ctx).toMatchObject({
      glyph: "☾",
      levelKey: "AVENTURE.Light.level.dark",
      perceivedKey: "AVENTURE.Light.level.dim",
      improved: true,
      senseKey: "AVENTURE.Light.sense.darkvision",
      effectKey: "AVENTURE.Light.effect.disadvantage",
      darknessPercent: 85,
      ambientKey: "AVENTURE.Light.HUD.ambient.noGlobal",
      hidden: { dc: 15, from: 2 },
    });
    expect(ctx.senses.map((s) => [s.range, s.unlimited])).toEqual([
      [18, false],
      [3, false],
      [null, true],
    ]);
  });

  it("builds the hiding card context", () => {
    const ctx = hideCardContext({
      hider: "Rogue",
      dc: 15,
      hidden: true,
      observers: [
        { name: "A", passive: 10, spotted: false, because: "darkness" },
        { name: "B", passive: null, spotted: null, because: "cover" },
        { name: "C", passive: null, spotted: null, notRolled: true, because: "cover" },
      ],
    }) as { rows: { outcome: string; outcomeKey: string }[]; noticed: number; total: number };
    expect(ctx.rows.map((r) => r.outcome)).toEqual(["missed", "unknown", "notRolled"]);
    expect(ctx.rows[2]!.outcomeKey).toBe("AVENTURE.Light.Hide.outcome.notRolled");
    expect(ctx.noticed).toBe(0);
    expect(ctx.total).toBe(2); // the observers rolled against
  });
});

const ok = (result: unknown) => ({ status: "done", ok: true, result });
const refused = (key: string, data: Record<string, unknown> = {}) => ({ status: "done", ok: false, key, data });
const requestsLeft = (world: FakeWorld) =>
  world.messages.filter((m) => {
    const f = m.flags.aventure as { request?: unknown; receipt?: unknown } | undefined;
    return f?.request !== undefined || f?.receipt !== undefined;
  });
/** The hiding state of the rogue: its flag and its hidden status agree (both or neither). */
function consistent(token: FakeToken, a: FakeActor, status = "hiding"): boolean {
  const effects = a.effects.filter((e) => e.statuses.has(status));
  const flagged = hideFlag(token) !== undefined;
  expect(effects).toHaveLength(flagged ? 1 : 0);
  if (flagged) expect(effects[0]!.getFlag("aventure", "applied")).toBe(true); // Aventure's own, flagged in the same write
  return flagged;
}

describe("attacks on the hiding requests (docs/security.md)", () => {
  it("a player claiming a GM's identity in the payload is still that player: refused or proposed, never run as a GM", async () => {
    const { world, rogue, token } = await guards();
    const claim = { userId: "gm1", user: "gm1", sender: "gm1", isGM: true };
    const mark = world.writes.length;
    expect(await forgeRequest(world, "p2", "hide", { sceneId: "scene1", tokenId: "rogue", ...claim })).toEqual(
      refused("AVENTURE.Error.NotOwner", { name: "Rogue" }),
    );
    expect(
      await forgeRequest(world, "p1", "setSearching", { sceneId: "scene1", tokenId: "g10", searching: true, ...claim }),
    ).toEqual(refused("AVENTURE.Error.GMOnly"));
    // Naming a guard as a "GM": still a player's choice, so a proposal; nothing rolls.
    expect(
      await forgeRequest(world, "p1", "hide", { sceneId: "scene1", tokenId: "rogue", observers: ["g10"], ...claim }),
    ).toEqual(ok({ proposed: true }));
    expect(world.rollsMade).toEqual([]);
    expect(gameWrites(world, mark).map((w) => `${w.user} ${w.action} ${w.documentName}`)).toEqual([
      "gm1 create ChatMessage",
    ]); // the proposal card
    world.queueRolls(12);
    await as(world, "gm1", (a) => a.hide("rogue"));
    const mark2 = world.writes.length;
    // Hidden now, and p2 has no token that knows where it is: not named (docs/security.md, what a refusal tells).
    expect(
      await forgeRequest(world, "p2", "endHide", { sceneId: "scene1", tokenId: "rogue", event: "revealed", ...claim }),
    ).toEqual(refused("AVENTURE.Error.NotOwnerUnknown.Token"));
    // An event only the GM may rule (the prerequisites stopped holding), reported by the owner claiming to be a GM.
    expect(
      await forgeRequest(world, "p1", "endHide", {
        sceneId: "scene1",
        tokenId: "rogue",
        event: "leftDarkness",
        ...claim,
      }),
    ).toMatchObject(refused("AVENTURE.Error.UnknownValue"));
    // The old query path is gone: nothing answers it.
    const query = (name: string) =>
      world.as("p2", () =>
        (game.users.activeGM as unknown as { query(n: string, d: unknown): Promise<unknown> }).query(name, {
          sceneId: "scene1",
          tokenId: "rogue",
          ...claim,
        }),
      );
    await expect(query("aventure.hide")).rejects.toThrow(/not registered/);
    await expect(query("aventure.endHide")).rejects.toThrow(/not registered/);
    expect(gameWrites(world, mark2)).toEqual([]);
    expect(consistent(token, rogue)).toBe(true);
  });

  it("naming tokens the sender does not own is refused with a localized error", async () => {
    const { world, token } = await guards();
    expect(await as(world, "p2", (a) => a.hide(token))).toBeUndefined();
    expect(await as(world, "p1", (a) => a.endHide("g10"))).toBeUndefined();
    expect(errors(world, "p2")).toEqual(["You do not own Rogue."]);
    expect(errors(world, "p1")).toEqual(["You do not own Guard 10."]);
    await world.as("gm1", () =>
      setHide(world.scenes.get("scene1")!.tokens.get("g10")!, {
        dc: 20,
        from: ["rogue"],
        because: {},
        light: "dark",
        x: 0,
        y: 0,
      }),
    );
    const mark = world.writes.length;
    // Hidden from the rogue, p1's only token: the refusals no longer name it (docs/security.md, what a refusal tells).
    expect(
      await forgeRequest(world, "p1", "endHide", { sceneId: "scene1", tokenId: "g10", event: "revealed" }),
    ).toEqual(refused("AVENTURE.Error.NotOwnerUnknown.Token"));
    expect(await forgeRequest(world, "p1", "hide", { sceneId: "scene1", tokenId: "g10" })).toEqual(
      refused("AVENTURE.Error.NotOwnerUnknown.Token"),
    );
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
  });

  it("out-of-range and malformed values are refused before anything rolls or is written", async () => {
    const { world, rogue, token } = await guards();
    const ids201 = Array.from({ length: 201 }, (_, i) => `tok${i}`);
    const base = { sceneId: "scene1", tokenId: "rogue" };
    const bad: [string, string, unknown, string][] = [
      ["p1", "hide", { ...base, observers: "g10" }, "AVENTURE.Error.UnknownValue"],
      ["p1", "hide", { ...base, observers: [42] }, "AVENTURE.Error.UnknownValue"],
      ["p1", "hide", { ...base, observers: ids201 }, "AVENTURE.Error.UnknownValue"],
      ["p1", "hide", { ...base, observers: ["bad id!"] }, "AVENTURE.Error.UnknownValue"],
      ["p1", "hide", { ...base, observers: ["nobody"] }, "AVENTURE.Light.Error.noToken"],
      ["p1", "hide", { ...base, searching: [{ id: "g10" }] }, "AVENTURE.Error.UnknownValue"],
      ["p1", "hide", { sceneId: "scene1", tokenId: { $ne: 1 } }, "AVENTURE.Light.Error.noToken"],
      ["p1", "hide", { tokenId: "rogue" }, "AVENTURE.Light.Error.noToken"],
      ["p1", "hide", { sceneId: "elsewhere", tokenId: "rogue" }, "AVENTURE.Light.Error.sceneNotViewed"],
      ["p1", "hide", null, "AVENTURE.Error.Missing"],
      ["p1", "hide", "hide", "AVENTURE.Error.Missing"],
      ["p1", "endHide", { ...base, event: "exploded" }, "AVENTURE.Error.UnknownValue"],
      ["p1", "endHide", { ...base, event: 42 }, "AVENTURE.Error.UnknownValue"],
      ["p1", "endHide", { sceneId: "scene1", tokenId: "nope", event: "noise" }, "AVENTURE.Light.Error.noToken"],
      ["p1", "endHide", [], "AVENTURE.Error.Missing"],
      ["gm2", "hide", { ...base, observers: ["g14"], searching: ["g10"] }, "AVENTURE.Error.UnknownValue"],
      ["gm2", "endHide", { ...base, event: "exploded" }, "AVENTURE.Error.UnknownValue"],
      ["gm2", "setSearching", { sceneId: "scene1", tokenId: "g10", searching: "yes" }, "AVENTURE.Error.Missing"],
      // Taken as sent, never cast: a mark as text, a lone observer id, an event in a list.
      ["gm2", "setSearching", { sceneId: "scene1", tokenId: "g10", searching: "true" }, "AVENTURE.Error.Missing"],
      ["p1", "hide", { ...base, observers: "g10" }, "AVENTURE.Error.UnknownValue"],
      ["p1", "endHide", { ...base, event: ["noise"] }, "AVENTURE.Error.UnknownValue"],
      ["gm2", "setSearching", { sceneId: "scene1", tokenId: "nope", searching: true }, "AVENTURE.Light.Error.noToken"],
    ];
    const mark = world.writes.length;
    for (const [user, name, data, key] of bad)
      expect(
        await forgeRequest(world, user, name, data),
        `${user} ${name} ${JSON.stringify(data).slice(0, 80)}`,
      ).toMatchObject({ ok: false, key });
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    expect(consistent(token, rogue)).toBe(false);
    // The player's own API checks the list before sending anything.
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ids201 }))).toBeUndefined();
    expect(errors(world, "p1").at(-1)).toBe(
      "201 values is not a valid observers (expected one of: [tokenId, …] (200 at most)).",
    );
  });

  it("a replayed request id is refused: the hide and the end of hiding happen once", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12, 12);
    const hideData = { sceneId: "scene1", tokenId: "rogue" };
    expect(await forgeRequest(world, "p1", "hide", hideData, "replayedHide1")).toMatchObject({
      ok: true,
      result: { dc: 15, hidden: true },
    });
    expect(await forgeRequest(world, "p1", "endHide", { ...hideData, event: "noise" }, "replayedEnd1")).toEqual(
      ok(true),
    );
    expect(await forgeRequest(world, "p1", "hide", hideData, "replayedHide1")).toEqual(
      refused("AVENTURE.Request.replayed"),
    );
    expect(await forgeRequest(world, "p1", "endHide", { ...hideData, event: "noise" }, "replayedEnd1")).toEqual(
      refused("AVENTURE.Request.replayed"),
    );
    expect(rollCalls(rogue)).toHaveLength(1);
    expect(cardsWith(world, "hide")).toHaveLength(1);
    expect(cardsWith(world, "hideEnd")).toHaveLength(1);
    expect(consistent(token, rogue)).toBe(false);
  });

  it("a player's message carrying a hide, end-of-hiding or search card's flags changes nothing, even through the GM's recovery", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12); // hidden from Guard 10 and Guard 14
    await as(world, "gm1", (a) => a.hide("rogue"));
    const flag = hideFlag(token)!;
    const mark = world.writes.length;
    const hidden99 = { dc: 99, from: ["rogue"], because: {}, light: "dark", x: 0, y: 0 };
    const op = (changes: unknown[], extra: object = {}) => ({
      v: 1,
      status: "applying",
      sceneId: "scene1",
      changes,
      ...extra,
    });
    await forgeCard(world, "p1", {
      hide: { tokenId: "g10", dc: 99, op: op([{ tokenId: "g10", name: "Guard 10", before: null, after: hidden99 }]) },
    });
    await forgeCard(world, "p2", {
      hideEnd: {
        tokenId: "rogue",
        event: "revealed",
        op: op([{ tokenId: "rogue", name: "Rogue", before: flag, after: null }]),
      },
    });
    await forgeCard(world, "p2", {
      search: {
        tokenId: "g14",
        roll: 30,
        op: op([{ tokenId: "rogue", name: "Rogue", before: flag, after: null }], { mark: "g14" }),
      },
    });
    // The active GM's recovery reads every card: after a reload of gm1, and when gm2 takes over.
    await world.reload("gm1");
    await world.disconnect("gm1");
    await world.settle();
    expect(gameWrites(world, mark).map((w) => `${w.user} ${w.action}`)).toEqual([
      "p1 create",
      "p2 create",
      "p2 create",
    ]);
    expect(hideFlag(token)).toEqual(flag);
    expect(consistent(token, rogue)).toBe(true);
    const g10 = world.scenes.get("scene1")!.tokens.get("g10")!;
    expect(hideFlag(g10)).toBeUndefined();
    expect(searchMark(world, "g14")).toBeUndefined();
  });

  it("attack: a player's own aventure.hide, aventure.hideEnd and aventure.search messages (valid-looking systems) change nothing, even through the GM's recovery", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12); // hidden from Guard 10 and Guard 14
    await as(world, "gm1", (a) => a.hide("rogue"));
    const flag = hideFlag(token)!;
    const mark = world.writes.length;
    const hidden99 = { dc: 99, from: ["rogue"], because: {}, light: "dark", x: 0, y: 0 };
    const op = (changes: unknown[], extra: object = {}) => ({
      v: 1,
      status: "applying",
      sceneId: "scene1",
      changes,
      ...extra,
    });
    const typed = (user: string, type: string, system: object) =>
      world.as(user, () => ChatMessage.implementation.create({ content: "<p>x</p>", type, system } as never));
    await typed("p1", "aventure.hide", {
      tokenId: "g10",
      dc: 99,
      op: op([{ tokenId: "g10", name: "Guard 10", before: null, after: hidden99 }]),
    });
    await typed("p2", "aventure.hideEnd", {
      tokenId: "rogue",
      event: "revealed",
      op: op([{ tokenId: "rogue", name: "Rogue", before: flag, after: null }]),
    });
    await typed("p2", "aventure.search", {
      tokenId: "g14",
      roll: 30,
      op: op([{ tokenId: "rogue", name: "Rogue", before: flag, after: null }], { mark: "g14" }),
    });
    expect(cardsWith(world, "hide").filter((m) => m.type === "aventure.hide")).toHaveLength(2);
    await world.reload("gm1");
    await world.disconnect("gm1");
    await world.settle();
    expect(gameWrites(world, mark).map((w) => `${w.user} ${w.action}`)).toEqual([
      "p1 create",
      "p2 create",
      "p2 create",
    ]);
    expect(hideFlag(token)).toEqual(flag);
    expect(consistent(token, rogue)).toBe(true);
    expect(hideFlag(world.scenes.get("scene1")!.tokens.get("g10")!)).toBeUndefined();
    expect(searchMark(world, "g14")).toBeUndefined();
  });

  it("a hide card of an earlier version (a GM's base message, its state in flags.aventure.hide) left applying is finished by the recovery", async () => {
    const { world } = await guards();
    const hidden = { dc: 17, from: ["g10"], because: {}, light: "dark", x: 0, y: 0 };
    const old = world.addMessage({
      author: "gm1",
      content: "<p>hide</p>",
      flags: {
        aventure: {
          hide: {
            tokenId: "g14",
            dc: 17,
            op: {
              v: 1,
              status: "applying",
              sceneId: "scene1",
              changes: [{ tokenId: "g14", name: "Guard 14", before: null, after: hidden }],
            },
          },
        },
      },
    });
    await world.reload("gm1");
    await world.settle();
    expect(hideFlag(world.scenes.get("scene1")!.tokens.get("g14")!)).toMatchObject({ dc: 17, from: ["g10"] });
    expect(old.type).toBe("base");
    expect(opOf(old, "hide")).toMatchObject({ status: "applied", resumed: true });
  });

  it("OSE: an attack message ends hiding only when its author owns the speaker's token (a forged speaker changes nothing)", async () => {
    const { world, scene } = await torchScene({ system: "ose" });
    const rogue = world.addUserActor({ _id: "rogue", name: "Rogue", ownership: { p1: 3 } });
    const goblin = world.addUserActor({ _id: "goblin", name: "Goblin" });
    const r = addToken(world, scene, { id: "rogue", name: "Rogue", at: [30, 10], actor: rogue });
    const g = addToken(world, scene, { id: "goblin", name: "Goblin", at: [33, 12], actor: goblin, disposition: -1 });
    // Both hidden by Aventure (its own status, flagged in its creation).
    for (const [token, a] of [
      [r, rogue],
      [g, goblin],
    ] as const) {
      await world.as("gm1", () => setHide(token, { dc: 15, from: ["x"], because: {}, light: "dark", x: 0, y: 0 }));
      await world.as("gm1", () =>
        a.createEmbeddedDocuments("ActiveEffect", [
          { name: "Hidden", statuses: ["aventure-hidden"], flags: { aventure: { applied: true } } },
        ]),
      );
    }
    const attack = (user: string, speaker: object) =>
      world.as(user, () =>
        ChatMessage.implementation.create({
          content: "<p>Attack</p>",
          speaker: { scene: "scene1", alias: "x", ...speaker },
          flags: { ose: { roll: "attack", itemId: "sword" } },
        } as never),
      );
    const mark = world.writes.length;
    await attack("p2", { actor: "rogue", token: "rogue" }); // p2 claims to be p1's rogue
    await attack("p2", { actor: "rogue" });
    await attack("p1", { actor: "goblin", token: "goblin" }); // p1 claims to be the GM's goblin
    await world.settle();
    expect(gameWrites(world, mark).filter((w) => w.user !== "p1" && w.user !== "p2")).toEqual([]);
    expect(consistent(r, rogue, "aventure-hidden")).toBe(true);
    expect(consistent(g, goblin, "aventure-hidden")).toBe(true);
    // The owner's own attack, and the GM's: each ends its own creature's hiding, once.
    await attack("p1", { actor: "rogue", token: "rogue" });
    await attack("gm2", { actor: "goblin" });
    await world.settle();
    expect(consistent(r, rogue, "aventure-hidden")).toBe(false);
    expect(consistent(g, goblin, "aventure-hidden")).toBe(false);
    expect(cardsWith(world, "hideEnd").map((m) => [m.author!.id, m.content.includes("It attacked")])).toEqual([
      ["gm1", true],
      ["gm1", true],
    ]);
  });

  it("dnd5e: an attack ends the hiding of the roller's own actor only (someone else's actor, another copy of a creature: nothing)", async () => {
    const { world, scene, rogue, token } = await guards();
    const base = actor(world, { id: "gob", name: "Goblin" });
    const g1 = addToken(world, scene, {
      id: "gob1",
      name: "Goblin 1",
      at: [31, 11],
      actor: base,
      linked: false,
      disposition: -1,
    });
    const g2 = addToken(world, scene, {
      id: "gob2",
      name: "Goblin 2",
      at: [32, 11],
      actor: base,
      linked: false,
      disposition: -1,
    });
    world.queueRolls(12);
    await as(world, "gm1", (a) => a.hide("rogue"));
    for (const t of [g1, g2])
      await world.as("gm1", () => setHide(t, { dc: 12, from: ["rogue"], because: {}, light: "dark", x: 0, y: 0 }));
    const mark = world.writes.length;
    // p2's client fires the hook for p1's rogue (a macro calling dnd5e's hook): p2 owns nothing, nothing is asked.
    attackRolled(world, "p2", rogue);
    await world.settle();
    expect(world.writesSince(mark)).toEqual([]);
    expect(consistent(token, rogue)).toBe(true);
    // The GM attacks with Guard 10 (a linked actor, not hidden): the rogue the GM also owns stays hidden.
    attackRolled(world, "gm2", world.actors.get("g10"));
    await world.settle();
    expect(world.writesSince(mark)).toEqual([]);
    // The GM attacks with the first goblin (an unlinked token: its own synthetic actor): the second stays hidden.
    attackRolled(world, "gm2", g1.actor);
    await world.settle();
    expect(hideFlag(g1)).toBeUndefined();
    expect(hideFlag(g2)).toBeDefined();
    expect(consistent(token, rogue)).toBe(true);
  });

  it("escapes names: a token called like an HTML tag shows as text on every card", async () => {
    const { world, scene } = await guards();
    const evil = "<img src=x onerror=alert(1)>";
    const a = actor(world, { id: "evil", name: evil, owner: "p1" });
    const t = addToken(world, scene, { id: "evil", name: evil, at: [30, 8], actor: a, disposition: 1 });
    await refresh(world);
    world.queueRolls(12);
    await as(world, "p1", (x) => x.hide(t));
    await as(world, "p1", (x) => x.endHide(t, "noise"));
    await as(world, "p1", (x) => x.hide(t, { observers: ["g10"] })); // a proposal: its lines name the hider
    world.queueRolls(1);
    await as(world, "gm1", (x) => x.setSearching("g10"));
    const contents = [...cardsWith(world, "hide"), ...cardsWith(world, "hideEnd"), ...cardsWith(world, "proposal")].map(
      (m) => m.content,
    );
    expect(contents).toHaveLength(3);
    for (const c of contents) {
      expect(c).not.toContain("<img");
      expect(c).toContain("&lt;img");
    }
    expect(world.messages.filter((m) => m.rolls.length > 0).map((m) => m.flavor)).toContain(
      "Hiding: Dexterity (Stealth)",
    );
  });
});

describe("two GMs at once", () => {
  it("two hides of the same token at once (both GMs, or a GM and the owner) roll once", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12, 12, 12, 12);
    const [a, b] = await Promise.all([
      as(world, "gm1", (x) => x.hide("rogue")),
      as(world, "gm2", (x) => x.hide("rogue")),
    ]);
    expect([a, b].filter((o) => o && "dc" in o)).toHaveLength(1);
    expect(rollCalls(rogue)).toHaveLength(1);
    expect(cardsWith(world, "hide")).toHaveLength(1);
    expect([...errors(world, "gm1"), ...errors(world, "gm2")]).toHaveLength(1);
    expect(consistent(token, rogue)).toBe(true);
    await as(world, "gm1", (x) => x.endHide("rogue"));
    const [c, d] = await Promise.all([
      as(world, "p1", (x) => x.hide("rogue")),
      as(world, "gm2", (x) => x.hide("rogue")),
    ]);
    expect([c, d].filter((o) => o && "dc" in o)).toHaveLength(1);
    expect(rollCalls(rogue)).toHaveLength(2);
    expect(consistent(token, rogue)).toBe(true);
  });

  it("two GMs end the hiding at once: one card, the status removed once", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12);
    await as(world, "gm1", (x) => x.hide("rogue"));
    const mark = world.writes.length;
    world.click("gm2", world.renderTokenHUD(token, "gm2").querySelector("[data-action='aventure-end-hide']"));
    world.click("gm1", world.renderTokenHUD(token, "gm1").querySelector("[data-action='aventure-end-hide']"));
    await world.settle();
    expect(cardsWith(world, "hideEnd")).toHaveLength(1);
    expect(statusWrites(world, mark)).toEqual(["delete hiding by gm1"]);
    expect(consistent(token, rogue)).toBe(false);
    expect(world.notifications.filter((n) => n.type === "error")).toEqual([]);
  });

  it("two GMs mark the same observer as searching at once: it rolls once", async () => {
    const { world, rogue, token } = await guards();
    world.queueRolls(12, 20, 20);
    await as(world, "gm1", (x) => x.hide("rogue"));
    await Promise.all([as(world, "gm1", (x) => x.setSearching("g10")), as(world, "gm2", (x) => x.setSearching("g10"))]);
    await world.settle();
    expect(rollCalls(world.actors.get("g10")!)).toHaveLength(1);
    expect(cardsWith(world, "search")).toHaveLength(1);
    expect(hideFlag(token)).toMatchObject({ from: ["g14"] });
    expect(consistent(token, rogue)).toBe(true);
  });
});

describe("hiding: exactly once across a crash at any write (recovery on ready)", () => {
  const interrupted = (world: FakeWorld) => world.as("p1", () => game.i18n.localize("AVENTURE.Request.interrupted"));
  const gm1Writes = (world: FakeWorld, mark: number) =>
    world
      .writesSince(mark)
      .filter((w) => w.user === "gm1")
      .map((w) => `${w.action} ${w.documentName}`);

  /** After a crash of gm1 before its k-th write: gm2 takes over (userConnected), then gm1 reloads. */
  async function recover(world: FakeWorld) {
    await world.settle({ allowErrors: true });
    if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
    await world.settle();
  }

  it("counts the active GM's writes of a player's hide, end of hiding and search (the loops below cover each)", async () => {
    const { world } = await guards();
    world.queueRolls(12, 12, 20);
    let mark = world.writes.length;
    await as(world, "p1", (a) => a.hide("rogue"));
    await world.settle();
    // receipt, Stealth roll (whispered to the GMs and the rogue's owner), card (applying), hidden status, hide entry
    // (scene), card (applied), reply, request and receipt deleted
    expect(gm1Writes(world, mark)).toEqual([
      "create ChatMessage",
      "create ChatMessage",
      "create ChatMessage",
      "create ActiveEffect",
      "update Scene",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
    mark = world.writes.length;
    await as(world, "p1", (a) => a.endHide("rogue", "noise"));
    await world.settle();
    // receipt, card (applying), hide entry removed (scene), hidden status removed, card (applied), reply, deletions
    expect(gm1Writes(world, mark)).toEqual([
      "create ChatMessage",
      "create ChatMessage",
      "update Scene",
      "delete ActiveEffect",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
    await as(world, "gm1", (a) => a.hide("rogue", { observers: ["g10"] }));
    mark = world.writes.length;
    await as(world, "gm2", (a) => a.setSearching("g10"));
    await world.settle();
    // receipt, card (applying, the Perception roll on it), hide entry removed (scene), hidden status removed, searching
    // mark (scene), card (applied), reply, deletions
    expect(gm1Writes(world, mark)).toEqual([
      "create ChatMessage",
      "create ChatMessage",
      "update Scene",
      "delete ActiveEffect",
      "update Scene",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (let k = 1; k <= 9; k++) {
    it(`a player's hide, crash before the active GM's write ${k}: the status and the flag both or neither, rolled once`, async () => {
      const { world, rogue, token } = await guards();
      world.queueRolls(12, 12);
      world.crashAt(k, (w) => w.user === "gm1");
      expectRequestCrashLogs(k, 6);
      const result = await as(world, "p1", (a) => a.hide("rogue"));
      await recover(world);
      const hidden = consistent(token, rogue);
      const cards = cardsWith(world, "hide");
      expect(rollCalls(rogue)).toHaveLength(1);
      expect(cards.length).toBeLessThanOrEqual(1);
      if (hidden) {
        expect(cards).toHaveLength(1);
        expect(opOf(cards[0]!, "hide")).toMatchObject({ status: "applied" });
        expect(hideFlag(token)).toMatchObject({ dc: 15, from: ["g10", "g14"] });
        if (k >= 4 && k <= 6) {
          expect(opOf(cards[0]!, "hide")!.resumed).toBe(true);
          expect(cards[0]!.content).toContain("Interrupted by a reload, then finished by the GM&#39;s client.");
        }
      } else {
        expect(cards).toEqual([]);
        expect(result).toBeUndefined();
        expect(errors(world, "p1")).toEqual([interrupted(world)]);
      }
      expect(requestsLeft(world)).toEqual([]);
    });
  }

  for (let k = 1; k <= 8; k++) {
    it(`a player's end of hiding, crash before the active GM's write ${k}: still hidden or ended, never half`, async () => {
      const { world, rogue, token } = await guards();
      world.queueRolls(12);
      await as(world, "gm1", (a) => a.hide("rogue"));
      world.crashAt(k, (w) => w.user === "gm1");
      expectRequestCrashLogs(k, 5);
      await as(world, "p1", (a) => a.endHide("rogue", "noise"));
      await recover(world);
      const hidden = consistent(token, rogue);
      const cards = cardsWith(world, "hideEnd");
      expect(cards.length).toBe(hidden ? 0 : 1);
      if (!hidden) expect(opOf(cards[0]!, "hideEnd")).toMatchObject({ status: "applied" });
      expect(requestsLeft(world)).toEqual([]);
    });
  }

  for (let k = 1; k <= 9; k++) {
    it(`a search that spots the hider, crash before the active GM's write ${k}: the hiding ends and the mark is set, or neither`, async () => {
      const { world, rogue, token } = await guards();
      world.queueRolls(12, 20, 20);
      await as(world, "gm1", (a) => a.hide("rogue", { observers: ["g10"] }));
      world.crashAt(k, (w) => w.user === "gm1");
      expectRequestCrashLogs(k, 6);
      await as(world, "gm2", (a) => a.setSearching("g10"));
      await recover(world);
      const hidden = consistent(token, rogue);
      const marked = searchMark(world, "g10") === true;
      const cards = cardsWith(world, "search");
      expect(marked).toBe(!hidden);
      expect(cards.length).toBe(hidden ? 0 : 1);
      expect(rollCalls(world.actors.get("g10")!)).toHaveLength(1);
      if (!hidden) expect(opOf(cards[0]!, "search")).toMatchObject({ status: "applied" });
      expect(requestsLeft(world)).toEqual([]);
    });
  }
});

// -------------------------------------------------------------------------------------------------------------------
// Trust round 3 (issue 20, items 4–6): the hide prerequisite against every creature that may notice, what a player
// learns from a hide, and the GM's rolls kept off the public chat.
// -------------------------------------------------------------------------------------------------------------------

/** A token whose centre is at (x, y) grid squares, hidden from the players by the GM (TokenDocument#hidden) or not. */
function addHiddenToken(
  world: FakeWorld,
  scene: FakeScene,
  data: { id: string; name: string; at: [number, number]; actor: FakeActor; disposition?: number },
): FakeToken {
  return world.addToken(scene, {
    _id: data.id,
    name: data.name,
    x: data.at[0] * 100 - 50,
    y: data.at[1] * 100 - 50,
    actorId: data.actor.id,
    actorLink: true,
    disposition: data.disposition ?? -1,
    hidden: true,
    sight: { enabled: false, range: 0, visionMode: "basic" },
    detectionModes: [],
  });
}
/** Messages with rolls that a user's chat log shows. */
const rollsSeenBy = (world: FakeWorld, user: string) => world.visibleMessages(user).filter((m) => m.rolls.length > 0);

describe("issue 20: the hide prerequisite holds against every creature that may notice (item 4)", () => {
  /** The rogue (p1's) in the torch's bright light, p1's dog behind the wall, a guard that sees the rogue. */
  async function plainSight() {
    const { world, scene } = await torchScene();
    const rogue = actor(world, { id: "rogue", name: "Rogue", stealthMod: 3, owner: "p1" });
    const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [11, 10], actor: rogue, disposition: 1 });
    const dog = actor(world, { id: "dog", name: "Dog", passive: 1, owner: "p1" });
    addToken(world, scene, { id: "dog", name: "Dog", at: [15, 10], actor: dog, disposition: -1 }); // behind the wall
    const guard = actor(world, { id: "guard", name: "Guard", passive: 5 });
    addToken(world, scene, { id: "guard", name: "Guard", at: [11, 13], actor: guard, disposition: -1 }); // bright, in view
    await refresh(world);
    return { world, scene, rogue, token };
  }

  it("naming only their own dog behind a wall does not hide the rogue from a guard who sees it in bright light (API, forged request, GM)", async () => {
    const { world, rogue, token } = await plainSight();
    const mark = world.writes.length;
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["dog"] }))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["Rogue cannot hide: seen by Guard (in light)."]);
    expect(
      await forgeRequest(world, "p1", "hide", {
        sceneId: "scene1",
        tokenId: "rogue",
        observers: ["dog"],
        searching: [],
      }),
    ).toMatchObject(refused("AVENTURE.Light.Hide.cannot"));
    // Whatever the request names, a GM's included: the guard sees it.
    expect(await as(world, "gm2", (a) => a.hide("rogue", { observers: ["dog"] }))).toBeUndefined();
    expect(errors(world, "gm2")).toEqual(["Rogue cannot hide: seen by Guard (in light)."]);
    expect(world.rollsMade).toEqual([]);
    expect(gameWrites(world, mark)).toEqual([]);
    expect(hideFlag(token)).toBeUndefined();
    expect(hiding(rogue)).toBe(false);
    // Ambient detection has nothing to treat as hidden: the guard in the light is no observer of a hidden rogue.
    await tick(world);
    expect(cardsWith(world, "detect")).toEqual([]);
  });

  it("who may notice follows the setting detectionObservers: a neutral onlooker in view blocks the hide only with 'all'", async () => {
    const { world, scene } = await torchScene();
    const rogue = actor(world, { id: "rogue", name: "Rogue", stealthMod: 3, owner: "p1" });
    const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [11, 10], actor: rogue, disposition: 1 });
    addToken(world, scene, {
      id: "dog",
      name: "Dog",
      at: [15, 10],
      actor: actor(world, { id: "dog", name: "Dog", passive: 1, owner: "p1" }),
      disposition: -1,
    });
    addToken(world, scene, {
      id: "villager",
      name: "Villager",
      at: [11, 13],
      actor: actor(world, { id: "villager", name: "Villager", passive: 5 }),
      disposition: 0,
    });
    await refresh(world);
    await set(world, "detectionObservers", "all");
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["dog"] }))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["Rogue cannot hide: seen by Villager (in light)."]);
    expect(hideFlag(token)).toBeUndefined();
    // Friendly ↔ hostile only: the neutral villager may not notice hidden creatures, so it does not count.
    await set(world, "detectionObservers", "hostile");
    world.queueRolls(12);
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["dog"] }))).toMatchObject({
      dc: 15,
      hiddenFrom: ["dog"],
      hidden: true,
    });
  });

  it("a creature that may notice but was not named is not rolled against: the hider is not hidden from it (it knows where it is)", async () => {
    const { world, scene } = await torchScene();
    const rogue = actor(world, { id: "rogue", name: "Rogue", stealthMod: 3, owner: "p1" });
    const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [30, 10], actor: rogue, disposition: 1 }); // darkness
    addToken(world, scene, {
      id: "dog",
      name: "Dog",
      at: [31, 10],
      actor: actor(world, { id: "dog", name: "Dog", passive: 1, owner: "p1" }),
      disposition: -1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [30, 14],
      actor: actor(world, { id: "guard", name: "Guard", passive: 18 }),
      disposition: -1,
    }); // in the dark, no darkvision
    await refresh(world);
    world.queueRolls(5); // Stealth 8: the guard's passive 18 would spot it
    expect(await as(world, "gm1", (a) => a.hide("rogue", { observers: ["dog"] }))).toMatchObject({
      dc: 8,
      hiddenFrom: ["dog"],
      spottedBy: [],
      notRolled: ["guard"],
      hidden: true,
    });
    expect(hideFlag(token)).toMatchObject({ dc: 8, from: ["dog"], seenBy: ["guard"] });
    expect(cardsWith(world, "hide").at(-1)!.content).toMatch(/Guard[\s\S]*Not rolled: knows where it is/);
    // The rogue walks into the torch's dim light in front of the guard: no notice to judge, it was never hidden from it.
    await moveTo(world, token, [10, 16]);
    await tick(world);
    expect(cardsWith(world, "detect")).toEqual([]);
    // Searching, the guard has nothing to roll against either.
    const made = world.rollsMade.length;
    await as(world, "gm1", (a) => a.setSearching("guard"));
    expect(world.rollsMade.length).toBe(made);
  });

  it("ambient detection off: a creature that was not there when it hid, and sees it, ends the hiding", async () => {
    const { world, scene } = await torchScene();
    await set(world, "detectionMode", "off");
    const rogue = actor(world, { id: "rogue", name: "Rogue", owner: "p1" });
    const r = addToken(world, scene, { id: "rogue", name: "Rogue", at: [11, 10], actor: rogue, disposition: 1 }); // bright, by the torch
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [14, 10],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
      disposition: -1,
    }); // behind the wall
    await refresh(world);
    world.queueRolls(10);
    expect(await as(world, "gm1", (a) => a.hide("rogue"))).toMatchObject({ hiddenFrom: ["guard"] });
    // A guard arrives (dim light, in view of the rogue in the bright light): it was not there to be rolled against.
    addToken(world, scene, {
      id: "newcomer",
      name: "Newcomer",
      at: [11, 14],
      actor: actor(world, { id: "newcomer", name: "Newcomer", passive: 5 }),
      disposition: -1,
    });
    await refresh(world);
    await world.settle();
    expect(hideFlag(r)).toBeUndefined();
    expect(hiding(rogue)).toBe(false);
    expect(cardsWith(world, "hideEnd")).toHaveLength(1);
  });
});

describe("issue 20: a player learns nothing from a hide about creatures they cannot see (item 5)", () => {
  it("a refused hide names only the creatures the player can see; a GM's refusal names them all", async () => {
    const { world, scene } = await torchScene();
    const rogue = actor(world, { id: "rogue", name: "Rogue", owner: "p1" });
    const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [30, 10], actor: rogue, disposition: 1 }); // darkness
    // A creature the GM hid from the players (TokenDocument#hidden), with darkvision 18 m, 4.5 m away.
    const assassin = addHiddenToken(world, scene, {
      id: "assassin",
      name: "Hidden Assassin",
      at: [30, 13],
      actor: actor(world, { id: "assassin", name: "Hidden Assassin", darkvision: 60 }),
    });
    await refresh(world);
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["Rogue cannot hide: seen by someone you cannot see."]);
    const reply = await forgeRequest(world, "p1", "hide", { sceneId: "scene1", tokenId: "rogue" });
    expect(reply).toMatchObject(refused("AVENTURE.Light.Hide.cannot"));
    expect(JSON.stringify(reply)).not.toMatch(/assassin|darkvision/i);
    expect(await as(world, "gm1", (a) => a.hide("rogue"))).toBeUndefined();
    expect(errors(world, "gm1")).toEqual(["Rogue cannot hide: seen by Hidden Assassin (darkvision)."]);
    // In the light: the guard the rogue sees is named, the hidden assassin is not.
    await moveTo(world, token, [11, 10]);
    await world.as("gm1", () => assassin.update({ x: 1150, y: 1150 })); // (12, 12): in view, bright
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [11, 13],
      actor: actor(world, { id: "guard", name: "Guard" }),
      disposition: -1,
    });
    await refresh(world);
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toBeUndefined();
    expect(errors(world, "p1").at(-1)).toBe(
      "Rogue cannot hide: seen by Guard (in light) and by someone you cannot see.",
    );
    expect(world.rollsMade).toEqual([]);
  });

  it("a player's hide answers with what the player may know: no id nor roll of a creature they cannot see; the GM's card has everything", async () => {
    const { world, scene } = await torchScene();
    const rogue = actor(world, { id: "rogue", name: "Rogue", stealthMod: 3, owner: "p1" });
    const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [30, 10], actor: rogue, disposition: 1 }); // darkness
    addToken(world, scene, {
      id: "dog",
      name: "Dog",
      at: [31, 10],
      actor: actor(world, { id: "dog", name: "Dog", passive: 1, owner: "p1" }),
      disposition: -1,
    });
    addHiddenToken(world, scene, {
      id: "lurker",
      name: "Lurker",
      at: [34, 10],
      actor: actor(world, { id: "lurker", name: "Lurker", passive: 5 }),
    });
    await refresh(world);
    await as(world, "gm1", (a) => a.setSearching("lurker"));
    // A malformed request is refused without listing the default observers the player cannot see.
    const stray = await forgeRequest(world, "p1", "hide", {
      sceneId: "scene1",
      tokenId: "rogue",
      searching: ["dog", "rogue"],
    });
    expect(stray).toMatchObject(
      refused("AVENTURE.Error.UnknownValue", { name: "searching", value: "rogue", allowed: "dog" }),
    );
    world.queueRolls(12, 4); // Stealth 15; the searching lurker rolls 4
    const out = await as(world, "p1", (a) => a.hide("rogue"));
    expect(out).toEqual({
      dc: 15,
      hidden: true,
      hiddenFrom: ["dog"],
      spottedBy: [],
      unknown: [],
      notRolled: [],
      searchRolls: {},
    });
    expect(hideFlag(token)).toMatchObject({ dc: 15, from: ["dog", "lurker"] });
    const card = cardsWith(world, "hide").at(-1)!;
    expect(card.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(card.content).toMatch(/Lurker[\s\S]*4<br><small>\(searching\)/);
    // The owner's token HUD: the DC of their own hide, not how many creatures it hides from.
    const text = async (user: string) => {
      const root = world.renderTokenHUD(token, user);
      for (let i = 0; i < 50 && !root.querySelector(".aventure-light-hidden"); i++)
        await new Promise((r) => setImmediate(r));
      return root.querySelector(".aventure-light-hidden")?.textContent?.trim();
    };
    expect(await text("p1")).toBe("Stealth DC 15");
    expect(await text("gm1")).toBe("Stealth DC 15, hidden from 2 observers");
  });

  it("a proposal's answer tells the player the outcome without counting or naming creatures they cannot see", async () => {
    const { world, scene, token } = await guards();
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["g10"] }))).toEqual({ proposed: true });
    const proposal = cardsWith(world, "proposal").at(-1)!;
    // Before a GM applies it, a creature hidden from the players comes to see the rogue with darkvision.
    addHiddenToken(world, scene, {
      id: "assassin",
      name: "Hidden Assassin",
      at: [30, 13],
      actor: actor(world, { id: "assassin", name: "Hidden Assassin", darkvision: 60 }),
    });
    await refresh(world);
    world.click(
      "gm1",
      world.renderMessage(proposal, "gm1").querySelector("[data-action='aventure-proposal'][data-accept='true']"),
    );
    await world.settle();
    expect(proposal.content).toContain("Hidden Assassin (darkvision)"); // the GMs' card has everything
    const told = world.messages.contents.at(-1)!;
    expect(told.whisper).toEqual(["p1"]);
    expect(told.content).toContain("seen by someone you cannot see");
    expect(told.content).not.toMatch(/Assassin|darkvision/);
    expect(hideFlag(token)).toBeUndefined();
    // Applied: the answer gives the DC of the player's own hide, no count of observers.
    await world.as("gm1", () => scene.tokens.get("assassin")!.delete());
    await refresh(world);
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["g10"] }))).toEqual({ proposed: true });
    world.queueRolls(12);
    world.click(
      "gm1",
      world
        .renderMessage(cardsWith(world, "proposal").at(-1)!, "gm1")
        .querySelector("[data-action='aventure-proposal'][data-accept='true']"),
    );
    await world.settle();
    expect(world.messages.contents.at(-1)!.content).toContain("Rogue is hidden (Stealth DC 15).");
  });
});

describe("issue 20: the GM's rolls are not public (item 6)", () => {
  it("a GM hiding a monster, a hostile searcher's roll, a GM's search: the rolls ride on the GMs' cards; a player's own Stealth roll reaches that player", async () => {
    const { world, scene } = await guards();
    const ogre = actor(world, { id: "ogre", name: "Ogre", stealthMod: 1 });
    addToken(world, scene, { id: "ogre", name: "Ogre", at: [34, 8], actor: ogre, disposition: -1 }); // darkness
    await refresh(world);
    world.queueRolls(14); // Stealth 15 against the rogue (passive 10)
    expect(await as(world, "gm1", (a) => a.hide("ogre"))).toMatchObject({ dc: 15, hiddenFrom: ["rogue"] });
    const hideCard = cardsWith(world, "hide").at(-1)!;
    expect(hideCard.rolls).toHaveLength(1);
    expect(hideCard.whisper.sort()).toEqual(["gm1", "gm2"]);
    for (const p of ["p1", "p2"]) expect(rollsSeenBy(world, p)).toEqual([]);
    // The rogue hides while Guard 14 searches: the guard's roll is the GMs'; the rogue's own Stealth roll is p1's.
    await as(world, "gm1", (a) => a.setSearching("g14"));
    world.queueRolls(12, 16);
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toMatchObject({ dc: 15, hidden: true });
    const card = cardsWith(world, "hide").at(-1)!;
    expect(card.rolls).toHaveLength(1); // the guard's Perception
    expect(rollsSeenBy(world, "p2")).toEqual([]);
    const own = rollsSeenBy(world, "p1");
    expect(own.map((m) => [m.flavor, m.whisper.sort()])).toEqual([
      ["Hiding: Dexterity (Stealth)", ["gm1", "gm2", "p1"]],
    ]);
    // A GM marks Guard 10 as searching: its roll against the hidden rogue goes on the search card only.
    world.queueRolls(3);
    await as(world, "gm1", (a) => a.setSearching("g10"));
    expect(cardsWith(world, "search").at(-1)!.rolls).toHaveLength(1);
    expect(rollsSeenBy(world, "p1")).toHaveLength(1);
    expect(rollsSeenBy(world, "p2")).toEqual([]);
  });
});
