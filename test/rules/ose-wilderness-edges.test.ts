/**
 * Old-School Essentials wilderness travel (docs/rules.md §12): whole days and whole journeys with chosen dice (forced
 * march and its day of rest, the weekly rest, pmt's d100 lost roll, a lost day, foraging and rations), both sides of the
 * rest penalty, and the whole errors (key and data).
 */
import { describe, expect, it } from "vitest";
import {
  fixedDice,
  recordingDice,
  oseDailyDistance,
  oseJourney,
  oseJourneyPreview,
  oseLostChance,
  oseRestPenalty,
  oseWanderingChance,
  type OseJourneyPlan,
} from "../../src/rules/index.js";
import { throwsError } from "./helpers.js";

const TERRAINS = "clear, grassland, road, barren, broken, desert, forest, hills, mountains, woods, jungle, swamp";
const none = (chance: number) => ({ chance, of: 6, roll: null, result: false });

describe("daily distance (§12): 36 m of base is 36 km a day on clear", () => {
  it("terrain, forced march and flying", () => {
    expect(oseDailyDistance(36, "clear")).toBe(36_000);
    expect(oseDailyDistance(36, "forest")).toBe(24_000);
    expect(oseDailyDistance(36, "mountains")).toBe(18_000);
    expect(oseDailyDistance(36, "road")).toBe(54_000);
    expect(oseDailyDistance(36, "clear", { forcedMarch: true })).toBe(54_000);
    expect(oseDailyDistance(36, "forest", { flying: true })).toBe(72_000);
    expect(oseDailyDistance(36, "swamp", { flying: true, forcedMarch: true })).toBe(108_000);
    expect(oseDailyDistance(0, "clear")).toBe(0);
    expect(oseDailyDistance(1000, "clear")).toBe(1_000_000);
  });
  it("names what it refuses", () => {
    throwsError(() => oseDailyDistance(1001, "clear"), "OutOfRange", {
      name: "baseMetres",
      value: 1001,
      min: 0,
      max: 1000,
    });
    throwsError(() => oseDailyDistance(36, "lava" as never), "UnknownValue", {
      name: "terrain",
      value: "lava",
      allowed: TERRAINS,
    });
    throwsError(() => oseDailyDistance(36, "clear", null as never), "Missing", { name: "options" });
    throwsError(() => oseDailyDistance(36, "clear", { flying: "y" as never }), "UnknownValue", {
      name: "flying",
      value: "y",
      allowed: "true, false",
    });
    throwsError(() => oseDailyDistance(36, "clear", { forcedMarch: 1 as never }), "UnknownValue", {
      name: "forcedMarch",
      value: "1",
      allowed: "true, false",
    });
    throwsError(() => oseLostChance("lava" as never), "UnknownValue", {
      name: "terrain",
      value: "lava",
      allowed: TERRAINS,
    });
    throwsError(() => oseWanderingChance("lava" as never), "UnknownValue", {
      name: "terrain",
      value: "lava",
      allowed: TERRAINS,
    });
  });
  it("chances in 6", () => {
    expect(oseLostChance("road")).toEqual({ chance: 0, of: 6 });
    expect(oseLostChance("swamp")).toEqual({ chance: 3, of: 6 });
    expect(oseWanderingChance("road")).toEqual({ chance: 1, of: 6 });
    expect(oseWanderingChance("mountains")).toEqual({ chance: 3, of: 6 });
  });
  it("−1 once 7 travel days have passed without rest, not at 6", () => {
    expect(oseRestPenalty(6)).toBe(0);
    expect(oseRestPenalty(7)).toBe(-1);
    expect(oseRestPenalty(2000)).toBe(-1);
    throwsError(() => oseRestPenalty(2001), "OutOfRange", { name: "daysSinceRest", value: 2001, min: 0, max: 2000 });
    throwsError(() => oseRestPenalty(1.5), "NotAnInteger", { name: "daysSinceRest", value: 1.5 });
  });
});

describe("a journey (§12, §11): whole days", () => {
  it("two legs in one day, foraged food feeding the characters first", async () => {
    const plan: OseJourneyPlan = {
      baseMetres: 36,
      legs: [
        { metres: 18_000, terrain: "clear" },
        { metres: 12_000, terrain: "forest" },
      ],
      characters: 2,
      animals: 1,
      rations: 10,
      forage: true,
    };
    // lost 4 (clear: 1 in 6), wandering 5, forage 1 (found), fed 3.
    expect(await oseJourney(plan, fixedDice([4, 5, 1, 3]))).toEqual({
      days: [
        {
          day: 1,
          kind: "travel",
          restReason: null,
          terrain: "clear",
          forcedMarch: false,
          startMetres: 0,
          endMetres: 30_000,
          stretches: [
            { leg: 0, terrain: "clear", metres: 18_000, dayFraction: 0.5 },
            { leg: 1, terrain: "forest", metres: 12_000, dayFraction: 0.5 },
          ],
          lost: { chance: 1, of: 6, roll: 4, result: false },
          wandering: { chance: 1, of: 6, roll: 5, result: false },
          forage: { chance: 1, of: 6, roll: 1, result: true },
          foraged: 3,
          rations: 1,
          rationsLeft: 9,
          rationsShort: 0,
          daysSinceRest: 1,
          restPenalty: 0,
          arrived: true,
          arrivalFraction: 1,
        },
      ],
      arrived: true,
      arrivalDay: 1,
      routeMetres: 30_000,
      endMetres: 30_000,
      travelDays: 1,
      lostDays: 0,
      restDays: 0,
      encounters: 0,
      rationsUsed: 1,
      rationsLeft: 9,
      restDaysOwed: 0,
      forcedMarchRestOwed: false,
      restPenalty: 0,
    });
  });
  it("a forced march on a road: no lost check, a day of rest after it, rations running short", async () => {
    const plan: OseJourneyPlan = {
      baseMetres: 36,
      legs: [{ metres: 100_000, terrain: "road" }],
      forcedMarch: true,
      restWhenDue: true,
      daysSinceRest: 5,
      characters: 1,
      rations: 1,
      maxDays: 3,
    };
    const j = await oseJourney(plan, fixedDice([1, 6, 2]));
    expect(j.days[0]).toEqual({
      day: 1,
      kind: "travel",
      restReason: null,
      terrain: "road",
      forcedMarch: true,
      startMetres: 0,
      endMetres: 81_000,
      stretches: [{ leg: 0, terrain: "road", metres: 81_000, dayFraction: 1 }],
      lost: none(0),
      wandering: { chance: 1, of: 6, roll: 1, result: true },
      forage: none(0),
      foraged: 0,
      rations: 1,
      rationsLeft: 0,
      rationsShort: 0,
      daysSinceRest: 6,
      restPenalty: 0,
      arrived: false,
      arrivalFraction: null,
    });
    expect(j.days[1]).toEqual({
      day: 2,
      kind: "rest",
      restReason: "forcedMarch",
      terrain: "road",
      forcedMarch: false,
      startMetres: 81_000,
      endMetres: 81_000,
      stretches: [],
      lost: none(0),
      wandering: { chance: 1, of: 6, roll: 6, result: false },
      forage: none(0),
      foraged: 0,
      rations: 0,
      rationsLeft: 0,
      rationsShort: 1,
      daysSinceRest: 0,
      restPenalty: 0,
      arrived: false,
      arrivalFraction: null,
    });
    expect(j.days[2]).toMatchObject({
      day: 3,
      kind: "travel",
      forcedMarch: true,
      stretches: [{ leg: 0, terrain: "road", metres: 19_000, dayFraction: 0.234567901 }],
      arrived: true,
      arrivalFraction: 0.234567901,
      rationsShort: 1,
      daysSinceRest: 1,
    });
    expect({ ...j, days: j.days.length }).toEqual({
      days: 3,
      arrived: true,
      arrivalDay: 3,
      routeMetres: 100_000,
      endMetres: 100_000,
      travelDays: 2,
      lostDays: 0,
      restDays: 1,
      encounters: 1,
      rationsUsed: 1,
      rationsLeft: 0,
      restDaysOwed: 0,
      forcedMarchRestOwed: true,
      restPenalty: 0,
    });
  });
  it("pmt's d100 lost roll, the weekly rest, a lost day; not arrived after maxDays", async () => {
    const plan: OseJourneyPlan = {
      baseMetres: 36,
      legs: [{ metres: 36_000, terrain: "hills" }],
      lostPercent: 30,
      restWhenDue: true,
      daysSinceRest: 6,
      characters: 0,
      maxDays: 3,
    };
    // day 1 rest (no lost roll), wandering 3; day 2 lost 30 (lost), wandering 2 (monster); day 3 lost 31, wandering 6.
    const j = await oseJourney(plan, fixedDice([3, 30, 2, 31, 6]));
    expect(j.days.map((d) => [d.kind, d.restReason, d.lost, d.wandering.result, d.endMetres, d.daysSinceRest])).toEqual(
      [
        ["rest", "weekly", { chance: 30, of: 100, roll: null, result: false }, false, 0, 0],
        ["lost", null, { chance: 30, of: 100, roll: 30, result: true }, true, 0, 1],
        ["travel", null, { chance: 30, of: 100, roll: 31, result: false }, false, 24_000, 2],
      ],
    );
    expect({ ...j, days: j.days.length }).toEqual({
      days: 3,
      arrived: false,
      arrivalDay: null,
      routeMetres: 36_000,
      endMetres: 24_000,
      travelDays: 1,
      lostDays: 1,
      restDays: 1,
      encounters: 1,
      rationsUsed: 0,
      rationsLeft: null,
      restDaysOwed: 0,
      forcedMarchRestOwed: false,
      restPenalty: 0,
    });
    // Every die a 6 (100 for the d100): never lost, no monster.
    const p = oseJourneyPreview(plan);
    expect(p.days.map((d) => [d.kind, d.endMetres, d.arrivalFraction])).toEqual([
      ["rest", 0, null],
      ["travel", 24_000, null],
      ["travel", 36_000, 0.5],
    ]);
    expect(p.arrivalDay).toBe(3);
  });
  it("a guide or a river: no lost check; the seventh travel day without rest brings the penalty", async () => {
    const j = await oseJourney(
      { baseMetres: 36, legs: [{ metres: 36_000, terrain: "jungle" }], guide: true, daysSinceRest: 6, characters: 0 },
      fixedDice([4, 5]),
    );
    expect(j.days.map((d) => [d.lost, d.daysSinceRest, d.restPenalty])).toEqual([
      [none(0), 7, -1],
      [none(0), 8, -1],
    ]);
    expect(j).toMatchObject({ arrivalDay: 2, restDaysOwed: 1, restPenalty: -1 });
    const r = await oseJourney(
      { baseMetres: 36, legs: [{ metres: 1000, terrain: "swamp" }], river: true, characters: 0 },
      fixedDice([4]),
    );
    expect(r.days[0]!.lost).toEqual(none(0));
    const first = oseJourneyPreview({
      baseMetres: 36,
      legs: [{ metres: 1000, terrain: "clear" }],
      restFirst: true,
      characters: 0,
    });
    expect(first.days.map((d) => [d.kind, d.restReason])).toEqual([
      ["rest", "forcedMarch"],
      ["travel", null],
    ]);
  });
  it("asks for its dice by reason, in the SRD's order: lost (d6, or pmt's d100), wandering, forage, the 1d6 fed", async () => {
    const dice = recordingDice(fixedDice([50, 3, 1, 2]));
    await oseJourney(
      { baseMetres: 36, legs: [{ metres: 36_000, terrain: "clear" }], lostPercent: 10, forage: true, characters: 1 },
      dice,
    );
    expect(dice.log.map((r) => [r.reason, r.faces])).toEqual([
      ["lost100", 100],
      ["wandering", 6],
      ["forage", 6],
      ["forageFed", 6],
    ]);
    const d6 = recordingDice(fixedDice([4, 3]));
    await oseJourney({ baseMetres: 36, legs: [{ metres: 36_000, terrain: "clear" }], characters: 1 }, d6);
    expect(d6.log.map((r) => [r.reason, r.faces])).toEqual([
      ["lost", 6],
      ["wandering", 6],
    ]);
  });
  it("no foraging on a day of rest; a lost forced-march day owes no rest", async () => {
    const dice = fixedDice([6, 6, 6, 6]);
    const j = await oseJourney(
      { baseMetres: 36, legs: [{ metres: 1000, terrain: "clear" }], restFirst: true, forage: true, characters: 2 },
      dice,
    );
    expect(j.days.map((d) => [d.kind, d.forage, d.rations])).toEqual([
      ["rest", none(0), 2],
      ["travel", { chance: 1, of: 6, roll: 6, result: false }, 2],
    ]);
    expect(dice.remaining()).toBe(0);
    const lost = await oseJourney(
      { baseMetres: 36, legs: [{ metres: 100_000, terrain: "clear" }], forcedMarch: true, characters: 0, maxDays: 2 },
      fixedDice([1, 6, 6, 6]),
    );
    expect(lost.days.map((d) => [d.kind, d.forcedMarch, d.endMetres])).toEqual([
      ["lost", false, 0],
      ["travel", true, 54_000],
    ]);
  });
  it("an empty route is arrived on day 0; a base of 0 cannot travel a route", async () => {
    expect(oseJourneyPreview({ baseMetres: 0, legs: [{ metres: 0, terrain: "clear" }], characters: 1 })).toMatchObject({
      days: [],
      arrived: true,
      arrivalDay: 0,
      routeMetres: 0,
    });
    throwsError(
      () => oseJourneyPreview({ baseMetres: 0, legs: [{ metres: 1, terrain: "clear" }], characters: 1 }),
      "OutOfRange",
      { name: "baseMetres", value: 0, min: 0.3, max: 1000 },
    );
  });
  it("names what it refuses", async () => {
    const ok: OseJourneyPlan = { baseMetres: 36, legs: [{ metres: 1000, terrain: "clear" }], characters: 1 };
    const bad = (over: Partial<OseJourneyPlan>) => () => oseJourneyPreview({ ...ok, ...over });
    throwsError(() => oseJourneyPreview(null as never), "Missing", { name: "plan" });
    throwsError(bad({ legs: [] }), "Missing", { name: "legs" });
    throwsError(bad({ legs: [ok.legs[0]!, null as never] }), "Missing", { name: "legs[1]" });
    throwsError(bad({ legs: [{ metres: -1, terrain: "clear" }] }), "Negative", { name: "legs[0].metres", value: -1 });
    throwsError(bad({ legs: [ok.legs[0]!, { metres: 1, terrain: "lava" as never }] }), "UnknownValue", {
      name: "legs[1].terrain",
      value: "lava",
      allowed: TERRAINS,
    });
    throwsError(
      bad({
        legs: [
          { metres: 6e6, terrain: "clear" },
          { metres: 6e6, terrain: "clear" },
        ],
      }),
      "OutOfRange",
      { name: "legs", value: 12e6, min: 0, max: 10_000_000 },
    );
    throwsError(bad({ characters: 1.5 }), "NotAnInteger", { name: "characters", value: 1.5 });
    for (const k of ["animals", "rations", "daysSinceRest", "maxDays", "lostPercent"] as const)
      throwsError(bad({ [k]: 1.5 }), "NotAnInteger", { name: k, value: 1.5 });
    throwsError(bad({ legs: null as never }), "Missing", { name: "legs" });
    throwsError(bad({ animals: 501 }), "OutOfRange", { name: "animals", value: 501, min: 0, max: 500 });
    throwsError(bad({ rations: 40_001 }), "OutOfRange", { name: "rations", value: 40_001, min: 0, max: 40_000 });
    throwsError(bad({ daysSinceRest: 1001 }), "OutOfRange", { name: "daysSinceRest", value: 1001, min: 0, max: 1000 });
    throwsError(bad({ maxDays: 0 }), "OutOfRange", { name: "maxDays", value: 0, min: 1, max: 1000 });
    throwsError(bad({ maxDays: 1001 }), "OutOfRange", { name: "maxDays", value: 1001, min: 1, max: 1000 });
    throwsError(bad({ lostPercent: 101 }), "OutOfRange", { name: "lostPercent", value: 101, min: 0, max: 100 });
    for (const k of ["forcedMarch", "flying", "guide", "river", "forage", "restWhenDue", "restFirst"] as const) {
      throwsError(bad({ [k]: "y" }), "UnknownValue", { name: k, value: "y", allowed: "true, false" });
    }
    for (const [dice, name] of [
      [{}, "dice.roll"],
      [{ roll: 3 }, "dice.roll"],
      [null, "dice"],
    ] as const) {
      const e = await oseJourney(ok, dice as never).catch((x: unknown) => x);
      expect(e as { key: string; data: unknown }).toMatchObject({ key: "AVENTURE.Error.Missing", data: { name } });
    }
  });
});
