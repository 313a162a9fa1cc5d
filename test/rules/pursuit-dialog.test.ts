/** The rules added for the Pursuit dialog: group speed, adjustments, the dungeon chase state machine. */
import { describe, expect, it } from "vitest";
import {
  EVASION_ADJUSTMENT,
  checkStoredDungeonChase,
  checkStoredPursuitState,
  pursuitDay,
  startPursuit,
  PURSUIT_DAY_SECONDS,
  compareSpeeds,
  dungeonChaseDrop,
  dungeonChaseEnd,
  dungeonChaseRound,
  dungeonRunRestSeconds,
  evasionAdjustment,
  fixedDice,
  groupSpeed,
  startDungeonChase,
  type DungeonChaseState,
} from "../../src/rules/index.js";
import { rejectedKey } from "./helpers.js";

const key = async (f: () => unknown) => (await rejectedKey(f)).replace("AVENTURE.Error.", "");

const base = { ruleset: "pmt" as const, fleeingSpeed: 9, pursuerSpeed: 12, combatStarted: false };

describe("group speed and speed comparison", () => {
  it("a group moves at its slowest member's rate", () => {
    expect(groupSpeed([9, 12, 6])).toBe(6);
    expect(groupSpeed([0])).toBe(0);
  });
  it("rejects an empty group and bad speeds", async () => {
    expect(await key(() => groupSpeed([]))).toBe("EmptyParty");
    expect(await key(() => groupSpeed([9, -1]))).toBe("Negative");
    expect(await key(() => groupSpeed([Number.NaN]))).toBe("NotANumber");
  });
  it("pursuers faster only when strictly faster; twice as fast from 2×", () => {
    expect(compareSpeeds(9, 9)).toEqual({ pursuersFaster: false, twiceAsFast: false });
    expect(compareSpeeds(9, 12)).toEqual({ pursuersFaster: true, twiceAsFast: false });
    expect(compareSpeeds(6, 12)).toEqual({ pursuersFaster: true, twiceAsFast: true });
    expect(compareSpeeds(0, 0)).toEqual({ pursuersFaster: false, twiceAsFast: false });
  });
  it("referee adjustments are +20 to +25 (RULES.md §8.2)", async () => {
    expect(EVASION_ADJUSTMENT).toEqual({ min: 20, max: 25, default: 20 });
    expect(evasionAdjustment("woods", 25)).toBe(25);
    expect(await key(() => evasionAdjustment("woods", 19))).toBe("OutOfRange");
    expect(await key(() => evasionAdjustment("woods", 26))).toBe("OutOfRange");
    expect(await key(() => evasionAdjustment("woods", 22.5))).toBe("NotAnInteger");
  });
  it("a day is 86400 s; ose rest is three turns (1800 s); pmt gives none", () => {
    expect(PURSUIT_DAY_SECONDS).toBe(86400);
    expect(dungeonRunRestSeconds("ose")).toBe(1800);
    expect(dungeonRunRestSeconds("dnd5e")).toBe(1800);
    expect(dungeonRunRestSeconds("pmt")).toBeNull();
  });
});

describe("the dungeon chase (RULES.md §8.1, §7.2)", () => {
  it("surprise: surprised pursuers → escaped (no dice); a surprised fleeing side flees like any side", async () => {
    const dice = fixedDice([]);
    expect((await startDungeonChase({ ...base, surprised: "pursuers" }, dice)).state).toMatchObject({
      outcome: "escaped",
      log: [{ reason: "pursuersSurprised" }],
    });
    // pmt, pursuers faster: the reaction decides (8 → they pursue), then the chase goes on.
    const chased = await startDungeonChase({ ...base, surprised: "fleeing" }, fixedDice([4, 4]));
    expect(chased.state).toMatchObject({
      outcome: "continues",
      pursues: true,
      log: [{ reason: "pursuit", reactionTotal: 8 }],
    });
    const faster = await startDungeonChase({ ...base, surprised: "fleeing", fleeingSpeed: 15 }, fixedDice([]));
    expect(faster.event).toMatchObject({ outcome: "escaped", reason: "faster" });
  });
  it("combat started → impossible; faster fleeing side → escaped", async () => {
    const dice = fixedDice([]);
    expect((await startDungeonChase({ ...base, combatStarted: true }, dice)).event).toMatchObject({
      outcome: "impossible",
      reason: "combatStarted",
    });
    expect((await startDungeonChase({ ...base, fleeingSpeed: 15 }, dice)).event).toMatchObject({
      outcome: "escaped",
      reason: "faster",
    });
  });
  it("pmt rolls 2d6 on the reaction table: 7–12 pursue, 2–6 do not", async () => {
    const a = await startDungeonChase(base, fixedDice([3, 4]));
    expect(a.event).toMatchObject({ outcome: "continues", reason: "pursuit", reactionTotal: 7 });
    expect(a.state).toMatchObject({ pursues: true, pursuersCanCatch: true });
    const b = await startDungeonChase(base, fixedDice([3, 3]));
    expect(b.event).toMatchObject({ outcome: "escaped", reason: "notPursued", reactionTotal: 6 });
    const c = await startDungeonChase({ ...base, reactionTotal: 12 }, fixedDice([]));
    expect(c.state.pursues).toBe(true);
    const d = await startDungeonChase({ ...base, monstersPursue: false }, fixedDice([]));
    expect(d.state).toMatchObject({ pursues: null, outcome: "continues" });
  });
  it("ose: no roll, the referee decides; a given low reaction suggests pursuit", async () => {
    const a = await startDungeonChase({ ...base, ruleset: "ose" }, fixedDice([]));
    expect(a.state).toMatchObject({ pursues: null, suggested: null, outcome: "continues" });
    const b = await startDungeonChase({ ...base, ruleset: "ose", reactionTotal: 4 }, fixedDice([]));
    expect(b.state).toMatchObject({ pursues: null, suggested: true });
  });
  it("dropped treasure or food: 3–6 on 1d6 distracts", async () => {
    expect((await startDungeonChase({ ...base, dropped: true, reactionTotal: 9 }, fixedDice([3]))).event).toMatchObject(
      { outcome: "escaped", reason: "distracted", dropRoll: 3 },
    );
    expect((await startDungeonChase({ ...base, dropped: true, reactionTotal: 9 }, fixedDice([2]))).event).toMatchObject(
      { outcome: "continues", reason: "notDistracted", dropRoll: 2 },
    );
    const { state } = await startDungeonChase({ ...base, reactionTotal: 9 }, fixedDice([]));
    expect((await dungeonChaseDrop(state, fixedDice([6]))).state.outcome).toBe("escaped");
    expect((await dungeonChaseDrop(state, fixedDice([1]))).state.outcome).toBe("continues");
  });
  it("counts 30 rounds of running, then exhausted; no 31st round", async () => {
    let { state } = await startDungeonChase({ ...base, ruleset: "ose" }, fixedDice([]));
    for (let i = 0; i < 29; i++) state = dungeonChaseRound(state).state;
    expect(state).toMatchObject({ rounds: 29, exhausted: false });
    const r = dungeonChaseRound(state);
    expect(r.event).toMatchObject({ kind: "round", round: 30, reason: "exhausted" });
    expect(r.run).toMatchObject({ penalty: -2, restTurns: 3 });
    expect(await key(() => dungeonChaseRound(r.state))).toBe("UnknownValue");
  });
  it("the referee ends it; caught only when the pursuers are faster", async () => {
    const { state } = await startDungeonChase({ ...base, reactionTotal: 9 }, fixedDice([]));
    expect(dungeonChaseEnd(state, "caught").state.outcome).toBe("caught");
    expect(dungeonChaseEnd(state, "outOfSight").state.outcome).toBe("escaped");
    const equal = (await startDungeonChase({ ...base, pursuerSpeed: 9, reactionTotal: 9 }, fixedDice([]))).state;
    expect(equal.pursuersCanCatch).toBe(false);
    expect(await key(() => dungeonChaseEnd(equal, "caught"))).toBe("UnknownValue");
    const over: DungeonChaseState = dungeonChaseEnd(state, "gaveUp").state;
    expect(await key(() => dungeonChaseRound(over))).toBe("UnknownValue");
    expect(await key(() => dungeonChaseEnd(state, "bored" as never))).toBe("UnknownValue");
  });
  it("rejects bad input", async () => {
    expect(await key(() => startDungeonChase({ ...base, surprised: "both" as never }, fixedDice([])))).toBe(
      "UnknownValue",
    );
    expect(await key(() => startDungeonChase({ ...base, reactionTotal: 13 }, fixedDice([])))).toBe("OutOfRange");
    expect(await key(() => startDungeonChase({ ...base, fleeingSpeed: -3 }, fixedDice([])))).toBe("Negative");
  });
});

describe("stored chase states (a card's flags read back)", () => {
  it("an outdoor state played by the rules reads back as itself", async () => {
    let s = startPursuit({ fleeing: 4, pursuers: 2, fleeingBonus: 20, pursuersFaster: true });
    s = (await pursuitDay(s, fixedDice([99, 99]))).state;
    s = (await pursuitDay(s, fixedDice([10]))).state; // 10 ≤ 90: escaped (RULES.md §8.2: 70 + 20)
    expect(checkStoredPursuitState(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });
  it("refuses an outdoor state whose fields or log do not hold together", async () => {
    const s = (await pursuitDay(startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true }), fixedDice([99, 99])))
      .state;
    const bad: [unknown, string][] = [
      [null, "Missing"],
      [{ ...s, day: 999 }, "OutOfRange"], // one day per log entry
      [{ ...s, fleeing: 0 }, "OutOfRange"],
      [{ ...s, fleeingBonus: 30 }, "OutOfRange"], // 0 or 20..25
      [{ ...s, pursuerBonus: 5 }, "OutOfRange"],
      [{ ...s, outcome: "won" }, "UnknownValue"],
      [{ ...s, outcome: "escaped" }, "UnknownValue"], // the log says it goes on
      [{ ...s, log: [{ ...s.log[0]!, evasionRoll: 101 }] }, "OutOfRange"],
      [{ ...s, log: [{ ...s.log[0]!, chance: 4 }] }, "OutOfRange"], // at least 5 %
      [{ ...s, log: [{ ...s.log[0]!, day: 2 }] }, "OutOfRange"],
      [{ ...s, log: [{ ...s.log[0]!, reason: "magic" }] }, "UnknownValue"],
      [{ ...s, log: "x" }, "Missing"],
    ];
    for (const [state, k] of bad)
      expect(await key(() => checkStoredPursuitState(state)), JSON.stringify(state)?.slice(0, 80)).toBe(k);
  });
  it("a dungeon chase played by the rules reads back as itself; a bad one is refused", async () => {
    let { state } = await startDungeonChase({ ...base, ruleset: "ose" }, fixedDice([]));
    for (let i = 0; i < 30; i++) state = dungeonChaseRound(state).state;
    state = dungeonChaseEnd(state, "gaveUp").state;
    expect(checkStoredDungeonChase(JSON.parse(JSON.stringify(state)))).toEqual(state);
    const bad: [unknown, string][] = [
      [{ ...state, ruleset: "chess" }, "UnknownRuleset"],
      [{ ...state, rounds: 31 }, "OutOfRange"], // beyond the 30 rounds of running
      [{ ...state, exhausted: false }, "UnknownValue"], // 30 rounds: exhausted
      [{ ...state, pursuerSpeed: 6 }, "UnknownValue"], // can catch only when strictly faster
      [{ ...state, log: [] }, "Missing"],
      [{ ...state, log: state.log.slice(1) }, "UnknownValue"], // a start first
      [{ ...state, log: [...state.log.slice(0, -1), { ...state.log.at(-1)!, dropRoll: 7 }] }, "OutOfRange"],
      [{ ...state, outcome: "continues" }, "UnknownValue"], // the log says it ended
    ];
    for (const [s, k] of bad)
      expect(await key(() => checkStoredDungeonChase(s)), JSON.stringify(s)?.slice(0, 80)).toBe(k);
  });
});
