import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  DIFFICULTIES,
  FAILURE_DEGREES,
  SUCCESS_DEGREES,
  POLARIS_DIFFICULTY_IDS,
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
  type PolarisDifficulty,
} from "../../src/rules/polaris.js";
import { errorKey } from "./helpers.js";

describe("Polaris difficulties (RULES.md §9.1)", () => {
  const table: [PolarisDifficulty, number, string][] = [
    ["extremelyEasy", 10, "Extrêmement facile"],
    ["veryEasy", 7, "Très facile"],
    ["easy", 5, "Facile"],
    ["fairlyEasy", 3, "Assez facile"],
    ["average", 0, "Moyen"],
    ["fairlyHard", -3, "Assez difficile"],
    ["hard", -5, "Difficile"],
    ["veryHard", -7, "Très difficile"],
    ["extremelyHard", -10, "Extrêmement difficile"],
    ["nearlyImpossible", -13, "Presque impossible"],
    ["superhuman", -15, "Surhumain"],
    ["heroic", -20, "Héroïque"],
  ];
  it("has exactly the 12 difficulties of the table, in order", () => {
    expect(Object.keys(DIFFICULTIES)).toEqual(table.map((r) => r[0]));
  });
  it.each(table)("%s is %i (%s)", (id, modifier, label) => {
    expect(DIFFICULTIES[id]).toEqual({ modifier, label });
    expect(polarisDifficultyModifier(id)).toBe(modifier);
  });
  it.each([
    ["extremelyEasy", 35],
    ["veryEasy", 32],
    ["easy", 30],
    ["fairlyEasy", 28],
    ["average", 25],
    ["fairlyHard", 22],
    ["hard", 20],
    ["veryHard", 18],
    ["extremelyHard", 15],
    ["nearlyImpossible", 12],
    ["superhuman", 10],
    ["heroic", 5],
  ] as [PolarisDifficulty, number][])("chance 25 at %s gives a final chance of %i", (difficulty, final) => {
    expect(polarisTest({ chance: 25, difficulty, roll: 2 }).finalChance).toBe(final);
  });
  it("takes a plain integer modifier", () => {
    expect(polarisTest({ chance: 12, difficulty: 2, roll: 3 }).finalChance).toBe(14);
    expect(polarisTest({ chance: 12, difficulty: -1, roll: 3 }).finalChance).toBe(11);
  });
});

describe("Polaris success and failure", () => {
  it("succeeds when the die is at most the final chance", () => {
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 10 })).toEqual({
      finalChance: 12,
      success: true,
      margin: 2,
      baseMargin: 2,
      criticalBonus: 0,
      degree: "justesse",
      modifier: 0,
      critical: null,
      automaticFailure: false,
    });
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 13 })).toEqual({
      finalChance: 12,
      success: false,
      margin: 1,
      baseMargin: 1,
      criticalBonus: 0,
      degree: "justesse",
      modifier: 0,
      critical: null,
      automaticFailure: false,
    });
  });
  it("applies the difficulty before comparing (Escalade, Difficile)", () => {
    const r = polarisTest({ chance: 14, difficulty: "hard", roll: 10 });
    expect(r.finalChance).toBe(9);
    expect(r.success).toBe(false);
    expect(r.margin).toBe(1);
  });
});

describe("Polaris degrees: every success band at both boundaries", () => {
  // die 1, difficulty 0: margin = chance − 1
  const bands: [number, string, number][] = [
    [1, "justesse", 0],
    [2, "justesse", 0],
    [3, "correct", 1],
    [4, "correct", 1],
    [5, "assezBon", 2],
    [6, "assezBon", 2],
    [7, "bon", 3],
    [9, "bon", 3],
    [10, "tresBon", 4],
    [12, "tresBon", 4],
    [13, "excellent", 5],
    [14, "excellent", 5],
    [15, "parfait", 6],
    [19, "parfait", 6],
    [20, "extraordinaire", 7],
    [24, "extraordinaire", 7],
    [25, "heroique", 8],
    [34, "heroique", 8],
    [35, "legendaire", 9],
    [60, "legendaire", 9],
  ];
  it.each(bands)("margin of success %i → %s %i", (margin, degree, modifier) => {
    const r = polarisTest({ chance: margin + 1, difficulty: 0, roll: 1 });
    expect(r.success).toBe(true);
    expect(r.margin).toBe(margin);
    expect(r.degree).toBe(degree);
    expect(r.modifier).toBe(modifier);
    expect(r.critical).toBeNull();
    expect(polarisDegree(true, margin)).toMatchObject({ degree, modifier });
  });
  it("a margin of 0 is the critical success at De justesse", () => {
    expect(polarisDegree(true, 0)).toEqual({ degree: "justesse", modifier: 0, label: "De justesse" });
  });
  it("the table has the ten rows of RULES.md", () => {
    expect(SUCCESS_DEGREES.map((b) => [b.min, b.max, b.label, b.modifier])).toEqual([
      [0, 2, "De justesse", 0],
      [3, 4, "Correct", 1],
      [5, 6, "Assez bon", 2],
      [7, 9, "Bon", 3],
      [10, 12, "Très bon", 4],
      [13, 14, "Excellent", 5],
      [15, 19, "Parfait", 6],
      [20, 24, "Extraordinaire", 7],
      [25, 34, "Héroïque", 8],
      [35, null, "Légendaire", 9],
    ]);
  });
});

describe("Polaris degrees: every failure band at both boundaries", () => {
  const bands: [number, string, number][] = [
    [1, "justesse", 0],
    [2, "justesse", 0],
    [3, "mediocre", -1],
    [4, "mediocre", -1],
    [5, "assezMauvais", -2],
    [6, "assezMauvais", -2],
    [7, "mauvais", -3],
    [9, "mauvais", -3],
    [10, "tresMauvais", -4],
    [12, "tresMauvais", -4],
    [13, "execrable", -5],
    [14, "execrable", -5],
    [15, "catastrophique", -6],
    [19, "catastrophique", -6],
    [20, "catastrophique", -7],
    [24, "catastrophique", -7],
    [25, "catastrophique", -8],
    [34, "catastrophique", -8],
    [35, "catastrophique", -9],
    [50, "catastrophique", -9],
  ];
  it.each(bands)("margin of failure %i → %s %i", (margin, degree, modifier) => {
    expect(polarisDegree(false, margin)).toMatchObject({ degree, modifier });
  });
  // A rolled (non-automatic) failure has final ≥ 1 and die ≤ 20, so its margin is at most 19.
  it.each(bands.filter((b) => b[0] <= 19))("a rolled failure by %i → %s %i", (margin, degree, modifier) => {
    const r = polarisTest({ chance: 1, difficulty: 0, roll: 1 + margin });
    expect(r.success).toBe(false);
    expect(r.automaticFailure).toBe(false);
    expect(r.margin).toBe(margin);
    expect(r.degree).toBe(degree);
    expect(r.modifier).toBe(modifier);
  });
  it("the table has the rows of RULES.md", () => {
    expect(FAILURE_DEGREES.map((b) => [b.min, b.max, b.label, b.modifier])).toEqual([
      [1, 2, "De justesse", 0],
      [3, 4, "Médiocre", -1],
      [5, 6, "Assez mauvais", -2],
      [7, 9, "Mauvais", -3],
      [10, 12, "Très mauvais", -4],
      [13, 14, "Exécrable", -5],
      [15, 19, "Catastrophique", -6],
      [20, 24, "Catastrophique", -7],
      [25, 34, "Catastrophique", -8],
      [35, null, "Catastrophique", -9],
    ]);
  });
  it("rejects a failure margin of 0 and negative or fractional margins", () => {
    expect(errorKey(() => polarisDegree(false, 0))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => polarisDegree(true, -1))).toBe("AVENTURE.Error.Negative");
    expect(errorKey(() => polarisDegree(true, 1.5))).toBe("AVENTURE.Error.NotAnInteger");
    expect(errorKey(() => polarisDegree("yes" as never, 1))).toBe("AVENTURE.Error.UnknownValue");
  });
});

describe("Polaris criticals (Decision)", () => {
  it("a die equal to the final chance is a critical success at De justesse, margin 0", () => {
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 12 })).toEqual({
      finalChance: 12,
      success: true,
      margin: 0,
      baseMargin: 0,
      criticalBonus: 0,
      degree: "justesse",
      modifier: 0,
      critical: "success",
      automaticFailure: false,
    });
    expect(polarisTest({ chance: 6, difficulty: "hard", roll: 1 })).toMatchObject({
      finalChance: 1,
      success: true,
      margin: 0,
      critical: "success",
    });
  });
  it("a natural 20 with a final chance below 20 is a critical failure", () => {
    expect(polarisTest({ chance: 15, difficulty: "average", roll: 20 })).toEqual({
      finalChance: 15,
      success: false,
      margin: 5,
      baseMargin: 5,
      criticalBonus: 0,
      degree: "assezMauvais",
      modifier: -2,
      critical: "failure",
      automaticFailure: false,
    });
    expect(polarisTest({ chance: 16, difficulty: "fairlyEasy", roll: 20 })).toMatchObject({
      finalChance: 19,
      success: false,
      margin: 1,
      critical: "failure",
    });
  });
  it("a natural 20 with a final chance of 20 or more is a critical success", () => {
    expect(polarisTest({ chance: 20, difficulty: "average", roll: 20 })).toMatchObject({
      finalChance: 20,
      success: true,
      margin: 0,
      degree: "justesse",
      critical: "success",
    });
    expect(polarisTest({ chance: 15, difficulty: "extremelyEasy", roll: 20 })).toEqual({
      finalChance: 25,
      success: true,
      margin: 5,
      baseMargin: 5,
      criticalBonus: 0,
      degree: "assezBon",
      modifier: 2,
      critical: "success",
      automaticFailure: false,
    });
  });
  it("other dice are not critical", () => {
    expect(polarisTest({ chance: 15, difficulty: "average", roll: 1 }).critical).toBeNull();
    expect(polarisTest({ chance: 15, difficulty: "average", roll: 19 }).critical).toBeNull();
  });
});

describe("Polaris automatic failure", () => {
  it("a final chance below 1 fails; with a secret difficulty the die is the margin of failure", () => {
    expect(polarisTest({ chance: 5, difficulty: "hard", roll: 7, secret: true })).toEqual({
      finalChance: 0,
      success: false,
      margin: 7,
      baseMargin: 7,
      criticalBonus: 0,
      degree: "mauvais",
      modifier: -3,
      critical: null,
      automaticFailure: true,
    });
  });
  it("even a die of 1 fails", () => {
    expect(polarisTest({ chance: 5, difficulty: "heroic", roll: 1, secret: true })).toMatchObject({
      finalChance: -15,
      success: false,
      margin: 1,
      degree: "justesse",
      modifier: 0,
      automaticFailure: true,
    });
  });
  it("(Decision) without a secret difficulty the die is the margin too", () => {
    expect(polarisTest({ chance: 5, difficulty: "hard", roll: 7 })).toEqual({
      finalChance: 0,
      success: false,
      margin: 7,
      baseMargin: 7,
      criticalBonus: 0,
      degree: "mauvais",
      modifier: -3,
      critical: null,
      automaticFailure: true,
    });
    expect(polarisTest({ chance: 5, difficulty: "hard", roll: 7, secret: false })).toEqual(
      polarisTest({ chance: 5, difficulty: "hard", roll: 7, secret: true }),
    );
  });
  it("a natural 20 on an automatic failure is a critical failure with margin 20 (Catastrophique −7)", () => {
    expect(polarisTest({ chance: 2, difficulty: "veryHard", roll: 20, secret: true })).toEqual({
      finalChance: -5,
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
  it("a skill at level X cannot be tested: automatic failure, no final chance, the die is the margin", () => {
    expect(polarisTest({ chance: "X", difficulty: "extremelyEasy", roll: 4 })).toEqual({
      finalChance: null,
      success: false,
      margin: 4,
      baseMargin: 4,
      criticalBonus: 0,
      degree: "mediocre",
      modifier: -1,
      critical: null,
      automaticFailure: true,
    });
  });
});

describe("Polaris: a critical success improves the margin (RULES.md §9.1)", () => {
  it("a skill test adds the mastery level: chance 12, Moyen, die 12, mastery 4 → margin 4, Correct +1", () => {
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 12, mastery: 4 })).toEqual({
      finalChance: 12,
      success: true,
      margin: 4,
      baseMargin: 0,
      criticalBonus: 4,
      degree: "correct",
      modifier: 1,
      critical: "success",
      automaticFailure: false,
    });
  });
  it("a natural 20 with a final chance of 20 or more is improved too (25 − 20 = 5, + mastery 3 = 8, Bon +3)", () => {
    expect(polarisTest({ chance: 15, difficulty: "extremelyEasy", roll: 20, mastery: 3 })).toMatchObject({
      margin: 8,
      baseMargin: 5,
      criticalBonus: 3,
      degree: "bon",
      modifier: 3,
    });
  });
  it("an attribute test adds half the attribute's level, rounded down", () => {
    expect(
      polarisTest({ chance: 14, difficulty: "average", roll: 14, kind: "attribute", attributeLevel: 14 }),
    ).toMatchObject({
      margin: 7,
      baseMargin: 0,
      criticalBonus: 7,
      degree: "bon",
      modifier: 3,
    });
    expect(
      polarisTest({ chance: 15, difficulty: "average", roll: 15, kind: "attribute", attributeLevel: 15 }),
    ).toMatchObject({
      margin: 7,
      criticalBonus: 7,
    });
    expect(
      polarisTest({ chance: 11, difficulty: "average", roll: 11, kind: "attribute", attributeLevel: 11, mastery: 9 })
        .criticalBonus,
    ).toBe(5);
  });
  it("the bonus may be overridden", () => {
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 12, mastery: 4, criticalBonus: 10 })).toMatchObject({
      margin: 10,
      criticalBonus: 10,
      degree: "tresBon",
      modifier: 4,
    });
    expect(
      polarisTest({ chance: 12, difficulty: "average", roll: 12, kind: "attribute", criticalBonus: 2 }).margin,
    ).toBe(2);
  });
  it("only a critical success is improved", () => {
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 10, mastery: 4 })).toMatchObject({
      margin: 2,
      baseMargin: 2,
      criticalBonus: 0,
    });
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 20, mastery: 4 })).toMatchObject({
      margin: 8,
      criticalBonus: 0,
      critical: "failure",
    });
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 10, kind: "attribute" }).margin).toBe(2); // no level needed
  });
  it("(Decision) a negative level adds nothing", () => {
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 12, mastery: -3 })).toMatchObject({
      margin: 0,
      criticalBonus: 0,
    });
    expect(
      polarisTest({ chance: 3, difficulty: "average", roll: 3, kind: "attribute", attributeLevel: -2 }).criticalBonus,
    ).toBe(0);
  });
  it("rejects a critical attribute test without its level, and bad values", () => {
    expect(errorKey(() => polarisTest({ chance: 14, difficulty: "average", roll: 14, kind: "attribute" }))).toBe(
      "AVENTURE.Error.Missing",
    );
    expect(errorKey(() => polarisTest({ chance: 14, difficulty: "average", roll: 14, kind: "power" as never }))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(errorKey(() => polarisTest({ chance: 14, difficulty: "average", roll: 3, mastery: 1.5 }))).toBe(
      "AVENTURE.Error.NotAnInteger",
    );
    expect(errorKey(() => polarisTest({ chance: 14, difficulty: "average", roll: 3, criticalBonus: -1 }))).toBe(
      "AVENTURE.Error.Negative",
    );
    expect(
      errorKey(() => polarisTest({ chance: 14, difficulty: "average", roll: 3, attributeLevel: Number.NaN })),
    ).toBe("AVENTURE.Error.NotANumber");
    expect(errorKey(() => polarisTest({ chance: 1000, difficulty: "average", roll: 3 }))).toBe(
      "AVENTURE.Error.OutOfRange",
    );
  });
  it("margin = baseMargin + criticalBonus, and the degree reads the improved margin (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -30, max: 40 }),
        fc.constantFrom(...POLARIS_DIFFICULTY_IDS),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: -5, max: 20 }),
        fc.integer({ min: -5, max: 30 }),
        fc.constantFrom("skill", "attribute" as const),
        (chance, difficulty, roll, mastery, attributeLevel, kind) => {
          const r = polarisTest({ chance, difficulty, roll, mastery, attributeLevel, kind });
          expect(r.margin).toBe(r.baseMargin + r.criticalBonus);
          expect(r.criticalBonus === 0 || r.critical === "success").toBe(true);
          expect(r.criticalBonus).toBeGreaterThanOrEqual(0);
          if (!r.automaticFailure)
            expect(polarisDegree(r.success, r.margin)).toMatchObject({ degree: r.degree, modifier: r.modifier });
        },
      ),
    );
  });
});

describe("Polaris: harder on purpose (RULES.md §9.1)", () => {
  it("moves the difficulty along the table", () => {
    expect(harderDifficulty("average", 1)).toBe("fairlyHard");
    expect(harderDifficulty("average", 2)).toBe("hard");
    expect(harderDifficulty("hard", -2)).toBe("average");
    expect(harderDifficulty("average", 0)).toBe("average");
  });
  it("stops at Extrêmement facile and Héroïque", () => {
    expect(harderDifficulty("heroic", 1)).toBe("heroic");
    expect(harderDifficulty("superhuman", 5)).toBe("heroic");
    expect(harderDifficulty("extremelyEasy", -1)).toBe("extremelyEasy");
    expect(harderDifficulty("average", 100)).toBe("heroic");
  });
  it("rejects a plain modifier and bad steps", () => {
    expect(errorKey(() => harderDifficulty(-3 as never, 1))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => harderDifficulty("malaisee" as never, 1))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => harderDifficulty("average", 1.5))).toBe("AVENTURE.Error.NotAnInteger");
    expect(errorKey(() => harderDifficulty("average", Number.NaN))).toBe("AVENTURE.Error.NotANumber");
  });
});

describe("Polaris countdowns (RULES.md §9.1)", () => {
  const mediocre = polarisTest({ chance: 10, difficulty: "average", roll: 13 }); // failure by 3
  const catastrophe = polarisTest({ chance: 1, difficulty: "average", roll: 16 }); // failure by 15
  const success = polarisTest({ chance: 10, difficulty: "average", roll: 5 });
  it("each attempt uses one", () => {
    expect(mediocre.degree).toBe("mediocre");
    expect(countdownLeft(3, [])).toEqual({ left: 3, succeeded: false, exhausted: false });
    expect(countdownLeft(3, [mediocre])).toEqual({ left: 2, succeeded: false, exhausted: false });
    expect(countdownLeft(3, [mediocre, mediocre, mediocre])).toEqual({ left: 0, succeeded: false, exhausted: true });
  });
  it("a catastrophe uses one more, or two (the GM's choice)", () => {
    expect(catastrophe.degree).toBe("catastrophique");
    expect(countdownLeft(4, [catastrophe])).toEqual({ left: 2, succeeded: false, exhausted: false });
    expect(countdownLeft(4, [catastrophe], 2)).toEqual({ left: 1, succeeded: false, exhausted: false });
    expect(countdownLeft(3, [mediocre, catastrophe])).toEqual({ left: 0, succeeded: false, exhausted: true });
  });
  it("never goes below 0", () => {
    expect(countdownLeft(2, [catastrophe], 2)).toEqual({ left: 0, succeeded: false, exhausted: true });
    expect(countdownLeft(1, [mediocre, mediocre, catastrophe])).toEqual({ left: 0, succeeded: false, exhausted: true });
  });
  it("a success ends it", () => {
    expect(countdownLeft(3, [mediocre, success])).toEqual({ left: 1, succeeded: true, exhausted: false });
    expect(countdownLeft(1, [success])).toEqual({ left: 0, succeeded: true, exhausted: false });
    expect(countdownLeft(3, [success, catastrophe])).toEqual({ left: 2, succeeded: true, exhausted: false });
  });
  it("rejects bad input", () => {
    expect(errorKey(() => countdownLeft(0, []))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => countdownLeft(3, [], 3))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => countdownLeft(3, null as never))).toBe("AVENTURE.Error.Missing");
    expect(errorKey(() => countdownLeft(3, [{ success: false, degree: "oops" } as never]))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(errorKey(() => countdownLeft(3, [{} as never]))).toBe("AVENTURE.Error.Missing");
  });
});

describe("Polaris retries", () => {
  it("cumulates −1 per new attempt, or −3 when pressed; the first attempt is free", () => {
    expect(Object.is(retryPenalty(1), 0)).toBe(true);
    expect(Object.is(retryPenalty(1, true), 0)).toBe(true);
    expect(retryPenalty(2)).toBe(-1);
    expect(retryPenalty(3)).toBe(-2);
    expect(retryPenalty(5, false)).toBe(-4);
    expect(retryPenalty(2, true)).toBe(-3);
    expect(retryPenalty(3, true)).toBe(-6);
  });
  it("rejects attempt 0, fractional attempts and a non-boolean pressed", () => {
    expect(errorKey(() => retryPenalty(0))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => retryPenalty(1.5))).toBe("AVENTURE.Error.NotAnInteger");
    expect(errorKey(() => retryPenalty(Number.NaN))).toBe("AVENTURE.Error.NotANumber");
    expect(errorKey(() => retryPenalty(2, "yes" as never))).toBe("AVENTURE.Error.UnknownValue");
  });
  it("the penalty lowers the final chance", () => {
    expect(polarisTest({ chance: 12, difficulty: "average", roll: 10, retryPenalty: -2 })).toMatchObject({
      finalChance: 10,
      success: true,
      margin: 0,
      critical: "success",
    });
    expect(polarisTest({ chance: 12, difficulty: "fairlyHard", roll: 10, retryPenalty: -3 })).toMatchObject({
      finalChance: 6,
      success: false,
      margin: 4,
      degree: "mediocre",
    });
    expect(polarisTest({ chance: 6, difficulty: "hard", roll: 3, retryPenalty: -1 })).toMatchObject({
      finalChance: 0,
      automaticFailure: true,
      margin: 3,
    });
  });
  it("rejects a positive or fractional retry penalty", () => {
    expect(errorKey(() => polarisTest({ chance: 12, difficulty: "average", roll: 10, retryPenalty: 1 }))).toBe(
      "AVENTURE.Error.OutOfRange",
    );
    expect(errorKey(() => polarisTest({ chance: 12, difficulty: "average", roll: 10, retryPenalty: -0.5 }))).toBe(
      "AVENTURE.Error.NotAnInteger",
    );
  });
});

describe("Polaris test: invalid input", () => {
  it("rejects a die outside 1..20 or not an integer", () => {
    for (const roll of [0, 21, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "5" as never]) {
      expect(errorKey(() => polarisTest({ chance: 12, difficulty: "average", roll }))).toBe("AVENTURE.Error.BadDie");
    }
  });
  it("rejects a bad chance", () => {
    expect(errorKey(() => polarisTest({ chance: Number.NaN, difficulty: "average", roll: 3 }))).toBe(
      "AVENTURE.Error.NotANumber",
    );
    expect(errorKey(() => polarisTest({ chance: 12.5, difficulty: "average", roll: 3 }))).toBe(
      "AVENTURE.Error.NotAnInteger",
    );
    expect(errorKey(() => polarisTest({ chance: "Y" as never, difficulty: "average", roll: 3 }))).toBe(
      "AVENTURE.Error.NotANumber",
    );
    expect(errorKey(() => polarisTest({ chance: undefined as never, difficulty: "average", roll: 3 }))).toBe(
      "AVENTURE.Error.NotANumber",
    );
  });
  it("rejects an unknown difficulty or a bad modifier", () => {
    expect(errorKey(() => polarisTest({ chance: 12, difficulty: "impossible" as never, roll: 3 }))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(errorKey(() => polarisTest({ chance: 12, difficulty: undefined as never, roll: 3 }))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(errorKey(() => polarisTest({ chance: 12, difficulty: Number.NaN, roll: 3 }))).toBe(
      "AVENTURE.Error.NotANumber",
    );
    expect(errorKey(() => polarisTest({ chance: 12, difficulty: 1.5, roll: 3 }))).toBe("AVENTURE.Error.NotAnInteger");
  });
  it("rejects a non-boolean secret and a missing input", () => {
    expect(errorKey(() => polarisTest({ chance: 12, difficulty: "average", roll: 3, secret: "yes" as never }))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(errorKey(() => polarisTest(undefined as never))).toBe("AVENTURE.Error.Missing");
  });
});

describe("Polaris test: properties", () => {
  const difficulty = fc.oneof(
    fc.constantFrom(...(Object.keys(DIFFICULTIES) as PolarisDifficulty[])),
    fc.integer({ min: -25, max: 25 }),
  );
  const input = fc.record({
    chance: fc.integer({ min: -10, max: 40 }),
    difficulty,
    roll: fc.integer({ min: 1, max: 20 }),
    secret: fc.boolean(),
    retryPenalty: fc.integer({ min: -12, max: 0 }),
  });
  it("succeeds iff die ≤ final chance, except automatic failures (final < 1)", () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = polarisTest(i);
        const final = r.finalChance!;
        expect(r.automaticFailure).toBe(final < 1);
        expect(r.success).toBe(final >= 1 && i.roll <= final);
        expect(Number.isInteger(r.margin) && r.margin >= 0).toBe(true);
        if (r.automaticFailure) expect(r.margin).toBe(i.roll);
        else expect(r.margin).toBe(Math.abs(final - i.roll));
      }),
    );
  });
  it("the degree modifier's sign follows success", () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = polarisTest(i);
        if (r.success) expect(r.modifier).toBeGreaterThanOrEqual(0);
        else expect(r.modifier).toBeLessThanOrEqual(0);
        if (r.critical === "success") expect(r.success).toBe(true);
        if (r.critical === "failure") expect(r.success).toBe(false);
      }),
    );
  });
  it("the degree is monotone in the margin", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 80 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const sLo = SUCCESS_DEGREES.findIndex((d) => d.degree === polarisDegree(true, lo).degree);
        const sHi = SUCCESS_DEGREES.findIndex((d) => d.degree === polarisDegree(true, hi).degree);
        expect(sHi).toBeGreaterThanOrEqual(sLo);
        expect(polarisDegree(true, hi).modifier).toBeGreaterThanOrEqual(polarisDegree(true, lo).modifier);
        if (lo >= 1) {
          expect(polarisDegree(false, hi).modifier).toBeLessThanOrEqual(polarisDegree(false, lo).modifier);
        }
      }),
    );
  });
});

describe("Polaris action phases (RULES.md §9.2)", () => {
  const party: PolarisCombatant[] = [
    { id: "a", initiative: 12, reaction: 14 },
    { id: "b", initiative: 9, reaction: 10 },
    { id: "c", initiative: 9, reaction: 12 },
    { id: "d", initiative: 5, reaction: 8 },
  ];
  it("has as many phases as the highest initiative, counting down; higher Réaction first", () => {
    const r = polarisPhases(party);
    expect(r.phases).toBe(12);
    expect(r.order.map((p) => p.phase)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(r.order.filter((p) => p.ids.length > 0)).toEqual([
      { phase: 12, ids: ["a"] },
      { phase: 9, ids: ["c", "b"] },
      { phase: 5, ids: ["d"] },
    ]);
    expect(r.order.find((p) => p.phase === 11)).toEqual({ phase: 11, ids: [] });
  });
  it("declares intentions in increasing initiative (ties: lower Réaction first)", () => {
    expect(polarisPhases(party).declarationOrder).toEqual(["d", "b", "c", "a"]);
  });
  it("keeps the input order on equal phase and Réaction", () => {
    const r = polarisPhases([
      { id: "x", initiative: 7, reaction: 10 },
      { id: "y", initiative: 7, reaction: 10 },
      { id: "z", initiative: 7, reaction: 11 },
    ]);
    expect(r.order).toEqual([
      { phase: 7, ids: ["z", "x", "y"] },
      ...[6, 5, 4, 3, 2, 1].map((phase) => ({ phase, ids: [] })),
    ]);
    expect(r.declarationOrder).toEqual(["x", "y", "z"]);
  });
  it("hasten gives +3 initiative this round and can raise the number of phases", () => {
    const r = polarisPhases([...party.slice(0, 3), { id: "d", initiative: 11, reaction: 8, hasten: true }]);
    expect(r.phases).toBe(14);
    expect(r.order[0]).toEqual({ phase: 14, ids: ["d"] });
    expect(r.order.find((p) => p.phase === 12)).toEqual({ phase: 12, ids: ["a"] });
    expect(polarisActingPhase({ id: "d", initiative: 11, reaction: 8, hasten: true })).toBe(14);
    // declarations use the initiative before hastening
    expect(r.declarationOrder).toEqual(["b", "c", "d", "a"]);
  });
  it("hasten into a shared phase is ordered by Réaction", () => {
    const r = polarisPhases([
      { id: "a", initiative: 12, reaction: 14 },
      { id: "d", initiative: 9, reaction: 18, hasten: true },
    ]);
    expect(r.order[0]).toEqual({ phase: 12, ids: ["d", "a"] });
  });
  it("delay moves the action to a later (lower) phase without lowering the phase count", () => {
    const r = polarisPhases([{ ...party[0]!, delayTo: 5 }, ...party.slice(1)]);
    expect(r.phases).toBe(12);
    expect(r.order[0]).toEqual({ phase: 12, ids: [] });
    expect(r.order.find((p) => p.phase === 5)).toEqual({ phase: 5, ids: ["a", "d"] });
    expect(polarisActingPhase({ id: "b", initiative: 9, reaction: 10, delayTo: 1 })).toBe(1);
  });
  it("rejects a delay to the same or an earlier phase, or below 1", () => {
    for (const delayTo of [9, 10, 0, -1]) {
      expect(errorKey(() => polarisPhases([{ id: "b", initiative: 9, reaction: 10, delayTo }]))).toBe(
        "AVENTURE.Error.OutOfRange",
      );
    }
    expect(errorKey(() => polarisPhases([{ id: "b", initiative: 9, reaction: 10, delayTo: 2.5 }]))).toBe(
      "AVENTURE.Error.NotAnInteger",
    );
    // hastened to 12: 11 is later, 12 is not
    expect(polarisActingPhase({ id: "b", initiative: 9, reaction: 10, hasten: true, delayTo: 11 })).toBe(11);
    expect(
      errorKey(() => polarisActingPhase({ id: "b", initiative: 9, reaction: 10, hasten: true, delayTo: 12 })),
    ).toBe("AVENTURE.Error.OutOfRange");
    // initiative 1 (or less) already acts last: no later phase exists
    expect(errorKey(() => polarisActingPhase({ id: "e", initiative: 1, reaction: 10, delayTo: 1 }))).toBe(
      "AVENTURE.Error.OutOfRange",
    );
  });
  it("(Decision) an initiative of 0 or less acts at phase 1, after initiative 1, by initiative then Réaction", () => {
    const r = polarisPhases([
      { id: "e", initiative: 0, reaction: 20 },
      { id: "g", initiative: -2, reaction: 30 },
      { id: "f", initiative: 1, reaction: 5 },
      { id: "h", initiative: 0, reaction: 25 },
    ]);
    expect(r.phases).toBe(1);
    expect(r.order).toEqual([{ phase: 1, ids: ["f", "h", "e", "g"] }]);
    expect(r.declarationOrder).toEqual(["g", "e", "h", "f"]);
    expect(polarisPhases([{ id: "z", initiative: -4, reaction: 3 }])).toEqual({
      phases: 1,
      order: [{ phase: 1, ids: ["z"] }],
      declarationOrder: ["z"],
    });
  });
  it("gives a comparator for a combat tracker: phase descending, then Réaction descending", () => {
    const list: PolarisCombatant[] = [
      { id: "d", initiative: 5, reaction: 8 },
      { id: "b", initiative: 9, reaction: 10 },
      { id: "a", initiative: 12, reaction: 14, delayTo: 2 },
      { id: "c", initiative: 9, reaction: 12 },
      { id: "e", initiative: 4, reaction: 1, hasten: true },
    ];
    expect([...list].sort(comparePolaris).map((c) => c.id)).toEqual(["c", "b", "e", "d", "a"]);
    expect(comparePolaris({ id: "x", initiative: 3, reaction: 2 }, { id: "y", initiative: 3, reaction: 2 })).toBe(0);
  });
  it("rejects invalid combatants", () => {
    expect(errorKey(() => polarisPhases([]))).toBe("AVENTURE.Error.EmptyParty");
    expect(errorKey(() => polarisPhases(undefined as never))).toBe("AVENTURE.Error.EmptyParty");
    expect(errorKey(() => polarisPhases([{ id: "", initiative: 3, reaction: 2 }]))).toBe("AVENTURE.Error.Missing");
    expect(errorKey(() => polarisPhases([{ initiative: 3, reaction: 2 } as never]))).toBe("AVENTURE.Error.Missing");
    expect(errorKey(() => polarisPhases([{ id: "a", initiative: Number.NaN, reaction: 2 }]))).toBe(
      "AVENTURE.Error.NotANumber",
    );
    expect(errorKey(() => polarisPhases([{ id: "a", initiative: 3.5, reaction: 2 }]))).toBe(
      "AVENTURE.Error.NotAnInteger",
    );
    expect(errorKey(() => polarisPhases([{ id: "a", initiative: 3, reaction: Number.POSITIVE_INFINITY }]))).toBe(
      "AVENTURE.Error.NotANumber",
    );
    expect(errorKey(() => polarisPhases([{ id: "a", initiative: 3, reaction: 2, hasten: 1 as never }]))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(
      errorKey(() =>
        polarisPhases([
          { id: "a", initiative: 3, reaction: 2 },
          { id: "a", initiative: 4, reaction: 2 },
        ]),
      ),
    ).toBe("AVENTURE.Error.UnknownValue");
  });
  it("properties: everyone acts exactly once, in comparator order, at a phase in 1..phases", () => {
    const combatant = fc.record({
      initiative: fc.integer({ min: -3, max: 25 }),
      reaction: fc.integer({ min: 0, max: 25 }),
      hasten: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(combatant, { minLength: 1, maxLength: 12 }), (raw) => {
        const list: PolarisCombatant[] = raw.map((c, i) => ({ id: `c${i}`, ...c }));
        const r = polarisPhases(list);
        const eff = list.map((c) => c.initiative + (c.hasten ? 3 : 0));
        expect(r.phases).toBe(Math.max(1, ...eff));
        expect(r.order.length).toBe(r.phases);
        const flat = r.order.flatMap((p) => p.ids);
        expect([...flat].sort()).toEqual(list.map((c) => c.id).sort());
        expect(flat).toEqual([...list].sort(comparePolaris).map((c) => c.id));
        for (const p of r.order) {
          for (const id of p.ids) expect(polarisActingPhase(list.find((c) => c.id === id)!)).toBe(p.phase);
        }
        const byId = new Map(list.map((c) => [c.id, c]));
        for (let k = 1; k < r.declarationOrder.length; k++) {
          expect(byId.get(r.declarationOrder[k]!)!.initiative).toBeGreaterThanOrEqual(
            byId.get(r.declarationOrder[k - 1]!)!.initiative,
          );
        }
      }),
    );
  });
});
