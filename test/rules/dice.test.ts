/** The dice of the rules engine: fixed, seeded, recording, rollTotal (docs/rules.md §0: dice as a parameter). */
import { describe, expect, it } from "vitest";
import { RulesError, fixedDice, recordingDice, rollTotal, seededDice } from "../../src/rules/index.js";
import type { Dice } from "../../src/rules/index.js";
import { throwsError } from "./helpers.js";

/** Asserts the whole RulesError a promise rejects with: its key and all of its data. */
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

const badRequests = (roll: (count: number, faces: number) => Promise<number[]>) =>
  [
    [() => roll(0, 6), "OutOfRange", { name: "count", value: 0, min: 1, max: 1000 }],
    [() => roll(1001, 6), "OutOfRange", { name: "count", value: 1001, min: 1, max: 1000 }],
    [() => roll(1.5, 6), "NotAnInteger", { name: "count", value: 1.5 }],
    [() => roll(1, 1), "OutOfRange", { name: "faces", value: 1, min: 2, max: 1000 }],
    [() => roll(1, 1001), "OutOfRange", { name: "faces", value: 1001, min: 2, max: 1000 }],
    [() => roll(1, 6.5), "NotAnInteger", { name: "faces", value: 6.5 }],
  ] as const;

describe("fixed dice", () => {
  it("refuse a request outside 1..1000 dice of 2..1000 faces, naming the argument and its bounds", async () => {
    const d = fixedDice([1, 2, 3]);
    for (const [call, key, data] of badRequests((c, f) => d.roll(c, f))) await rejectsError(call(), key, data);
    // Nothing was used by the refused requests.
    expect(d.remaining()).toBe(3);
  });
  it("accept the bounds themselves: 1000 dice, 2 and 1000 faces", async () => {
    expect(await fixedDice(Array.from({ length: 1000 }, () => 2)).roll(1000, 2)).toHaveLength(1000);
    expect(await fixedDice([1000]).roll(1, 1000)).toEqual([1000]);
  });
  it("refuse results that are not a list", () => {
    throwsError(() => fixedDice("3" as unknown as number[]), "Missing", { name: "results" });
  });
  it("say which die they ran out on", async () => {
    const d = fixedDice([5]);
    await rejectsError(d.roll(2, 8), "DiceExhausted", { faces: 8 });
  });
  it("refuse a result that is not an integer in 1..faces, showing it and the die", async () => {
    await rejectsError(fixedDice([7]).roll(1, 6), "BadDie", { value: "7", faces: 6 });
    await rejectsError(fixedDice([0]).roll(1, 6), "BadDie", { value: "0", faces: 6 });
    await rejectsError(fixedDice([2.5]).roll(1, 6), "BadDie", { value: "2.5", faces: 6 });
    await rejectsError(fixedDice(["3" as unknown as number]).roll(1, 6), "BadDie", { value: "3", faces: 6 });
    // 1 and faces are results of the die.
    expect(await fixedDice([1, 6]).roll(2, 6)).toEqual([1, 6]);
  });
});

describe("seeded dice", () => {
  it("refuse a seed that is not an integer", () => {
    throwsError(() => seededDice(1.5), "NotAnInteger", { name: "seed", value: 1.5 });
    throwsError(() => seededDice("7" as unknown as number), "NotANumber", { name: "seed", value: "7" });
  });
  it("refuse a request outside 1..1000 dice of 2..1000 faces", async () => {
    const d = seededDice(42);
    for (const [call, key, data] of badRequests((c, f) => d.roll(c, f))) await rejectsError(call(), key, data);
  });
  it("give count results, each in 1..faces", async () => {
    const r = await seededDice(7).roll(200, 2);
    expect(r).toHaveLength(200);
    expect(new Set(r)).toEqual(new Set([1, 2]));
  });
});

describe("recording dice", () => {
  it("refuse something that is not a Dice", () => {
    for (const inner of [null, undefined, "dice", 3, {}, { roll: 1 }]) {
      throwsError(() => recordingDice(inner as unknown as Dice), "Missing", { name: "dice" });
    }
  });
  it("log a roll without a reason without a reason field", async () => {
    const d = recordingDice(fixedDice([4, 2, 5]));
    expect(await d.roll(2, 6)).toEqual([4, 2]);
    expect(await d.roll(1, 8, "surprise")).toEqual([5]);
    expect(d.log).toStrictEqual([
      { count: 2, faces: 6, results: [4, 2] },
      { count: 1, faces: 8, reason: "surprise", results: [5] },
    ]);
    expect(Object.keys(d.log[0]!)).toEqual(["count", "faces", "results"]);
  });
});

describe("rollTotal", () => {
  it("adds up the dice", async () => {
    expect(await rollTotal(fixedDice([3, 4, 6]), 3, 6)).toBe(13);
    expect(await rollTotal(fixedDice([5]), 1, 6)).toBe(5);
  });
});
