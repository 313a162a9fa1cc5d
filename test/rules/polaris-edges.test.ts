/**
 * Polaris (docs/rules.md §9.1 tests and countdowns, §9.2 action phases): edge states, whole results, ties whose data
 * tells right from wrong, bands on both sides, and the whole errors the user reads (key and data).
 */
import { describe, expect, it } from "vitest";
import {
  comparePolaris,
  countdownLeft,
  harderDifficulty,
  polarisActingPhase,
  polarisDegree,
  polarisDifficultyModifier,
  polarisPhases,
  polarisTest,
  retryPenalty,
  type PolarisCombatant,
  type PolarisTestResult,
} from "../../src/rules/index.js";
import { throwsError } from "./helpers.js";

const IDS =
  "extremelyEasy, veryEasy, easy, fairlyEasy, average, fairlyHard, hard, veryHard, extremelyHard, nearlyImpossible, superhuman, heroic";
const FAIL_IDS = "justesse, mediocre, assezMauvais, mauvais, tresMauvais, execrable, catastrophique";
const fail = (degree = "justesse") => ({ success: false, degree }) as unknown as PolarisTestResult;
const win = { success: true, degree: "bon" } as unknown as PolarisTestResult;

describe("countdownLeft (§9.1): edge states", () => {
  it("a success after the countdown ran out changes nothing: the event happens", () => {
    expect(countdownLeft(2, [fail(), fail(), win])).toEqual({ left: 0, succeeded: false, exhausted: true });
  });
  it("a success on the last attempt: none left, succeeded, not exhausted", () => {
    expect(countdownLeft(1, [win])).toEqual({ left: 0, succeeded: true, exhausted: false });
  });
  it("tests after a success change nothing", () => {
    expect(countdownLeft(3, [win, fail("catastrophique"), fail()])).toEqual({
      left: 2,
      succeeded: true,
      exhausted: false,
    });
  });
  it("a catastrophe costs one more attempt, or two when the GM says so; never below 0", () => {
    expect(countdownLeft(5, [fail("catastrophique")])).toEqual({ left: 3, succeeded: false, exhausted: false });
    expect(countdownLeft(5, [fail("catastrophique")], 2)).toEqual({ left: 2, succeeded: false, exhausted: false });
    expect(countdownLeft(5, [fail("execrable")], 2)).toEqual({ left: 4, succeeded: false, exhausted: false });
    expect(countdownLeft(2, [fail("catastrophique")], 2)).toEqual({ left: 0, succeeded: false, exhausted: true });
    expect(countdownLeft(100, [])).toEqual({ left: 100, succeeded: false, exhausted: false });
  });
  it("checks every test, even after the end, and names what it refuses", () => {
    throwsError(() => countdownLeft(1, [win, { success: "yes" } as never]), "UnknownValue", {
      name: "tests[1].success",
      value: "yes",
      allowed: "true, false",
    });
    throwsError(() => countdownLeft(1, [win, {} as never]), "Missing", { name: "tests[1].success" });
    throwsError(() => countdownLeft(1, [null as never]), "Missing", { name: "tests[0]" });
    throwsError(() => countdownLeft(3, [fail(), fail("bon")]), "UnknownValue", {
      name: "tests[1].degree",
      value: "bon",
      allowed: FAIL_IDS,
    });
    throwsError(() => countdownLeft(0, []), "OutOfRange", { name: "maxAttempts", value: 0, min: 1, max: 100 });
    throwsError(() => countdownLeft(101, []), "OutOfRange", { name: "maxAttempts", value: 101, min: 1, max: 100 });
    throwsError(() => countdownLeft(2.5, []), "NotAnInteger", { name: "maxAttempts", value: 2.5 });
    throwsError(() => countdownLeft(3, [], 3), "OutOfRange", { name: "catastropheCost", value: 3, min: 1, max: 2 });
    throwsError(() => countdownLeft(3, [], 0), "OutOfRange", { name: "catastropheCost", value: 0, min: 1, max: 2 });
    throwsError(() => countdownLeft(3, [], 1.5), "NotAnInteger", { name: "catastropheCost", value: 1.5 });
    throwsError(
      () =>
        countdownLeft(
          3,
          Array.from({ length: 301 }, () => win),
        ),
      "OutOfRange",
      { name: "tests", value: 301, min: 0, max: 300 },
    );
  });
});

describe("retryPenalty (§9.1)", () => {
  it("0, then −1 per attempt, −3 when pressed; never −0", () => {
    expect(Object.is(retryPenalty(1), 0)).toBe(true);
    expect(Object.is(retryPenalty(1, true), 0)).toBe(true);
    expect(retryPenalty(3)).toBe(-2);
    expect(retryPenalty(3, true)).toBe(-6);
    expect(retryPenalty(100)).toBe(-99);
    throwsError(() => retryPenalty(0), "OutOfRange", { name: "attempt", value: 0, min: 1, max: 100 });
    throwsError(() => retryPenalty(101), "OutOfRange", { name: "attempt", value: 101, min: 1, max: 100 });
    throwsError(() => retryPenalty(2, "yes" as never), "UnknownValue", {
      name: "pressed",
      value: "yes",
      allowed: "true, false",
    });
  });
});

describe("polarisDegree (§9.1): both sides of every band", () => {
  it("success bands", () => {
    const d = (m: number) => polarisDegree(true, m);
    expect(d(0)).toEqual({ degree: "justesse", modifier: 0, label: "De justesse" });
    expect(d(2)).toEqual({ degree: "justesse", modifier: 0, label: "De justesse" });
    expect(d(3)).toEqual({ degree: "correct", modifier: 1, label: "Correct" });
    expect(d(34)).toEqual({ degree: "heroique", modifier: 8, label: "Héroïque" });
    expect(d(35)).toEqual({ degree: "legendaire", modifier: 9, label: "Légendaire" });
    expect(d(1000)).toEqual({ degree: "legendaire", modifier: 9, label: "Légendaire" });
  });
  it("failure bands", () => {
    const d = (m: number) => polarisDegree(false, m);
    expect(d(1)).toEqual({ degree: "justesse", modifier: 0, label: "De justesse" });
    expect(d(14)).toEqual({ degree: "execrable", modifier: -5, label: "Exécrable" });
    expect(d(15).modifier).toBe(-6);
    expect(d(19).modifier).toBe(-6);
    expect(d(20).modifier).toBe(-7);
    expect(d(24).modifier).toBe(-7);
    expect(d(25).modifier).toBe(-8);
    expect(d(34).modifier).toBe(-8);
    expect(d(35)).toEqual({ degree: "catastrophique", modifier: -9, label: "Catastrophique" });
  });
  it("names what it refuses", () => {
    throwsError(() => polarisDegree("yes" as never, 3), "UnknownValue", {
      name: "success",
      value: "yes",
      allowed: "true, false",
    });
    throwsError(() => polarisDegree(false, 0), "OutOfRange", { name: "margin", value: 0, min: 1, max: 1000 });
    throwsError(() => polarisDegree(true, -1), "Negative", { name: "margin", value: -1 });
    throwsError(() => polarisDegree(true, 1001), "OutOfRange", { name: "margin", value: 1001, min: 0, max: 1000 });
    throwsError(() => polarisDegree(true, 2.5), "NotAnInteger", { name: "margin", value: 2.5 });
  });
});

describe("polarisTest (§9.1): whole results at the edges", () => {
  it("final chance exactly 1 can succeed (critically); 0 is an automatic failure whose margin is the die", () => {
    expect(polarisTest({ chance: 1, difficulty: "average", roll: 1 })).toEqual({
      finalChance: 1,
      success: true,
      margin: 0,
      baseMargin: 0,
      criticalBonus: 0,
      degree: "justesse",
      modifier: 0,
      critical: "success",
      automaticFailure: false,
    });
    expect(polarisTest({ chance: 5, difficulty: "hard", roll: 5 })).toEqual({
      finalChance: 0,
      success: false,
      margin: 5,
      baseMargin: 5,
      criticalBonus: 0,
      degree: "assezMauvais",
      modifier: -2,
      critical: null,
      automaticFailure: true,
    });
    expect(polarisTest({ chance: "X", difficulty: "average", roll: 20 })).toEqual({
      finalChance: null,
      success: false,
      margin: 20,
      baseMargin: 20,
      criticalBonus: 0,
      degree: "catastrophique",
      modifier: -7,
      critical: "failure",
      automaticFailure: true,
    });
  });
  it("−0 never shows as a final chance", () => {
    expect(Object.is(polarisTest({ chance: -0, difficulty: -0, retryPenalty: -0, roll: 3 }).finalChance, 0)).toBe(true);
  });
  it("a natural 20: a critical failure below 20, a critical success at 20 or more", () => {
    expect(polarisTest({ chance: 19, difficulty: "average", roll: 20 })).toMatchObject({
      success: false,
      margin: 1,
      critical: "failure",
      degree: "justesse",
    });
    expect(polarisTest({ chance: 18, difficulty: "fairlyEasy", roll: 20, mastery: 2 })).toEqual({
      finalChance: 21,
      success: true,
      margin: 3,
      baseMargin: 1,
      criticalBonus: 2,
      degree: "correct",
      modifier: 1,
      critical: "success",
      automaticFailure: false,
    });
  });
  it("the retry penalty lowers the final chance", () => {
    expect(polarisTest({ chance: 12, difficulty: "average", retryPenalty: -2, roll: 11 })).toMatchObject({
      finalChance: 10,
      success: false,
      margin: 1,
    });
  });
  it("a critical success adds the mastery, half the attribute (rounded down), or the override; never less than 0", () => {
    const crit = { chance: 12, difficulty: "average" as const, roll: 12 };
    expect(polarisTest({ ...crit, kind: "attribute", attributeLevel: 7 })).toMatchObject({
      margin: 3,
      criticalBonus: 3,
      degree: "correct",
    });
    expect(polarisTest({ ...crit, kind: "attribute", attributeLevel: -4 })).toMatchObject({
      margin: 0,
      criticalBonus: 0,
    });
    expect(polarisTest({ ...crit, mastery: -2 })).toMatchObject({ margin: 0, criticalBonus: 0 });
    expect(polarisTest({ ...crit, mastery: 9, criticalBonus: 5 })).toMatchObject({
      margin: 5,
      criticalBonus: 5,
      degree: "assezBon",
      modifier: 2,
    });
    expect(polarisTest({ ...crit, roll: 11, mastery: 9 })).toMatchObject({
      margin: 1,
      criticalBonus: 0,
      critical: null,
    });
    throwsError(() => polarisTest({ ...crit, kind: "attribute" }), "Missing", { name: "attributeLevel" });
  });
  it("names what it refuses", () => {
    const t = { chance: 12, difficulty: "average" as const, roll: 10 };
    throwsError(() => polarisTest(null as never), "Missing", { name: "test" });
    throwsError(() => polarisTest({ ...t, roll: 21 }), "BadDie", { value: "21", faces: 20 });
    throwsError(() => polarisTest({ ...t, roll: 0 }), "BadDie", { value: "0", faces: 20 });
    throwsError(() => polarisTest({ ...t, roll: 1.5 }), "BadDie", { value: "1.5", faces: 20 });
    throwsError(() => polarisTest({ ...t, roll: "3" as never }), "BadDie", { value: "3", faces: 20 });
    throwsError(() => polarisTest({ ...t, secret: "yes" as never }), "UnknownValue", {
      name: "secret",
      value: "yes",
      allowed: "true, false",
    });
    throwsError(() => polarisTest({ ...t, retryPenalty: 1 }), "OutOfRange", {
      name: "retryPenalty",
      value: 1,
      min: -100,
      max: 0,
    });
    throwsError(() => polarisTest({ ...t, retryPenalty: -101 }), "OutOfRange", {
      name: "retryPenalty",
      value: -101,
      min: -100,
      max: 0,
    });
    throwsError(() => polarisTest({ ...t, difficulty: "impossible" as never }), "UnknownValue", {
      name: "difficulty",
      value: "impossible",
      allowed: IDS,
    });
    throwsError(() => polarisTest({ ...t, difficulty: 2.5 }), "NotAnInteger", { name: "difficulty", value: 2.5 });
    throwsError(() => polarisTest({ ...t, kind: "talent" as never }), "UnknownValue", {
      name: "kind",
      value: "talent",
      allowed: "skill, attribute",
    });
    throwsError(() => polarisTest({ ...t, chance: 101 }), "OutOfRange", {
      name: "chance",
      value: 101,
      min: -100,
      max: 100,
    });
    throwsError(() => polarisTest({ ...t, chance: -101 }), "OutOfRange", {
      name: "chance",
      value: -101,
      min: -100,
      max: 100,
    });
    throwsError(() => polarisTest({ ...t, mastery: 1.5 }), "NotAnInteger", { name: "mastery", value: 1.5 });
    throwsError(() => polarisTest({ ...t, attributeLevel: 101 }), "OutOfRange", {
      name: "attributeLevel",
      value: 101,
      min: -100,
      max: 100,
    });
    throwsError(() => polarisTest({ ...t, criticalBonus: -1 }), "Negative", { name: "criticalBonus", value: -1 });
    throwsError(() => polarisTest({ ...t, criticalBonus: 101 }), "OutOfRange", {
      name: "criticalBonus",
      value: 101,
      min: 0,
      max: 100,
    });
  });
});

describe("difficulties (§9.1)", () => {
  it("harder and easier, clamped at both ends", () => {
    expect(harderDifficulty("average", 2)).toBe("hard");
    expect(harderDifficulty("average", -1)).toBe("fairlyEasy");
    expect(harderDifficulty("extremelyEasy", -1)).toBe("extremelyEasy");
    expect(harderDifficulty("superhuman", 1)).toBe("heroic");
    expect(harderDifficulty("hard", 100)).toBe("heroic");
    expect(harderDifficulty("heroic", -11)).toBe("extremelyEasy");
    throwsError(() => harderDifficulty("average", 1.5), "NotAnInteger", { name: "steps", value: 1.5 });
    throwsError(() => harderDifficulty(3 as never, 1), "UnknownValue", {
      name: "difficulty",
      value: "3",
      allowed: IDS,
    });
  });
  it("a plain modifier is an integer within ±100", () => {
    expect(polarisDifficultyModifier(-100)).toBe(-100);
    expect(polarisDifficultyModifier("heroic")).toBe(-20);
    throwsError(() => polarisDifficultyModifier(101), "OutOfRange", {
      name: "difficulty",
      value: 101,
      min: -100,
      max: 100,
    });
  });
});

describe("polarisPhases (§9.2): ties whose data tells right from wrong", () => {
  const c = (
    id: string,
    initiative: number,
    reaction: number,
    more: Partial<PolarisCombatant> = {},
  ): PolarisCombatant => ({ id, initiative, reaction, ...more });
  it("declaration: slowest first; at equal initiative the lower Réaction first, then the input order", () => {
    expect(polarisPhases([c("a", 5, 4), c("b", 5, 2), c("c", 3, 9)]).declarationOrder).toEqual(["c", "b", "a"]);
    expect(polarisPhases([c("y", 5, 2), c("x", 5, 2)]).declarationOrder).toEqual(["y", "x"]);
    expect(polarisPhases([c("h", 5, 1, { hasten: true }), c("d", 4, 1, { delayTo: 1 })]).declarationOrder).toEqual([
      "d",
      "h",
    ]);
  });
  it("same phase: the higher Réaction first, whatever the input order; equal Réaction keeps the input order", () => {
    expect(polarisPhases([c("a", 5, 2), c("b", 5, 4)]).order).toEqual([
      { phase: 5, ids: ["b", "a"] },
      { phase: 4, ids: [] },
      { phase: 3, ids: [] },
      { phase: 2, ids: [] },
      { phase: 1, ids: [] },
    ]);
    expect(polarisPhases([c("b", 2, 3), c("a", 2, 3)]).order[0]).toEqual({ phase: 2, ids: ["b", "a"] });
  });
  it("initiative 0 or less acts at phase 1, after the others, by decreasing initiative before Réaction", () => {
    const r = polarisPhases([c("d", -1, 10), c("c", 0, 9), c("e", 1, 0)]);
    expect(r).toEqual({ phases: 1, order: [{ phase: 1, ids: ["e", "c", "d"] }], declarationOrder: ["d", "c", "e"] });
    expect(polarisPhases([c("z", -3, 0)])).toEqual({
      phases: 1,
      order: [{ phase: 1, ids: ["z"] }],
      declarationOrder: ["z"],
    });
  });
  it("hastening adds 3 and sets the number of phases; delaying keeps it, to any later phase ≥ 1", () => {
    const r = polarisPhases([c("h", 3, 0, { hasten: true }), c("d", 6, 5, { delayTo: 2 })]);
    expect(r.phases).toBe(6);
    expect(r.order.map((p) => p.ids)).toEqual([["h"], [], [], [], ["d"], []]);
    expect(polarisActingPhase(c("d", 5, 0, { delayTo: 4 }))).toBe(4);
    expect(polarisActingPhase(c("d", -2, 0, { hasten: true }))).toBe(1);
    throwsError(() => polarisActingPhase(c("d", 5, 0, { delayTo: 5 })), "OutOfRange", {
      name: "delayTo",
      value: 5,
      min: 1,
      max: 4,
    });
    throwsError(() => polarisActingPhase(c("d", 5, 0, { delayTo: 1.5 })), "NotAnInteger", {
      name: "delayTo",
      value: 1.5,
    });
    throwsError(() => polarisActingPhase(c("d", 5, 0, { delayTo: 0 })), "OutOfRange", {
      name: "delayTo",
      value: 0,
      min: 1,
      max: 4,
    });
    throwsError(() => polarisActingPhase(c("d", 2, 0, { hasten: true, delayTo: 5 })), "OutOfRange", {
      name: "delayTo",
      value: 5,
      min: 1,
      max: 4,
    });
  });
  it("comparePolaris: earlier phase first, then initiative below 1, then Réaction; equal keys 0", () => {
    expect(comparePolaris(c("a", 5, 0), c("b", 3, 9))).toBeLessThan(0);
    expect(comparePolaris(c("a", 3, 9), c("b", 5, 0))).toBeGreaterThan(0);
    expect(comparePolaris(c("a", 0, 0), c("b", -1, 9))).toBeLessThan(0);
    expect(comparePolaris(c("a", 4, 1), c("b", 4, 2))).toBeGreaterThan(0);
    expect(comparePolaris(c("a", 4, 2), c("b", 4, 2))).toBe(0);
    throwsError(() => comparePolaris(c("a", 4, 2), null as never), "Missing", { name: "combatants[1]" });
  });
  it("names what it refuses", () => {
    throwsError(() => polarisPhases([]), "EmptyParty", {});
    throwsError(() => polarisPhases(null as never), "EmptyParty", {});
    throwsError(() => polarisPhases([c("a", 1, 1), c("a", 2, 2)]), "UnknownValue", {
      name: "id",
      value: "a",
      allowed: "unique ids",
    });
    throwsError(() => polarisPhases([c("a", 1, 1), null as never]), "Missing", { name: "combatants[1]" });
    throwsError(() => polarisPhases([c("a", 1, 1), c("", 1, 1)]), "Missing", { name: "combatants[1].id" });
    throwsError(() => polarisPhases([c("a", 101, 1)]), "OutOfRange", {
      name: "initiative",
      value: 101,
      min: -100,
      max: 100,
    });
    throwsError(() => polarisPhases([c("a", 1, 1.5)]), "NotAnInteger", { name: "reaction", value: 1.5 });
    throwsError(() => polarisPhases([c("a", 1, 1, { hasten: 1 as never })]), "UnknownValue", {
      name: "hasten",
      value: "1",
      allowed: "true, false",
    });
    throwsError(() => polarisPhases(Array.from({ length: 501 }, (_, i) => c(`a${i}`, 1, 1))), "OutOfRange", {
      name: "combatants",
      value: 501,
      min: 0,
      max: 500,
    });
  });
});
