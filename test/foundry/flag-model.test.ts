/**
 * Stored state declared once as a data model (src/core/flag-model.ts): what a model reads from a flag or a payload
 * (defaults filled, the earlier shapes migrated, anything its schema refuses read as absent, never a crash), in the
 * test world's foundry.abstract.DataModel (test/world/models.ts names its sources).
 */
import { describe, expect, it } from "vitest";
import { bootWorld, GM } from "../world/index.js";
import { entryMap, flagModel, valueMap, type Fields } from "../../src/core/flag-model.js";
import { wordRefusal } from "../../src/core/refusal.js";
import { parseRequest } from "../../src/travel/request.js";
import { markedSearching, searchingIds } from "../../src/light/searching.js";
import { recordedSide } from "../../src/combat/side-initiative.js";
import { rememberedLight, tokenLight } from "../../src/exploration/exploration.js";
import type { CombatLike } from "../../src/combat/types.js";
import { hideFlagOf, parseHideFlag } from "../../src/light/hide-state.js";
import { breathFlagOf, breathingTokens, parseBreathFlag } from "../../src/breath/state.js";
import {
  ConfusionModel,
  EncounterStateModel,
  PolarisRoundModel,
  SidesModel,
  StartedTurnsModel,
  readSideOp,
} from "../../src/combat/flags.js";

const sampleSchema = (f: Fields) => ({
  id: new f.StringField({ required: true, blank: false }),
  count: new f.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: 0 }),
  tags: new f.ArrayField(new f.StringField({ required: true, blank: false }), { max: 3 }),
  low: new f.NumberField({ required: true, nullable: false, initial: 0 }),
  high: new f.NumberField({ required: true, nullable: false, initial: 0 }),
});
const Sample = flagModel({
  name: "Sample",
  schema: sampleSchema,
  // An earlier shape: `n` was the count.
  migrate: (source) => {
    if ("n" in source && !("count" in source)) source.count = source.n;
  },
  joint: (d) => {
    if (d.low > d.high) throw new Error("low above high");
  },
});

describe("a flag declared as a data model", () => {
  it("fills its defaults, drops unknown keys, migrates an earlier shape and refuses what its schema refuses", async () => {
    await bootWorld({ users: [GM] });
    expect(Sample.read({ id: "a" })).toEqual({ id: "a", count: 0, tags: [], low: 0, high: 0 });
    expect(Sample.read({ id: "a", n: 4, extra: "dropped" })).toEqual({ id: "a", count: 4, tags: [], low: 0, high: 0 });
    for (const bad of [
      null,
      undefined,
      "a",
      42,
      ["a"],
      {},
      { id: "" },
      { id: "a", count: -1 },
      { id: "a", count: 1.5 },
      { id: "a", count: "many" },
      { id: "a", tags: ["x", "y", "z", "w"] },
      { id: "a", tags: [""] },
      { id: "a", low: 2, high: 1 },
    ])
      expect(Sample.read(bad), JSON.stringify(bad)).toBeNull();
    expect(() => Sample.make({ id: "a", count: -1 })).toThrow();
    expect(Sample.make({ id: "b" })).toEqual({ id: "b", count: 0, tags: [], low: 0, high: 0 });
  });

  it("a hide entry: a well-formed one read with its defaults; one a macro wrote wrong reads as no entry (not hidden)", async () => {
    await bootWorld({ users: [GM] });
    expect(parseHideFlag({ dc: 14, from: ["guard1"], because: { guard1: "darkness" }, x: 50, y: 75 })).toEqual({
      dc: 14,
      from: ["guard1"],
      because: { guard1: "darkness" },
      light: "dark",
      seenBy: [],
      x: 50,
      y: 75,
    });
    const good = { dc: 14, from: ["guard1"], because: {}, light: "dim", x: 0, y: 0 };
    for (const bad of [
      { ...good, dc: "high" },
      { ...good, from: [{ id: "guard1" }] },
      { ...good, from: ["bad id"] },
      { ...good, because: { guard1: "luck" } },
      { ...good, because: { "bad id": "cover" } },
      { ...good, light: "blinding" },
      { ...good, obscurity: "total" },
      { ...good, seenBy: Array.from({ length: 201 }, (_, i) => `t${i}`) },
      { from: ["guard1"] },
    ])
      expect(parseHideFlag(bad), JSON.stringify(bad)).toBeNull();
  });

  it("a held breath: its deadlines must be the rules' (CON +2: air for 3 minutes, 2 rounds more, docs/rules.md §4.2)", async () => {
    await bootWorld({ users: [GM] });
    const breath = { v: 1, id: "breath000001", start: 1000, conMod: 2, roundSeconds: 6, airUntil: 1180, dropAt: 1192 };
    expect(parseBreathFlag({ ...breath, dropped: false })).toEqual({ ...breath, dropped: false });
    for (const bad of [
      { ...breath, dropped: false, airUntil: 1500 },
      { ...breath, dropped: false, dropAt: 9999 },
      { ...breath, dropped: false, v: 2 },
      { ...breath, dropped: false, id: "no" },
      { ...breath, dropped: false, start: 1e14, airUntil: 1e14 + 180, dropAt: 1e14 + 192 },
      breath,
    ])
      expect(parseBreathFlag(bad), JSON.stringify(bad)).toBeNull();
  });

  it("combat flags: the encounter state (an earlier null firstRound read as none), confusion, Polaris round options", async () => {
    await bootWorld({ users: [GM] });
    expect(EncounterStateModel.read({ surprised: ["hostile"], firstRound: null })).toEqual({
      surprised: ["hostile"],
      firstRound: [],
      marked: false,
    });
    expect(EncounterStateModel.read({ surprised: ["pirates"] })).toBeNull();
    expect(ConfusionModel.read({ round: 3, ids: ["c1"] })).toEqual({ round: 3, ids: ["c1"] });
    for (const bad of [{ round: -1, ids: [] }, { round: 1.5, ids: [] }, { round: 2, ids: ["bad id"] }, { ids: [] }])
      expect(ConfusionModel.read(bad), JSON.stringify(bad)).toBeNull();
    expect(PolarisRoundModel.read({ round: 2, hasten: true })).toEqual({ round: 2, hasten: true, delayTo: null });
    expect(PolarisRoundModel.read({ round: "soon" })).toBeNull();
    expect(StartedTurnsModel.read({ round: 2, ids: ["c1", "c2"] })).toEqual({ round: 2, ids: ["c1", "c2"] });
    expect(StartedTurnsModel.read({ round: 2, ids: [{ id: "c1" }] })).toBeNull();
  });

  it("the side round: a version 1 state (before operations were recorded) reads as a round already rolled", async () => {
    await bootWorld({ users: [GM] });
    const v1 = {
      round: 2,
      values: [
        ["friendly", 5],
        ["hostile", 3],
      ],
      groups: [["friendly"], ["hostile"]],
    };
    expect(SidesModel.read(v1)).toEqual({ ...v1, v: 2, started: true, nobodyActs: false, op: null });
    expect(SidesModel.read({ ...v1, v: 2 })).toEqual({ ...v1, v: 2, started: false, nobodyActs: false, op: null });
    for (const bad of [
      { ...v1, values: [["pirates", 5]] },
      { ...v1, values: [["friendly", "5"]] },
      { ...v1, values: [["friendly"]] },
      { ...v1, values: { friendly: 5 } },
      { ...v1, groups: [["friendly", "pirates"]] },
      { ...v1, round: -2 },
    ])
      expect(SidesModel.read(bad), JSON.stringify(bad)).toBeNull();
  });

  it("a side operation: its pairs checked; a malformed executor reads as none, the operation kept", async () => {
    await bootWorld({ users: [GM] });
    const op = {
      id: "op1",
      kind: "round",
      status: "applying",
      round: 2,
      fromRound: 1,
      currentId: null,
      before: [["c1", 12]],
      after: [["c1", 4]],
      first: [],
      rolls: [[["friendly", 4]]],
      groups: [["friendly"]],
      skipped: [],
      hide: [],
      problems: [{ key: "AVENTURE.SideInit.gone", data: { id: "c2" } }],
    };
    expect(readSideOp({ ...op, executor: { user: "gm1", client: "bad client!" } })).toMatchObject({
      ...op,
      card: true,
      resumed: false,
      executor: null,
    });
    for (const bad of [
      { ...op, before: [["c1", "12"]] },
      { ...op, rolls: [[["pirates", 4]]] },
      { ...op, kind: "turn" },
      { ...op, problems: [{ key: "Not.ours", data: {} }] },
    ])
      expect(readSideOp(bad), JSON.stringify(bad)).toBeNull();
  });

  it("a payload declared exact is taken as sent: a value cleaning would change is refused, not cast", async () => {
    await bootWorld({ users: [GM] });
    const Payload = flagModel({ name: "Payload", schema: sampleSchema, exact: true });
    expect(Payload.read({ id: "a", count: 2, other: "ignored" })).toMatchObject({ id: "a", count: 2 });
    for (const bad of [{ id: "a", count: "2" }, { id: " a " }, { id: 7 }, { id: "a", tags: "x" }])
      expect(Payload.read(bad), JSON.stringify(bad)).toBeNull();
    expect(Sample.read({ id: "a", count: "2" })).toMatchObject({ count: 2 });
  });

  it("a field's declared bounds are read from the schema: range, integer, positive, choices; an array's element by path", async () => {
    await bootWorld({ users: [GM] });
    const Leg = flagModel({
      name: "Leg",
      schema: (f: Fields) => ({
        pace: new f.StringField({ required: true, blank: false, choices: ["slow", "fast"], initial: "slow" }),
        hot: new f.BooleanField({ required: true, initial: false }),
        points: new f.ArrayField(
          new f.SchemaField({ x: new f.NumberField({ required: true, min: -5, max: 5, integer: true }) }),
          { min: 2, max: 9 },
        ),
        km: new f.NumberField({ required: true, nullable: true, min: 0, max: 40, positive: true, initial: null }),
      }),
      exact: true,
    });
    expect(Leg.bounds("pace")).toMatchObject({ kind: "string", choices: ["slow", "fast"] });
    expect(Leg.bounds("hot")).toMatchObject({ kind: "boolean" });
    expect(Leg.bounds("points")).toMatchObject({ kind: "array", min: 2, max: 9 });
    expect(Leg.bounds("points.element.x")).toEqual({ kind: "number", min: -5, max: 5, integer: true, positive: false });
    expect(Leg.bounds("km")).toMatchObject({ kind: "number", min: 0, max: 40, integer: false, positive: true });
    expect(Leg.bounds("nowhere")).toBeNull();
    expect(Leg.bounds("points.element.y")).toBeNull();
    // NumberField `positive`: 0 is refused, as a value below its min is.
    expect(Leg.read({ points: [{ x: 0 }, { x: 1 }], km: 0 })).toBeNull();
    expect(Leg.failures({ points: [{ x: 0 }, { x: 1 }], km: 0 })).toEqual(["km"]);
    expect(Leg.read({ points: [{ x: 0 }, { x: 1 }], km: 3 })).toMatchObject({ km: 3 });
  });

  it("a refusal quotes the range its model declares: changing the schema's bound changes the message", async () => {
    await bootWorld({ users: [GM] });
    const withMax = (max: number) =>
      flagModel({
        name: "Days",
        schema: (f: Fields) => ({ days: new f.NumberField({ required: true, min: 1, max, integer: true }) }),
      });
    const refusal = (model: ReturnType<typeof withMax>, value: unknown) => {
      try {
        wordRefusal(model, "days", "days", value);
        return null;
      } catch (e) {
        return { key: (e as { key: string }).key, data: (e as { data: unknown }).data };
      }
    };
    expect(refusal(withMax(7), 30)).toEqual({
      key: "AVENTURE.Error.OutOfRange",
      data: { name: "days", value: 30, min: 1, max: 7 },
    });
    expect(refusal(withMax(12), 30)).toEqual({
      key: "AVENTURE.Error.OutOfRange",
      data: { name: "days", value: 30, min: 1, max: 12 },
    });
    expect(refusal(withMax(12), 2.5)).toMatchObject({ key: "AVENTURE.Error.NotAnInteger" });
    expect(refusal(withMax(12), 5)).toBeNull();
    // A travel request's distance beyond its schema's bound (1 000 000 km, in metres): the message quotes that bound;
    // a distance of 0 is refused by the field's `positive`, with its range.
    const base = {
      pace: "normal",
      terrain: "normal",
      mode: "foot",
      distance: 2e9,
      hoursPerDay: 8,
      members: [{ actorId: "aaaaaaaaaaaaaaaa", food: "full", water: "full", position: "middle", activity: "none" }],
    };
    expect(() => parseRequest(base)).toThrow(
      expect.objectContaining({
        key: "AVENTURE.Error.OutOfRange",
        data: { name: "distance", value: 2e9, min: 0, max: 1e9 },
      }),
    );
    expect(() => parseRequest({ ...base, distance: 0 })).toThrow(
      expect.objectContaining({
        key: "AVENTURE.Error.OutOfRange",
        data: { name: "distance", value: 0, min: 0, max: 1e9 },
      }),
    );
  });
});

describe("a flag holding a map of entries: each entry read on its own through its model", () => {
  it("entryMap: a bad key or a bad entry is left out, the others kept; an earlier single value migrated", async () => {
    await bootWorld({ users: [GM] });
    const Entries = entryMap({
      name: "Entries",
      schema: (f: Fields) => ({ n: new f.NumberField({ required: true, nullable: false, integer: true, min: 0 }) }),
      exact: true,
      fromValue: (v) => (typeof v === "string" && /^\d+$/.test(v) ? { n: Number(v) } : null),
    });
    const raw = { a: { n: 1 }, b: { n: -1 }, c: { n: "2" }, "bad key!": { n: 3 }, d: "4", e: "four", f: null };
    expect([...Entries.read(raw)]).toEqual([
      ["a", { n: 1 }],
      ["d", { n: 4 }],
    ]);
    expect(Entries.get(raw, "a")).toEqual({ n: 1 });
    for (const key of ["b", "c", "bad key!", "e", "f", "missing", "toString", "__proto__", null, undefined])
      expect(Entries.get(raw, key), String(key)).toBeNull();
    for (const bad of [null, undefined, "x", 42, ["a"]]) expect(Entries.read(bad).size).toBe(0);
    expect(() => Entries.make({ n: -1 })).toThrow();
  });

  it("valueMap: a value Foundry's cleaning would change is refused (exact), not cast", async () => {
    await bootWorld({ users: [GM] });
    const Marks = valueMap({ name: "Marks", value: (f) => new f.BooleanField({ required: true, nullable: false }) });
    const raw = { a: true, b: "true", c: 1, d: false, "no!": true };
    expect(Object.fromEntries(Marks.read(raw))).toEqual({ a: true, d: false });
    expect(Marks.make(true)).toBe(true);
  });

  it("the searching marks of a scene: a mark a macro wrote wrong is not a mark, the others stay", async () => {
    const world = await bootWorld({ users: [GM] });
    const scene = world.addScene({ _id: "scene1" });
    await world.as("gm1", () => scene.setFlag("aventure", "searching", { watcher: true, guard: "true", "x y": true }));
    world.as("gm1", () => {
      expect(markedSearching("scene1", "watcher")).toBe(true);
      expect(markedSearching("scene1", "guard")).toBe(false);
      expect(markedSearching("scene1", "x y")).toBe(false);
      expect(markedSearching("nope", "watcher")).toBe(false);
      expect(searchingIds("scene1")).toEqual(["watcher"]);
    });
  });

  it("the sides recorded on a combat: a side a macro wrote wrong reads as none, the others stay", async () => {
    await bootWorld({ users: [GM] });
    const sideOf = { a: "hostile", b: "enemy", c: ["friendly"], d: "friendly" };
    const combat = { getFlag: (_scope: string, key: string) => (key === "sideOf" ? sideOf : undefined) };
    const read = (id: string | null) => recordedSide(combat as unknown as CombatLike, id);
    expect([read("a"), read("b"), read("c"), read("d"), read("e"), read(null)]).toEqual([
      "hostile",
      null,
      null,
      "friendly",
      null,
      null,
    ]);
  });

  it("a token's remembered light (a flag its owner may write): anything but two radii reads as none", async () => {
    await bootWorld({ users: [GM] });
    const token = (remembered: unknown) => ({
      id: "t1",
      name: "Torch",
      light: { dim: 0, bright: 0 },
      flags: { aventure: { explorationLight: remembered } },
      update: () => Promise.resolve(),
    });
    expect(tokenLight(token({ dim: 12, bright: 6 }))).toEqual({
      dim: 0,
      bright: 0,
      remembered: { dim: 12, bright: 6 },
    });
    for (const bad of [null, { dim: -1, bright: 6 }, { dim: 12 }, { dim: "12", bright: 6 }, { dim: 2e6, bright: 0 }, 5])
      expect(rememberedLight(token(bad)), JSON.stringify(bad)).toBeNull();
  });

  it("a scene's hide entries and held breaths: one a macro wrote wrong is none, the others stay", async () => {
    const world = await bootWorld({ users: [GM] });
    const scene = world.addScene({ _id: "scene1" });
    for (const id of ["rogue", "thief", "diver", "swimmer"]) world.addToken(scene, { _id: id, name: id });
    const hide = { dc: 14, from: ["guard1"], because: {}, light: "dim", x: 0, y: 0 };
    const breath = { v: 1, id: "breath000001", start: 1000, conMod: 2, roundSeconds: 6, airUntil: 1180, dropAt: 1192 };
    await world.as("gm1", async () => {
      await scene.setFlag("aventure", "hides", { rogue: hide, thief: { ...hide, dc: "high" } });
      await scene.setFlag("aventure", "breath", {
        diver: { ...breath, dropped: false },
        swimmer: { ...breath, dropped: false, dropAt: 9999 },
        "bad id": { ...breath, dropped: false },
      });
    });
    world.as("gm1", () => {
      const doc = (id: string) => ({ id, parent: game.scenes.get("scene1") });
      expect(hideFlagOf(doc("rogue"))?.dc).toBe(14);
      expect(hideFlagOf(doc("thief"))).toBeNull();
      expect(breathFlagOf(doc("diver"))?.id).toBe("breath000001");
      expect(breathFlagOf(doc("swimmer"))).toBeNull();
      expect(breathingTokens().map((b) => b.token.id)).toEqual(["diver"]);
    });
  });
});
