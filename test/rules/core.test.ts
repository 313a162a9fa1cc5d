import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  RulesError,
  fixedDice,
  fromMetres,
  recordingDice,
  roundSeconds,
  seededDice,
  toMetres,
  turnSeconds,
} from "../../src/rules/index.js";

describe("time (RULES.md §1)", () => {
  it("gives the round of each ruleset", () => {
    expect(roundSeconds("rnp")).toBe(6);
    expect(roundSeconds("dnd5e")).toBe(6);
    expect(roundSeconds("pmt")).toBe(10);
    expect(roundSeconds("ose")).toBe(10);
    expect(roundSeconds("polaris")).toBe(6);
  });
  it("gives the turn: 10 min = 60 rounds in pmt and ose, none elsewhere", () => {
    expect(turnSeconds("pmt")).toBe(600);
    expect(turnSeconds("ose")).toBe(60 * roundSeconds("ose"));
    expect(turnSeconds("rnp")).toBeNull();
    expect(turnSeconds("dnd5e")).toBeNull();
    expect(turnSeconds("polaris")).toBeNull();
  });
  it("rejects an unknown ruleset with a localized error", () => {
    expect(() => roundSeconds("gurps" as never)).toThrow(RulesError);
    try {
      turnSeconds("gurps" as never);
    } catch (e) {
      expect((e as RulesError).key).toBe("AVENTURE.Error.UnknownRuleset");
    }
  });
});

describe("units", () => {
  it("uses the French 5e convention by default", () => {
    expect(toMetres(5, "ft")).toBe(1.5);
    expect(toMetres(30, "ft")).toBe(9);
    expect(toMetres(1, "mi")).toBe(1500);
    expect(toMetres(2.5, "km")).toBe(2500);
    expect(fromMetres(9, "ft")).toBe(30);
  });
  it("takes an overriding factor", () => {
    expect(toMetres(10, "ft", 0.3048)).toBeCloseTo(3.048, 9);
    expect(fromMetres(1609.344, "mi", 1609.344)).toBe(1);
  });
  it("rejects NaN, infinities and unknown units", () => {
    expect(() => toMetres(Number.NaN, "ft")).toThrow(RulesError);
    expect(() => toMetres(Number.POSITIVE_INFINITY, "m")).toThrow(RulesError);
    expect(() => toMetres(1, "yd" as never)).toThrow(/UnknownValue/);
    expect(() => toMetres(1, "ft", 0)).toThrow(RulesError);
  });
  it("round-trips (property)", () => {
    fc.assert(
      // Within ±6000 units: at most 9,000 km in miles, inside the 10,000 km bound.
      fc.property(
        fc.double({ min: -6000, max: 6000, noNaN: true }),
        fc.constantFrom("m", "ft", "km", "mi" as const),
        (v, u) => {
          expect(fromMetres(toMetres(v, u), u)).toBeCloseTo(v, 6);
        },
      ),
    );
  });
});

describe("dice", () => {
  it("fixed dice give their results in order and throw when exhausted", async () => {
    const d = fixedDice([3, 6, 1]);
    expect(await d.roll(2, 6)).toEqual([3, 6]);
    expect(await d.roll(1, 6)).toEqual([1]);
    await expect(d.roll(1, 6)).rejects.toThrow(/DiceExhausted/);
  });
  it("fixed dice refuse a result that does not fit the die", async () => {
    await expect(fixedDice([7]).roll(1, 6)).rejects.toThrow(/BadDie/);
  });
  it("seeded dice are reproducible and in range", async () => {
    const a = await seededDice(42).roll(50, 6);
    const b = await seededDice(42).roll(50, 6);
    expect(a).toEqual(b);
    expect(a.every((x) => x >= 1 && x <= 6)).toBe(true);
  });
  it("recording dice keep a log", async () => {
    const d = recordingDice(fixedDice([4, 2]));
    await d.roll(2, 6, "surprise");
    expect(d.log).toEqual([{ count: 2, faces: 6, reason: "surprise", results: [4, 2] }]);
  });
});
