/**
 * Light at tokens, effects and hiding (issue 5), on fake scenes drawn with test/fake/canvas.ts.
 * Grid: 100 px squares of 1.5 m. A torch: bright 6 m (400 px), dim 12 m (800 px).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bootModule } from "../fake/boot.js";
import { dnd5eActor, drawScene, type FakeLightScene } from "../fake/canvas.js";
import type { FakeWorld } from "../fake/foundry.js";
import {
  computeLightLevels,
  computeLightLevelsNaive,
  polygonContains,
  type PlainLightSource,
  type PlainToken,
} from "../../src/foundry/light/compute.js";
import { lightHudContext } from "../../src/apps/light-hud-context.js";
import { hideCardContext } from "../../src/apps/hide-card-context.js";
import { SAMPLES } from "../templates/samples/light.js";

type Api = {
  hide(
    token: unknown,
    options?: { observers?: string[]; searching?: string[] },
  ): Promise<{ dc: number; spottedBy: string[]; hiddenFrom: string[]; hidden: boolean; searchRolls: Record<string, number> } | null | undefined>;
  setSearching(token: unknown, searching?: boolean): Promise<boolean | undefined>;
  hideSelected(): Promise<unknown>;
  endHide(token: unknown, event?: string): Promise<boolean | undefined>;
  lightAt(token: unknown): { level: string; perceived: string; sense: string; effect: string; senses: { sense: string; range: number; from: string }[] } | null;
  refreshLight(): Promise<void>;
};

async function tracker() {
  return (await import("../../src/foundry/light/tracker.js")).lightTracker;
}

function api(world: FakeWorld): Api {
  return world.modules.get("aventure")!.api as Api;
}

/** Night underground (no global light), a torch at (10, 10) and a wall east of it at x = 13. */
async function torchScene(opts: { users?: { id: string; isGM: boolean }[]; systemId?: string } = {}) {
  const world = await bootModule({ systemId: opts.systemId ?? "dnd5e", users: opts.users });
  const scene = drawScene(world, { darkness: 1, globalLight: false });
  scene.addWall(1300, 700, 1300, 1300);
  scene.addLight("torch", [10, 10], 6, 12);
  return { world, scene };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("pure light computation (src/foundry/light/compute.ts)", () => {
  it("tests points against a polygon (even-odd)", () => {
    const square = [0, 0, 10, 0, 10, 10, 0, 10];
    expect(polygonContains(square, 5, 5)).toBe(true);
    expect(polygonContains(square, 15, 5)).toBe(false);
    expect(polygonContains([0, 0, 1, 1], 0, 0)).toBe(false); // not a polygon
  });

  it("gives the same levels as the naive all-pairs version", () => {
    let seed = 7;
    const r = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
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
    const out = computeLightLevels([{ id: "t", x: 150, y: 0, elevation: 0, darkness: 1, globalLight: false }], [far, near]);
    expect(out.get("t")!.level).toBe("dim");
    expect(exact).toBe(1);
  });
});

describe("light level at tokens (fake scene)", () => {
  it("a token beside a torch is bright, at the edge of its dim radius dim, behind a wall dark", async () => {
    const { world, scene } = await torchScene();
    scene.addToken({ id: "beside", name: "Beside", at: [11, 10] }); // 1.5 m from the torch
    scene.addToken({ id: "edge", name: "Edge", at: [10, 18] }); // exactly 12 m south
    scene.addToken({ id: "beyond", name: "Beyond", at: [10, 18.1] }); // 12.15 m
    scene.addToken({ id: "behind", name: "Behind", at: [14, 10] }); // 6 m east, behind the wall
    await api(world).refreshLight();
    expect(api(world).lightAt("beside")!.level).toBe("bright");
    expect(api(world).lightAt("edge")!.level).toBe("dim");
    expect(api(world).lightAt("beyond")!.level).toBe("dark");
    expect(api(world).lightAt("behind")!.level).toBe("dark");
  });

  it("ignores the global light source but uses global illumination with the darkness thresholds", async () => {
    const world = await bootModule();
    const scene = drawScene(world, { darkness: 0.1, globalLight: true });
    scene.addToken({ id: "a", name: "A", at: [5, 5] });
    await api(world).refreshLight();
    expect(api(world).lightAt("a")!.level).toBe("bright"); // daylight
    scene.environment.darknessLevel = 0.5; // dusk
    await api(world).refreshLight();
    expect(api(world).lightAt("a")!.level).toBe("dim");
    scene.environment.darknessLevel = 0.8; // night, although the global light source is still in the list
    await api(world).refreshLight();
    expect(api(world).lightAt("a")!.level).toBe("dark");
    await world.game.settings.set("aventure", "lightThresholdDim", 0.9);
    await api(world).refreshLight();
    expect(api(world).lightAt("a")!.level).toBe("dim");
  });

  it("a darkness source puts out the light inside it", async () => {
    const { world, scene } = await torchScene();
    scene.addDarkness("spell", [10, 12], 3);
    scene.addToken({ id: "in", name: "In", at: [10, 12] });
    scene.addToken({ id: "out", name: "Out", at: [9, 10] });
    await api(world).refreshLight();
    expect(api(world).lightAt("in")!.level).toBe("dark");
    expect(api(world).lightAt("out")!.level).toBe("bright");
  });

  it("darkvision turns darkness into dim for the creature itself (token vision mode or the actor's senses)", async () => {
    const { world, scene } = await torchScene();
    const elf = dnd5eActor(world, { id: "elf", name: "Elf", darkvision: 60 }); // 60 ft = 18 m
    scene.addToken({ id: "elf", name: "Elf", at: [14, 10], actor: elf });
    scene.addToken({ id: "orc", name: "Orc", at: [14, 11], sight: { enabled: true, range: 12, visionMode: "darkvision" } });
    scene.addToken({ id: "man", name: "Man", at: [14, 12] });
    await api(world).refreshLight();
    const e = api(world).lightAt("elf")!;
    expect([e.level, e.perceived, e.sense, e.effect]).toEqual(["dark", "dim", "darkvision", "disadvantage"]);
    expect(e.senses).toEqual([{ sense: "darkvision", range: 18, from: "actor" }]);
    const o = api(world).lightAt("orc")!;
    expect([o.perceived, o.effect]).toEqual(["dim", "disadvantage"]);
    expect(o.senses).toEqual([{ sense: "darkvision", range: 12, from: "vision" }]); // the scene's units are metres
    const m = api(world).lightAt("man")!;
    expect([m.perceived, m.effect]).toEqual(["dark", "blinded"]);
  });

  it("reads seeAll as truesight and senseAll as blindsight from the detection modes", async () => {
    const { world, scene } = await torchScene();
    scene.addToken({
      id: "bat",
      name: "Bat",
      at: [20, 20],
      detectionModes: [
        { id: "senseAll", enabled: true, range: 9 },
        { id: "seeAll", enabled: false, range: 30 },
      ],
    });
    await api(world).refreshLight();
    const b = api(world).lightAt("bat")!;
    expect(b.senses).toEqual([{ sense: "blindsight", range: 9, from: "detection" }]);
    expect([b.level, b.perceived, b.sense, b.effect]).toEqual(["dark", "bright", "blindsight", "none"]);
  });

  it("is debounced: many hooks, one recomputation, and a moved token alone is recomputed", async () => {
    vi.useFakeTimers();
    const { world, scene } = await torchScene();
    const t = await tracker();
    scene.addToken({ id: "a", name: "A", at: [11, 10] });
    scene.addToken({ id: "b", name: "B", at: [30, 30] });
    const before = t.flushes;
    for (let i = 0; i < 20; i++) await world.callAllClients("lightingRefresh");
    expect(t.flushes).toBe(before);
    await vi.advanceTimersByTimeAsync(500);
    expect(t.flushes).toBe(before + 1);
    expect(t.states.get("b")!.light.level).toBe("dark");
    const torch = scene.lights.get("torch")!;
    const tests = torch.tests;
    await scene.token("b").moveTo([10, 11]);
    await vi.advanceTimersByTimeAsync(500);
    expect(t.flushes).toBe(before + 2);
    expect(torch.tests - tests).toBe(1); // only the moved token was tested against the torch
    expect(t.states.get("b")!.light.level).toBe("bright");
    // Hooks every 50 ms for 3 s (a long animation): recomputed at least once a second, not 60 times.
    const mid = t.flushes;
    for (let i = 0; i < 60; i++) {
      await world.callAllClients("lightingRefresh");
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(500);
    expect(t.flushes - mid).toBeGreaterThanOrEqual(3);
    expect(t.flushes - mid).toBeLessThanOrEqual(4);
  });

  it("recomputes after light, token-light and scene lighting updates of the viewed scene only", async () => {
    vi.useFakeTimers();
    const { world, scene } = await torchScene();
    const t = await tracker();
    scene.addToken({ id: "a", name: "A", at: [30, 30] });
    await vi.advanceTimersByTimeAsync(500);
    const recompute = async (hook: string, ...args: unknown[]) => {
      const before = t.flushes;
      await world.callAllClients(hook, ...args);
      await vi.advanceTimersByTimeAsync(500);
      return t.flushes - before;
    };
    const sceneDoc = { id: "scene1" };
    const light = { parent: sceneDoc };
    scene.addLight("lantern", [30, 31], 6, 12); // lit without a lighting refresh: the light document's hook suffices
    expect(await recompute("createAmbientLight", light, {}, "gm1")).toBe(1);
    expect(t.states.get("a")!.light.level).toBe("bright");
    expect(await recompute("updateAmbientLight", light, { config: { dim: 3 } }, {}, "gm1")).toBe(1);
    expect(await recompute("deleteAmbientLight", light, {}, "gm1")).toBe(1);
    expect(await recompute("updateToken", scene.token("a"), { light: { bright: 3 } }, {}, "gm1")).toBe(1);
    expect(await recompute("updateScene", sceneDoc, { environment: { darknessLevel: 0.2 } }, {}, "gm1")).toBe(1);
    expect(await recompute("updateScene", sceneDoc, { name: "Crypt" }, {}, "gm1")).toBe(0);
    expect(await recompute("updateScene", { id: "elsewhere" }, { environment: { darknessLevel: 0 } }, {}, "gm1")).toBe(0);
    expect(await recompute("createAmbientLight", { parent: { id: "elsewhere" } }, {}, "gm1")).toBe(0);
  });

  it("draws a sun / half / moon icon for the GM and the owner only; the client setting hides it", async () => {
    const { world, scene } = await torchScene({ users: [{ id: "gm1", isGM: true }, { id: "p1", isGM: false }] });
    const mine = dnd5eActor(world, { id: "mine", name: "Mine", owner: "p1" });
    scene.addToken({ id: "mine", name: "Mine", at: [11, 10], actor: mine });
    scene.addToken({ id: "theirs", name: "Theirs", at: [10, 17] });
    const icons = await import("../../src/foundry/light/icons.js");
    await api(world).refreshLight();
    expect(icons.lightIconOf(scene.token("mine").object as never)).toBe("☀");
    expect(icons.lightIconOf(scene.token("theirs").object as never)).toBe("◐");
    // As the player's client: only their own token.
    await world.asUser("p1", async () => {
      const t = await tracker();
      t.reset();
      t.schedule();
      await t.flush();
      expect(icons.lightIconOf(scene.token("mine").object as never)).toBe("☀");
      expect(icons.lightIconOf(scene.token("theirs").object as never)).toBeNull();
      await world.game.settings.set("aventure", "lightIcons", false);
      expect(icons.lightIconOf(scene.token("mine").object as never)).toBeNull();
    });
  });
});

describe("light effects (active GM only)", () => {
  let world: FakeWorld;
  let scene: FakeLightScene;
  beforeEach(async () => {
    ({ world, scene } = await torchScene({ users: [{ id: "gm1", isGM: true }, { id: "gm2", isGM: true }] }));
    await world.game.settings.set("aventure", "lightEffects", true);
  });

  it("adds blinded in darkness and the dim marker in dim light once with two GMs, and removes them when a light is lit", async () => {
    vi.useFakeTimers();
    const lit = dnd5eActor(world, { id: "lit", name: "Lit" });
    const dim = dnd5eActor(world, { id: "dim", name: "Dim" });
    const dark = dnd5eActor(world, { id: "dark", name: "Dark" });
    scene.addToken({ id: "lit", name: "Lit", at: [11, 10], actor: lit });
    scene.addToken({ id: "dim", name: "Dim", at: [10, 17], actor: dim });
    scene.addToken({ id: "dark", name: "Dark", at: [14, 10], actor: dark }); // behind the wall
    world.log.length = 0;
    await world.callAllClients("lightingRefresh");
    expect(world.log).toEqual([]); // the hooks only schedule
    await vi.advanceTimersByTimeAsync(500);
    expect(world.log.filter((l) => l.startsWith("status")).sort()).toEqual(["status dark blinded true", "status dim aventure-dim true"]);
    // Both GMs see another refresh: nothing is added twice.
    await world.callAllClients("lightingRefresh");
    await vi.advanceTimersByTimeAsync(500);
    await world.asUser("gm2", async () => {
      const t = await tracker();
      t.schedule();
      await t.flush();
    });
    expect(world.log.filter((l) => l.startsWith("status"))).toHaveLength(2);
    // A lantern is lit beyond the wall's south end: both tokens stand in its bright light.
    scene.addLight("lantern", [13.5, 14], 9, 18);
    world.log.length = 0;
    await world.callAllClients("lightingRefresh");
    await vi.advanceTimersByTimeAsync(500);
    expect(world.log.filter((l) => l.startsWith("status")).sort()).toEqual(["status dark blinded false", "status dim aventure-dim false"]);
    expect(dark.statuses.has("blinded")).toBe(false);
  });

  it("a linked actor with two tokens in different light gets the mildest effect, whichever token moves", async () => {
    vi.useFakeTimers();
    const twin = dnd5eActor(world, { id: "twin", name: "Twin" });
    scene.addToken({ id: "lit", name: "Twin", at: [11, 10], actor: twin }); // bright, by the torch
    scene.addToken({ id: "dark", name: "Twin", at: [14, 10], actor: twin }); // behind the wall
    await api(world).refreshLight();
    expect(twin.statuses.size).toBe(0); // one of its tokens sees: never blinded
    world.log.length = 0;
    await scene.token("dark").moveTo([14, 12]); // still dark: nothing changes
    await vi.advanceTimersByTimeAsync(500);
    expect(world.log.filter((l) => l.startsWith("status"))).toEqual([]);
    await scene.token("lit").moveTo([14, 11]); // now both behind the wall
    await vi.advanceTimersByTimeAsync(500);
    expect(world.log.filter((l) => l.startsWith("status"))).toEqual(["status twin blinded true"]);
    await scene.token("dark").moveTo([10, 17]); // one in the torch's dim light
    await vi.advanceTimersByTimeAsync(500);
    expect(world.log.filter((l) => l.startsWith("status"))).toEqual([
      "status twin blinded true",
      "status twin blinded false",
      "status twin aventure-dim true",
    ]);
  });

  it("never adds effects on a GM that is not the active GM", async () => {
    const a = dnd5eActor(world, { id: "a", name: "A" });
    scene.addToken({ id: "a", name: "A", at: [14, 10], actor: a });
    await world.asUser("gm2", async () => {
      const t = await tracker();
      t.schedule();
      await t.flush();
    });
    expect(a.statuses.size).toBe(0);
  });

  it("leaves a blinded condition set by hand when the light comes back", async () => {
    const a = dnd5eActor(world, { id: "a", name: "A" });
    await a.toggleStatusEffect("blinded", { active: true }); // the GM's own ruling
    scene.addToken({ id: "a", name: "A", at: [14, 10], actor: a });
    await api(world).refreshLight();
    scene.addLight("lantern", [15, 10], 9, 18);
    await api(world).refreshLight();
    expect(api(world).lightAt("a")!.level).toBe("bright");
    expect(a.statuses.has("blinded")).toBe(true);
  });

  it("dnd5e's dim marker carries disadvantage on Perception; removing the setting removes only Aventure's", async () => {
    const entry = world.CONFIG.statusEffects.find((e) => e.id === "aventure-dim") as { changes?: unknown[] };
    expect(entry.changes).toEqual([{ key: "system.skills.prc.roll.mode", mode: 2, value: "-1" }]);
    const a = dnd5eActor(world, { id: "a", name: "A" });
    scene.addToken({ id: "a", name: "A", at: [10, 17], actor: a });
    await api(world).refreshLight();
    expect(a.statuses.has("aventure-dim")).toBe(true);
    await world.game.settings.set("aventure", "lightEffects", false);
    await vi.waitFor(() => expect(a.statuses.has("aventure-dim")).toBe(false));
  });

  it("v14: dnd5e's dim marker writes its change as system.changes (type add), also in a keyed CONFIG.statusEffects", async () => {
    const w = await bootModule({ systemId: "dnd5e", generation: 14 });
    const change = { key: "system.skills.prc.roll.mode", type: "add", value: "-1" };
    const entry = w.CONFIG.statusEffects.find((e) => e.id === "aventure-dim") as { changes?: unknown; system?: unknown };
    expect(entry.system).toEqual({ changes: [change] });
    expect(entry.changes).toBeUndefined();
    // The v14 docs allow CONFIG.statusEffects keyed by id: the entry itself must be configured, not a copy.
    const keyed: Record<string, { id: string; system?: unknown }> = {};
    for (const e of w.CONFIG.statusEffects) keyed[e.id] = { id: e.id };
    (w.CONFIG as unknown as { statusEffects: unknown }).statusEffects = keyed;
    const { configureDimLightStatus } = await import("../../src/foundry/light/effects.js");
    configureDimLightStatus("dnd5e");
    expect(keyed["aventure-dim"]!.system).toEqual({ changes: [change] });
  });

  it("uses the core blind status and a visible marker outside dnd5e", async () => {
    const w = await bootModule({ systemId: "worldbuilding" });
    await w.game.settings.set("aventure", "lightEffects", true);
    const s = drawScene(w, { darkness: 1, globalLight: false });
    s.addLight("torch", [10, 10], 6, 12);
    const a = w.addActor({ _id: "a", name: "A" });
    const b = w.addActor({ _id: "b", name: "B" });
    s.addToken({ id: "a", name: "A", at: [30, 30], actor: a });
    s.addToken({ id: "b", name: "B", at: [10, 17], actor: b });
    await api(w).refreshLight();
    expect([...a.statuses]).toEqual(["blind"]);
    expect([...b.statuses]).toEqual(["aventure-dim"]);
    const entry = w.CONFIG.statusEffects.find((e) => e.id === "aventure-dim") as { changes?: unknown[] };
    expect(entry.changes).toBeUndefined();
  });
});

describe("hiding", () => {
  /** A rogue in darkness, three hostile guards without darkvision whose passive Perception is 10, 14 and 18. */
  async function guards(users = [{ id: "gm1", isGM: true }, { id: "gm2", isGM: true }, { id: "p1", isGM: false }]) {
    const { world, scene } = await torchScene({ users });
    const rogue = dnd5eActor(world, { id: "rogue", name: "Rogue", stealthMod: 3, owner: "p1" });
    scene.addToken({ id: "rogue", name: "Rogue", at: [30, 10], actor: rogue, disposition: 1 });
    [10, 14, 18].forEach((passive, i) => {
      const g = dnd5eActor(world, { id: `g${passive}`, name: `Guard ${passive}`, passive });
      scene.addToken({ id: `g${passive}`, name: `Guard ${passive}`, at: [33 + i, 12], actor: g, disposition: -1 });
    });
    await api(world).refreshLight();
    return { world, scene, rogue };
  }

  it("a Stealth total of 15 against passive 10, 14 and 18: hidden from 10 and 14, spotted by 18; GM card", async () => {
    const { world, scene, rogue } = await guards();
    world.messages.length = 0;
    world.rolls.push(12); // 12 + 3 = 15
    const out = await api(world).hide("rogue");
    expect(out).toMatchObject({ dc: 15, spottedBy: ["g18"], hiddenFrom: ["g10", "g14"], hidden: true });
    expect((rogue as unknown as { skillCalls: { config: { skill: string } }[] }).skillCalls[0]!.config.skill).toBe("ste");
    expect(rogue.statuses.has("hiding")).toBe(true);
    expect(scene.token("rogue").getFlag("aventure", "hide")).toMatchObject({ dc: 15, from: ["g10", "g14"] });
    const card = world.messages.find((m) => m.content?.includes("aventure-hide-card"))!;
    expect(card.whisper!.sort()).toEqual(["gm1", "gm2"]);
    expect(card.content).toMatch(/Guard 18[\s\S]*Spots it/);
    expect(card.content).toMatch(/Guard 10[\s\S]*Misses it/);
    expect(card.content).toContain("DC 15");
  });

  it("an observer the GM marks as searching rolls Wisdom (Perception) instead of its passive score", async () => {
    const { world, scene } = await guards();
    expect(await api(world).setSearching("g14")).toBe(true);
    expect(scene.token("g14").getFlag("aventure", "searching")).toBe(true);
    world.messages.length = 0;
    world.rolls.push(12, 16); // Stealth 12 + 3 = 15; Guard 14 searches and rolls 16 (passive 14 would miss)
    const out = await api(world).hide("rogue");
    expect(out).toMatchObject({ dc: 15, spottedBy: ["g14", "g18"], hiddenFrom: ["g10"], searchRolls: { g14: 16 } });
    const calls = (world.actors.get("g14") as unknown as { skillCalls: { config: { skill: string } }[] }).skillCalls;
    expect(calls.map((c) => c.config.skill)).toEqual(["prc"]);
    const card = world.messages.find((m) => m.content?.includes("aventure-hide-card"))!;
    expect(card.content).toMatch(/Guard 14[\s\S]*16<br><small>\(searching\)<\/small>[\s\S]*Spots it/);
    // Unmarked: back to passive scores.
    expect(await api(world).setSearching("g14", false)).toBe(false);
    expect(scene.token("g14").getFlag("aventure", "searching")).toBeUndefined();
  });

  it("an observer that starts searching rolls once against each creature already hidden from it", async () => {
    const { world, scene, rogue } = await guards();
    world.rolls.push(12); // Stealth 15: hidden from Guard 10 and Guard 14
    await api(world).hide("rogue");
    const made = world.rolls.made.length;
    await api(world).setSearching("g18"); // nothing is hidden from Guard 18 (it spotted the rogue): no roll
    expect(world.rolls.made.length).toBe(made);
    world.messages.length = 0;
    world.rolls.push(15); // Guard 10 searches: 15 ≥ DC 15, spots it
    await api(world).setSearching("g10");
    expect(scene.token("rogue").getFlag("aventure", "hide")).toMatchObject({ dc: 15, from: ["g14"] });
    expect(rogue.statuses.has("hiding")).toBe(true);
    const card = world.messages.find((m) => m.content?.includes("aventure-search-card"))!;
    expect(card.whisper!.sort()).toEqual(["gm1", "gm2"]);
    expect(card.content).toContain("Guard 10 searches");
    expect(card.content).toContain("Wisdom (Perception): 15");
    expect(card.content).toMatch(/Rogue<br><small>still hidden from other observers<\/small>[\s\S]*15[\s\S]*Spots it/);
    world.rolls.push(3); // Guard 14 searches: 3, misses it
    await api(world).setSearching("g14");
    expect(scene.token("rogue").getFlag("aventure", "hide")).toMatchObject({ from: ["g14"] });
    await api(world).setSearching("g14", false);
    world.rolls.push(20); // searches again: 20, spots it; hidden from nobody now
    await api(world).setSearching("g14");
    expect(scene.token("rogue").getFlag("aventure", "hide")).toBeUndefined();
    expect(rogue.statuses.has("hiding")).toBe(false);
    expect(world.messages.at(-1)!.content).toContain("no longer hidden");
  });

  it("the GM may name searching observers; a low roll misses even with a high passive; players cannot choose", async () => {
    const { world, scene, rogue } = await guards();
    world.rolls.push(12, 5); // Stealth 15; Guard 18 searches and rolls 5
    expect(await api(world).hide("rogue", { searching: ["g18"] })).toMatchObject({
      dc: 15,
      spottedBy: [],
      hiddenFrom: ["g10", "g14", "g18"],
      searchRolls: { g18: 5 },
    });
    await api(world).endHide("rogue");
    world.notifications.length = 0;
    const made = world.rolls.made.length;
    expect(await world.asUser("p1", () => api(world).hide("rogue", { searching: [] }))).toBeUndefined();
    expect(await world.asUser("p1", () => api(world).setSearching("g10"))).toBeUndefined();
    expect(world.notifications.map((n) => n.message)).toEqual(["Only a game master can do this.", "Only a game master can do this."]);
    expect(world.rolls.made.length).toBe(made);
    expect(rogue.statuses.has("hiding")).toBe(false);
    expect(scene.token("g10").getFlag("aventure", "searching")).toBeUndefined();
    // A player's request still honours the GM's marks.
    await api(world).setSearching("g10");
    world.rolls.push(12, 15); // Stealth 15; Guard 10 searches and rolls 15: spots it
    expect(await world.asUser("p1", () => api(world).hide("rogue"))).toMatchObject({ spottedBy: ["g10", "g18"], hiddenFrom: ["g14"] });
  });

  it("the GM checks what a query sends: only a GM chooses observers or searchers; ids must be a list of tokens", async () => {
    const { world, scene, rogue } = await guards();
    const handler = world.CONFIG.queries["aventure.hide"]!;
    const ask = (data: unknown, user: string) => world.asUser("gm1", () => handler(data, { user: world.users.getStrict(user) }));
    const base = { sceneId: "scene1", tokenId: "rogue" };
    expect(await ask({ ...base, searching: ["g18"] }, "p1")).toEqual({ error: { key: "AVENTURE.Error.GMOnly", data: {} } });
    expect(await ask({ ...base, observers: ["g10"] }, "p1")).toEqual({ error: { key: "AVENTURE.Error.GMOnly", data: {} } });
    expect(await ask({ ...base, observers: "g10" }, "gm2")).toMatchObject({ error: { key: "AVENTURE.Error.UnknownValue" } });
    expect(await ask({ ...base, observers: ["nobody"] }, "gm2")).toEqual({ error: { key: "AVENTURE.Light.Error.noToken", data: {} } });
    expect(world.rolls.made).toHaveLength(0);
    expect(rogue.statuses.size).toBe(0);
    // A chosen observer without an actor (a statue token): listed for the GM to decide, nothing breaks.
    scene.addToken({ id: "statue", name: "Statue", at: [34, 14], disposition: -1 });
    world.rolls.push(12);
    const statue = await api(world).hide("rogue", { observers: ["statue"], searching: ["statue"] });
    expect(statue).toMatchObject({ dc: 15, unknown: ["statue"], hidden: false });
    expect(world.messages.at(-1)!.content).toMatch(/Statue[\s\S]*GM decides/);
    // The second GM's own choice is honoured by the active GM.
    world.rolls.push(12, 2); // Stealth 15; Guard 18 searches and rolls 2
    const out = await world.asUser("gm2", () => api(world).hide("rogue", { observers: ["g18"], searching: ["g18"] }));
    expect(out).toMatchObject({ dc: 15, spottedBy: [], hiddenFrom: ["g18"], searchRolls: { g18: 2 } });
  });

  it("refuses (nothing rolled, nothing changed) when an observer sees the hider", async () => {
    const { world, scene, rogue } = await guards();
    await scene.token("rogue").moveTo([10, 16]); // the torch's dim light, in the guards' view
    await api(world).refreshLight();
    const out = await api(world).hide("rogue");
    expect(out).toBeUndefined();
    expect(world.notifications.at(-1)!.message).toBe(
      "Rogue cannot hide: seen by Guard 10 (in light), Guard 14 (in light), Guard 18 (in light).",
    );
    expect(rogue.statuses.size).toBe(0);
    expect(world.rolls.made).toHaveLength(0);
  });

  it("darkvision sees the hider in darkness within its range only", async () => {
    const { world, scene } = await torchScene();
    const rogue = dnd5eActor(world, { id: "rogue", name: "Rogue" });
    scene.addToken({ id: "rogue", name: "Rogue", at: [30, 10], actor: rogue, disposition: 1 });
    const orc = dnd5eActor(world, { id: "orc", name: "Orc", darkvision: 60 }); // 18 m
    scene.addToken({ id: "orc", name: "Orc", at: [30, 20], actor: orc, disposition: -1 }); // 15 m away
    await api(world).refreshLight();
    await api(world).hide("rogue");
    expect(world.notifications.at(-1)!.message).toMatch(/seen by Orc \(darkvision\)/);
    await scene.token("orc").moveTo([30, 23]); // 19.5 m: out of range
    await api(world).refreshLight();
    world.rolls.push(15);
    const out = await api(world).hide("rogue");
    expect(out).toMatchObject({ dc: 15, hiddenFrom: ["orc"] });
  });

  it("a player's request runs on the active GM; a non-owner is refused", async () => {
    const { world, scene, rogue } = await guards();
    world.rolls.push(12);
    const out = await world.asUser("p1", () => api(world).hide("rogue"));
    expect(out).toMatchObject({ dc: 15, hidden: true });
    expect(rogue.statuses.has("hiding")).toBe(true);
    await world.asUser("p1", () => api(world).hide("g10"));
    expect(world.notifications.at(-1)!.message).toBe("You do not own Guard 10.");
    expect(scene.token("g10").getFlag("aventure", "hide")).toBeUndefined();
    // Refused on the GM's side: the player gets the reason in their language, nothing changes.
    await api(world).endHide("rogue");
    await scene.token("rogue").moveTo([10, 16]);
    await api(world).refreshLight();
    world.notifications.length = 0;
    const before = world.rolls.made.length;
    expect(await world.asUser("p1", () => api(world).hide("rogue"))).toBeUndefined();
    expect(world.notifications).toEqual([
      { type: "error", message: "Rogue cannot hide: seen by Guard 10 (in light), Guard 14 (in light), Guard 18 (in light)." },
    ]);
    expect(world.rolls.made.length).toBe(before);
    expect(rogue.statuses.has("hiding")).toBe(false);
  });

  it("ends on a dnd5e attack, with a GM card and no Perception check", async () => {
    const { world, scene, rogue } = await guards();
    world.rolls.push(12);
    await api(world).hide("rogue");
    world.messages.length = 0;
    (Hooks.callAll as (hook: string, ...args: unknown[]) => unknown)("dnd5e.postRollAttack", [], { subject: { actor: rogue } });
    await vi.waitFor(() => expect(world.messages.some((m) => m.content?.includes("aventure-hide-end"))).toBe(true));
    expect(scene.token("rogue").getFlag("aventure", "hide")).toBeUndefined();
    expect(rogue.statuses.has("hiding")).toBe(false);
    const card = world.messages.find((m) => m.content?.includes("aventure-hide-end"))!;
    expect(card.content).toContain("It attacked");
    expect(card.content).toContain("no check needed");
  });

  it("ends when it leaves the darkness, and when an observer moves to see it", async () => {
    vi.useFakeTimers();
    const { world, scene } = await guards();
    world.rolls.push(12);
    await api(world).hide("rogue");
    world.messages.length = 0;
    await scene.token("rogue").moveTo([10, 16]); // dim light of the torch, in the guards' view
    await vi.advanceTimersByTimeAsync(500);
    expect(scene.token("rogue").getFlag("aventure", "hide")).toBeUndefined();
    expect(world.messages.at(-1)!.content).toContain("It left the darkness that hid it.");
    expect(world.messages.at(-1)!.content).toContain("Wisdom (Perception) check");
  });

  it("ends when an observer moves to a spot it sees the hider from (behind a wall, then around it)", async () => {
    vi.useFakeTimers();
    const { world, scene } = await torchScene();
    const rogue = dnd5eActor(world, { id: "rogue", name: "Rogue" });
    scene.addToken({ id: "rogue", name: "Rogue", at: [11, 10], actor: rogue, disposition: 1 }); // bright, by the torch
    const guard = dnd5eActor(world, { id: "guard", name: "Guard", passive: 5 });
    scene.addToken({ id: "guard", name: "Guard", at: [14, 10], actor: guard, disposition: -1 }); // behind the wall
    await api(world).refreshLight();
    world.rolls.push(10);
    expect(await api(world).hide("rogue")).toMatchObject({ hiddenFrom: ["guard"] });
    expect(scene.token("rogue").getFlag("aventure", "hide")).toMatchObject({ because: { guard: "cover" } });
    await scene.token("guard").moveTo([14, 15]); // around the wall's end
    await vi.advanceTimersByTimeAsync(500);
    expect(scene.token("rogue").getFlag("aventure", "hide")).toBeUndefined();
    expect(world.messages.at(-1)!.content).toContain("An observer moved and now sees it.");
  });

  it("ends when it moves, still in light, out of its cover into an observer's view", async () => {
    vi.useFakeTimers();
    const { world, scene } = await torchScene();
    scene.addLight("lantern", [16, 10], 6, 12); // east of the wall
    const rogue = dnd5eActor(world, { id: "rogue", name: "Rogue" });
    scene.addToken({ id: "rogue", name: "Rogue", at: [14, 10], actor: rogue, disposition: 1 }); // lantern's bright light
    const guard = dnd5eActor(world, { id: "guard", name: "Guard", passive: 5 });
    scene.addToken({ id: "guard", name: "Guard", at: [11, 10], actor: guard, disposition: -1 }); // west of the wall
    await api(world).refreshLight();
    world.rolls.push(10);
    expect(await api(world).hide("rogue")).toMatchObject({ hiddenFrom: ["guard"] });
    expect(scene.token("rogue").getFlag("aventure", "hide")).toMatchObject({ light: "bright", because: { guard: "cover" } });
    await scene.token("rogue").moveTo([14, 12]); // still behind the wall: still hidden
    await vi.advanceTimersByTimeAsync(500);
    expect(scene.token("rogue").getFlag("aventure", "hide")).toBeDefined();
    await scene.token("rogue").moveTo([14, 15]); // past the wall's end, in the lantern's dim light
    await vi.advanceTimersByTimeAsync(500);
    expect(scene.token("rogue").getFlag("aventure", "hide")).toBeUndefined();
    expect(rogue.statuses.has("hiding")).toBe(false);
    expect(world.messages.at(-1)!.content).toContain("It moved into an observer&#x27;s field of view.");
  });

  it("the GM ends it from the HUD; hideSelected hides the controlled tokens; GM targets choose the observers", async () => {
    const { world, scene, rogue } = await guards();
    const targets = (world.game.user as unknown as { targets: Set<unknown> }).targets;
    targets.add(scene.token("g10").object);
    world.rolls.push(5); // 8: spotted by nobody with passive ≥ 9... only g10 observes
    scene.control("rogue");
    const [out] = (await api(world).hideSelected()) as { dc: number; hiddenFrom: string[]; spottedBy: string[] }[];
    expect(out).toMatchObject({ dc: 8, spottedBy: ["g10"], hiddenFrom: [] });
    expect(rogue.statuses.has("hiding")).toBe(false); // everyone noticed: not hidden
    targets.clear();
    world.rolls.push(15);
    await api(world).hide("rogue");
    expect(rogue.statuses.has("hiding")).toBe(true);
    expect(await api(world).endHide("rogue")).toBe(true);
    expect(rogue.statuses.has("hiding")).toBe(false);
  });
});

describe("token HUD (renderTokenHUD on a small strict DOM)", () => {
  afterEach(() => {
    delete (globalThis as { document?: unknown }).document;
  });

  async function hudFor(world: FakeWorld, user: string, token: unknown) {
    const { FakeDocument } = await import("../fake/dom.js");
    const doc = new FakeDocument();
    (globalThis as { document?: unknown }).document = doc;
    const root = doc.createElement("form");
    root.innerHTML = `<div class="col left"></div><div class="col middle"></div><div class="col right"></div>`;
    await world.asUser(user, async () => {
      world.hooks.callAll("renderTokenHUD", { document: token }, root);
      await new Promise((r) => setTimeout(r, 5)); // the panel's template renders asynchronously
    });
    return {
      root,
      // This feature's buttons (other features add theirs to the same HUD).
      buttons: root
        .querySelectorAll("button")
        .map((b) => b.dataset.action)
        .filter((a) => /^aventure-(hide|end-hide|search|stop-search)$/.test(a ?? "")),
      panel: root.querySelector(".aventure-light-panel"),
    };
  }

  it("shows the panel and the buttons to the GM and the owner, nothing to another player", async () => {
    const { world, scene } = await torchScene({ users: [{ id: "gm1", isGM: true }, { id: "p1", isGM: false }, { id: "p2", isGM: false }] });
    const elf = dnd5eActor(world, { id: "elf", name: "Elf", darkvision: 60, owner: "p1" });
    scene.addToken({ id: "elf", name: "Elf", at: [14, 10], actor: elf }); // behind the wall: dark, darkvision 18 m
    await api(world).refreshLight();

    const gm = await hudFor(world, "gm1", scene.token("elf"));
    expect(gm.buttons).toEqual(["aventure-hide", "aventure-search"]);
    expect(gm.root.querySelectorAll(".col.right button[data-action]").map((b) => b.dataset.action)).toEqual(
      expect.arrayContaining(["aventure-hide", "aventure-search"]),
    );
    expect(gm.panel!.classList.contains("aventure-light-dark")).toBe(true);
    const text = gm.panel!.textContent;
    expect(text).toContain("Darkness");
    expect(text).toContain("Darkvision 18 m");
    expect(text).toContain("Dim light");
    expect(text).toContain("thanks to Darkvision");
    expect(text).toContain("Disadvantage on sight-based Wisdom (Perception) checks");
    expect(text).toContain("(not applied: setting off)");
    expect(gm.root.querySelector(".aventure-light-searching")).toBeNull();

    const owner = await hudFor(world, "p1", scene.token("elf"));
    expect(owner.buttons).toEqual(["aventure-hide"]);
    expect(owner.panel).not.toBeNull();

    const other = await hudFor(world, "p2", scene.token("elf"));
    expect(other.buttons).toEqual([]);
    expect(other.panel).toBeNull();

    // Hidden and searching: the GM gets End hiding and No longer searching; the panel says both.
    await api(world).setSearching("elf");
    await scene.token("elf").setFlag("aventure", "hide", { dc: 14, from: ["x"], because: {}, light: "dark", x: 0, y: 0 });
    const again = await hudFor(world, "gm1", scene.token("elf"));
    expect(again.buttons).toEqual(["aventure-end-hide", "aventure-stop-search"]);
    expect(again.root.querySelector(".aventure-light-hidden")!.textContent).toContain("Stealth DC 14, hidden from 1 observer(s)");
    expect(again.root.querySelector(".aventure-light-searching")!.textContent).toContain("Searching");
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
      ],
    }) as { rows: { outcome: string }[]; noticed: number };
    expect(ctx.rows.map((r) => r.outcome)).toEqual(["missed", "unknown"]);
    expect(ctx.noticed).toBe(0);
  });
});
