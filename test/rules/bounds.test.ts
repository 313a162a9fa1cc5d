/** Issue 13 item 15: the bounds of the rules engine, by name (the export-wide property is in exports.test.ts). */
import { describe, expect, it } from "vitest";
import {
  RULES_LIMITS,
  clean,
  dungeonChaseRound,
  fixedDice,
  movementLeft,
  polarisActingPhase,
  polarisPhases,
  pursuitDay,
  reactionRoll,
  reactionTotal,
  rollTotal,
  splitDuration,
  startDungeonChase,
  startPursuit,
  toMetres,
  travelPlan,
  type Dice,
  type DungeonChaseState,
} from "../../src/rules/index.js";
import { errorKey, rejectsKey, throwsKey } from "./helpers.js";

const walker = {
  id: "w",
  name: "W",
  conMod: 0,
  passivePerception: 10,
  food: "full",
  water: "full",
  position: "front",
} as const;

describe("sane bounds (RULES_LIMITS)", () => {
  it("are the issue's numbers", () => {
    expect(RULES_LIMITS).toMatchObject({ maxMetres: 10_000_000, maxDays: 1000, maxParty: 500, maxInitiative: 100 });
    expect(Object.isFrozen(RULES_LIMITS)).toBe(true);
  });
  it("splitDuration and clean refuse NaN and infinities", () => {
    throwsKey(() => splitDuration(Number.NaN), "NotANumber");
    throwsKey(() => splitDuration(Number.POSITIVE_INFINITY), "NotANumber");
    throwsKey(() => splitDuration(-1), "Negative");
    throwsKey(() => clean(Number.NaN), "NotANumber");
    throwsKey(() => clean(Number.NEGATIVE_INFINITY), "NotANumber");
    expect(clean(1e300)).toBe(1e300); // no overflow to Infinity
    expect(clean(0.1 + 0.2)).toBe(0.3);
  });
  it("distances: at most 10,000 km", () => {
    throwsKey(() => toMetres(1e300, "km"), "OutOfRange");
    expect(toMetres(10_000, "km")).toBe(10_000_000);
    throwsKey(() => movementLeft(1e308, 0), "OutOfRange");
    throwsKey(
      () =>
        travelPlan({
          ruleset: "rnp",
          pace: "fast",
          terrain: "normal",
          mode: "foot",
          distance: 10_000_001,
          party: [walker],
        }),
      "OutOfRange",
    );
  });
  it("a party of at most 500, at most 20,000 member-days in one plan", () => {
    const party = Array.from({ length: 501 }, (_, i) => ({ ...walker, id: `m${i}` }));
    throwsKey(
      () => travelPlan({ ruleset: "rnp", pace: "fast", terrain: "normal", mode: "foot", distance: 1000, party }),
      "OutOfRange",
    );
    const big = party.slice(0, 100);
    expect(
      errorKey(() =>
        travelPlan({
          ruleset: "rnp",
          pace: "fast",
          terrain: "normal",
          mode: "foot",
          duration: 201 * 86400,
          party: big,
        }),
      ),
    ).toBe("AVENTURE.Error.OutOfRange");
    expect(
      travelPlan({ ruleset: "rnp", pace: "fast", terrain: "normal", mode: "foot", duration: 200 * 86400, party: big })
        .days,
    ).toHaveLength(200);
  });
  it("a march of almost nothing a day is too many days, not an infinity", () => {
    throwsKey(
      () =>
        travelPlan({
          ruleset: "rnp",
          pace: "slow",
          terrain: "normal",
          mode: "foot",
          hoursPerDay: Number.MIN_VALUE,
          distance: 1000,
          party: [walker],
        }),
      "OutOfRange",
    );
  });
  it("Polaris initiatives above 100 are refused instead of allocating that many phases", () => {
    throwsKey(() => polarisPhases([{ id: "a", initiative: 1e9, reaction: 0 }]), "OutOfRange");
    throwsKey(() => polarisActingPhase({ id: "a", initiative: 101, reaction: 0 }), "OutOfRange");
    expect(polarisPhases([{ id: "a", initiative: 100, reaction: 0, hasten: true }]).phases).toBe(103);
  });
  it("reactionTotal and reactionRoll check their ruleset and dice", () => {
    throwsKey(() => reactionTotal("gurps" as never, 7), "UnknownValue");
    throwsKey(() => reactionTotal("ose", 1e9), "OutOfRange");
    throwsKey(() => reactionRoll("gurps" as never, [3, 4], 0), "UnknownRuleset");
    throwsKey(() => reactionRoll("ose", null as never, 0), "Missing");
    throwsKey(() => reactionRoll("ose", [3, 4, 5], 0), "OutOfRange");
    throwsKey(() => reactionRoll("ose", [3, 7], 0), "OutOfRange");
    throwsKey(() => reactionRoll("ose", [3, 4], Number.NaN), "NotANumber");
    expect(reactionRoll("pmt", [3, 4], null).total).toBe(7);
  });
  it("dice that return nonsense are refused (BadDie), never added up", async () => {
    const liar = (answer: unknown): Dice => ({ roll: async () => answer as number[] });
    await rejectsKey(rollTotal(liar([Number.NaN]), 1, 6), "BadDie");
    await rejectsKey(rollTotal(liar([7]), 1, 6), "BadDie");
    await rejectsKey(rollTotal(liar([1, 2]), 1, 6), "BadDie");
    await rejectsKey(rollTotal(liar("six"), 1, 6), "BadDie");
    await rejectsKey(rollTotal(null as never, 1, 6), "Missing");
    await rejectsKey(
      pursuitDay(startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true }), liar([101])),
      "BadDie",
    );
  });
  it("chase states are checked field by field, and nothing else is carried over", async () => {
    const { state } = await startDungeonChase(
      { ruleset: "pmt", fleeingSpeed: 9, pursuerSpeed: 12, combatStarted: false, reactionTotal: 9 },
      fixedDice([]),
    );
    const bad = (over: Partial<Record<keyof DungeonChaseState, unknown>>) =>
      ({ ...state, ...over }) as DungeonChaseState;
    throwsKey(() => dungeonChaseRound(bad({ rounds: Number.NaN })), "NotANumber");
    throwsKey(() => dungeonChaseRound(bad({ rounds: 31 })), "OutOfRange");
    throwsKey(() => dungeonChaseRound(bad({ ruleset: "gurps" })), "UnknownRuleset");
    throwsKey(() => dungeonChaseRound(bad({ pursues: "yes" })), "UnknownValue");
    throwsKey(() => dungeonChaseRound(bad({ fleeingSpeed: -1 })), "Negative");
    throwsKey(
      () =>
        dungeonChaseRound(
          bad({
            log: [
              {
                kind: "round",
                round: 1,
                outcome: "continues",
                reason: "running",
                reactionTotal: Number.NaN,
                dropRoll: null,
              },
            ],
          }),
        ),
      "NotANumber",
    );
    const next = dungeonChaseRound({ ...state, extra: Number.NaN } as DungeonChaseState).state;
    expect(next).not.toHaveProperty("extra");
    expect(next.rounds).toBe(1);
  });
});
