import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  FALL_RULES,
  JUMP_CHECKS,
  JUMP_RULES,
  MOVEMENT_ACTIONS,
  MOVEMENT_COSTS,
  MOVEMENT_HARD_CONDITIONS,
  MOVEMENT_HARD_CONDITION_CHECKS,
  RULESETS,
  fallDice,
  fallFormula,
  highJump,
  jumpObstacleMax,
  jumpReach,
  longJump,
  movementCost,
  movementCostPerMetre,
} from "../../src/rules/index.js";
import { throwsKey } from "./helpers.js";

const FALLBACKS = ["pmt", "ose", "polaris"] as const;

describe("movement costs (RULES.md §3.1)", () => {
  it("walking costs 1 m per metre, 2 in difficult terrain", () => {
    for (const r of RULESETS) {
      expect(movementCostPerMetre(r, "walk")).toBe(1);
      expect(movementCostPerMetre(r, "walk", false, false)).toBe(1);
      expect(movementCostPerMetre(r, "walk", true)).toBe(2);
      expect(movementCost(r, { metres: 9, action: "walk" })).toBe(9);
      expect(movementCost(r, { metres: 9, action: "walk", difficult: true })).toBe(18);
    }
  });

  it("climbing, swimming and crawling cost 1 extra metre, 1 more in difficult terrain (additive: 3, not 4)", () => {
    for (const r of RULESETS) {
      for (const a of ["climb", "swim", "crawl"] as const) {
        expect(movementCostPerMetre(r, a, false, false)).toBe(2);
        expect(movementCostPerMetre(r, a, true, false)).toBe(3);
      }
      expect(movementCost(r, { metres: 3, action: "climb", difficult: true })).toBe(9);
      expect(movementCost(r, { metres: 4.5, action: "swim" })).toBe(9);
      expect(movementCost(r, { metres: 1.5, action: "crawl", difficult: true })).toBe(4.5);
    }
  });

  it("dnd5e: a climbing or swimming speed waives the extra cost, not the difficult terrain", () => {
    expect(movementCostPerMetre("dnd5e", "climb", false, true)).toBe(1);
    expect(movementCostPerMetre("dnd5e", "swim", false, true)).toBe(1);
    expect(movementCostPerMetre("dnd5e", "climb", true, true)).toBe(2);
    expect(movementCostPerMetre("dnd5e", "swim", true, true)).toBe(2);
    expect(movementCost("dnd5e", { metres: 6, action: "climb", hasSpeed: true })).toBe(6);
    // swimming without a swim speed: 2 m per metre
    expect(movementCost("dnd5e", { metres: 6, action: "swim", hasSpeed: false })).toBe(12);
  });

  it("dnd5e: crawling always costs the extra metre", () => {
    expect(movementCostPerMetre("dnd5e", "crawl", false, true)).toBe(2);
    expect(movementCostPerMetre("dnd5e", "crawl", true, true)).toBe(3);
  });

  it("rnp and the fallback rulesets have no speed waiver", () => {
    for (const r of ["rnp", ...FALLBACKS] as const) {
      expect(movementCostPerMetre(r, "climb", false, true)).toBe(2);
      expect(movementCostPerMetre(r, "swim", true, true)).toBe(3);
    }
  });

  it("a jump costs 1 m per metre jumped, difficult terrain or not (Decision)", () => {
    for (const r of RULESETS) {
      expect(movementCostPerMetre(r, "jump")).toBe(1);
      expect(movementCostPerMetre(r, "jump", true, true)).toBe(1);
      expect(movementCost(r, { metres: 4.5, action: "jump", difficult: true })).toBe(4.5);
    }
  });

  it("has one table row per action", () => {
    expect(Object.keys(MOVEMENT_COSTS).sort()).toEqual([...MOVEMENT_ACTIONS].sort());
  });

  it("flags the hard conditions without rolling", () => {
    expect([...MOVEMENT_HARD_CONDITIONS]).toEqual(["hardClimb", "icyWater", "strongCurrent", "narrowDuct"]);
    expect(MOVEMENT_HARD_CONDITION_CHECKS.hardClimb.action).toBe("climb");
    expect(MOVEMENT_HARD_CONDITION_CHECKS.icyWater.action).toBe("swim");
    expect(MOVEMENT_HARD_CONDITION_CHECKS.strongCurrent.action).toBe("swim");
    expect(MOVEMENT_HARD_CONDITION_CHECKS.narrowDuct.action).toBe("crawl");
    for (const c of MOVEMENT_HARD_CONDITIONS) {
      const check = MOVEMENT_HARD_CONDITION_CHECKS[c];
      expect(check.ability).toBe("str");
      expect(check.skill).toBe("ath");
      expect(check.discretionary).toBe(true);
      expect(check.automatic).toBe(false);
    }
  });

  it("rejects invalid input", () => {
    throwsKey(() => movementCost("rnp", { metres: -1, action: "walk" }), "AVENTURE.Error.Negative");
    throwsKey(() => movementCost("rnp", { metres: Number.NaN, action: "walk" }), "AVENTURE.Error.NotANumber");
    throwsKey(() => movementCost("rnp", { metres: Infinity, action: "walk" }), "AVENTURE.Error.NotANumber");
    throwsKey(() => movementCost("rnp", { metres: 1, action: "fly" as never }), "AVENTURE.Error.UnknownValue");
    throwsKey(() => movementCost("rnp", { metres: 1 } as never), "AVENTURE.Error.UnknownValue");
    throwsKey(() => movementCost("rnp", undefined as never), "AVENTURE.Error.Missing");
    throwsKey(() => movementCost("gurps" as never, { metres: 1, action: "walk" }), "AVENTURE.Error.UnknownRuleset");
    throwsKey(() => movementCostPerMetre("rnp", "teleport" as never), "AVENTURE.Error.UnknownValue");
    throwsKey(() => movementCostPerMetre("rnp", "walk", "yes" as never), "AVENTURE.Error.UnknownValue");
    throwsKey(() => movementCostPerMetre("rnp", "walk", false, 1 as never), "AVENTURE.Error.UnknownValue");
    throwsKey(() => movementCostPerMetre("x" as never, "walk"), "AVENTURE.Error.UnknownRuleset");
  });

  it("cost is never below the distance and is monotone in distance (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RULESETS),
        fc.constantFrom(...MOVEMENT_ACTIONS),
        fc.boolean(),
        fc.boolean(),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (r, action, difficult, hasSpeed, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const cLo = movementCost(r, { metres: lo, action, difficult, hasSpeed });
          const cHi = movementCost(r, { metres: hi, action, difficult, hasSpeed });
          expect(cLo).toBeGreaterThanOrEqual(lo);
          expect(cHi).toBeGreaterThanOrEqual(cLo);
          expect(cLo).toBe(lo * movementCostPerMetre(r, action, difficult, hasSpeed));
          // difficult terrain never makes anything cheaper; a speed never makes anything dearer
          expect(movementCostPerMetre(r, action, true, hasSpeed)).toBeGreaterThanOrEqual(
            movementCostPerMetre(r, action, false, hasSpeed),
          );
          expect(movementCostPerMetre(r, action, difficult, true)).toBeLessThanOrEqual(
            movementCostPerMetre(r, action, difficult, false),
          );
        },
      ),
    );
  });
});

describe("jumps (RULES.md §3.2)", () => {
  it("rnp long jump: 0.3 m × Strength score, half standing", () => {
    expect(longJump("rnp", { strength: 15, runUp: true })).toBe(4.5);
    expect(longJump("rnp", { strength: 15, runUp: false })).toBe(2.25);
    expect(longJump("rnp", { strength: 10, runUp: true })).toBe(3);
    expect(longJump("rnp", { strength: 10, runUp: false })).toBe(1.5);
    expect(longJump("rnp", { strength: 13, runUp: true })).toBe(3.9);
    expect(longJump("rnp", { strength: 18, runUp: true })).toBe(5.4);
    expect(longJump("rnp", { strength: 0, runUp: true })).toBe(0);
  });

  it("dnd5e long jump: Strength score / 3 m (seed 001 literally), half standing", () => {
    expect(longJump("dnd5e", { strength: 15, runUp: true })).toBe(5);
    expect(longJump("dnd5e", { strength: 15, runUp: false })).toBe(2.5);
    expect(longJump("dnd5e", { strength: 18, runUp: true })).toBe(6);
    expect(longJump("dnd5e", { strength: 18, runUp: false })).toBe(3);
    expect(longJump("dnd5e", { strength: 10, runUp: true })).toBeCloseTo(3.333333333, 8);
    expect(longJump("dnd5e", { strength: 10, runUp: false })).toBeCloseTo(1.666666667, 8);
  });

  it("a run-up needs at least 3 m when given in metres", () => {
    expect(longJump("rnp", { strength: 15, runUp: 3 })).toBe(4.5);
    expect(longJump("rnp", { strength: 15, runUp: 10 })).toBe(4.5);
    expect(longJump("rnp", { strength: 15, runUp: 2.99 })).toBe(2.25);
    expect(longJump("rnp", { strength: 15, runUp: 0 })).toBe(2.25);
    expect(highJump("dnd5e", { strengthMod: 3, runUp: 3 })).toBe(2);
    expect(highJump("dnd5e", { strengthMod: 3, runUp: 1.5 })).toBe(1);
  });

  it("rnp high jump: 1 m + 0.3 × Strength modifier, half standing, clamped at 0 (Decision)", () => {
    expect(highJump("rnp", { strengthMod: 2, runUp: true })).toBe(1.6);
    expect(highJump("rnp", { strengthMod: 2, runUp: false })).toBe(0.8);
    expect(highJump("rnp", { strengthMod: 0, runUp: true })).toBe(1);
    expect(highJump("rnp", { strengthMod: 0, runUp: false })).toBe(0.5);
    expect(highJump("rnp", { strengthMod: -1, runUp: true })).toBe(0.7);
    expect(highJump("rnp", { strengthMod: -3, runUp: true })).toBe(0.1);
    expect(highJump("rnp", { strengthMod: -4, runUp: true })).toBe(0);
    expect(highJump("rnp", { strengthMod: -5, runUp: false })).toBe(0);
  });

  it("dnd5e high jump: 1 m + Strength modifier / 3, minimum 0, half standing", () => {
    expect(highJump("dnd5e", { strengthMod: 2, runUp: true })).toBeCloseTo(1.666666667, 8);
    expect(highJump("dnd5e", { strengthMod: 2, runUp: false })).toBeCloseTo(0.833333333, 8);
    expect(highJump("dnd5e", { strengthMod: 3, runUp: true })).toBe(2);
    expect(highJump("dnd5e", { strengthMod: 3, runUp: false })).toBe(1);
    expect(highJump("dnd5e", { strengthMod: 0, runUp: true })).toBe(1);
    expect(highJump("dnd5e", { strengthMod: -3, runUp: true })).toBe(0);
    expect(highJump("dnd5e", { strengthMod: -5, runUp: true })).toBe(0);
    expect(highJump("dnd5e", { strengthMod: -5, runUp: false })).toBe(0);
  });

  it("reach while jumping: jump height + 1.5 × height", () => {
    expect(jumpReach("rnp", { strengthMod: 2, height: 1.8, runUp: true })).toBe(4.3);
    expect(jumpReach("rnp", { strengthMod: 2, height: 1.8, runUp: false })).toBe(3.5);
    expect(jumpReach("dnd5e", { strengthMod: 3, height: 1.8, runUp: true })).toBe(4.7);
    expect(jumpReach("dnd5e", { strengthMod: 2, height: 1.8, runUp: true })).toBeCloseTo(4.366666667, 8);
    expect(jumpReach("dnd5e", { strengthMod: -5, height: 1.8, runUp: true })).toBe(2.7);
  });

  it("obstacle: up to a quarter of the long jump", () => {
    expect(jumpObstacleMax(4.5)).toBe(1.125);
    expect(jumpObstacleMax(6)).toBe(1.5);
    expect(jumpObstacleMax(0)).toBe(0);
  });

  it("checks: DC 10 for obstacle and landing; rnp's DCs are a Decision", () => {
    for (const r of RULESETS) {
      expect(JUMP_CHECKS[r].obstacle.dc).toBe(10);
      expect(JUMP_CHECKS[r].landing.dc).toBe(10);
      expect(JUMP_CHECKS[r].obstacle).toMatchObject({
        ability: "str",
        skill: "ath",
        discretionary: true,
        onFailure: "hitsObstacle",
      });
      expect(JUMP_CHECKS[r].landing).toMatchObject({ ability: "dex", skill: "acr", onFailure: "prone" });
    }
    expect(JUMP_CHECKS.dnd5e.landing.dcFrom).toBe("source");
    expect(JUMP_CHECKS.dnd5e.obstacle.dcFrom).toBe("source");
    expect(JUMP_CHECKS.rnp.landing.dcFrom).toBe("decision");
  });

  it("pmt, ose and polaris fall back to the rnp jumps", () => {
    for (const r of FALLBACKS) {
      expect(JUMP_RULES[r].source).toBe("rnp");
      expect(longJump(r, { strength: 15, runUp: true })).toBe(4.5);
      expect(highJump(r, { strengthMod: 2, runUp: false })).toBe(0.8);
    }
  });

  it("rejects invalid input", () => {
    throwsKey(() => longJump("rnp", { strength: -1, runUp: true }), "AVENTURE.Error.Negative");
    throwsKey(() => longJump("rnp", { strength: Number.NaN, runUp: true }), "AVENTURE.Error.NotANumber");
    throwsKey(() => longJump("rnp", { strength: 15 } as never), "AVENTURE.Error.Missing");
    throwsKey(() => longJump("rnp", { strength: 15, runUp: "yes" as never }), "AVENTURE.Error.UnknownValue");
    throwsKey(() => longJump("rnp", { strength: 15, runUp: -3 }), "AVENTURE.Error.Negative");
    throwsKey(() => longJump("rnp", null as never), "AVENTURE.Error.Missing");
    throwsKey(() => longJump("dd" as never, { strength: 15, runUp: true }), "AVENTURE.Error.UnknownRuleset");
    throwsKey(() => highJump("rnp", { strengthMod: Infinity, runUp: true }), "AVENTURE.Error.NotANumber");
    throwsKey(() => highJump("rnp", { strengthMod: "2" as never, runUp: true }), "AVENTURE.Error.NotANumber");
    throwsKey(() => jumpReach("rnp", { strengthMod: 2, height: -1.8, runUp: true }), "AVENTURE.Error.Negative");
    throwsKey(() => jumpReach("rnp", { strengthMod: 2, runUp: true } as never), "AVENTURE.Error.NotANumber");
    throwsKey(() => jumpObstacleMax(-1), "AVENTURE.Error.Negative");
    throwsKey(() => jumpObstacleMax(Number.NaN), "AVENTURE.Error.NotANumber");
  });

  it("jumps are never negative, standing ≤ run-up, monotone in Strength (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RULESETS),
        fc.double({ min: 0, max: 30, noNaN: true }),
        fc.double({ min: -10, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        (r, strength, strengthMod, height) => {
          const longRun = longJump(r, { strength, runUp: true });
          const longStand = longJump(r, { strength, runUp: false });
          const highRun = highJump(r, { strengthMod, runUp: true });
          const highStand = highJump(r, { strengthMod, runUp: false });
          for (const v of [longRun, longStand, highRun, highStand]) expect(v).toBeGreaterThanOrEqual(0);
          expect(longStand).toBeLessThanOrEqual(longRun);
          expect(highStand).toBeLessThanOrEqual(highRun);
          expect(longJump(r, { strength: strength + 1, runUp: true })).toBeGreaterThanOrEqual(longRun);
          expect(highJump(r, { strengthMod: strengthMod + 1, runUp: true })).toBeGreaterThanOrEqual(highRun);
          expect(jumpReach(r, { strengthMod, height, runUp: true })).toBeGreaterThanOrEqual(highRun);
          expect(jumpObstacleMax(longRun)).toBeLessThanOrEqual(longRun);
        },
      ),
    );
  });
});

describe("falls (RULES.md §4.1)", () => {
  it("1d6 per full 3 m, maximum 20d6, none below 3 m", () => {
    expect(fallDice(0)).toBe(0);
    expect(fallDice(2.99)).toBe(0);
    expect(fallDice(3)).toBe(1);
    expect(fallDice(5.9)).toBe(1);
    expect(fallDice(6)).toBe(2);
    expect(fallDice(8.999)).toBe(2);
    expect(fallDice(9)).toBe(3);
    expect(fallDice(57)).toBe(19);
    expect(fallDice(59.99)).toBe(19);
    expect(fallDice(60)).toBe(20);
    expect(fallDice(100)).toBe(20);
    expect(fallDice(1e7)).toBe(20);
  });

  it("absorbs floating-point noise", () => {
    expect(fallDice(0.3 * 30)).toBe(3); // 9.000000000000002
    expect(fallDice(3 * 2.9999999999999996)).toBe(3); // 8.999999999999998
    expect(fallDice(0.1 + 0.2 + 2.7)).toBe(1); // 3.0000000000000004 or 2.9999999999999996
  });

  it("formats the formula", () => {
    expect(fallFormula(2.99)).toBeNull();
    expect(fallFormula(0)).toBeNull();
    expect(fallFormula(3)).toBe("1d6");
    expect(fallFormula(9)).toBe("3d6");
    expect(fallFormula(100)).toBe("20d6");
  });

  it("exports the rule as data", () => {
    expect(FALL_RULES).toEqual({
      metresPerDie: 3,
      faces: 6,
      maxDice: 20,
      damageType: "bludgeoning",
      proneOnDamage: true,
    });
  });

  it("rejects invalid input", () => {
    throwsKey(() => fallDice(-1), "AVENTURE.Error.Negative");
    throwsKey(() => fallDice(Number.NaN), "AVENTURE.Error.NotANumber");
    throwsKey(() => fallDice(Infinity), "AVENTURE.Error.NotANumber");
    throwsKey(() => fallFormula(-0.5), "AVENTURE.Error.Negative");
  });

  it("dice stay between 0 and 20 and grow with the height (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const dLo = fallDice(lo);
          expect(Number.isInteger(dLo)).toBe(true);
          expect(dLo).toBeGreaterThanOrEqual(0);
          expect(dLo).toBeLessThanOrEqual(20);
          expect(fallDice(hi)).toBeGreaterThanOrEqual(dLo);
          expect(fallFormula(lo)).toBe(dLo === 0 ? null : `${dLo}d6`);
        },
      ),
    );
  });
});

describe("movement budget and jump length check (ruler helpers)", () => {
  const speeds = { walk: 9, climb: 0, swim: 6 };
  it("has a speed of its own only for climbing or swimming with such a speed", async () => {
    const { hasSpeedFor } = await import("../../src/rules/index.js");
    expect(hasSpeedFor(speeds, "swim")).toBe(true);
    expect(hasSpeedFor(speeds, "climb")).toBe(false);
    expect(hasSpeedFor({ walk: 9, climb: 9, swim: 0 }, "walk")).toBe(false);
    throwsKey(() => hasSpeedFor(speeds, "fly" as never), "AVENTURE.Error.UnknownValue");
  });
  it("the budget is the walking speed, or a higher climbing / swimming speed", async () => {
    const { movementBudget } = await import("../../src/rules/index.js");
    expect(movementBudget(speeds, "walk")).toBe(9);
    expect(movementBudget(speeds, "swim")).toBe(9);
    expect(movementBudget({ walk: 6, climb: 9, swim: 0 }, "climb")).toBe(9);
    expect(movementBudget(speeds, "jump")).toBe(9);
    // Flying: the flying speed when it is higher (Decision), else walking; no flying speed = walking.
    expect(movementBudget({ walk: 9, climb: 0, swim: 0, fly: 18 }, "fly")).toBe(18);
    expect(movementBudget({ walk: 9, climb: 0, swim: 0, fly: 3 }, "fly")).toBe(9);
    expect(movementBudget(speeds, "fly")).toBe(9);
    throwsKey(() => movementBudget(speeds, "burrow" as never), "AVENTURE.Error.UnknownValue");
    throwsKey(() => movementBudget({ walk: -1, climb: 0, swim: 0 }, "walk"), "AVENTURE.Error.Negative");
  });
  it("the usual speed is the walking speed, or the fastest other speed of a creature that does not walk", async () => {
    const { usualSpeed } = await import("../../src/rules/index.js");
    expect(usualSpeed({ walk: 9, climb: 0, swim: 0, fly: 24 })).toBe(9); // a dragon chases on foot unless told
    expect(usualSpeed({ walk: 0, climb: 0, swim: 0, fly: 48 })).toBe(48); // a hawk only flies
    expect(usualSpeed({ walk: 0, climb: 0, swim: 24 })).toBe(24); // a whale only swims
    expect(usualSpeed({ walk: 0, climb: 0, swim: 0 })).toBe(0);
    throwsKey(() => usualSpeed({ walk: 0, climb: 0, swim: 0, fly: -1 }), "AVENTURE.Error.Negative");
    throwsKey(() => usualSpeed({ walk: Number.NaN, climb: 0, swim: 0 }), "AVENTURE.Error.NotANumber");
  });
  it("movement left goes negative beyond the budget", async () => {
    const { movementLeft } = await import("../../src/rules/index.js");
    expect(movementLeft(9, 6)).toEqual({ left: 3, exceeded: false });
    expect(movementLeft(9, 9)).toEqual({ left: 0, exceeded: false });
    expect(movementLeft(9, 10.5)).toEqual({ left: -1.5, exceeded: true });
    throwsKey(() => movementLeft(9, Number.NaN), "AVENTURE.Error.NotANumber");
  });
  it("a jump longer than the long jump is too long (rnp Str 15: 4.5 m with run-up, 2.25 m standing)", async () => {
    const { jumpTooLong } = await import("../../src/rules/index.js");
    expect(jumpTooLong("rnp", { strength: 15, runUp: true, metres: 4.5 })).toBe(false);
    expect(jumpTooLong("rnp", { strength: 15, runUp: true, metres: 4.6 })).toBe(true);
    expect(jumpTooLong("rnp", { strength: 15, runUp: 1.5, metres: 3 })).toBe(true);
    expect(jumpTooLong("dnd5e", { strength: 15, runUp: 3, metres: 5 })).toBe(false);
    throwsKey(() => jumpTooLong("rnp", { strength: 15, runUp: true, metres: -1 }), "AVENTURE.Error.Negative");
  });
  it("property: the budget is never below the walking speed", async () => {
    const { movementBudget } = await import("../../src/rules/index.js");
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.constantFrom(...MOVEMENT_ACTIONS),
        (walk, other, action) => {
          expect(movementBudget({ walk, climb: other, swim: other }, action)).toBeGreaterThanOrEqual(walk);
        },
      ),
    );
  });
});
