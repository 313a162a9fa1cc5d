/**
 * Suffocation, food and water (docs/rules.md §4.2–4.4) at their edges: whole day results, the save on exactly DC 15 and
 * one below, the fasting counter crossing the limit on half rations, exhaustion capped at 6, every bound on both sides
 * and the whole error of each bad argument; the breath timeline's whole states.
 */
import { describe, expect, it } from "vitest";
import {
  breathState,
  fastingDays,
  holdBreath,
  suffocationRounds,
  suffocationTimeline,
  survivalDay,
  survivalSaveSucceeds,
  waterNeedLitres,
  type SurvivalDayInput,
} from "../../src/rules/index.js";
import { throwsError } from "./helpers.js";

const day = (over: Partial<SurvivalDayInput> = {}): SurvivalDayInput => ({
  conMod: 0,
  fasting: 0,
  exhaustion: 0,
  food: "full",
  water: "full",
  ...over,
});
const fed = {
  fastingAfter: 0,
  fastingAllowed: 3,
  hungerLevels: 0,
  thirstLevels: 0,
  dehydrationExtra: false,
  dehydrationSaveDC: null,
  exhaustionAfter: 0,
  starving: false,
  dehydrated: false,
};

describe("survivalDay (docs/rules.md §4.3–4.4)", () => {
  it("a day of full food and water resets the fasting counter and changes nothing else", () => {
    expect(survivalDay(day({ fasting: 6, exhaustion: 2 }))).toEqual({ ...fed, exhaustionAfter: 2 });
  });
  it("CON 0 fasts 3 days without effect; the 4th day without food is a level, and starving", () => {
    expect(survivalDay(day({ fasting: 2, food: "none" }))).toEqual({ ...fed, fastingAfter: 3 });
    expect(survivalDay(day({ fasting: 3, food: "none" }))).toEqual({
      ...fed,
      fastingAfter: 4,
      hungerLevels: 1,
      exhaustionAfter: 1,
      starving: true,
    });
  });
  it("half rations count half a day: beyond the limit, a level every other day", () => {
    expect(survivalDay(day({ fasting: 3, food: "half" }))).toEqual({ ...fed, fastingAfter: 3.5, starving: true });
    expect(survivalDay(day({ fasting: 3.5, food: "half", exhaustion: 1 }))).toEqual({
      ...fed,
      fastingAfter: 4,
      hungerLevels: 1,
      exhaustionAfter: 2,
      starving: true,
    });
    expect(survivalDay(day({ fasting: 4, food: "half", exhaustion: 2 }))).toEqual({
      ...fed,
      fastingAfter: 4.5,
      exhaustionAfter: 2,
      starving: true,
    });
  });
  it("CON +2 fasts 5 days; CON −3 still 1", () => {
    expect(survivalDay(day({ conMod: 2, fasting: 5, food: "none" }))).toEqual({
      ...fed,
      fastingAllowed: 5,
      fastingAfter: 6,
      hungerLevels: 1,
      exhaustionAfter: 1,
      starving: true,
    });
    expect(survivalDay(day({ conMod: -3, fasting: 0, food: "none" }))).toEqual({
      ...fed,
      fastingAllowed: 1,
      fastingAfter: 1,
    });
  });
  it("no water: 1 level automatically; one more when already exhausted", () => {
    expect(survivalDay(day({ water: "none" }))).toEqual({
      ...fed,
      thirstLevels: 1,
      exhaustionAfter: 1,
      dehydrated: true,
    });
    expect(survivalDay(day({ water: "none", exhaustion: 1 }))).toEqual({
      ...fed,
      thirstLevels: 2,
      dehydrationExtra: true,
      exhaustionAfter: 3,
      dehydrated: true,
    });
  });
  it("half water: a Constitution save DC 15 (a total of 15 succeeds, 14 fails) or 1 level", () => {
    const saved = { ...fed, dehydrationSaveDC: 15 };
    expect(survivalDay(day({ water: "half", dehydrationSave: true }))).toEqual(saved);
    expect(survivalDay(day({ water: "half", dehydrationSave: 15 }))).toEqual(saved);
    expect(survivalDay(day({ water: "half", dehydrationSave: 14 }))).toEqual({
      ...saved,
      thirstLevels: 1,
      exhaustionAfter: 1,
      dehydrated: true,
    });
    expect(survivalDay(day({ water: "half", dehydrationSave: false, exhaustion: 2 }))).toEqual({
      ...saved,
      thirstLevels: 2,
      dehydrationExtra: true,
      exhaustionAfter: 4,
      dehydrated: true,
    });
    // A saved character already exhausted gains nothing.
    expect(survivalDay(day({ water: "half", dehydrationSave: 20, exhaustion: 3 }))).toEqual({
      ...saved,
      exhaustionAfter: 3,
    });
  });
  it("exhaustion stops at 6", () => {
    expect(survivalDay(day({ fasting: 3, food: "none", water: "none", exhaustion: 5 }))).toEqual({
      ...fed,
      fastingAfter: 4,
      hungerLevels: 1,
      thirstLevels: 2,
      dehydrationExtra: true,
      exhaustionAfter: 6,
      starving: true,
      dehydrated: true,
    });
    expect(survivalDay(day({ exhaustion: 6 }))).toEqual({ ...fed, exhaustionAfter: 6 });
  });
  it("the save is ignored unless water is half", () => {
    expect(survivalDay(day({ water: "full", dehydrationSave: "x" as never }))).toEqual(fed);
    expect(survivalDay(day({ water: "none", dehydrationSave: true }))).toEqual({
      ...fed,
      thirstLevels: 1,
      exhaustionAfter: 1,
      dehydrated: true,
    });
  });
  it("the bounds themselves are accepted: fasting 10,000 days, exhaustion 6, CON −5 and +10", () => {
    expect(survivalDay(day({ conMod: 10, fasting: 10_000, food: "none", exhaustion: 6 })).fastingAfter).toBe(10_001);
    expect(survivalDay(day({ conMod: -5 })).fastingAllowed).toBe(1);
  });
  it("refuses bad input, naming what is wrong", () => {
    const cases: [unknown, string, Record<string, string | number>][] = [
      [null, "Missing", { name: "input" }],
      ["day", "Missing", { name: "input" }],
      [day({ conMod: 11 }), "OutOfRange", { name: "conMod", value: 11, min: -5, max: 10 }],
      [day({ conMod: -6 }), "OutOfRange", { name: "conMod", value: -6, min: -5, max: 10 }],
      [day({ conMod: 1.5 }), "NotAnInteger", { name: "conMod", value: 1.5 }],
      [day({ fasting: -0.5 }), "Negative", { name: "fasting", value: -0.5 }],
      [day({ fasting: 10_000.5 }), "OutOfRange", { name: "fasting", value: 10_000.5, min: 0, max: 10_000 }],
      [day({ exhaustion: 7 }), "OutOfRange", { name: "exhaustion", value: 7, min: 0, max: 6 }],
      [day({ exhaustion: -1 }), "Negative", { name: "exhaustion", value: -1 }],
      [day({ exhaustion: 1.5 }), "NotAnInteger", { name: "exhaustion", value: 1.5 }],
      [day({ food: "feast" as never }), "UnknownValue", { name: "food", value: "feast", allowed: "full, half, none" }],
      [day({ water: "lots" as never }), "UnknownValue", { name: "water", value: "lots", allowed: "full, half, none" }],
      [day({ water: "half" }), "Missing", { name: "dehydrationSave" }],
      [day({ water: "half", dehydrationSave: "15" as never }), "NotANumber", { name: "dehydrationSave", value: "15" }],
    ];
    for (const [input, key, data] of cases) throwsError(() => survivalDay(input as SurvivalDayInput), key, data);
  });
});

describe("survivalSaveSucceeds", () => {
  it("a boolean is the success itself; a total succeeds from the DC up", () => {
    expect(survivalSaveSucceeds("save", true, 15)).toBe(true);
    expect(survivalSaveSucceeds("save", false, -3)).toBe(false);
    expect(survivalSaveSucceeds("save", 10, 10)).toBe(true);
    expect(survivalSaveSucceeds("save", 9, 10)).toBe(false);
    expect(survivalSaveSucceeds("save", -1000, -1000)).toBe(true);
    expect(survivalSaveSucceeds("save", 1000, 1000)).toBe(true);
  });
  it("refuses a DC beyond ±1000 and a missing or bad total, naming it", () => {
    throwsError(() => survivalSaveSucceeds("save", 5, 1001), "OutOfRange", {
      name: "dc",
      value: 1001,
      min: -1000,
      max: 1000,
    });
    throwsError(() => survivalSaveSucceeds("save", 5, -1001), "OutOfRange", {
      name: "dc",
      value: -1001,
      min: -1000,
      max: 1000,
    });
    throwsError(() => survivalSaveSucceeds("conSave", undefined, 15), "Missing", { name: "conSave" });
    throwsError(() => survivalSaveSucceeds("conSave", null, 15), "NotANumber", { name: "conSave", value: "null" });
  });
});

describe("hold breath, rounds, fasting days, water (docs/rules.md §4.2–4.4)", () => {
  it("1 + CON minutes of breath, at least 30 s; CON rounds, at least 1; 3 + CON days, at least 1", () => {
    expect([-5, -2, -1, 0, 1, 10].map(holdBreath)).toEqual([30, 30, 30, 60, 120, 660]);
    expect([-5, 0, 1, 2, 10].map(suffocationRounds)).toEqual([1, 1, 1, 2, 10]);
    expect([-5, -2, -1, 0, 7, 10].map(fastingDays)).toEqual([1, 1, 2, 3, 10, 13]);
  });
  it("name the bad modifier", () => {
    for (const f of [holdBreath, suffocationRounds, fastingDays]) {
      throwsError(() => f(11), "OutOfRange", { name: "conMod", value: 11, min: -5, max: 10 });
      throwsError(() => f(-6), "OutOfRange", { name: "conMod", value: -6, min: -5, max: 10 });
      throwsError(() => f(0.5), "NotAnInteger", { name: "conMod", value: 0.5 });
    }
  });
  it("water: 3 L, 6 L when hot; refuses what is not a boolean", () => {
    expect(waterNeedLitres(false)).toBe(3);
    expect(waterNeedLitres(true)).toBe(6);
    throwsError(() => waterNeedLitres("yes" as never), "UnknownValue", {
      name: "hot",
      value: "yes",
      allowed: "true, false",
    });
    throwsError(() => waterNeedLitres(undefined as never), "UnknownValue", {
      name: "hot",
      value: "undefined",
      allowed: "true, false",
    });
  });
});

describe("the breath timeline at its edges (docs/rules.md §4.2)", () => {
  const conMinus1 = { holdSeconds: 30, rounds: 1, roundSeconds: 6, dropSeconds: 36 };
  const con3 = { holdSeconds: 240, rounds: 3, roundSeconds: 6, dropSeconds: 258 };
  it("CON −1, 6 s rounds, 33 s later: out of air, 3 s and 1 round left (whole states)", () => {
    expect(breathState(-1, 6, 33)).toEqual({ ...conMinus1, phase: "outOfAir", secondsLeft: 3, roundsLeft: 1 });
    expect(breathState(-1, 6, 29.5)).toEqual({ ...conMinus1, phase: "holding", secondsLeft: 0.5, roundsLeft: 1 });
    expect(breathState(-1, 6, 36)).toEqual({ ...conMinus1, phase: "down", secondsLeft: 0, roundsLeft: 0 });
  });
  it("CON +3: the rounds left count the current one (17 s: 3, 12 s: 2, 11 s: 2, 6 s: 1)", () => {
    expect(breathState(3, 6, 241)).toEqual({ ...con3, phase: "outOfAir", secondsLeft: 17, roundsLeft: 3 });
    expect(breathState(3, 6, 246)).toEqual({ ...con3, phase: "outOfAir", secondsLeft: 12, roundsLeft: 2 });
    expect(breathState(3, 6, 247)).toEqual({ ...con3, phase: "outOfAir", secondsLeft: 11, roundsLeft: 2 });
    expect(breathState(3, 6, 252)).toEqual({ ...con3, phase: "outOfAir", secondsLeft: 6, roundsLeft: 1 });
    expect(breathState(3, 6, -1)).toEqual({ ...con3, phase: "holding", secondsLeft: 240, roundsLeft: 3 });
  });
  it("a round of 1 to 600 s; an elapsed time within ±1000 days", () => {
    expect(suffocationTimeline(0, 600)).toEqual({ holdSeconds: 60, rounds: 1, roundSeconds: 600, dropSeconds: 660 });
    expect(suffocationTimeline(1, 1)).toEqual({ holdSeconds: 120, rounds: 1, roundSeconds: 1, dropSeconds: 121 });
    throwsError(() => suffocationTimeline(0, 601), "OutOfRange", {
      name: "roundSeconds",
      value: 601,
      min: 1,
      max: 600,
    });
    throwsError(() => suffocationTimeline(0, 0), "OutOfRange", { name: "roundSeconds", value: 0, min: 1, max: 600 });
    throwsError(() => suffocationTimeline(0, 6.5), "NotAnInteger", { name: "roundSeconds", value: 6.5 });
    expect(breathState(0, 6, 86_400_000).phase).toBe("down");
    expect(breathState(0, 6, -86_400_000).phase).toBe("holding");
    throwsError(() => breathState(0, 6, 86_400_001), "OutOfRange", {
      name: "elapsedSeconds",
      value: 86_400_001,
      min: -86_400_000,
      max: 86_400_000,
    });
    throwsError(() => breathState(0, 6, -86_400_001), "OutOfRange", {
      name: "elapsedSeconds",
      value: -86_400_001,
      min: -86_400_000,
      max: 86_400_000,
    });
    throwsError(() => breathState(0, 6, "1" as never), "NotANumber", { name: "elapsedSeconds", value: "1" });
  });
});
