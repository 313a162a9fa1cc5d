/**
 * The dungeon chase (docs/rules.md §8.1, §7.2, §8.3) and the stored chase states at their edges: whole states and
 * events, the dice's reasons, and the whole error of each bad field (its name is what the user reads).
 */
import { describe, expect, it } from "vitest";
import {
  checkStoredDungeonChase,
  checkStoredPursuitState,
  dungeonChaseDrop,
  dungeonChaseEnd,
  dungeonChaseRound,
  pursuitDay,
  startDungeonChase,
  startPursuit,
  type DungeonChaseEvent,
  type DungeonChaseState,
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
const OUTCOMES = "continues, escaped, caught, impossible";
const REASONS =
  "pursuersSurprised, combatStarted, faster, notPursued, pursuit, distracted, notDistracted, running, exhausted, outOfSight, caught, gaveUp";
const base = { ruleset: "pmt" as const, fleeingSpeed: 9, pursuerSpeed: 12, combatStarted: false };
const ev = (over: Partial<DungeonChaseEvent> = {}): DungeonChaseEvent => ({
  kind: "start",
  round: 0,
  outcome: "continues",
  reason: "pursuit",
  reactionTotal: null,
  dropRoll: null,
  ...over,
});
const chase = (over: Partial<DungeonChaseState> = {}): DungeonChaseState => ({
  ruleset: "pmt",
  fleeingSpeed: 9,
  pursuerSpeed: 12,
  pursuersCanCatch: true,
  pursues: true,
  suggested: null,
  rounds: 0,
  exhausted: false,
  outcome: "continues",
  log: [ev({ reactionTotal: 7 })],
  ...over,
});

describe("startDungeonChase: whole states", () => {
  it("pmt rolls the reaction (2d6, reason reaction): 7 pursues, the chase goes on", async () => {
    const dice = recordingDice(fixedDice([3, 4]));
    expect(await startDungeonChase(base, dice)).toEqual({ state: chase(), event: ev({ reactionTotal: 7 }) });
    expect(dice.log).toEqual([{ count: 2, faces: 6, reason: "reaction", results: [3, 4] }]);
  });
  it("6 does not pursue: escaped, and the state says so", async () => {
    expect(await startDungeonChase(base, fixedDice([3, 3]))).toEqual({
      state: chase({
        pursues: false,
        outcome: "escaped",
        log: [ev({ outcome: "escaped", reason: "notPursued", reactionTotal: 6 })],
      }),
      event: ev({ outcome: "escaped", reason: "notPursued", reactionTotal: 6 }),
    });
  });
  it("dropped treasure: 1d6 with reason drop after the reaction; 2 does not distract", async () => {
    const dice = recordingDice(fixedDice([2]));
    const r = await startDungeonChase({ ...base, reactionTotal: 9, dropped: true }, dice);
    expect(r.state).toEqual(chase({ log: [ev({ reason: "notDistracted", reactionTotal: 9, dropRoll: 2 })] }));
    expect(dice.log).toEqual([{ count: 1, faces: 6, reason: "drop", results: [2] }]);
  });
  it("ose: a given total of 6 suggests no pursuit, the referee decides", async () => {
    const r = await startDungeonChase({ ...base, ruleset: "ose", reactionTotal: 6 }, fixedDice([]));
    expect(r.state).toEqual(
      chase({ ruleset: "ose", pursues: null, suggested: false, log: [ev({ reactionTotal: 6 })] }),
    );
    const low = await startDungeonChase({ ...base, ruleset: "ose", reactionTotal: -3 }, fixedDice([]));
    expect(low.state).toEqual(
      chase({ ruleset: "ose", pursues: null, suggested: true, log: [ev({ reactionTotal: -3 })] }),
    );
  });
  it("surprised pursuers, combat, a faster fleeing side: no dice, each its reason", async () => {
    const none = { pursues: null, suggested: null };
    expect((await startDungeonChase({ ...base, surprised: "pursuers" }, fixedDice([]))).state).toEqual(
      chase({ ...none, outcome: "escaped", log: [ev({ outcome: "escaped", reason: "pursuersSurprised" })] }),
    );
    expect((await startDungeonChase({ ...base, combatStarted: true }, fixedDice([]))).state).toEqual(
      chase({
        ...none,
        pursuersCanCatch: false,
        outcome: "impossible",
        log: [ev({ outcome: "impossible", reason: "combatStarted" })],
      }),
    );
    expect((await startDungeonChase({ ...base, fleeingSpeed: 12.5 }, fixedDice([]))).state).toEqual(
      chase({
        ...none,
        fleeingSpeed: 12.5,
        pursuersCanCatch: false,
        outcome: "escaped",
        log: [ev({ outcome: "escaped", reason: "faster" })],
      }),
    );
  });
  it("names what is wrong", async () => {
    await rejectsError(startDungeonChase(null as never, fixedDice([])), "Missing", { name: "opts" });
    await rejectsError(startDungeonChase({ ...base, surprised: "both" as never }, fixedDice([])), "UnknownValue", {
      name: "surprised",
      value: "both",
      allowed: "fleeing, pursuers",
    });
    await rejectsError(startDungeonChase({ ...base, monstersPursue: "yes" as never }, fixedDice([])), "UnknownValue", {
      name: "monstersPursue",
      value: "yes",
      allowed: BOOL,
    });
    await rejectsError(startDungeonChase({ ...base, dropped: 1 as never }, fixedDice([])), "UnknownValue", {
      name: "dropped",
      value: "1",
      allowed: BOOL,
    });
    await rejectsError(startDungeonChase({ ...base, reactionTotal: 13 }, fixedDice([])), "OutOfRange", {
      name: "total",
      value: 13,
      min: 2,
      max: 12,
    });
    // A given total is checked even when it decides nothing (surprised pursuers, monsters not pursuing).
    await rejectsError(
      startDungeonChase({ ...base, surprised: "pursuers", reactionTotal: 13 }, fixedDice([])),
      "OutOfRange",
      { name: "total", value: 13, min: 2, max: 12 },
    );
    await rejectsError(
      startDungeonChase({ ...base, monstersPursue: false, reactionTotal: 1 }, fixedDice([])),
      "OutOfRange",
      { name: "total", value: 1, min: 2, max: 12 },
    );
    await rejectsError(startDungeonChase({ ...base, ruleset: "chess" as never }, fixedDice([])), "UnknownRuleset", {
      value: "chess",
    });
  });
});

describe("the chase's rounds, drops and end", () => {
  it("a round of running: the whole state, event and count", () => {
    const r = dungeonChaseRound(chase({ rounds: 4 }));
    expect(r.state).toEqual(
      chase({ rounds: 5, log: [ev({ reactionTotal: 7 }), ev({ kind: "round", round: 5, reason: "running" })] }),
    );
    expect(r.event).toEqual(ev({ kind: "round", round: 5, reason: "running" }));
    expect(r.run).toEqual({
      ruleset: "pmt",
      rounds: 5,
      exhausted: false,
      limitRounds: 30,
      remaining: 25,
      penalty: 0,
      restTurns: null,
      rules: "pmt",
    });
  });
  it("a drop during the chase: 1d6 with reason drop, at the rounds run", async () => {
    const dice = recordingDice(fixedDice([3]));
    const r = await dungeonChaseDrop(chase({ rounds: 2 }), dice);
    expect(r.event).toEqual(ev({ kind: "drop", round: 2, outcome: "escaped", reason: "distracted", dropRoll: 3 }));
    expect(r.state).toEqual(chase({ rounds: 2, outcome: "escaped", log: [ev({ reactionTotal: 7 }), r.event] }));
    expect(dice.log).toEqual([{ count: 1, faces: 6, reason: "drop", results: [3] }]);
  });
  it("a drop of 2 does not distract: the chase goes on", async () => {
    expect((await dungeonChaseDrop(chase(), fixedDice([2]))).event).toEqual(
      ev({ kind: "drop", reason: "notDistracted", dropRoll: 2 }),
    );
  });
  it("the end: caught, out of sight, gave up; caught only by faster pursuers", () => {
    expect(dungeonChaseEnd(chase({ rounds: 3 }), "caught").event).toEqual(
      ev({ kind: "end", round: 3, outcome: "caught", reason: "caught" }),
    );
    expect(dungeonChaseEnd(chase(), "gaveUp").event).toEqual(ev({ kind: "end", outcome: "escaped", reason: "gaveUp" }));
    throwsError(() => dungeonChaseEnd(chase({ pursuersCanCatch: false }), "caught"), "UnknownValue", {
      name: "how",
      value: "caught",
      allowed: "outOfSight, gaveUp",
    });
    throwsError(() => dungeonChaseEnd(chase(), "bored" as never), "UnknownValue", {
      name: "how",
      value: "bored",
      allowed: "outOfSight, caught, gaveUp",
    });
    // Pursuers that cannot catch may still give up or lose sight.
    expect(dungeonChaseEnd(chase({ pursuersCanCatch: false }), "outOfSight").event).toEqual(
      ev({ kind: "end", outcome: "escaped", reason: "outOfSight" }),
    );
    throwsError(() => dungeonChaseEnd(chase({ rounds: 1.5 }), "gaveUp"), "NotAnInteger", {
      name: "state.rounds",
      value: 1.5,
    });
  });
  it("a chase given back is checked field by field, each event too", () => {
    const cases: [unknown, string, Record<string, string | number>][] = [
      [null, "Missing", { name: "state" }],
      [chase({ ruleset: "chess" as never }), "UnknownRuleset", { value: "chess" }],
      [chase({ fleeingSpeed: -1 }), "Negative", { name: "state.fleeingSpeed", value: -1 }],
      [chase({ pursuerSpeed: -2 }), "Negative", { name: "state.pursuerSpeed", value: -2 }],
      [chase({ pursuersCanCatch: undefined as never }), "Missing", { name: "state.pursuersCanCatch" }],
      [
        chase({ pursuersCanCatch: "no" as never }),
        "UnknownValue",
        { name: "state.pursuersCanCatch", value: "no", allowed: BOOL },
      ],
      [chase({ pursues: "no" as never }), "UnknownValue", { name: "state.pursues", value: "no", allowed: BOOL }],
      [chase({ pursues: undefined as never }), "Missing", { name: "state.pursues" }],
      [chase({ suggested: 0 as never }), "UnknownValue", { name: "state.suggested", value: "0", allowed: BOOL }],
      [chase({ rounds: 31 }), "OutOfRange", { name: "state.rounds", value: 31, min: 0, max: 30 }],
      [chase({ rounds: 1.5 }), "NotAnInteger", { name: "state.rounds", value: 1.5 }],
      [chase({ exhausted: undefined as never }), "Missing", { name: "state.exhausted" }],
      [
        chase({ outcome: "escaped" }),
        "UnknownValue",
        { name: "state.outcome", value: "escaped", allowed: "continues" },
      ],
      [chase({ log: "x" as never }), "Missing", { name: "state.log" }],
      [chase({ log: [ev(), null as never] }), "Missing", { name: "state.log[1]" }],
      [
        chase({ log: [ev({ kind: "stop" as never })] }),
        "UnknownValue",
        { name: "state.log[0].kind", value: "stop", allowed: "start, round, drop, end" },
      ],
      [chase({ log: [ev({ round: 31 })] }), "OutOfRange", { name: "state.log[0].round", value: 31, min: 0, max: 30 }],
      [chase({ log: [ev({ round: 0.5 })] }), "NotAnInteger", { name: "state.log[0].round", value: 0.5 }],
      [
        chase({ log: [ev({ outcome: "won" as never })] }),
        "UnknownValue",
        { name: "state.log[0].outcome", value: "won", allowed: OUTCOMES },
      ],
      [
        chase({ log: [ev({ reason: "luck" as never })] }),
        "UnknownValue",
        { name: "state.log[0].reason", value: "luck", allowed: REASONS },
      ],
      [
        chase({ log: [ev({ reactionTotal: 1001 })] }),
        "OutOfRange",
        { name: "state.log[0].reactionTotal", value: 1001, min: -1000, max: 1000 },
      ],
      [
        chase({ log: [ev({ reactionTotal: -1001 })] }),
        "OutOfRange",
        { name: "state.log[0].reactionTotal", value: -1001, min: -1000, max: 1000 },
      ],
      [
        chase({ log: [ev({ reactionTotal: 7.5 })] }),
        "NotAnInteger",
        { name: "state.log[0].reactionTotal", value: 7.5 },
      ],
      [
        chase({ log: [ev({ dropRoll: 7 })] }),
        "OutOfRange",
        { name: "state.log[0].dropRoll", value: 7, min: 1, max: 6 },
      ],
      [
        chase({ log: [ev({ dropRoll: 0 })] }),
        "OutOfRange",
        { name: "state.log[0].dropRoll", value: 0, min: 1, max: 6 },
      ],
      [chase({ log: [ev({ dropRoll: 2.5 })] }), "NotAnInteger", { name: "state.log[0].dropRoll", value: 2.5 }],
    ];
    for (const [s, key, data] of cases) throwsError(() => dungeonChaseRound(s as DungeonChaseState), key, data);
    // The bounds themselves and the nulls are fine.
    const ok = chase({
      pursues: null,
      suggested: false,
      rounds: 29,
      log: [
        ev({ reactionTotal: -1000, dropRoll: 1 }),
        ev({ kind: "round", round: 30, reactionTotal: 1000, dropRoll: 6 }),
      ],
    });
    expect(dungeonChaseRound(ok).state.exhausted).toBe(true);
  });
});

describe("stored outdoor chases", () => {
  const rec = {
    day: 1,
    chance: 70,
    band: 2 as const,
    evasionRoll: 71,
    catchRoll: 51,
    outcome: "continues" as const,
    reason: "notCaught" as const,
  };
  const start = startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true });
  const played = { ...start, day: 1, log: [rec] };
  it("a state played by the rules reads back; a new one too", async () => {
    expect((await pursuitDay(start, fixedDice([71, 51]))).state).toEqual(played);
    expect(checkStoredPursuitState(played)).toEqual(played);
    expect(checkStoredPursuitState(start)).toEqual(start);
    const adjusted = { ...start, fleeingBonus: 25, pursuerBonus: 20 };
    expect(checkStoredPursuitState(adjusted)).toEqual(adjusted);
    const over = {
      ...played,
      day: 2,
      outcome: "escaped" as const,
      log: [
        rec,
        {
          ...rec,
          day: 2,
          chance: 5,
          evasionRoll: 5,
          catchRoll: null,
          outcome: "escaped" as const,
          reason: "evaded" as const,
        },
      ],
    };
    expect(checkStoredPursuitState(over)).toEqual(over);
    const capped = {
      ...played,
      log: [{ ...rec, chance: 100, evasionRoll: 100, catchRoll: null, outcome: "continues" as const }],
    };
    expect(checkStoredPursuitState(capped)).toEqual(capped);
    const surprised = {
      ...start,
      surprised: "pursuers" as const,
      day: 1,
      outcome: "escaped" as const,
      log: [
        {
          day: 1,
          chance: null,
          band: null,
          evasionRoll: null,
          catchRoll: null,
          outcome: "escaped" as const,
          reason: "pursuersSurprised" as const,
        },
      ],
    };
    expect((await pursuitDay({ ...start, surprised: "pursuers" }, fixedDice([]))).state).toEqual(surprised);
    expect(checkStoredPursuitState(surprised)).toEqual(surprised);
  });
  it("refuses a state that does not hold together, naming the field", () => {
    const cases: [unknown, string, Record<string, string | number>][] = [
      ["x", "Missing", { name: "state" }],
      [{ ...start, fleeingBonus: 19 }, "OutOfRange", { name: "state.fleeingBonus", value: 19, min: 20, max: 25 }],
      [{ ...start, pursuerBonus: 26 }, "OutOfRange", { name: "state.pursuerBonus", value: 26, min: 20, max: 25 }],
      [
        { ...played, log: [{ ...rec, chance: 4 }] },
        "OutOfRange",
        { name: "state.log[0].chance", value: 4, min: 5, max: 100 },
      ],
      [{ ...played, log: [{ ...rec, chance: 70.5 }] }, "NotAnInteger", { name: "state.log[0].chance", value: 70.5 }],
      [{ ...played, day: 2 }, "OutOfRange", { name: "state.day", value: 2, min: 1, max: 1 }],
      [{ ...played, day: 0 }, "OutOfRange", { name: "state.day", value: 0, min: 1, max: 1 }],
      [
        { ...played, day: 2, log: [rec, { ...rec, day: 3 }] },
        "OutOfRange",
        { name: "state.log[1].day", value: 3, min: 2, max: 2 },
      ],
      [
        {
          ...played,
          day: 2,
          log: [
            { ...rec, outcome: "escaped", reason: "evaded" },
            { ...rec, day: 2 },
          ],
        },
        "UnknownValue",
        { name: "state.log[0].outcome", value: "escaped", allowed: "continues" },
      ],
      [
        { ...played, outcome: "escaped" },
        "UnknownValue",
        { name: "state.outcome", value: "escaped", allowed: "continues" },
      ],
      [
        { ...start, outcome: "caught" },
        "UnknownValue",
        { name: "state.outcome", value: "caught", allowed: "continues" },
      ],
      [
        { ...played, log: [{ ...rec, outcome: "caught", reason: "caught", catchRoll: 50 }] },
        "UnknownValue",
        { name: "state.outcome", value: "continues", allowed: "caught" },
      ],
    ];
    for (const [s, key, data] of cases) throwsError(() => checkStoredPursuitState(s), key, data);
  });
});

describe("stored dungeon chases", () => {
  const run = (n: number, s: DungeonChaseState = chase()) => {
    for (let i = 0; i < n; i++) s = dungeonChaseRound(s).state;
    return s;
  };
  it("a chase played by the rules reads back, finished or not, exhausted exactly at 30 rounds", () => {
    const s = run(3);
    expect(checkStoredDungeonChase(s)).toEqual(s);
    const done = dungeonChaseEnd(run(30), "caught").state;
    expect(checkStoredDungeonChase(done)).toEqual(done);
    const escaped = chase({
      pursues: false,
      outcome: "escaped",
      log: [ev({ outcome: "escaped", reason: "notPursued", reactionTotal: 6 })],
    });
    expect(checkStoredDungeonChase(escaped)).toEqual(escaped);
  });
  it("refuses a chase that does not hold together, naming the field", () => {
    const s = run(2);
    const roundEv = (round: number) => ev({ kind: "round", round, reason: "running" });
    const cases: [unknown, string, Record<string, string | number>][] = [
      [null, "Missing", { name: "state" }],
      [{ ...s, outcome: "won" }, "UnknownValue", { name: "state.outcome", value: "won", allowed: OUTCOMES }],
      [{ ...s, outcome: undefined }, "UnknownValue", { name: "state.outcome", value: "undefined", allowed: OUTCOMES }],
      [{ ...s, log: [] }, "Missing", { name: "state.log" }],
      [
        { ...s, log: [roundEv(1), roundEv(2)] },
        "UnknownValue",
        { name: "state.log[0].kind", value: "round", allowed: "start" },
      ],
      [
        { ...s, log: [ev(), ev()] },
        "UnknownValue",
        { name: "state.log[1].kind", value: "start", allowed: "round, drop, end" },
      ],
      [
        { ...s, log: [ev(), roundEv(1), roundEv(3)] },
        "OutOfRange",
        { name: "state.log[2].round", value: 3, min: 0, max: 2 },
      ],
      [
        { ...s, log: [ev(), { ...roundEv(1), outcome: "escaped" }, roundEv(2)] },
        "UnknownValue",
        { name: "state.log[1].outcome", value: "escaped", allowed: "continues" },
      ],
      [{ ...s, exhausted: true }, "UnknownValue", { name: "state.exhausted", value: "true", allowed: "false" }],
      [{ ...run(30), exhausted: false }, "UnknownValue", { name: "state.exhausted", value: "false", allowed: "true" }],
      [{ ...s, pursuerSpeed: 9 }, "UnknownValue", { name: "state.pursuersCanCatch", value: "true", allowed: "false" }],
      [{ ...s, pursuerSpeed: 6 }, "UnknownValue", { name: "state.pursuersCanCatch", value: "true", allowed: "false" }],
      [{ ...s, outcome: "escaped" }, "UnknownValue", { name: "state.outcome", value: "escaped", allowed: "continues" }],
      [
        { ...dungeonChaseEnd(s, "gaveUp").state, outcome: "continues" },
        "UnknownValue",
        { name: "state.outcome", value: "continues", allowed: "escaped" },
      ],
    ];
    for (const [v, key, data] of cases) throwsError(() => checkStoredDungeonChase(v), key, data);
    // Equal speeds without the pursuers able to catch are fine.
    const equal = { ...s, pursuerSpeed: 9, pursuersCanCatch: false };
    expect(checkStoredDungeonChase(equal)).toEqual(equal);
  });
});
