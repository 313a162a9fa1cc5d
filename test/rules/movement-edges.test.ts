/**
 * Tactical movement, jumps and falls (docs/rules.md §3, §4.1) at their edges: every cost of the table, the run-up on
 * both sides of 3 m, jumps clamped at 0, falls on both sides of each 3 m and of the 20 dice, budgets and speeds for
 * each action, and the whole error of each bad argument (its name is what the user reads).
 */
import { describe, expect, it } from "vitest";
import {
  FALL_RULES,
  OSE_FALL_RULES,
  fallDice,
  fallFormula,
  fallRules,
  hasSpeedFor,
  highJump,
  jumpObstacleMax,
  jumpReach,
  jumpTooLong,
  longJump,
  movementBudget,
  movementCost,
  movementCostPerMetre,
  movementLeft,
  usualSpeed,
} from "../../src/rules/movement.js";
import { throwsError } from "./helpers.js";

const ACTIONS = "walk, climb, swim, crawl, jump";
const BOOL = "true, false";

describe("movement costs (docs/rules.md §3.1)", () => {
  it("every action, normal and difficult, with and without a speed, in rnp and dnd5e", () => {
    const table = (rs: "rnp" | "dnd5e" | "pmt", hasSpeed: boolean) =>
      (["walk", "climb", "swim", "crawl", "jump"] as const).map((a) => [
        movementCostPerMetre(rs, a, false, hasSpeed),
        movementCostPerMetre(rs, a, true, hasSpeed),
      ]);
    expect(table("rnp", false)).toEqual([
      [1, 2],
      [2, 3],
      [2, 3],
      [2, 3],
      [1, 1],
    ]);
    expect(table("rnp", true)).toEqual([
      [1, 2],
      [2, 3],
      [2, 3],
      [2, 3],
      [1, 1],
    ]);
    expect(table("pmt", true)).toEqual([
      [1, 2],
      [2, 3],
      [2, 3],
      [2, 3],
      [1, 1],
    ]);
    expect(table("dnd5e", false)).toEqual([
      [1, 2],
      [2, 3],
      [2, 3],
      [2, 3],
      [1, 1],
    ]);
    expect(table("dnd5e", true)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
      [2, 3],
      [1, 1],
    ]);
    // Flags default to false.
    expect(movementCostPerMetre("dnd5e", "climb")).toBe(2);
    expect(movementCostPerMetre("dnd5e", "climb", true)).toBe(3);
  });
  it("movementCost is metres × the cost per metre; 0 m costs 0", () => {
    expect(movementCost("rnp", { metres: 10, action: "climb", difficult: true })).toBe(30);
    expect(movementCost("dnd5e", { metres: 4.5, action: "swim", hasSpeed: true })).toBe(4.5);
    expect(movementCost("rnp", { metres: 0, action: "crawl" })).toBe(0);
  });
  it("refuses bad input, naming it", () => {
    throwsError(() => movementCostPerMetre("rnp", "fly" as never), "UnknownValue", {
      name: "action",
      value: "fly",
      allowed: ACTIONS,
    });
    throwsError(() => movementCostPerMetre("rnp", "walk", "yes" as never), "UnknownValue", {
      name: "difficult",
      value: "yes",
      allowed: BOOL,
    });
    throwsError(() => movementCostPerMetre("rnp", "walk", false, 1 as never), "UnknownValue", {
      name: "hasSpeed",
      value: "1",
      allowed: BOOL,
    });
    throwsError(() => movementCost("rnp", null as never), "Missing", { name: "options" });
    throwsError(() => movementCost("rnp", "walk" as never), "Missing", { name: "options" });
    throwsError(() => movementCost("rnp", { metres: -1, action: "walk" }), "Negative", { name: "metres", value: -1 });
  });
});

describe("jumps (docs/rules.md §3.2)", () => {
  it("long jump: rnp 0.3 × score, dnd5e score / 3; half standing; the run-up counts from 3 m", () => {
    expect(longJump("rnp", { strength: 15, runUp: true })).toBe(4.5);
    expect(longJump("rnp", { strength: 15, runUp: false })).toBe(2.25);
    expect(longJump("rnp", { strength: 15, runUp: 3 })).toBe(4.5);
    expect(longJump("rnp", { strength: 15, runUp: 2.9 })).toBe(2.25);
    expect(longJump("dnd5e", { strength: 15, runUp: 10 })).toBe(5);
    expect(longJump("dnd5e", { strength: 15, runUp: 0 })).toBe(2.5);
    expect(longJump("ose", { strength: 1000, runUp: true })).toBe(300);
    expect(longJump("rnp", { strength: 0, runUp: true })).toBe(0);
  });
  it("high jump: rnp 1 + 0.3 × modifier, dnd5e 1 + modifier / 3, never below 0; half standing", () => {
    expect(highJump("rnp", { strengthMod: 3, runUp: true })).toBe(1.9);
    expect(highJump("rnp", { strengthMod: 3, runUp: false })).toBe(0.95);
    expect(highJump("rnp", { strengthMod: -5, runUp: true })).toBe(0);
    expect(highJump("rnp", { strengthMod: -3, runUp: true })).toBe(0.1);
    expect(highJump("dnd5e", { strengthMod: 3, runUp: true })).toBe(2);
    expect(highJump("dnd5e", { strengthMod: -3, runUp: true })).toBe(0);
    expect(highJump("dnd5e", { strengthMod: -4, runUp: false })).toBe(0);
    expect(highJump("dnd5e", { strengthMod: 0, runUp: false })).toBe(0.5);
    expect(highJump("rnp", { strengthMod: -1000, runUp: true })).toBe(0);
  });
  it("reach: the high jump + 1.5 × height; obstacle: a quarter of the long jump", () => {
    expect(jumpReach("rnp", { strengthMod: 0, runUp: true, height: 1.8 })).toBe(3.7);
    expect(jumpReach("dnd5e", { strengthMod: 3, runUp: false, height: 2 })).toBe(4);
    expect(jumpObstacleMax(4.5)).toBe(1.125);
    expect(jumpObstacleMax(0)).toBe(0);
  });
  it("too long: more than the long jump, not the long jump itself", () => {
    expect(jumpTooLong("rnp", { strength: 10, runUp: true, metres: 3 })).toBe(false);
    expect(jumpTooLong("rnp", { strength: 10, runUp: true, metres: 3.01 })).toBe(true);
    expect(jumpTooLong("rnp", { strength: 10, runUp: false, metres: 1.6 })).toBe(true);
  });
  it("refuses bad input, naming it", () => {
    throwsError(() => longJump("rnp", { strength: 15 } as never), "Missing", { name: "runUp" });
    throwsError(() => longJump("rnp", { strength: 15, runUp: -1 }), "Negative", { name: "runUp", value: -1 });
    throwsError(() => longJump("rnp", { strength: 15, runUp: "yes" as never }), "UnknownValue", {
      name: "runUp",
      value: "yes",
      allowed: BOOL,
    });
    throwsError(() => longJump("rnp", { strength: -1, runUp: true }), "Negative", { name: "strength", value: -1 });
    throwsError(() => longJump("rnp", { strength: 1001, runUp: true }), "OutOfRange", {
      name: "strength",
      value: 1001,
      min: 0,
      max: 1000,
    });
    throwsError(() => longJump("rnp", null as never), "Missing", { name: "options" });
    throwsError(() => highJump("rnp", null as never), "Missing", { name: "options" });
    throwsError(() => highJump("rnp", { strengthMod: 1001, runUp: true }), "OutOfRange", {
      name: "strengthMod",
      value: 1001,
      min: -1000,
      max: 1000,
    });
    throwsError(() => highJump("rnp", { strengthMod: -1001, runUp: true }), "OutOfRange", {
      name: "strengthMod",
      value: -1001,
      min: -1000,
      max: 1000,
    });
    throwsError(() => jumpReach("rnp", null as never), "Missing", { name: "options" });
    throwsError(() => jumpReach("rnp", { strengthMod: 0, runUp: true, height: -1 }), "Negative", {
      name: "height",
      value: -1,
    });
    throwsError(() => jumpObstacleMax(-1), "Negative", { name: "longJumpMetres", value: -1 });
    throwsError(() => jumpTooLong("rnp", null as never), "Missing", { name: "options" });
    throwsError(() => jumpTooLong("rnp", { strength: 10, runUp: true, metres: -1 }), "Negative", {
      name: "metres",
      value: -1,
    });
  });
});

describe("falls (docs/rules.md §4.1)", () => {
  it("1d6 per full 3 m, at most 20d6; ose at most 1000", () => {
    expect([0, 2.99, 3, 5.99, 6, 9, 59.99, 60, 63, 1000].map((m) => fallDice(m))).toEqual([
      0, 0, 1, 1, 2, 3, 19, 20, 20, 20,
    ]);
    expect([2.99, 3, 63, 3000, 3003].map((m) => fallDice(m, "ose"))).toEqual([0, 1, 21, 1000, 1000]);
    expect(fallDice(8.999999999999998)).toBe(3);
    expect(fallDice(8.999)).toBe(2);
  });
  it("the formula, or null without dice", () => {
    expect(fallFormula(2.99)).toBe(null);
    expect(fallFormula(3)).toBe("1d6");
    expect(fallFormula(9, "ose")).toBe("3d6");
    expect(fallFormula(100, "dnd5e")).toBe("20d6");
    expect(fallFormula(100, "ose")).toBe("33d6");
  });
  it("the rule of each game", () => {
    expect(fallRules("ose")).toBe(OSE_FALL_RULES);
    for (const rs of ["rnp", "dnd5e", "pmt", "polaris"] as const) expect(fallRules(rs)).toBe(FALL_RULES);
    throwsError(() => fallDice(-3), "Negative", { name: "metres", value: -3 });
    throwsError(() => fallDice(3, "gurps" as never), "UnknownRuleset", { value: "gurps" });
  });
});

describe("speeds and budgets", () => {
  const speeds = { walk: 9, climb: 12, swim: 6, fly: 18 };
  it("hasSpeedFor: a climbing or swimming speed above 0; never for walk, crawl, jump", () => {
    expect((["walk", "climb", "swim", "crawl", "jump"] as const).map((a) => hasSpeedFor(speeds, a))).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(hasSpeedFor({ walk: 9, climb: 0, swim: 0 }, "climb")).toBe(false);
    expect(hasSpeedFor({ walk: 9, climb: 0, swim: 0 }, "swim")).toBe(false);
  });
  it("movementBudget: the walking speed, or the action's own speed when higher", () => {
    expect((["walk", "climb", "swim", "crawl", "jump", "fly"] as const).map((a) => movementBudget(speeds, a))).toEqual([
      9, 12, 9, 9, 9, 18,
    ]);
    expect(movementBudget({ walk: 9, climb: 3, swim: 10 }, "swim")).toBe(10);
    // A higher swimming or climbing speed does not raise the budget of other actions.
    for (const a of ["walk", "crawl", "jump"] as const)
      expect(movementBudget({ walk: 9, climb: 11, swim: 10, fly: 12 }, a)).toBe(9);
    expect(movementBudget({ walk: 9, climb: 3, swim: 10 }, "climb")).toBe(9);
    expect(movementBudget({ walk: 9, climb: 3, swim: 10 }, "fly")).toBe(9);
    expect(movementBudget({ walk: 9, climb: 3, swim: 10, fly: 6 }, "fly")).toBe(9);
  });
  it("usualSpeed: the walking speed, else the fastest other", () => {
    expect(usualSpeed(speeds)).toBe(9);
    expect(usualSpeed({ walk: 0, climb: 3, swim: 6, fly: 18 })).toBe(18);
    expect(usualSpeed({ walk: 0, climb: 9, swim: 6 })).toBe(9);
    expect(usualSpeed({ walk: 0, climb: 3, swim: 6 })).toBe(6);
    expect(usualSpeed({ walk: 0, climb: 0, swim: 0 })).toBe(0);
  });
  it("movementLeft: what is left, exceeded only below 0", () => {
    expect(movementLeft(9, 9)).toEqual({ left: 0, exceeded: false });
    expect(movementLeft(9, 9.5)).toEqual({ left: -0.5, exceeded: true });
    expect(movementLeft(9, 1.5)).toEqual({ left: 7.5, exceeded: false });
  });
  it("refuses bad speeds, naming the speed", () => {
    throwsError(() => hasSpeedFor(null as never, "climb"), "Missing", { name: "speeds" });
    throwsError(() => hasSpeedFor({ walk: 9, climb: -1, swim: 0 }, "climb"), "Negative", { name: "climb", value: -1 });
    throwsError(() => hasSpeedFor({ walk: 9, climb: 0, swim: -1 }, "swim"), "Negative", { name: "swim", value: -1 });
    throwsError(() => hasSpeedFor(speeds, "fly" as never), "UnknownValue", {
      name: "action",
      value: "fly",
      allowed: ACTIONS,
    });
    throwsError(() => movementBudget(null as never, "walk"), "Missing", { name: "speeds" });
    throwsError(() => movementBudget(speeds, "dig" as never), "UnknownValue", {
      name: "action",
      value: "dig",
      allowed: `${ACTIONS}, fly`,
    });
    throwsError(() => movementBudget({ ...speeds, walk: -1 }, "walk"), "Negative", { name: "walk", value: -1 });
    throwsError(() => movementBudget({ ...speeds, fly: -1 }, "fly"), "Negative", { name: "fly", value: -1 });
    throwsError(() => movementBudget({ ...speeds, climb: -1 }, "climb"), "Negative", { name: "climb", value: -1 });
    throwsError(() => movementBudget({ ...speeds, swim: -1 }, "swim"), "Negative", { name: "swim", value: -1 });
    throwsError(() => usualSpeed(null as never), "Missing", { name: "speeds" });
    throwsError(() => usualSpeed({ walk: -1, climb: 0, swim: 0 }), "Negative", { name: "walk", value: -1 });
    throwsError(() => usualSpeed({ walk: 0, climb: 0, swim: 0, fly: -1 }), "Negative", { name: "fly", value: -1 });
    throwsError(() => usualSpeed({ walk: 0, climb: 0, swim: -1 }), "Negative", { name: "swim", value: -1 });
    throwsError(() => usualSpeed({ walk: 0, climb: -1, swim: 0 }), "Negative", { name: "climb", value: -1 });
    throwsError(() => movementLeft(-1, 0), "Negative", { name: "budget", value: -1 });
    throwsError(() => movementLeft(1, -1), "Negative", { name: "spent", value: -1 });
  });
});
