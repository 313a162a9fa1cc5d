/** The internal checks of the rules engine (guard.ts): frozen tables, checked objects, lists, texts, distances, dice. */
import { describe, expect, it } from "vitest";
import { RulesError } from "../../src/rules/errors.js";
import { deepFreeze, list, metres, record, rollChecked } from "../../src/rules/guard.js";
import type { Dice } from "../../src/rules/dice.js";
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

/** A Dice that answers whatever it is given, and keeps what it was asked. */
function liar(answer: unknown) {
  const asked: unknown[][] = [];
  const dice = {
    answer,
    async roll(this: { answer: unknown }, count: number, faces: number, reason?: string) {
      asked.push([count, faces, reason]);
      return this.answer;
    },
  };
  return { dice: dice as unknown as Dice, asked };
}

describe("deepFreeze", () => {
  it("freezes everything reachable, returns the value, and stops on a cycle", () => {
    const inner = { b: [1, { c: 2 }] };
    const t: Record<string, unknown> = { a: inner };
    t.self = t;
    expect(deepFreeze(t)).toBe(t);
    expect(Object.isFrozen(t)).toBe(true);
    expect(Object.isFrozen(inner)).toBe(true);
    expect(Object.isFrozen(inner.b)).toBe(true);
    expect(Object.isFrozen(inner.b[1])).toBe(true);
    expect(deepFreeze(null)).toBe(null);
    expect(deepFreeze(3)).toBe(3);
  });
});

describe("record, list, metres", () => {
  it("record lets a plain object through and refuses null, arrays and the rest", () => {
    const o = { a: 1 };
    expect(record("party", o)).toBe(o);
    for (const v of [null, undefined, [], "o", 1]) throwsError(() => record("party", v), "Missing", { name: "party" });
  });
  it("list copies an array of at most max items, holes made undefined", () => {
    // eslint-disable-next-line no-sparse-arrays
    const copy = list("legs", [1, , 3], 3);
    expect(copy).toEqual([1, undefined, 3]);
    expect(Object.keys(copy)).toEqual(["0", "1", "2"]);
    throwsError(() => list("legs", [1, 2, 3, 4], 3), "OutOfRange", { name: "legs", value: 4, min: 0, max: 3 });
    throwsError(() => list("legs", { length: 1 }), "Missing", { name: "legs" });
  });
  it("list's default bound is 10,000 items", () => {
    expect(list("legs", new Array(10_000).fill(0))).toHaveLength(10_000);
    throwsError(() => list("legs", new Array(10_001).fill(0)), "OutOfRange", {
      name: "legs",
      value: 10_001,
      min: 0,
      max: 10_000,
    });
  });
  it("metres is 0..10,000 km", () => {
    expect(metres("d", 0)).toBe(0);
    expect(metres("d", 10_000_000)).toBe(10_000_000);
    throwsError(() => metres("d", -1), "Negative", { name: "d", value: -1 });
    throwsError(() => metres("d", 10_000_001), "OutOfRange", { name: "d", value: 10_000_001, min: 0, max: 10_000_000 });
  });
});

describe("rollChecked", () => {
  it("passes the request and its reason to the dice, called as a method, and returns their results", async () => {
    const { dice, asked } = liar([2, 6]);
    expect(await rollChecked(dice, 2, 6, "surprise")).toEqual([2, 6]);
    expect(asked).toEqual([[2, 6, "surprise"]]);
  });
  it("refuses what is not a Dice", async () => {
    await rejectsError(rollChecked(null as unknown as Dice, 1, 6), "Missing", { name: "dice" });
    await rejectsError(rollChecked({ roll: 1 } as unknown as Dice, 1, 6), "Missing", { name: "dice.roll" });
  });
  it("refuses a request outside 1..1000 dice of 2..1000 faces, before rolling", async () => {
    const { dice, asked } = liar([1]);
    await rejectsError(rollChecked(dice, 0, 6), "OutOfRange", { name: "count", value: 0, min: 1, max: 1000 });
    await rejectsError(rollChecked(dice, 1001, 6), "OutOfRange", { name: "count", value: 1001, min: 1, max: 1000 });
    await rejectsError(rollChecked(dice, 1.5, 6), "NotAnInteger", { name: "count", value: 1.5 });
    await rejectsError(rollChecked(dice, 1, 1), "OutOfRange", { name: "faces", value: 1, min: 2, max: 1000 });
    await rejectsError(rollChecked(dice, 1, 1001), "OutOfRange", { name: "faces", value: 1001, min: 2, max: 1000 });
    await rejectsError(rollChecked(dice, 1, 2.5), "NotAnInteger", { name: "faces", value: 2.5 });
    expect(asked).toEqual([]);
  });
  it("refuses an answer that is not count integers in 1..faces", async () => {
    await rejectsError(rollChecked(liar("3").dice, 1, 6), "BadDie", { value: "3", faces: 6 });
    await rejectsError(rollChecked(liar([1, 2]).dice, 1, 6), "BadDie", { value: 2, faces: 6 });
    await rejectsError(rollChecked(liar([]).dice, 1, 6), "BadDie", { value: 0, faces: 6 });
    await rejectsError(rollChecked(liar([7]).dice, 1, 6), "BadDie", { value: "7", faces: 6 });
    await rejectsError(rollChecked(liar([0]).dice, 1, 6), "BadDie", { value: "0", faces: 6 });
    await rejectsError(rollChecked(liar([2.5]).dice, 1, 6), "BadDie", { value: "2.5", faces: 6 });
    await rejectsError(rollChecked(liar(["3"]).dice, 1, 6), "BadDie", { value: "3", faces: 6 });
    expect(await rollChecked(liar([1, 6]).dice, 2, 6)).toEqual([1, 6]);
  });
});
