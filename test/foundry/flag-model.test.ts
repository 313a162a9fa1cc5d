/**
 * Stored state declared once as a data model (src/core/flag-model.ts): what a model reads from a flag or a payload
 * (defaults filled, the earlier shapes migrated, anything its schema refuses read as absent, never a crash), in the
 * test world's foundry.abstract.DataModel (test/world/models.ts names its sources).
 */
import { describe, expect, it } from "vitest";
import { bootWorld, GM } from "../world/index.js";
import { flagModel, type Fields } from "../../src/core/flag-model.js";
import { wordRefusal } from "../../src/core/refusal.js";
import { parseRequest } from "../../src/travel/request.js";
import { parseHideFlag } from "../../src/light/hide-state.js";
import { parseBreathFlag } from "../../src/breath/state.js";
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
