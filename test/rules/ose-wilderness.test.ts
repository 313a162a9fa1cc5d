/**
 * Old-School Essentials wilderness travel (docs/rules.md §12). Values from the rules and the Old-School Essentials SRD
 * (Wilderness Adventuring, Hazards and Challenges), written as literals: 120' (36 m) a turn → 24 miles (36 km) a day.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  OSE_TERRAINS,
  OSE_TERRAIN_TABLE,
  OSE_WILDERNESS,
  oseDailyDistance,
  oseJourney,
  oseJourneyPreview,
  oseLostChance,
  oseRestPenalty,
  oseWanderingChance,
  type OseJourneyPlan,
  type OseTerrain,
} from "../../src/rules/ose-wilderness.js";
import { fixedDice, seededDice } from "../../src/rules/dice.js";
import * as rules from "../../src/rules/index.js";
import { rejectsKey, throwsKey } from "./helpers.js";

/** Dice that never get lost, never meet a monster and never find food: always 6. */
const sixes = (n = 1000) => fixedDice(Array.from({ length: n }, () => 6));

describe("terrains (docs/rules.md §12)", () => {
  it("are the twelve ids an OSE referee paints, exported from the rules engine", () => {
    expect([...OSE_TERRAINS]).toEqual([
      "clear",
      "grassland",
      "road",
      "barren",
      "broken",
      "desert",
      "forest",
      "hills",
      "mountains",
      "woods",
      "jungle",
      "swamp",
    ]);
    expect(rules.OSE_TERRAINS).toBe(OSE_TERRAINS);
    expect(typeof rules.oseJourney).toBe("function");
  });

  it("the table is frozen, one row per terrain", () => {
    expect(Object.keys(OSE_TERRAIN_TABLE).sort()).toEqual([...OSE_TERRAINS].sort());
    expect(Object.isFrozen(OSE_TERRAIN_TABLE.forest.speed)).toBe(true);
  });
});

describe("oseDailyDistance", () => {
  it("36 m base: clear 36 km, forest 24 km, mountains 18 km, road 54 km", () => {
    expect(oseDailyDistance(36, "clear")).toBe(36000);
    expect(oseDailyDistance(36, "forest")).toBe(24000);
    expect(oseDailyDistance(36, "mountains")).toBe(18000);
    expect(oseDailyDistance(36, "road")).toBe(54000);
  });

  it("⅓ slower in broken lands, desert, hills, woods; ½ in jungle and swamp; grasslands and barren lands as clear", () => {
    for (const t of ["broken", "desert", "hills", "woods"] as const) expect(oseDailyDistance(36, t)).toBe(24000);
    for (const t of ["jungle", "swamp"] as const) expect(oseDailyDistance(36, t)).toBe(18000);
    for (const t of ["grassland", "barren"] as const) expect(oseDailyDistance(36, t)).toBe(36000);
  });

  it("other bases: 120' → 24 miles, 90' (27 m) → 18 miles (27 km), 60' (18 m) in forest → 8 miles (12 km)", () => {
    expect(oseDailyDistance(27, "clear")).toBe(27000);
    expect(oseDailyDistance(18, "forest")).toBe(12000);
  });

  it("forced march on clear: 54 km; flying over mountains: 72 km (twice overland, terrain ignored)", () => {
    expect(oseDailyDistance(36, "clear", { forcedMarch: true })).toBe(54000);
    expect(oseDailyDistance(36, "mountains", { flying: true })).toBe(72000);
    expect(oseDailyDistance(36, "swamp", { flying: true })).toBe(72000);
    expect(oseDailyDistance(36, "forest", { forcedMarch: true })).toBe(36000);
  });

  it("bad input: a clear RulesError", () => {
    throwsKey(() => oseDailyDistance(-1, "clear"), "Negative");
    throwsKey(() => oseDailyDistance(Number.NaN, "clear"), "NotANumber");
    throwsKey(() => oseDailyDistance(36, "tundra" as OseTerrain), "UnknownValue");
    throwsKey(() => oseDailyDistance(36, "clear", { forcedMarch: "yes" as unknown as boolean }), "UnknownValue");
    throwsKey(() => oseDailyDistance(36, "clear", null as never), "Missing");
    throwsKey(() => oseDailyDistance(5000, "clear"), "OutOfRange");
  });

  it("property: never more than the road's (same options), never negative, always finite", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.constantFrom(...OSE_TERRAINS),
        fc.boolean(),
        (base, terrain, forcedMarch) => {
          const d = oseDailyDistance(base, terrain, { forcedMarch });
          expect(Number.isFinite(d)).toBe(true);
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(oseDailyDistance(base, "road", { forcedMarch }));
        },
      ),
    );
  });
});

describe("oseLostChance and oseWanderingChance", () => {
  it("losing direction: clear, grasslands 1 in 6; barren lands, hills, mountains, woods 2; desert, jungle, swamp 3; road 0", () => {
    const chances = Object.fromEntries(OSE_TERRAINS.map((t) => [t, oseLostChance(t)]));
    expect(chances).toEqual({
      clear: { chance: 1, of: 6 },
      grassland: { chance: 1, of: 6 },
      road: { chance: 0, of: 6 },
      barren: { chance: 2, of: 6 },
      broken: { chance: 2, of: 6 },
      desert: { chance: 3, of: 6 },
      forest: { chance: 2, of: 6 },
      hills: { chance: 2, of: 6 },
      mountains: { chance: 2, of: 6 },
      woods: { chance: 2, of: 6 },
      jungle: { chance: 3, of: 6 },
      swamp: { chance: 3, of: 6 },
    });
  });

  it("wandering monsters, one check a day: clear, grasslands 1 in 6; desert, forest, hills 2; jungle, mountains, swamp 3", () => {
    expect(oseWanderingChance("clear")).toEqual({ chance: 1, of: 6 });
    expect(oseWanderingChance("forest")).toEqual({ chance: 2, of: 6 });
    expect(oseWanderingChance("desert")).toEqual({ chance: 2, of: 6 });
    expect(oseWanderingChance("mountains")).toEqual({ chance: 3, of: 6 });
    expect(oseWanderingChance("swamp")).toEqual({ chance: 3, of: 6 });
  });

  it("an unknown terrain throws", () => {
    throwsKey(() => oseLostChance("lava" as OseTerrain), "UnknownValue");
    throwsKey(() => oseWanderingChance(undefined as never), "UnknownValue");
  });
});

describe("oseJourney", () => {
  it("three days across road, forest and swamp: 27 km road + 12 km forest, then 12 km forest + 9 km swamp, then 18 km swamp", async () => {
    const j = await oseJourney(
      {
        baseMetres: 36,
        characters: 4,
        legs: [
          { metres: 27000, terrain: "road" },
          { metres: 24000, terrain: "forest" },
          { metres: 27000, terrain: "swamp" },
        ],
      },
      sixes(),
    );
    expect(j.arrived).toBe(true);
    expect(j.arrivalDay).toBe(3);
    expect(j.days.map((d) => d.endMetres)).toEqual([39000, 60000, 78000]);
    expect(j.days.map((d) => d.terrain)).toEqual(["road", "forest", "swamp"]);
    expect(j.days[0]!.stretches).toEqual([
      { leg: 0, terrain: "road", metres: 27000, dayFraction: 0.5 },
      { leg: 1, terrain: "forest", metres: 12000, dayFraction: 0.5 },
    ]);
    expect(j.days[2]!.arrivalFraction).toBe(1);
    // Day 1 starts on the road: no lost check; days 2 and 3 check forest (2 in 6) and swamp (3 in 6).
    expect(j.days.map((d) => d.lost.roll)).toEqual([null, 6, 6]);
    expect(j.days.map((d) => d.lost.chance)).toEqual([0, 2, 3]);
    expect(j.days.map((d) => d.wandering.chance)).toEqual([1, 2, 3]);
    expect(j.rationsUsed).toBe(12);
  });

  it("the referee's dice: lost in the forest on 2 (no progress that day), a wandering monster on 1", async () => {
    // Day 1 forest: lost 2 (lost), wandering 1 (monster). Day 2: lost 6, wandering 6 → 24 km, arrives.
    const j = await oseJourney(
      { baseMetres: 36, characters: 1, legs: [{ metres: 24000, terrain: "forest" }] },
      fixedDice([2, 1, 6, 6]),
    );
    expect(j.days.map((d) => d.kind)).toEqual(["lost", "travel"]);
    expect(j.days[0]!.endMetres).toBe(0);
    expect(j.days[0]!.lost).toEqual({ chance: 2, of: 6, roll: 2, result: true });
    expect(j.days[0]!.wandering).toEqual({ chance: 2, of: 6, roll: 1, result: true });
    expect(j).toMatchObject({ arrived: true, arrivalDay: 2, lostDays: 1, travelDays: 1, encounters: 1 });
  });

  it("pmt's own getting-lost roll (docs/rules.md §2.7) when borrowed: a d100 against the GM's percentage replaces the chance in 6", async () => {
    // Forest, 30 %: day 1 lost on 25 (no progress), wandering 6; day 2 the d100 shows 31, not lost, 24 km: arrives.
    const faces: number[] = [];
    const dice = fixedDice([25, 6, 31, 6]);
    const watched = { roll: (n: number, f: number, r?: string) => (faces.push(f), dice.roll(n, f, r)) };
    const j = await oseJourney(
      { baseMetres: 36, characters: 1, lostPercent: 30, legs: [{ metres: 24000, terrain: "forest" }] },
      watched,
    );
    expect(faces).toEqual([100, 6, 100, 6]);
    expect(j.days.map((d) => d.kind)).toEqual(["lost", "travel"]);
    expect(j.days[0]!.lost).toEqual({ chance: 30, of: 100, roll: 25, result: true });
    expect(j.days[1]!.lost).toEqual({ chance: 30, of: 100, roll: 31, result: false });
    // Still none on a road or with a guide; 0 % never loses the party (no roll); the preview never gets lost.
    const road = await oseJourney(
      { baseMetres: 36, characters: 1, lostPercent: 90, legs: [{ metres: 54000, terrain: "road" }] },
      fixedDice([6]),
    );
    expect(road.days[0]!.lost).toEqual({ chance: 0, of: 100, roll: null, result: false });
    const none = await oseJourney(
      { baseMetres: 36, characters: 1, lostPercent: 0, legs: [{ metres: 36000, terrain: "clear" }] },
      fixedDice([6]),
    );
    expect(none.days[0]!.lost.roll).toBeNull();
    expect(
      oseJourneyPreview({
        baseMetres: 36,
        characters: 1,
        lostPercent: 99,
        legs: [{ metres: 24000, terrain: "forest" }],
      }).lostDays,
    ).toBe(0);
    for (const [bad, key] of [
      [-1, "Negative"],
      [101, "OutOfRange"],
      [2.5, "NotAnInteger"],
      [Number.NaN, "NotANumber"],
    ] as const) {
      await rejectsKey(
        oseJourney(
          { baseMetres: 36, characters: 1, lostPercent: bad, legs: [{ metres: 1000, terrain: "clear" }] },
          sixes(),
        ),
        key,
      );
    }
  });

  it("no losing direction with a guide, along a river, or on a road", async () => {
    for (const extra of [{ guide: true }, { river: true }]) {
      const j = await oseJourney(
        { baseMetres: 36, characters: 1, legs: [{ metres: 18000, terrain: "swamp" }], ...extra },
        fixedDice([1]),
      );
      expect(j.days[0]!.lost.roll).toBeNull();
      expect(j.days[0]!.kind).toBe("travel");
    }
  });

  it("7 travel days without rest: one day of rest owed and −1 to attack and damage rolls", async () => {
    const j = await oseJourney(
      { baseMetres: 36, characters: 2, legs: [{ metres: 7 * 54000, terrain: "road" }] },
      sixes(),
    );
    expect(j.days).toHaveLength(7);
    expect(j.days.map((d) => d.restPenalty)).toEqual([0, 0, 0, 0, 0, 0, -1]);
    expect(j.restDaysOwed).toBe(1);
    expect(j.restPenalty).toBe(-1);
    expect(oseRestPenalty(6)).toBe(0);
    expect(oseRestPenalty(7)).toBe(-1);
  });

  it("with the day of rest taken when due, the 7th day is a rest day and nobody takes the penalty", async () => {
    const j = await oseJourney(
      { baseMetres: 36, characters: 2, restWhenDue: true, legs: [{ metres: 7 * 54000, terrain: "road" }] },
      sixes(),
    );
    expect(j.days.map((d) => d.kind)).toEqual([
      "travel",
      "travel",
      "travel",
      "travel",
      "travel",
      "travel",
      "rest",
      "travel",
    ]);
    expect(j.days[6]).toMatchObject({ restReason: "weekly", endMetres: 6 * 54000, stretches: [] });
    expect(j.days.every((d) => d.restPenalty === 0)).toBe(true);
    expect(j).toMatchObject({ restDays: 1, restDaysOwed: 0, rationsUsed: 16 });
  });

  it("forced march: 54 km on clear, then a full day of rest; a forced march ending the journey leaves the rest owed", async () => {
    const j = await oseJourney(
      { baseMetres: 36, characters: 1, forcedMarch: true, legs: [{ metres: 108000, terrain: "clear" }] },
      sixes(),
    );
    expect(j.days.map((d) => [d.kind, d.endMetres])).toEqual([
      ["travel", 54000],
      ["rest", 54000],
      ["travel", 108000],
    ]);
    expect(j.days[1]!.restReason).toBe("forcedMarch");
    expect(j.days[1]!.lost.roll).toBeNull();
    expect(j.days[1]!.wandering.roll).toBe(6); // the day's wandering check is made on a day of rest too
    expect(j.forcedMarchRestOwed).toBe(true);
  });

  it("flying over mountains: 72 km a day", async () => {
    const j = await oseJourney(
      { baseMetres: 36, characters: 1, flying: true, legs: [{ metres: 144000, terrain: "mountains" }] },
      sixes(),
    );
    expect(j.days.map((d) => d.endMetres)).toEqual([72000, 144000]);
  });

  it("foraging: on 1 in 6, food for 1d6 characters, eaten before the rations; rations counted down", async () => {
    // Day 1 (clear): lost 6, wandering 6, forage 1 → fed 3. Day 2: lost 6, wandering 6, forage 4.
    const j = await oseJourney(
      {
        baseMetres: 36,
        characters: 4,
        animals: 1,
        forage: true,
        rations: 6,
        legs: [{ metres: 72000, terrain: "clear" }],
      },
      fixedDice([6, 6, 1, 3, 6, 6, 4]),
    );
    expect(j.days.map((d) => [d.foraged, d.rations, d.rationsLeft, d.rationsShort])).toEqual([
      [3, 2, 4, 0],
      [0, 4, 0, 1],
    ]);
    expect(j.days[0]!.forage).toEqual({ chance: 1, of: 6, roll: 1, result: true });
    expect(j.rationsLeft).toBe(0);
  });

  it("stops after maxDays when the party keeps losing its way", async () => {
    const j = await oseJourney(
      { baseMetres: 36, characters: 1, maxDays: 3, legs: [{ metres: 18000, terrain: "swamp" }] },
      fixedDice([1, 6, 1, 6, 1, 6]),
    );
    expect(j).toMatchObject({ arrived: false, arrivalDay: null, lostDays: 3, endMetres: 0 });
  });

  it("bad input: a clear RulesError, nothing rolled", async () => {
    const ok: OseJourneyPlan = { baseMetres: 36, characters: 1, legs: [{ metres: 1000, terrain: "clear" }] };
    await rejectsKey(oseJourney({ ...ok, legs: [] }, sixes()), "Missing");
    await rejectsKey(oseJourney({ ...ok, legs: [{ metres: -5, terrain: "clear" }] } as never, sixes()), "Negative");
    await rejectsKey(oseJourney({ ...ok, legs: [{ metres: 5, terrain: "sea" }] } as never, sixes()), "UnknownValue");
    await rejectsKey(oseJourney({ ...ok, characters: 1.5 }, sixes()), "NotAnInteger");
    await rejectsKey(oseJourney({ ...ok, baseMetres: 0 }, sixes()), "OutOfRange");
    await rejectsKey(oseJourney(ok, { roll: async () => [7] }), "BadDie");
    await rejectsKey(oseJourney(null as never, sixes()), "Missing");
  });

  it("property: each day's progress never exceeds a day on the road, never negative, finite; the days end in order", async () => {
    const leg = fc.record({
      metres: fc.double({ min: 0, max: 200000, noNaN: true }),
      terrain: fc.constantFrom(...OSE_TERRAINS),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 1, max: 72, noNaN: true }),
        fc.array(leg, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer(),
        async (base, legs, forcedMarch, forage, seed) => {
          const j = await oseJourney(
            { baseMetres: base, legs, forcedMarch, forage, characters: 3, maxDays: 40 },
            seededDice(seed),
          );
          const road = oseDailyDistance(base, "road", { forcedMarch });
          let previous = 0;
          for (const d of j.days) {
            const moved = d.endMetres - d.startMetres;
            expect(Number.isFinite(d.endMetres)).toBe(true);
            expect(moved).toBeGreaterThanOrEqual(0);
            expect(moved).toBeLessThanOrEqual(road + 1e-6);
            expect(d.startMetres).toBe(previous);
            expect(d.rations).toBeGreaterThanOrEqual(0);
            previous = d.endMetres;
          }
          expect(j.endMetres).toBeLessThanOrEqual(j.routeMetres);
          if (j.arrived) expect(j.endMetres).toBe(j.routeMetres);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("the preview is the journey where every die shows 6: never lost, no monster, no food", async () => {
    const plan = {
      baseMetres: 36,
      characters: 2,
      forage: true,
      legs: [
        { metres: 27000, terrain: "road" as const },
        { metres: 24000, terrain: "forest" as const },
        { metres: 27000, terrain: "swamp" as const },
      ],
    };
    expect(oseJourneyPreview(plan)).toEqual(await oseJourney(plan, sixes()));
    expect(oseJourneyPreview(plan).days.map((d) => d.endMetres)).toEqual([39000, 60000, 78000]);
    throwsKey(() => oseJourneyPreview({ ...plan, legs: [] }), "Missing");
  });

  it("the SRD's other figures are data: rest 1 day in 7 (−1), forced march ×3/2, flying ×2, forage 1 in 6 for 1d6", () => {
    expect(OSE_WILDERNESS).toMatchObject({
      restEvery: 7,
      restPenalty: -1,
      forcedMarch: { num: 3, den: 2 },
      flying: 2,
      forageChance: 1,
      forageFeeds: 6,
      die: 6,
    });
  });
});
