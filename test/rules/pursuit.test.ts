import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  DUNGEON_RUN,
  EVASION_TABLE,
  PURSUIT_CATCH_CHANCE,
  dropDistracts,
  dungeonFlight,
  dungeonFlightDetail,
  dungeonRunRound,
  dungeonRunStart,
  evasionChance,
  fixedDice,
  pursues,
  pursuesDetail,
  pursuitDay,
  pursuitLogDice,
  recordingDice,
  replayPursuit,
  seededDice,
  startPursuit,
  type PursuitState,
} from "../../src/rules/index.js";
import { rejectsKey, throwsKey } from "./helpers.js";

describe("flight in the dungeon (RULES.md §8.1)", () => {
  it("is impossible once combat has started", () => {
    expect(dungeonFlight({ fleeingSpeed: 36, pursuerSpeed: 9, combatStarted: true })).toBe("impossible");
    expect(dungeonFlightDetail({ fleeingSpeed: 36, pursuerSpeed: 9, combatStarted: true })).toEqual({
      outcome: "impossible",
      pursuersCanCatch: false,
    });
  });
  it("the faster fleeing side always escapes", () => {
    expect(dungeonFlight({ fleeingSpeed: 12, pursuerSpeed: 9, combatStarted: false })).toBe("escapes");
    expect(dungeonFlightDetail({ fleeingSpeed: 12, pursuerSpeed: 9, combatStarted: false }).pursuersCanCatch).toBe(
      false,
    );
  });
  it("otherwise a pursuit, which the pursuers win only if faster", () => {
    expect(dungeonFlightDetail({ fleeingSpeed: 9, pursuerSpeed: 12, combatStarted: false })).toEqual({
      outcome: "pursuit",
      pursuersCanCatch: true,
    });
    expect(dungeonFlightDetail({ fleeingSpeed: 12, pursuerSpeed: 12, combatStarted: false })).toEqual({
      outcome: "pursuit",
      pursuersCanCatch: false,
    });
  });
  it("rejects bad speeds and a missing combat flag", () => {
    throwsKey(() => dungeonFlight({ fleeingSpeed: -1, pursuerSpeed: 9, combatStarted: false }), "Negative");
    throwsKey(() => dungeonFlight({ fleeingSpeed: 9, pursuerSpeed: Number.NaN, combatStarted: false }), "NotANumber");
    throwsKey(() => dungeonFlight({ fleeingSpeed: 9, pursuerSpeed: 9 } as never), "Missing");
    throwsKey(() => dungeonFlight(null as never), "Missing");
  });
  it("pmt: a reaction of 7–12 means the monster pursues", () => {
    for (let t = 2; t <= 6; t++) expect(pursues("pmt", t)).toBe(false);
    for (let t = 7; t <= 12; t++) expect(pursues("pmt", t)).toBe(true);
    throwsKey(() => pursues("pmt", 1), "OutOfRange");
    throwsKey(() => pursues("pmt", 13), "OutOfRange");
    throwsKey(() => pursues("pmt", 7.5), "NotAnInteger");
    expect(pursuesDetail("pmt", 7)).toEqual({ pursues: true, suggested: true, decidedBy: "table", rules: "pmt" });
  });
  it("ose: the referee decides; a low reaction suggests pursuit", () => {
    expect(pursues("ose", 2)).toBeNull();
    expect(pursues("ose", 12)).toBeNull();
    expect(pursuesDetail("ose", 5)).toEqual({ pursues: null, suggested: true, decidedBy: "referee", rules: "ose" });
    expect(pursuesDetail("ose", 6).suggested).toBe(false);
    expect(pursuesDetail("ose", -1).suggested).toBe(true);
    expect(pursuesDetail("rnp", 3)).toMatchObject({ pursues: null, suggested: true, rules: "ose" });
    throwsKey(() => pursues("ose", 2.5), "NotAnInteger");
    throwsKey(() => pursues("gurps" as never, 7), "UnknownRuleset");
  });
  it("dropped treasure distracts on 3–6", () => {
    expect(dropDistracts(1)).toBe(false);
    expect(dropDistracts(2)).toBe(false);
    for (const d of [3, 4, 5, 6]) expect(dropDistracts(d)).toBe(true);
    throwsKey(() => dropDistracts(0), "OutOfRange");
    throwsKey(() => dropDistracts(7), "OutOfRange");
    throwsKey(() => dropDistracts(3.5), "NotAnInteger");
  });
});

describe("escape chance outdoors (RULES.md §8.2)", () => {
  it("the worked examples: 4 fleeing vs 1 pursuer → 50 %, vs 2 → 70 %", () => {
    expect(evasionChance({ fleeing: 4, pursuers: 1 })).toEqual({
      chance: 50,
      base: 50,
      band: 1,
      bandModifier: 0,
      raw: 50,
    });
    expect(evasionChance({ fleeing: 4, pursuers: 2 })).toEqual({
      chance: 70,
      base: 50,
      band: 2,
      bandModifier: 20,
      raw: 70,
    });
  });
  it("every row and every band", () => {
    // fleeing, pursuers for band 1, 2, 3 → expected chances
    const cases: [number, [number, number, number], [number, number, number]][] = [
      [4, [1, 3, 4], [50, 70, 90]],
      [1, [1, 1, 1], [90, 90, 90]],
      [5, [1, 2, 4], [35, 50, 60]],
      [12, [3, 9, 10], [35, 50, 60]],
      [13, [3, 9, 10], [25, 40, 50]],
      [24, [6, 18, 19], [25, 40, 50]],
      [25, [6, 18, 19], [10, 25, 35]],
      [100, [25, 75, 76], [10, 25, 35]],
    ];
    for (const [fleeing, pursuers, chances] of cases) {
      for (let b = 0; b < 3; b++) {
        const r = evasionChance({ fleeing, pursuers: pursuers[b]! });
        expect(r.chance, `${fleeing} vs ${pursuers[b]}`).toBe(chances[b]);
      }
    }
  });
  it("band boundaries: exactly 25 % is band 1, exactly 75 % is band 2, just above moves up", () => {
    expect(evasionChance({ fleeing: 8, pursuers: 2 }).band).toBe(1); // 25 %
    expect(evasionChance({ fleeing: 8, pursuers: 3 }).band).toBe(2); // 37.5 %
    expect(evasionChance({ fleeing: 8, pursuers: 6 }).band).toBe(2); // 75 %
    expect(evasionChance({ fleeing: 8, pursuers: 7 }).band).toBe(3); // 87.5 %
    expect(evasionChance({ fleeing: 100, pursuers: 25 }).band).toBe(1);
    expect(evasionChance({ fleeing: 100, pursuers: 26 }).band).toBe(2);
    expect(evasionChance({ fleeing: 100, pursuers: 75 }).band).toBe(2);
    expect(evasionChance({ fleeing: 100, pursuers: 76 }).band).toBe(3);
    expect(evasionChance({ fleeing: 1, pursuers: 1 }).band).toBe(3); // 100 %
    expect(evasionChance({ fleeing: 3, pursuers: 1 }).band).toBe(2); // 33 %
  });
  it("row boundaries: 4/5, 12/13, 24/25", () => {
    expect(evasionChance({ fleeing: 4, pursuers: 1 }).base).toBe(50);
    expect(evasionChance({ fleeing: 5, pursuers: 1 }).base).toBe(35);
    expect(evasionChance({ fleeing: 12, pursuers: 1 }).base).toBe(35);
    expect(evasionChance({ fleeing: 13, pursuers: 1 }).base).toBe(25);
    expect(evasionChance({ fleeing: 24, pursuers: 1 }).base).toBe(25);
    expect(evasionChance({ fleeing: 25, pursuers: 1 }).base).toBe(10);
    expect(evasionChance({ fleeing: 1000, pursuers: 1 }).base).toBe(10);
    expect(EVASION_TABLE).toHaveLength(4);
  });
  it("bonuses: dense woods for the fleeing side, faster pursuers subtracted", () => {
    expect(evasionChance({ fleeing: 4, pursuers: 1, fleeingBonus: 20 }).chance).toBe(70);
    expect(evasionChance({ fleeing: 4, pursuers: 1, fleeingBonus: 25 }).chance).toBe(75);
    expect(evasionChance({ fleeing: 4, pursuers: 1, pursuerBonus: 20 }).chance).toBe(30);
    expect(evasionChance({ fleeing: 4, pursuers: 1, pursuerBonus: 25 }).chance).toBe(25);
    expect(evasionChance({ fleeing: 4, pursuers: 2, fleeingBonus: 20, pursuerBonus: 25 }).chance).toBe(65);
  });
  it("never below 5 %, never above 100 %", () => {
    expect(evasionChance({ fleeing: 30, pursuers: 1, pursuerBonus: 25 })).toEqual({
      chance: 5,
      base: 10,
      band: 1,
      bandModifier: 0,
      raw: -15,
    });
    expect(evasionChance({ fleeing: 30, pursuers: 1, pursuerBonus: 5 }).chance).toBe(5);
    expect(evasionChance({ fleeing: 30, pursuers: 1, pursuerBonus: 4 }).chance).toBe(6);
    expect(evasionChance({ fleeing: 2, pursuers: 2, fleeingBonus: 25 })).toMatchObject({ chance: 100, raw: 115 });
  });
  it("rejects bad group sizes and negative bonuses", () => {
    throwsKey(() => evasionChance({ fleeing: 0, pursuers: 1 }), "OutOfRange");
    throwsKey(() => evasionChance({ fleeing: 4, pursuers: 0 }), "OutOfRange");
    throwsKey(() => evasionChance({ fleeing: 4.5, pursuers: 1 }), "NotAnInteger");
    throwsKey(() => evasionChance({ fleeing: 4, pursuers: Number.NaN }), "NotANumber");
    throwsKey(() => evasionChance({ fleeing: 4, pursuers: 1, fleeingBonus: -20 }), "Negative");
    throwsKey(() => evasionChance({ fleeing: 4, pursuers: 1, pursuerBonus: -20 }), "Negative");
    throwsKey(() => evasionChance({ fleeing: 4, pursuers: 1, pursuerBonus: Number.POSITIVE_INFINITY }), "NotANumber");
    throwsKey(() => evasionChance(undefined as never), "Missing");
  });
  const sizes = fc.integer({ min: 1, max: 500 });
  const bonus = fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined });
  it("the chance stays within 5..100 (property)", () => {
    fc.assert(
      fc.property(sizes, sizes, bonus, bonus, (fleeing, pursuers, fleeingBonus, pursuerBonus) => {
        const c = evasionChance({ fleeing, pursuers, fleeingBonus, pursuerBonus }).chance;
        expect(c).toBeGreaterThanOrEqual(5);
        expect(c).toBeLessThanOrEqual(100);
      }),
    );
  });
  it("more pursuers never lower the escape chance (property; seed 002: larger pursuing groups are slower)", () => {
    fc.assert(
      fc.property(
        sizes,
        sizes,
        fc.integer({ min: 1, max: 50 }),
        bonus,
        bonus,
        (fleeing, pursuers, more, fleeingBonus, pursuerBonus) => {
          const a = evasionChance({ fleeing, pursuers, fleeingBonus, pursuerBonus }).chance;
          const b = evasionChance({ fleeing, pursuers: pursuers + more, fleeingBonus, pursuerBonus }).chance;
          expect(b).toBeGreaterThanOrEqual(a);
        },
      ),
    );
  });
  it("a larger fleeing group never escapes more easily against the same pursuers (property)", () => {
    fc.assert(
      fc.property(sizes, sizes, fc.integer({ min: 1, max: 50 }), (fleeing, pursuers, more) => {
        expect(evasionChance({ fleeing: fleeing + more, pursuers }).chance).toBeLessThanOrEqual(
          evasionChance({ fleeing, pursuers }).chance,
        );
      }),
    );
  });
});

describe("the outdoor chase, day by day (RULES.md §8.2)", () => {
  const base = (over: Partial<PursuitState> = {}): PursuitState => ({
    ...startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true }),
    ...over,
  });

  it("starts at day 0, continuing", () => {
    expect(startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true })).toEqual({
      day: 0,
      fleeing: 4,
      pursuers: 2,
      fleeingBonus: 0,
      pursuerBonus: 0,
      pursuersFaster: true,
      surprised: null,
      outcome: "continues",
      log: [],
    });
  });
  it("escapes on 1d100 ≤ the chance (70 % for 4 vs 2)", async () => {
    const d = recordingDice(fixedDice([70]));
    const { state, record } = await pursuitDay(base(), d);
    expect(record).toEqual({
      day: 1,
      chance: 70,
      band: 2,
      evasionRoll: 70,
      catchRoll: null,
      outcome: "escaped",
      reason: "evaded",
    });
    expect(state.outcome).toBe("escaped");
    expect(state.day).toBe(1);
    expect(state.log).toEqual([record]);
    expect(d.log).toEqual([{ count: 1, faces: 100, reason: "evasion", results: [70] }]);
  });
  it("a failed escape against faster pursuers: caught on 1d100 ≤ 50", async () => {
    expect(PURSUIT_CATCH_CHANCE).toBe(50);
    const caught = await pursuitDay(base(), fixedDice([71, 50]));
    expect(caught.record).toMatchObject({ evasionRoll: 71, catchRoll: 50, outcome: "caught", reason: "caught" });
    const free = await pursuitDay(base(), fixedDice([71, 51]));
    expect(free.record).toMatchObject({ evasionRoll: 71, catchRoll: 51, outcome: "continues", reason: "notCaught" });
    expect(free.state.outcome).toBe("continues");
  });
  it("pursuers that are not faster never catch: the chase continues, no catch roll", async () => {
    const d = fixedDice([100]);
    const r = await pursuitDay(base({ pursuersFaster: false }), d);
    expect(r.record).toMatchObject({
      evasionRoll: 100,
      catchRoll: null,
      outcome: "continues",
      reason: "pursuersNotFaster",
    });
    expect(d.remaining()).toBe(0);
  });
  it("surprised pursuers: the fleeing side escapes automatically, without dice", async () => {
    const r = await pursuitDay(base({ surprised: "pursuers" }), fixedDice([]));
    expect(r.record).toEqual({
      day: 1,
      chance: null,
      band: null,
      evasionRoll: null,
      catchRoll: null,
      outcome: "escaped",
      reason: "pursuersSurprised",
    });
  });
  it("a surprised fleeing side may flee: it rolls on the table like any side (RULES.md §8.2 decision)", async () => {
    // 4 fleeing, 2 pursuers: 70 %. A 70 escapes, a 71 then 51 keeps the chase going.
    const escaped = await pursuitDay(base({ surprised: "fleeing" }), fixedDice([70]));
    expect(escaped.record).toEqual({
      day: 1,
      chance: 70,
      band: 2,
      evasionRoll: 70,
      catchRoll: null,
      outcome: "escaped",
      reason: "evaded",
    });
    const chased = await pursuitDay(base({ surprised: "fleeing" }), fixedDice([71, 51]));
    expect(chased.record).toMatchObject({
      chance: 70,
      evasionRoll: 71,
      catchRoll: 51,
      outcome: "continues",
      reason: "notCaught",
    });
    const caught = await pursuitDay(base({ surprised: "fleeing" }), fixedDice([71, 50]));
    expect(caught.state.outcome).toBe("caught");
  });
  it("does not change its input (immutable, JSON-able)", async () => {
    const s = base();
    const copy = JSON.parse(JSON.stringify(s));
    const { state } = await pursuitDay(s, fixedDice([90, 90]));
    expect(s).toEqual(copy);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(state.day).toBe(1);
    expect(state.outcome).toBe("continues");
  });
  it("the glue may change the bonuses between days", async () => {
    const s1 = (await pursuitDay(base(), fixedDice([90, 90]))).state;
    const s2 = await pursuitDay({ ...s1, fleeingBonus: 25 }, fixedDice([95]));
    expect(s2.record).toMatchObject({ day: 2, chance: 95, outcome: "escaped" });
    expect(s2.state.log).toHaveLength(2);
  });
  it("throws on a finished chase and on bad states", async () => {
    for (const outcome of ["escaped", "caught"] as const) {
      await rejectsKey(pursuitDay(base({ outcome }), fixedDice([1])), "UnknownValue");
    }
    await rejectsKey(pursuitDay(base({ outcome: "won" as never }), fixedDice([1])), "UnknownValue");
    await rejectsKey(pursuitDay(base({ outcome: "cannotFlee" as never }), fixedDice([1])), "UnknownValue");
    await rejectsKey(pursuitDay(base({ day: -1 }), fixedDice([1])), "Negative");
    await rejectsKey(pursuitDay(base({ fleeing: 0 }), fixedDice([1])), "OutOfRange");
    await rejectsKey(pursuitDay(base({ pursuerBonus: -5 }), fixedDice([1])), "Negative");
    await rejectsKey(pursuitDay(base({ surprised: "both" as never }), fixedDice([1])), "UnknownValue");
    await rejectsKey(pursuitDay(base({ pursuersFaster: undefined as never }), fixedDice([1])), "Missing");
    await rejectsKey(pursuitDay(base({ log: undefined as never }), fixedDice([1])), "Missing");
    throwsKey(() => startPursuit({ fleeing: 4, pursuers: 1, pursuersFaster: "yes" as never }), "UnknownValue");
  });
  it("a seeded five-day chase replays identically from its log", async () => {
    const start = startPursuit({ fleeing: 30, pursuers: 3, pursuersFaster: true }); // 10 %, band 1
    const final = await replayPursuit(start, seededDice(106), 20);
    expect(final.day).toBe(5);
    expect(final.outcome).toBe("escaped");
    expect(final.log).toHaveLength(5);
    for (const r of final.log.slice(0, 4)) {
      expect(r.chance).toBe(10);
      expect(r.evasionRoll!).toBeGreaterThan(10);
      expect(r.catchRoll!).toBeGreaterThan(50);
      expect(r.outcome).toBe("continues");
    }
    expect(final.log[4]!.evasionRoll!).toBeLessThanOrEqual(10);
    const dice = pursuitLogDice(final.log);
    expect(dice).toHaveLength(9);
    const fixed = fixedDice(dice);
    expect(await replayPursuit(start, fixed, 20)).toEqual(final);
    expect(fixed.remaining()).toBe(0);
    expect(start.log).toEqual([]);
  });
  it("stops after maxDays with the chase still going", async () => {
    const start = startPursuit({ fleeing: 30, pursuers: 3, pursuersFaster: false });
    const s = await replayPursuit(start, fixedDice([50, 60, 70]), 3);
    expect(s.day).toBe(3);
    expect(s.outcome).toBe("continues");
    await rejectsKey(replayPursuit(start, fixedDice([]), 0), "OutOfRange");
    await rejectsKey(replayPursuit(start, fixedDice([]), 1.5), "NotAnInteger");
  });
  it("any chase replays from its log (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        fc.constantFrom(null, "fleeing", "pursuers" as const),
        async (seed, fleeing, pursuers, pursuersFaster, surprised) => {
          const start = startPursuit({ fleeing, pursuers, pursuersFaster, surprised });
          const final = await replayPursuit(start, seededDice(seed), 30);
          expect(await replayPursuit(start, fixedDice(pursuitLogDice(final.log)), 30)).toEqual(final);
          expect(final.log.map((r) => r.day)).toEqual(final.log.map((_, i) => i + 1));
          expect(final.log.slice(0, -1).every((r) => r.outcome === "continues")).toBe(true);
          if (!pursuersFaster) expect(final.outcome === "caught").toBe(false);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("running in the dungeon", () => {
  it("data: pmt 30 rounds; ose 30 rounds then −2 until three turns of rest", () => {
    expect(DUNGEON_RUN.pmt).toEqual({ limitRounds: 30, penalty: null, restTurns: null });
    expect(DUNGEON_RUN.ose).toEqual({ limitRounds: 30, penalty: -2, restTurns: 3 });
  });
  it("counts rounds to exhaustion (ose)", () => {
    let s = dungeonRunStart("ose");
    expect(s).toMatchObject({ rounds: 0, remaining: 30, exhausted: false, penalty: 0 });
    for (let i = 1; i <= 29; i++) s = dungeonRunRound(s);
    expect(s).toMatchObject({ rounds: 29, remaining: 1, exhausted: false, penalty: 0 });
    s = dungeonRunRound(s);
    expect(s).toEqual({
      ruleset: "ose",
      rounds: 30,
      exhausted: true,
      limitRounds: 30,
      remaining: 0,
      penalty: -2,
      restTurns: 3,
      rules: "ose",
    });
    throwsKey(() => dungeonRunRound(s), "UnknownValue");
  });
  it("pmt: exhausted after 30 rounds, no penalty given by the seed", () => {
    const s = dungeonRunRound({ ruleset: "pmt", rounds: 29, exhausted: false });
    expect(s).toMatchObject({ rounds: 30, exhausted: true, penalty: 0, restTurns: null, rules: "pmt" });
    expect(dungeonRunRound({ ruleset: "pmt", rounds: 0, exhausted: false })).toMatchObject({
      rounds: 1,
      remaining: 29,
    });
  });
  it("other rulesets use ose", () => {
    expect(dungeonRunRound({ ruleset: "rnp", rounds: 29, exhausted: false })).toMatchObject({
      exhausted: true,
      penalty: -2,
      rules: "ose",
    });
  });
  it("rejects bad states", () => {
    throwsKey(() => dungeonRunRound({ ruleset: "ose", rounds: 5, exhausted: true }), "UnknownValue");
    throwsKey(() => dungeonRunRound({ ruleset: "ose", rounds: 31, exhausted: false }), "OutOfRange");
    throwsKey(() => dungeonRunRound({ ruleset: "ose", rounds: -1, exhausted: false }), "Negative");
    throwsKey(() => dungeonRunRound({ ruleset: "ose", rounds: 1.5, exhausted: false }), "NotAnInteger");
    throwsKey(() => dungeonRunRound({ ruleset: "ose", rounds: 1 } as never), "Missing");
    throwsKey(() => dungeonRunRound({ ruleset: "gurps", rounds: 1, exhausted: false } as never), "UnknownRuleset");
    throwsKey(() => dungeonRunStart("gurps" as never), "UnknownRuleset");
  });
});
