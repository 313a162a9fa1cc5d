/**
 * Flight and pursuit (docs/rules.md §8) at their edges: whole results, each bound on both sides, the dice's reasons,
 * and the whole error of each malformed argument or stored field (its name is what the user reads).
 */
import { describe, expect, it } from "vitest";
import {
  compareSpeeds,
  dropDistracts,
  dungeonFlightDetail,
  dungeonRunRestSeconds,
  dungeonRunRound,
  dungeonRunStart,
  evasionAdjustment,
  evasionChance,
  groupSpeed,
  pursuesDetail,
  pursuitDay,
  pursuitLogDice,
  replayPursuit,
  startPursuit,
  type PursuitDayRecord,
  type PursuitState,
} from "../../src/rules/pursuit.js";
import { fixedDice, recordingDice } from "../../src/rules/dice.js";
import { RulesError } from "../../src/rules/errors.js";
import { throwsError } from "./helpers.js";

async function rejectsError(p: Promise<unknown>, key: string, data: Record<string, string | number>): Promise<void> {
  let caught: unknown = null;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(RulesError);
  const e = caught as RulesError;
  expect({ key: e.key, data: e.data }).toEqual({ key: `AVENTURE.Error.${key}`, data });
}

const BOOL = "true, false";

describe("flight in the dungeon (docs/rules.md §8.1) at its edges", () => {
  it("whole details: equal speeds are a pursuit the pursuers cannot win", () => {
    expect(dungeonFlightDetail({ fleeingSpeed: 9, pursuerSpeed: 9, combatStarted: false })).toEqual({
      outcome: "pursuit",
      pursuersCanCatch: false,
    });
    expect(dungeonFlightDetail({ fleeingSpeed: 9, pursuerSpeed: 9.5, combatStarted: false })).toEqual({
      outcome: "pursuit",
      pursuersCanCatch: true,
    });
    expect(dungeonFlightDetail({ fleeingSpeed: 9.5, pursuerSpeed: 9, combatStarted: false })).toEqual({
      outcome: "escapes",
      pursuersCanCatch: false,
    });
    expect(dungeonFlightDetail({ fleeingSpeed: 9.5, pursuerSpeed: 9, combatStarted: true })).toEqual({
      outcome: "impossible",
      pursuersCanCatch: false,
    });
  });
  it("names what is wrong", () => {
    throwsError(() => dungeonFlightDetail(null as never), "Missing", { name: "opts" });
    throwsError(() => dungeonFlightDetail({ fleeingSpeed: -1, pursuerSpeed: 9, combatStarted: false }), "Negative", {
      name: "fleeingSpeed",
      value: -1,
    });
    throwsError(() => dungeonFlightDetail({ fleeingSpeed: 1, pursuerSpeed: -9, combatStarted: false }), "Negative", {
      name: "pursuerSpeed",
      value: -9,
    });
    throwsError(() => dungeonFlightDetail({ fleeingSpeed: 1, pursuerSpeed: 9 } as never), "Missing", {
      name: "combatStarted",
    });
    throwsError(
      () => dungeonFlightDetail({ fleeingSpeed: 1, pursuerSpeed: 9, combatStarted: "no" as never }),
      "UnknownValue",
      { name: "combatStarted", value: "no", allowed: BOOL },
    );
  });
  it("pmt pursues on 7–12; ose suggests it on 5 or less", () => {
    expect(pursuesDetail("pmt", 7)).toEqual({ pursues: true, suggested: true, decidedBy: "table", rules: "pmt" });
    expect(pursuesDetail("pmt", 6)).toEqual({ pursues: false, suggested: false, decidedBy: "table", rules: "pmt" });
    expect(pursuesDetail("ose", 5)).toEqual({ pursues: null, suggested: true, decidedBy: "referee", rules: "ose" });
    expect(pursuesDetail("dnd5e", 6)).toEqual({ pursues: null, suggested: false, decidedBy: "referee", rules: "ose" });
  });
  it("dropped treasure: 3–6 on 1d6", () => {
    expect([1, 2, 3, 4, 5, 6].map(dropDistracts)).toEqual([false, false, true, true, true, true]);
    throwsError(() => dropDistracts(0), "OutOfRange", { name: "d6", value: 0, min: 1, max: 6 });
    throwsError(() => dropDistracts(7), "OutOfRange", { name: "d6", value: 7, min: 1, max: 6 });
    throwsError(() => dropDistracts(2.5), "NotAnInteger", { name: "d6", value: 2.5 });
  });
});

describe("the escape chance (docs/rules.md §8.2) at its edges", () => {
  it("whole results; the 5 % floor and the 100 % cap, both sides", () => {
    expect(evasionChance({ fleeing: 4, pursuers: 2 })).toEqual({
      chance: 70,
      base: 50,
      band: 2,
      bandModifier: 20,
      raw: 70,
    });
    expect(evasionChance({ fleeing: 30, pursuers: 3, pursuerBonus: 5 })).toEqual({
      chance: 5,
      base: 10,
      band: 1,
      bandModifier: 0,
      raw: 5,
    });
    expect(evasionChance({ fleeing: 30, pursuers: 3, pursuerBonus: 6 })).toEqual({
      chance: 5,
      base: 10,
      band: 1,
      bandModifier: 0,
      raw: 4,
    });
    expect(evasionChance({ fleeing: 30, pursuers: 3, pursuerBonus: 4 })).toEqual({
      chance: 6,
      base: 10,
      band: 1,
      bandModifier: 0,
      raw: 6,
    });
    expect(evasionChance({ fleeing: 4, pursuers: 4, fleeingBonus: 10 })).toEqual({
      chance: 100,
      base: 50,
      band: 3,
      bandModifier: 40,
      raw: 100,
    });
    expect(evasionChance({ fleeing: 4, pursuers: 4, fleeingBonus: 11 })).toEqual({
      chance: 100,
      base: 50,
      band: 3,
      bandModifier: 40,
      raw: 101,
    });
    expect(evasionChance({ fleeing: 4, pursuers: 4, fleeingBonus: 9 })).toEqual({
      chance: 99,
      base: 50,
      band: 3,
      bandModifier: 40,
      raw: 99,
    });
    expect(evasionChance({ fleeing: 10_000, pursuers: 10_000, fleeingBonus: 100, pursuerBonus: 100 })).toEqual({
      chance: 35,
      base: 10,
      band: 3,
      bandModifier: 25,
      raw: 35,
    });
  });
  it("names what is wrong", () => {
    throwsError(() => evasionChance(null as never), "Missing", { name: "opts" });
    throwsError(() => evasionChance({ fleeing: 0, pursuers: 1 }), "OutOfRange", {
      name: "fleeing",
      value: 0,
      min: 1,
      max: 10_000,
    });
    throwsError(() => evasionChance({ fleeing: 10_001, pursuers: 1 }), "OutOfRange", {
      name: "fleeing",
      value: 10_001,
      min: 1,
      max: 10_000,
    });
    throwsError(() => evasionChance({ fleeing: 1.5, pursuers: 1 }), "NotAnInteger", { name: "fleeing", value: 1.5 });
    throwsError(() => evasionChance({ fleeing: 1, pursuers: 0 }), "OutOfRange", {
      name: "pursuers",
      value: 0,
      min: 1,
      max: 10_000,
    });
    throwsError(() => evasionChance({ fleeing: 1, pursuers: 10_001 }), "OutOfRange", {
      name: "pursuers",
      value: 10_001,
      min: 1,
      max: 10_000,
    });
    throwsError(() => evasionChance({ fleeing: 1, pursuers: 1, fleeingBonus: -1 }), "Negative", {
      name: "fleeingBonus",
      value: -1,
    });
    throwsError(() => evasionChance({ fleeing: 1, pursuers: 1, fleeingBonus: 101 }), "OutOfRange", {
      name: "fleeingBonus",
      value: 101,
      min: 0,
      max: 100,
    });
    throwsError(() => evasionChance({ fleeing: 1, pursuers: 1, pursuerBonus: -1 }), "Negative", {
      name: "pursuerBonus",
      value: -1,
    });
    throwsError(() => evasionChance({ fleeing: 1, pursuers: 1, pursuerBonus: 101 }), "OutOfRange", {
      name: "pursuerBonus",
      value: 101,
      min: 0,
      max: 100,
    });
  });
  it("referee adjustments: 20 to 25, whole points", () => {
    expect(evasionAdjustment("woods", 20)).toBe(20);
    expect(evasionAdjustment("woods", 25)).toBe(25);
    throwsError(() => evasionAdjustment("woods", 19), "OutOfRange", { name: "woods", value: 19, min: 20, max: 25 });
    throwsError(() => evasionAdjustment("woods", 26), "OutOfRange", { name: "woods", value: 26, min: 20, max: 25 });
    throwsError(() => evasionAdjustment("woods", 20.5), "NotAnInteger", { name: "woods", value: 20.5 });
  });
});

describe("the outdoor chase at its edges", () => {
  const start = (over: Partial<PursuitState> = {}): PursuitState => ({
    ...startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true }),
    ...over,
  });
  const rec = (over: Partial<PursuitDayRecord> = {}): PursuitDayRecord => ({
    day: 1,
    chance: 70,
    band: 2,
    evasionRoll: 71,
    catchRoll: 51,
    outcome: "continues",
    reason: "notCaught",
    ...over,
  });

  it("a failed escape then a failed catch: the whole day, both rolls with their reasons", async () => {
    const dice = recordingDice(fixedDice([71, 51]));
    const r = await pursuitDay(start(), dice);
    expect(r).toEqual({ state: { ...start(), day: 1, log: [rec()] }, record: rec() });
    expect(dice.log).toEqual([
      { count: 1, faces: 100, reason: "evasion", results: [71] },
      { count: 1, faces: 100, reason: "pursuitCatch", results: [51] },
    ]);
    const caught = await pursuitDay(start(), fixedDice([71, 50]));
    expect(caught.state).toEqual({
      ...start(),
      day: 1,
      outcome: "caught",
      log: [rec({ catchRoll: 50, outcome: "caught", reason: "caught" })],
    });
  });
  it("a chase over, or at its 1000th day, is refused", async () => {
    await rejectsError(pursuitDay(start({ outcome: "escaped" }), fixedDice([1])), "UnknownValue", {
      name: "state.outcome",
      value: "escaped",
      allowed: "continues",
    });
    await rejectsError(pursuitDay(start({ day: 1000 }), fixedDice([1])), "OutOfRange", {
      name: "day",
      value: 1001,
      min: "-∞",
      max: 1000,
    });
    expect((await pursuitDay(start({ day: 999 }), fixedDice([1]))).record.day).toBe(1000);
  });
  it("startPursuit names what is wrong", () => {
    throwsError(() => startPursuit(null as never), "Missing", { name: "opts" });
    throwsError(() => startPursuit({ fleeing: 0, pursuers: 1, pursuersFaster: true }), "OutOfRange", {
      name: "state.fleeing",
      value: 0,
      min: 1,
      max: 10_000,
    });
    throwsError(() => startPursuit({ fleeing: 1, pursuers: 0, pursuersFaster: true }), "OutOfRange", {
      name: "state.pursuers",
      value: 0,
      min: 1,
      max: 10_000,
    });
    throwsError(
      () => startPursuit({ fleeing: 1, pursuers: 1, fleeingBonus: 101, pursuersFaster: true }),
      "OutOfRange",
      { name: "state.fleeingBonus", value: 101, min: 0, max: 100 },
    );
    throwsError(() => startPursuit({ fleeing: 1, pursuers: 1, pursuerBonus: -1, pursuersFaster: true }), "Negative", {
      name: "state.pursuerBonus",
      value: -1,
    });
    throwsError(() => startPursuit({ fleeing: 1, pursuers: 1 } as never), "Missing", { name: "state.pursuersFaster" });
    throwsError(
      () => startPursuit({ fleeing: 1, pursuers: 1, pursuersFaster: true, surprised: "both" as never }),
      "UnknownValue",
      {
        name: "state.surprised",
        value: "both",
        allowed: "fleeing, pursuers",
      },
    );
  });
  it("a state given back is checked field by field, each day of its log too", async () => {
    const cases: [unknown, string, Record<string, string | number>][] = [
      [null, "Missing", { name: "state" }],
      [start({ day: -1 }), "Negative", { name: "state.day", value: -1 }],
      [start({ day: 1001 }), "OutOfRange", { name: "state.day", value: 1001, min: 0, max: 1000 }],
      [start({ day: 0.5 }), "NotAnInteger", { name: "state.day", value: 0.5 }],
      [
        start({ outcome: "won" as never }),
        "UnknownValue",
        { name: "state.outcome", value: "won", allowed: "continues, escaped, caught" },
      ],
      [start({ log: "x" as never }), "Missing", { name: "state.log" }],
      [start({ log: [null as never] }), "Missing", { name: "state.log[0]" }],
      [
        start({ log: [rec(), rec({ day: 0 })] }),
        "OutOfRange",
        { name: "state.log[1].day", value: 0, min: 1, max: 1000 },
      ],
      [
        start({ log: [rec({ day: 1001 })] }),
        "OutOfRange",
        { name: "state.log[0].day", value: 1001, min: 1, max: 1000 },
      ],
      [start({ log: [rec({ day: 1.5 })] }), "NotAnInteger", { name: "state.log[0].day", value: 1.5 }],
      [
        start({ log: [rec({ chance: 101 })] }),
        "OutOfRange",
        { name: "state.log[0].chance", value: 101, min: 0, max: 100 },
      ],
      [start({ log: [rec({ chance: -1 })] }), "Negative", { name: "state.log[0].chance", value: -1 }],
      [
        start({ log: [rec({ band: 4 as never })] }),
        "OutOfRange",
        { name: "state.log[0].band", value: 4, min: 1, max: 3 },
      ],
      [
        start({ log: [rec({ band: 0 as never })] }),
        "OutOfRange",
        { name: "state.log[0].band", value: 0, min: 1, max: 3 },
      ],
      [start({ log: [rec({ band: 1.5 as never })] }), "NotAnInteger", { name: "state.log[0].band", value: 1.5 }],
      [
        start({ log: [rec({ evasionRoll: 0 })] }),
        "OutOfRange",
        { name: "state.log[0].evasionRoll", value: 0, min: 1, max: 100 },
      ],
      [
        start({ log: [rec({ evasionRoll: 101 })] }),
        "OutOfRange",
        { name: "state.log[0].evasionRoll", value: 101, min: 1, max: 100 },
      ],
      [start({ log: [rec({ catchRoll: 50.5 })] }), "NotAnInteger", { name: "state.log[0].catchRoll", value: 50.5 }],
      [
        start({ log: [rec({ outcome: "won" as never })] }),
        "UnknownValue",
        { name: "state.log[0].outcome", value: "won", allowed: "continues, escaped, caught" },
      ],
      [
        start({ log: [rec({ reason: "luck" as never })] }),
        "UnknownValue",
        {
          name: "state.log[0].reason",
          value: "luck",
          allowed: "pursuersSurprised, evaded, caught, notCaught, pursuersNotFaster",
        },
      ],
    ];
    for (const [s, key, data] of cases) await rejectsError(pursuitDay(s as PursuitState, fixedDice([1])), key, data);
    // Nulls and the bounds themselves are fine; a log of 1000 days too.
    const ok = start({
      day: 5,
      log: [
        rec({ chance: null, band: null, evasionRoll: null, catchRoll: null }),
        rec({ chance: 100, band: 3, evasionRoll: 100, catchRoll: 1 }),
        rec({ chance: 0, band: 1, evasionRoll: 1, catchRoll: 100 }),
      ],
    });
    expect((await pursuitDay(ok, fixedDice([70]))).state.log).toHaveLength(4);
    const long = start({ day: 999, log: Array.from({ length: 1000 }, () => rec()) });
    expect((await pursuitDay(long, fixedDice([1]))).state.day).toBe(1000);
    await rejectsError(
      pursuitDay(start({ log: Array.from({ length: 1001 }, () => rec()) }), fixedDice([1])),
      "OutOfRange",
      { name: "state.log", value: 1001, min: 0, max: 1000 },
    );
  });
  it("a state without a surprised side reads as none; startPursuit leaves it none", async () => {
    const { surprised: _, ...without } = start();
    expect((await pursuitDay(without as PursuitState, fixedDice([71, 51]))).state).toEqual({
      ...start(),
      surprised: null,
      day: 1,
      log: [rec()],
    });
    expect(startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true, surprised: undefined }).surprised).toBe(null);
  });
  it("the dice of a log, in order; a bad record is named", () => {
    expect(
      pursuitLogDice([
        rec(),
        rec({ day: 2, catchRoll: null, evasionRoll: 5 }),
        rec({ day: 3, evasionRoll: null, catchRoll: null }),
      ]),
    ).toEqual([71, 51, 5]);
    throwsError(() => pursuitLogDice([rec(), rec({ evasionRoll: 0 })]), "OutOfRange", {
      name: "log[1].evasionRoll",
      value: 0,
      min: 1,
      max: 100,
    });
    throwsError(() => pursuitLogDice("x" as never), "Missing", { name: "log" });
  });
  it("replayPursuit plays 1 to 1000 days", async () => {
    await rejectsError(replayPursuit(start(), fixedDice([]), 0), "OutOfRange", {
      name: "maxDays",
      value: 0,
      min: 1,
      max: 1000,
    });
    await rejectsError(replayPursuit(start(), fixedDice([]), 1001), "OutOfRange", {
      name: "maxDays",
      value: 1001,
      min: 1,
      max: 1000,
    });
    expect(await replayPursuit(start(), fixedDice([71, 51]), 1)).toEqual({ ...start(), day: 1, log: [rec()] });
    // It stops on the day the chase ends.
    expect(await replayPursuit(start(), fixedDice([71, 51, 3]), 5)).toEqual({
      ...start(),
      day: 2,
      outcome: "escaped",
      log: [rec(), rec({ day: 2, evasionRoll: 3, catchRoll: null, outcome: "escaped", reason: "evaded" })],
    });
  });
});

describe("running in the dungeon at its edges", () => {
  it("a fresh count and the 30th round, whole", () => {
    expect(dungeonRunStart("ose")).toEqual({
      ruleset: "ose",
      rounds: 0,
      exhausted: false,
      limitRounds: 30,
      remaining: 30,
      penalty: 0,
      restTurns: 3,
      rules: "ose",
    });
    expect(dungeonRunStart("pmt")).toEqual({
      ruleset: "pmt",
      rounds: 0,
      exhausted: false,
      limitRounds: 30,
      remaining: 30,
      penalty: 0,
      restTurns: null,
      rules: "pmt",
    });
    expect(dungeonRunRound({ ruleset: "ose", rounds: 28, exhausted: false })).toEqual({
      ruleset: "ose",
      rounds: 29,
      exhausted: false,
      limitRounds: 30,
      remaining: 1,
      penalty: 0,
      restTurns: 3,
      rules: "ose",
    });
    expect(dungeonRunRound({ ruleset: "dnd5e", rounds: 29, exhausted: false })).toEqual({
      ruleset: "dnd5e",
      rounds: 30,
      exhausted: true,
      limitRounds: 30,
      remaining: 0,
      penalty: -2,
      restTurns: 3,
      rules: "ose",
    });
    expect(dungeonRunRound({ ruleset: "pmt", rounds: 29, exhausted: false })).toEqual({
      ruleset: "pmt",
      rounds: 30,
      exhausted: true,
      limitRounds: 30,
      remaining: 0,
      penalty: 0,
      restTurns: null,
      rules: "pmt",
    });
  });
  it("no round once exhausted or at the limit; names what is wrong", () => {
    const exhausted = { name: "state.exhausted", value: "true", allowed: "false" };
    throwsError(() => dungeonRunRound({ ruleset: "ose", rounds: 30, exhausted: false }), "UnknownValue", exhausted);
    throwsError(() => dungeonRunRound({ ruleset: "ose", rounds: 3, exhausted: true }), "UnknownValue", exhausted);
    throwsError(() => dungeonRunRound({ ruleset: "ose", rounds: 31, exhausted: false }), "OutOfRange", {
      name: "state.rounds",
      value: 31,
      min: 0,
      max: 30,
    });
    throwsError(() => dungeonRunRound({ ruleset: "ose", rounds: 1.5, exhausted: false }), "NotAnInteger", {
      name: "state.rounds",
      value: 1.5,
    });
    throwsError(() => dungeonRunRound({ ruleset: "ose", rounds: 1 } as never), "Missing", { name: "state.exhausted" });
    throwsError(() => dungeonRunRound(null as never), "Missing", { name: "state" });
  });
  it("the rest that ends it: ose 3 turns of 10 minutes, pmt none", () => {
    expect(dungeonRunRestSeconds("ose")).toBe(1800);
    expect(dungeonRunRestSeconds("polaris")).toBe(1800);
    expect(dungeonRunRestSeconds("pmt")).toBe(null);
  });
});

describe("group speeds", () => {
  it("the slowest member; strictly faster pursuers; twice as fast from exactly 2×, only when moving", () => {
    expect(groupSpeed([9, 6, 12])).toBe(6);
    expect(groupSpeed([12])).toBe(12);
    expect(groupSpeed([0, 9])).toBe(0);
    expect(compareSpeeds(6, 12)).toEqual({ pursuersFaster: true, twiceAsFast: true });
    expect(compareSpeeds(6, 11.9)).toEqual({ pursuersFaster: true, twiceAsFast: false });
    expect(compareSpeeds(6, 6)).toEqual({ pursuersFaster: false, twiceAsFast: false });
    expect(compareSpeeds(0, 0)).toEqual({ pursuersFaster: false, twiceAsFast: false });
    expect(compareSpeeds(0, 0.5)).toEqual({ pursuersFaster: true, twiceAsFast: true });
  });
  it("names what is wrong", () => {
    throwsError(() => groupSpeed([]), "EmptyParty", {});
    throwsError(() => groupSpeed([9, -1]), "Negative", { name: "speeds[1]", value: -1 });
    throwsError(() => groupSpeed(new Array(10_001).fill(9)), "OutOfRange", {
      name: "speeds",
      value: 10_001,
      min: 0,
      max: 10_000,
    });
    expect(groupSpeed(new Array(10_000).fill(9))).toBe(9);
    throwsError(() => compareSpeeds(-1, 1), "Negative", { name: "fleeingSpeed", value: -1 });
    throwsError(() => compareSpeeds(1, -1), "Negative", { name: "pursuerSpeed", value: -1 });
  });
});
