/**
 * Exploration time (docs/rules.md §10) at its edges: the whole state and the whole advance, each bound of each option on
 * both sides, the encounter on exactly the chance, a light that burns out on exactly its last turn, the rest due on
 * exactly the 5th turn and the penalty from the 6th, and the whole error of each malformed argument.
 */
import { describe, expect, it } from "vitest";
import {
  EXPLORATION_DEFAULTS,
  addLight,
  advanceExploration,
  removeLight,
  restPenaltyOf,
  startExploration,
  turnsIn,
  type ExplorationState,
} from "../../src/rules/exploration.js";
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

/** docs/rules.md §10's defaults, written out. */
const OSE = {
  turnSeconds: 600,
  wanderingEvery: 2,
  wanderingChance: 1,
  wanderingDie: 6,
  restEvery: 5,
  restPenalty: -1,
  torchTurns: 6,
  lanternTurns: 24,
  wandering: true, // docs/rules.md §0: pmt and ose have wandering checks
};
const state = (over: Partial<ExplorationState> = {}): ExplorationState => ({
  ruleset: "ose",
  turn: 0,
  turnsSinceRest: 0,
  lights: [],
  options: { ...OSE },
  ...over,
});
const ALLOWED_KINDS = "torch, lantern, custom";

describe("startExploration", () => {
  it("turn 0, rested, no light, the defaults of §10 with the given options over them", () => {
    expect(startExploration("pmt")).toEqual(state({ ruleset: "pmt" }));
    expect(startExploration("ose", { wanderingDie: 8, wanderingChance: 7 })).toEqual(
      state({ options: { ...OSE, wanderingDie: 8, wanderingChance: 7 } }),
    );
    expect(EXPLORATION_DEFAULTS).toEqual(OSE);
  });
  it("accepts each option at both of its bounds", () => {
    const low = {
      turnSeconds: 1,
      wanderingEvery: 1,
      wanderingDie: 2,
      wanderingChance: 0,
      restEvery: 1,
      restPenalty: -20,
      torchTurns: 1,
      lanternTurns: 1,
      wandering: false,
    };
    const high = {
      turnSeconds: 86_400,
      wanderingEvery: 1000,
      wanderingDie: 100,
      wanderingChance: 100,
      restEvery: 1000,
      restPenalty: 0,
      torchTurns: 1000,
      lanternTurns: 1000,
      wandering: true,
    };
    expect(startExploration("ose", low).options).toEqual(low);
    expect(startExploration("ose", high).options).toEqual(high);
  });
  it("refuses each option beyond its bounds, naming it", () => {
    const cases: [Record<string, number>, string, Record<string, string | number>][] = [
      [{ turnSeconds: 0 }, "OutOfRange", { name: "turnSeconds", value: 0, min: 1, max: 86_400 }],
      [{ turnSeconds: 86_401 }, "OutOfRange", { name: "turnSeconds", value: 86_401, min: 1, max: 86_400 }],
      [{ turnSeconds: 600.5 }, "NotAnInteger", { name: "turnSeconds", value: 600.5 }],
      [{ wanderingEvery: 0 }, "OutOfRange", { name: "wanderingEvery", value: 0, min: 1, max: 1000 }],
      [{ wanderingEvery: 1001 }, "OutOfRange", { name: "wanderingEvery", value: 1001, min: 1, max: 1000 }],
      [{ wanderingEvery: 1.5 }, "NotAnInteger", { name: "wanderingEvery", value: 1.5 }],
      [{ wanderingDie: 1 }, "OutOfRange", { name: "wanderingDie", value: 1, min: 2, max: 100 }],
      [{ wanderingDie: 101 }, "OutOfRange", { name: "wanderingDie", value: 101, min: 2, max: 100 }],
      [{ wanderingDie: 6.5 }, "NotAnInteger", { name: "wanderingDie", value: 6.5 }],
      [{ wanderingChance: -1 }, "Negative", { name: "wanderingChance", value: -1 }],
      [{ wanderingChance: 7 }, "OutOfRange", { name: "wanderingChance", value: 7, min: 0, max: 6 }],
      [{ wanderingChance: 0.5 }, "NotAnInteger", { name: "wanderingChance", value: 0.5 }],
      [{ restEvery: 0 }, "OutOfRange", { name: "restEvery", value: 0, min: 1, max: 1000 }],
      [{ restEvery: 1001 }, "OutOfRange", { name: "restEvery", value: 1001, min: 1, max: 1000 }],
      [{ restEvery: 2.5 }, "NotAnInteger", { name: "restEvery", value: 2.5 }],
      [{ restPenalty: -21 }, "OutOfRange", { name: "restPenalty", value: -21, min: -20, max: 0 }],
      [{ restPenalty: 1 }, "OutOfRange", { name: "restPenalty", value: 1, min: -20, max: 0 }],
      [{ restPenalty: -1.5 }, "NotAnInteger", { name: "restPenalty", value: -1.5 }],
      [{ torchTurns: 0 }, "OutOfRange", { name: "torchTurns", value: 0, min: 1, max: 1000 }],
      [{ torchTurns: 1001 }, "OutOfRange", { name: "torchTurns", value: 1001, min: 1, max: 1000 }],
      [{ torchTurns: 5.5 }, "NotAnInteger", { name: "torchTurns", value: 5.5 }],
      [{ lanternTurns: 0 }, "OutOfRange", { name: "lanternTurns", value: 0, min: 1, max: 1000 }],
      [{ lanternTurns: 1001 }, "OutOfRange", { name: "lanternTurns", value: 1001, min: 1, max: 1000 }],
      [{ lanternTurns: 23.5 }, "NotAnInteger", { name: "lanternTurns", value: 23.5 }],
    ];
    for (const [options, key, data] of cases) throwsError(() => startExploration("ose", options), key, data);
    for (const bad of [null, [], "fast", 3])
      throwsError(() => startExploration("ose", bad as never), "Missing", { name: "options" });
    throwsError(() => startExploration("gurps" as never), "UnknownRuleset", { value: "gurps" });
  });
});

describe("a state given back", () => {
  it("is checked: the state, its lights (at most 100, ids of 1 to 64 characters, unique), its counters", () => {
    const lamp = { id: "lamp", kind: "lantern" as const, turnsLeft: 3 };
    const cases: [unknown, string, Record<string, string | number>][] = [
      [null, "Missing", { name: "state" }],
      [[], "Missing", { name: "state" }],
      ["state", "Missing", { name: "state" }],
      [state({ lights: ["torch" as never] }), "Missing", { name: "lights[0]" }],
      [state({ lights: [{ ...lamp, turnsLeft: 2.5 }] }), "NotAnInteger", { name: "lights[0].turnsLeft", value: 2.5 }],
      [state({ lights: "x" as never }), "Missing", { name: "lights" }],
      [
        state({ lights: Array.from({ length: 101 }, (_, i) => ({ ...lamp, id: `l${i}` })) }),
        "Missing",
        { name: "lights" },
      ],
      [state({ lights: [lamp, null as never] }), "Missing", { name: "lights[1]" }],
      [state({ lights: [lamp, { ...lamp, id: "" }] }), "Missing", { name: "lights[1].id" }],
      [state({ lights: [{ ...lamp, id: "x".repeat(65) }] }), "Missing", { name: "lights[0].id" }],
      [state({ lights: [{ ...lamp, id: 7 as never }] }), "Missing", { name: "lights[0].id" }],
      [
        state({ lights: [lamp, { ...lamp }] }),
        "UnknownValue",
        { name: "lights[1].id", value: "lamp", allowed: "unique ids" },
      ],
      [
        state({ lights: [{ ...lamp, kind: "candle" as never }] }),
        "UnknownValue",
        { name: "lights[0].kind", value: "candle", allowed: ALLOWED_KINDS },
      ],
      [
        state({ lights: [{ ...lamp, turnsLeft: 0 }] }),
        "OutOfRange",
        { name: "lights[0].turnsLeft", value: 0, min: 1, max: 1000 },
      ],
      [
        state({ lights: [{ ...lamp, turnsLeft: 1001 }] }),
        "OutOfRange",
        { name: "lights[0].turnsLeft", value: 1001, min: 1, max: 1000 },
      ],
      [state({ turn: 1_000_001 }), "OutOfRange", { name: "turn", value: 1_000_001, min: 0, max: 1_000_000 }],
      [state({ turn: 1.5 }), "NotAnInteger", { name: "turn", value: 1.5 }],
      [state({ turnsSinceRest: -1 }), "Negative", { name: "turnsSinceRest", value: -1 }],
      [
        state({ turnsSinceRest: 1_000_001 }),
        "OutOfRange",
        { name: "turnsSinceRest", value: 1_000_001, min: 0, max: 1_000_000 },
      ],
      [state({ turnsSinceRest: 0.5 }), "NotAnInteger", { name: "turnsSinceRest", value: 0.5 }],
      [state({ options: null as never }), "Missing", { name: "options" }],
      [state({ ruleset: "d20" as never }), "UnknownRuleset", { value: "d20" }],
    ];
    for (const [s, key, data] of cases) throwsError(() => restPenaltyOf(s as ExplorationState), key, data);
  });
  it("at its bounds is fine: 100 lights, an id of 64 characters, 1000 turns of light, counters of 1,000,000", () => {
    const lights = Array.from({ length: 100 }, (_, i) => ({
      id: i === 0 ? "x".repeat(64) : `l${i}`,
      kind: "custom" as const,
      turnsLeft: i === 0 ? 1000 : 1,
    }));
    const s = state({ lights, turn: 1_000_000, turnsSinceRest: 1_000_000 });
    expect(removeLight(s, "none")).toEqual(s);
    // A state without options takes the defaults.
    expect(removeLight({ ...state(), options: undefined } as never, "x")).toEqual(state());
  });
});

describe("addLight and removeLight", () => {
  it("a torch burns torchTurns, a lantern lanternTurns (the state's options), a custom light its turns; given turns win", () => {
    const s = startExploration("ose", { torchTurns: 4, lanternTurns: 30 });
    const lit = addLight(
      addLight(addLight(addLight(s, { id: "t", kind: "torch" }), { id: "l", kind: "lantern" }), {
        id: "c",
        kind: "custom",
        turns: 2,
      }),
      {
        id: "t2",
        kind: "torch",
        turns: 9,
      },
    );
    expect(lit).toEqual({
      ...s,
      lights: [
        { id: "t", kind: "torch", turnsLeft: 4 },
        { id: "l", kind: "lantern", turnsLeft: 30 },
        { id: "c", kind: "custom", turnsLeft: 2 },
        { id: "t2", kind: "torch", turnsLeft: 9 },
      ],
    });
    expect(removeLight(lit, "l")).toEqual({ ...lit, lights: [lit.lights[0], lit.lights[2], lit.lights[3]] });
  });
  it("refuses a bad light, naming what is wrong", () => {
    const s = addLight(startExploration("ose"), { id: "t", kind: "torch" });
    throwsError(() => addLight(s, null as never), "Missing", { name: "light" });
    throwsError(() => addLight(s, "torch" as never), "Missing", { name: "light" });
    throwsError(() => addLight(s, { id: "u", kind: "torch", turns: 2.5 }), "NotAnInteger", {
      name: "turns",
      value: 2.5,
    });
    throwsError(() => addLight(s, { id: "u", kind: "custom", turns: 2.5 }), "NotAnInteger", {
      name: "turns",
      value: 2.5,
    });
    throwsError(() => addLight(s, { id: "", kind: "torch" }), "Missing", { name: "lights[1].id" });
    throwsError(() => addLight(s, { id: "u", kind: "candle" as never }), "UnknownValue", {
      name: "kind",
      value: "candle",
      allowed: ALLOWED_KINDS,
    });
    throwsError(() => addLight(s, { id: "t", kind: "lantern" }), "UnknownValue", {
      name: "id",
      value: "t",
      allowed: "a new id",
    });
    throwsError(() => addLight(s, { id: "c", kind: "custom" }), "NotANumber", { name: "turns", value: "undefined" });
    throwsError(() => addLight(s, { id: "c", kind: "custom", turns: 0 }), "OutOfRange", {
      name: "turns",
      value: 0,
      min: 1,
      max: 1000,
    });
    throwsError(() => addLight(s, { id: "c", kind: "torch", turns: 1001 }), "OutOfRange", {
      name: "turns",
      value: 1001,
      min: 1,
      max: 1000,
    });
  });
  it("at most 100 lights: the 100th is lit, the 101st refused", () => {
    let s = startExploration("ose");
    for (let i = 0; i < 99; i++) s = addLight(s, { id: `l${i}`, kind: "torch" });
    s = addLight(s, { id: "last", kind: "custom", turns: 1000 });
    expect(s.lights).toHaveLength(100);
    expect(s.lights[99]).toEqual({ id: "last", kind: "custom", turnsLeft: 1000 });
    throwsError(() => addLight(s, { id: "more", kind: "torch" }), "OutOfRange", {
      name: "lights",
      value: 101,
      min: 0,
      max: 100,
    });
  });
});

describe("restPenaltyOf", () => {
  it("0 up to restEvery turns without rest, restPenalty beyond", () => {
    expect(restPenaltyOf(state({ turnsSinceRest: 5 }))).toBe(0);
    expect(restPenaltyOf(state({ turnsSinceRest: 6 }))).toBe(-1);
    expect(restPenaltyOf(state({ turnsSinceRest: 4, options: { ...OSE, restEvery: 3, restPenalty: -2 } }))).toBe(-2);
  });
});

describe("advanceExploration at its edges", () => {
  it("an encounter when the die shows the chance, none one above; the checks say why they roll", async () => {
    const dice = recordingDice(fixedDice([2, 3]));
    const s = state({ options: { ...OSE, wanderingChance: 2 } });
    const r = await advanceExploration(s, 4, dice);
    expect(r).toEqual({
      state: { ...s, turn: 4, turnsSinceRest: 4 },
      checks: [
        { turn: 2, roll: 2, encounter: true },
        { turn: 4, roll: 3, encounter: false },
      ],
      restDue: false,
      attackPenalty: 0,
      lightsOut: [],
    });
    expect(dice.log).toEqual([
      { count: 1, faces: 6, reason: "wandering", results: [2] },
      { count: 1, faces: 6, reason: "wandering", results: [3] },
    ]);
  });
  it("a light burns out on exactly its last turn; one more turn of light stays", async () => {
    const s = state({
      turn: 3,
      turnsSinceRest: 3,
      lights: [
        { id: "a", kind: "torch", turnsLeft: 2 },
        { id: "b", kind: "lantern", turnsLeft: 3 },
        { id: "c", kind: "custom", turnsLeft: 1 },
      ],
    });
    const r = await advanceExploration(s, 2, fixedDice([6]));
    expect(r).toEqual({
      state: { ...s, turn: 5, turnsSinceRest: 5, lights: [{ id: "b", kind: "lantern", turnsLeft: 1 }] },
      checks: [{ turn: 4, roll: 6, encounter: false }],
      restDue: true,
      attackPenalty: 0,
      lightsOut: ["a", "c"],
    });
  });
  it("resting starts the count again; not resting adds up and gives the penalty beyond restEvery", async () => {
    const s = state({ turn: 5, turnsSinceRest: 5 });
    expect(await advanceExploration(s, 1, fixedDice([4]), { rest: true })).toEqual({
      state: { ...s, turn: 6, turnsSinceRest: 0 },
      checks: [{ turn: 6, roll: 4, encounter: false }],
      restDue: false,
      attackPenalty: 0,
      lightsOut: [],
    });
  });
  it("one turn past restEvery: the rest is due and the penalty applies", async () => {
    const s = state({ turn: 4, turnsSinceRest: 5 });
    expect(await advanceExploration(s, 1, fixedDice([]), { rest: false })).toEqual({
      state: { ...s, turn: 5, turnsSinceRest: 6 },
      checks: [],
      restDue: true,
      attackPenalty: -1,
      lightsOut: [],
    });
  });
  it("the turn count stops at 1,000,000: reaching it is fine, passing it is refused", async () => {
    const s = state({ turn: 999_999 });
    expect((await advanceExploration(s, 1, fixedDice([6]))).state.turn).toBe(1_000_000);
    await rejectsError(advanceExploration(s, 2, fixedDice([6])), "OutOfRange", {
      name: "turn",
      value: 1_000_001,
      min: 0,
      max: 1_000_000,
    });
  });
  it("refuses bad turns, dice and rest flags, naming them", async () => {
    const s = state();
    await rejectsError(advanceExploration(s, 0, fixedDice([])), "OutOfRange", {
      name: "turns",
      value: 0,
      min: 1,
      max: 1000,
    });
    await rejectsError(advanceExploration(s, 1001, fixedDice([])), "OutOfRange", {
      name: "turns",
      value: 1001,
      min: 1,
      max: 1000,
    });
    await rejectsError(advanceExploration(s, 1.5, fixedDice([])), "NotAnInteger", { name: "turns", value: 1.5 });
    // A function holding a roll method is not a Dice either (checked even when no die is rolled: 1 turn from turn 0).
    const fn = Object.assign(() => 0, { roll: async () => [1] });
    for (const dice of [null, "d6", {}, { roll: 1 }, fn])
      await rejectsError(advanceExploration(s, 1, dice as never), "Missing", { name: "dice" });
    await rejectsError(advanceExploration(s, 1, fixedDice([]), { rest: "yes" as never }), "UnknownValue", {
      name: "rest",
      value: "yes",
      allowed: "true, false",
    });
    await rejectsError(advanceExploration(s, 1, fixedDice([]), null as never), "UnknownValue", {
      name: "rest",
      value: "undefined",
      allowed: "true, false",
    });
    await rejectsError(advanceExploration(s, 1, fixedDice([]), "rest" as never), "UnknownValue", {
      name: "rest",
      value: "undefined",
      allowed: "true, false",
    });
  });
});

describe("turnsIn", () => {
  it("whole turns: 1200 s is 2 turns of 600 s, 1199 s is 1; turns of 60 s", () => {
    expect(turnsIn(1200)).toBe(2);
    expect(turnsIn(1199)).toBe(1);
    expect(turnsIn(0)).toBe(0);
    expect(turnsIn(1200, { turnSeconds: 60 })).toBe(20);
    expect(turnsIn(1000 * 365 * 86_400)).toBe(52_560_000);
  });
  it("refuses bad spans and turn lengths", () => {
    throwsError(() => turnsIn(1000 * 365 * 86_400 + 1), "OutOfRange", {
      name: "seconds",
      value: 1000 * 365 * 86_400 + 1,
      min: 0,
      max: 1000 * 365 * 86_400,
    });
    throwsError(() => turnsIn(-1), "Negative", { name: "seconds", value: -1 });
    throwsError(() => turnsIn(60, null as never), "NotANumber", { name: "turnSeconds", value: "undefined" });
    throwsError(() => turnsIn(60, { turnSeconds: 0 }), "OutOfRange", {
      name: "turnSeconds",
      value: 0,
      min: 1,
      max: 86_400,
    });
    throwsError(() => turnsIn(60, { turnSeconds: 86_401 }), "OutOfRange", {
      name: "turnSeconds",
      value: 86_401,
      min: 1,
      max: 86_400,
    });
    throwsError(() => turnsIn(60, { turnSeconds: 1.5 }), "NotAnInteger", { name: "turnSeconds", value: 1.5 });
  });
});
