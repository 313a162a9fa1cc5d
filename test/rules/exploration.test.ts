/**
 * Exploration time (RULES.md §10, issue 16): the Old-School Essentials defaults, wandering checks every 2 turns on
 * 1 in 6, a rest after 5 turns (−1 beyond), torches of 6 turns and lanterns of 24. Examples from the issue as literals.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  EXPLORATION_DEFAULTS,
  RNP_EXPLORATION_ACTIONS,
  addLight,
  advanceExploration,
  removeLight,
  restPenaltyOf,
  startExploration,
  turnsIn,
} from "../../src/rules/exploration.js";
import { fixedDice, seededDice } from "../../src/rules/dice.js";
import { rejectsKey, throwsKey } from "./helpers.js";

describe("exploration defaults (RULES.md §10)", () => {
  it("are Old-School Essentials' own: 10-minute turns, 1 in 6 every 2 turns, rest after 5 (−1), torch 6, lantern 24", () => {
    expect(EXPLORATION_DEFAULTS).toEqual({
      turnSeconds: 600,
      wanderingEvery: 2,
      wanderingChance: 1,
      wanderingDie: 6,
      restEvery: 5,
      restPenalty: -1,
      torchTurns: 6,
      lanternTurns: 24,
      wandering: true,
    });
    expect(Object.isFrozen(EXPLORATION_DEFAULTS)).toBe(true);
  });

  it("Rôle'n Play counts dungeon actions in minutes: a corridor, a lock, a trap 1 min; searching a large room 10 min", () => {
    expect(RNP_EXPLORATION_ACTIONS).toEqual({ corridor: 60, lock: 60, trap: 60, searchRoom: 600 });
  });

  it("starts at turn 0, rested, without lights; options override the defaults", () => {
    expect(startExploration("ose")).toEqual({
      ruleset: "ose",
      turn: 0,
      turnsSinceRest: 0,
      lights: [],
      options: { ...EXPLORATION_DEFAULTS },
    });
    expect(startExploration("pmt", { wanderingChance: 2, restEvery: 6 }).options).toMatchObject({
      wanderingChance: 2,
      restEvery: 6,
      wanderingDie: 6,
    });
  });
});

describe("wandering checks, per game (RULES.md §0: pmt and ose only)", () => {
  it("pmt and ose roll them by default; rnp, whose book counts dungeon minutes without them, does not", () => {
    expect(startExploration("pmt").options.wandering).toBe(true);
    expect(startExploration("ose").options.wandering).toBe(true);
    expect(startExploration("rnp").options.wandering).toBe(false);
    // dnd5e and polaris have no exploration time at all; were it borrowed, they would have no checks either.
    expect(startExploration("dnd5e").options.wandering).toBe(false);
    expect(startExploration("polaris").options.wandering).toBe(false);
  });

  it("rnp: 4 turns roll no die (no check), yet the rest and the lights still count", async () => {
    const s = addLight(startExploration("rnp"), { id: "t", kind: "torch" });
    const dice = fixedDice([]);
    const r = await advanceExploration(s, 6, dice);
    expect(r.checks).toEqual([]);
    expect(r.restDue).toBe(true);
    expect(r.attackPenalty).toBe(-1);
    expect(r.lightsOut).toEqual(["t"]);
    expect(dice.remaining()).toBe(0);
  });

  it("rnp with the checks borrowed (wandering: true): every 2 turns, 1 in 6, as in pmt and ose", async () => {
    const r = await advanceExploration(startExploration("rnp", { wandering: true }), 4, fixedDice([1, 2]));
    expect(r.checks).toEqual([
      { turn: 2, roll: 1, encounter: true },
      { turn: 4, roll: 2, encounter: false },
    ]);
  });

  it("a state stored without the option follows its ruleset; a bad option is refused", async () => {
    const { wandering: _, ...old } = startExploration("ose").options;
    const stored = { ...startExploration("rnp"), options: old } as never;
    expect((await advanceExploration(stored, 2, fixedDice([]))).checks).toEqual([]);
    const oseStored = { ...startExploration("ose"), options: old } as never;
    expect((await advanceExploration(oseStored, 2, fixedDice([4]))).checks).toEqual([
      { turn: 2, roll: 4, encounter: false },
    ]);
    throwsKey(() => startExploration("ose", { wandering: "yes" as never }), "UnknownValue");
  });
});

describe("advancing turns", () => {
  it("4 turns with dice 1 then 5: checks at the end of turns 2 and 4, an encounter at turn 2", async () => {
    const r = await advanceExploration(startExploration("ose"), 4, fixedDice([1, 5]));
    expect(r.checks).toEqual([
      { turn: 2, roll: 1, encounter: true },
      { turn: 4, roll: 5, encounter: false },
    ]);
    expect(r.state.turn).toBe(4);
  });

  it("counts checks from the start: 1 turn, then 1 more, rolls at turn 2 only", async () => {
    const one = await advanceExploration(startExploration("ose"), 1, fixedDice([]));
    expect(one.checks).toEqual([]);
    const two = await advanceExploration(one.state, 1, fixedDice([6]));
    expect(two.checks).toEqual([{ turn: 2, roll: 6, encounter: false }]);
  });

  it("6 turns without rest: the rest is due, and the attack penalty is −1 (5 turns: due, no penalty yet)", async () => {
    const five = await advanceExploration(startExploration("ose"), 5, fixedDice([6, 6]));
    expect(five.restDue).toBe(true);
    expect(five.attackPenalty).toBe(0);
    const six = await advanceExploration(five.state, 1, fixedDice([6]));
    expect(six.attackPenalty).toBe(-1);
    expect(restPenaltyOf(six.state)).toBe(-1);
    const rested = await advanceExploration(six.state, 1, fixedDice([]), { rest: true });
    expect(rested.state.turnsSinceRest).toBe(0);
    expect(rested.attackPenalty).toBe(0);
    expect(rested.restDue).toBe(false);
  });

  it("a torch lit at turn 0 is out after 6 turns; a lantern lasts 24", async () => {
    let s = addLight(startExploration("ose"), { id: "torch1", kind: "torch" });
    s = addLight(s, { id: "lantern1", kind: "lantern" });
    const five = await advanceExploration(s, 5, fixedDice([6, 6]));
    expect(five.lightsOut).toEqual([]);
    expect(five.state.lights).toEqual([
      { id: "torch1", kind: "torch", turnsLeft: 1 },
      { id: "lantern1", kind: "lantern", turnsLeft: 19 },
    ]);
    const six = await advanceExploration(five.state, 1, fixedDice([6]));
    expect(six.lightsOut).toEqual(["torch1"]);
    expect(six.state.lights.map((l) => l.id)).toEqual(["lantern1"]);
    expect(removeLight(six.state, "lantern1").lights).toEqual([]);
  });

  it("a custom light needs its turns; a light id is unique", () => {
    throwsKey(() => addLight(startExploration("rnp"), { id: "x", kind: "custom" }), "NotANumber");
    expect(addLight(startExploration("rnp"), { id: "x", kind: "custom", turns: 3 }).lights).toEqual([
      { id: "x", kind: "custom", turnsLeft: 3 },
    ]);
    const s = addLight(startExploration("rnp"), { id: "x", kind: "torch" });
    throwsKey(() => addLight(s, { id: "x", kind: "torch" }), "UnknownValue");
  });

  it("turns in a span of world time: 25 minutes is 2 whole turns", () => {
    expect(turnsIn(1500)).toBe(2);
    expect(turnsIn(599)).toBe(0);
    expect(turnsIn(3600, { turnSeconds: 60 })).toBe(60);
  });
});

describe("bad input changes nothing (a RulesError, never NaN)", () => {
  it("refuses negative, fractional, huge or missing turns, bad options and states", async () => {
    const s = startExploration("ose");
    await rejectsKey(advanceExploration(s, -1, fixedDice([])), "OutOfRange");
    await rejectsKey(advanceExploration(s, 0, fixedDice([])), "OutOfRange");
    await rejectsKey(advanceExploration(s, 1.5, fixedDice([])), "NotAnInteger");
    await rejectsKey(advanceExploration(s, Number.NaN, fixedDice([])), "NotANumber");
    await rejectsKey(advanceExploration(s, 1001, fixedDice([])), "OutOfRange");
    await rejectsKey(advanceExploration({ ...s, lights: "x" } as never, 1, fixedDice([])), "Missing");
    await rejectsKey(advanceExploration({ ...s, turn: -3 }, 1, fixedDice([])), "Negative");
    throwsKey(() => startExploration("gurps" as never), "UnknownRuleset");
    throwsKey(() => startExploration("ose", { wanderingChance: 7 }), "OutOfRange");
    throwsKey(() => startExploration("ose", { restPenalty: 2 }), "OutOfRange");
    throwsKey(() => startExploration("ose", { turnSeconds: Infinity }), "NotANumber");
    throwsKey(() => turnsIn(-1), "Negative");
  });

  it("refuses dice that are not dice, a sparse list of lights, a rest flag that cannot even be printed (found by the exports property)", async () => {
    const s = addLight(startExploration("ose"), { id: "torch", kind: "torch" });
    await rejectsKey(advanceExploration(s, 2, "d6" as never), "Missing");
    await rejectsKey(advanceExploration(s, 2, { roll: async () => [] }), "BadDie");
    await rejectsKey(advanceExploration(s, 2, { roll: async () => [7] }), "BadDie");
    const sparse = new Array<(typeof s.lights)[number]>(2); // a hole, then the torch
    sparse[1] = s.lights[0]!;
    await rejectsKey(advanceExploration({ ...s, lights: sparse }, 1, fixedDice([])), "Missing");
    throwsKey(() => addLight({ ...s, lights: new Array(1) }, { id: "lamp", kind: "lantern" }), "Missing");
    await rejectsKey(advanceExploration(s, 1, fixedDice([]), { rest: Object.create(null) as never }), "UnknownValue");
  });

  it("property: checks fall exactly on the multiples of wanderingEvery, and lights never go below one turn", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        async (turns, every, start, seed) => {
          const s = { ...startExploration("ose", { wanderingEvery: every }), turn: start };
          const lit = addLight(s, { id: "t", kind: "torch" });
          const r = await advanceExploration(lit, turns, seededDice(seed));
          const expected = [];
          for (let t = start + 1; t <= start + turns; t++) if (t % every === 0) expected.push(t);
          expect(r.checks.map((c) => c.turn)).toEqual(expected);
          for (const c of r.checks) expect(c.encounter).toBe(c.roll <= 1);
          for (const l of r.state.lights) expect(l.turnsLeft).toBeGreaterThanOrEqual(1);
          expect(r.lightsOut.length + r.state.lights.length).toBe(1);
        },
      ),
    );
  });
});
