/**
 * The argument checks of the rules engine (num, nonNeg, oneOf, bool): what they let through, and the whole error they
 * throw otherwise (its key, the argument's name, its value, the bounds or the allowed values the message shows).
 */
import { describe, expect, it } from "vitest";
import { bool, nonNeg, num, oneOf } from "../../src/rules/index.js";
import type { NumberConstraints } from "../../src/rules/index.js";
import { throwsError } from "./helpers.js";

const CONSTRAINTS = "{ min?: number, max?: number, integer?: boolean }";

describe("num", () => {
  it("returns the number itself within its bounds, the bounds included", () => {
    expect(num("x", 2, { min: 2, max: 5 })).toBe(2);
    expect(num("x", 5, { min: 2, max: 5 })).toBe(5);
    expect(num("x", 0, { min: 0 })).toBe(0);
    expect(num("x", -7.5)).toBe(-7.5);
    expect(num("x", -7.5, {})).toBe(-7.5);
    expect(num("x", 1.5, { integer: false })).toBe(1.5);
    expect(num("x", 3, { integer: true })).toBe(3);
  });
  it("refuses constraints that are not { min?, max?, integer? }", () => {
    const bad: [unknown, string][] = [
      [null, "null"],
      ["min", "min"],
      [{ min: "1" }, "[object Object]"],
      [{ max: "1" }, "[object Object]"],
      [{ integer: 1 }, "[object Object]"],
    ];
    for (const [c, shown] of bad) {
      throwsError(() => num("x", 1, c as NumberConstraints), "UnknownValue", {
        name: "constraints",
        value: shown,
        allowed: CONSTRAINTS,
      });
    }
  });
  it("refuses what is not a finite number, naming the argument and showing the value", () => {
    throwsError(() => num("speed", Number.NaN), "NotANumber", { name: "speed", value: "NaN" });
    throwsError(() => num("speed", Number.POSITIVE_INFINITY), "NotANumber", { name: "speed", value: "Infinity" });
    throwsError(() => num("speed", "3"), "NotANumber", { name: "speed", value: "3" });
    throwsError(() => num("speed", undefined), "NotANumber", { name: "speed", value: "undefined" });
  });
  it("refuses a fraction where an integer is asked", () => {
    throwsError(() => num("count", 2.5, { integer: true, min: 0 }), "NotAnInteger", { name: "count", value: 2.5 });
  });
  it("says Negative for a value below a minimum of 0, OutOfRange for any other minimum", () => {
    throwsError(() => num("hours", -1, { min: 0, max: 24 }), "Negative", { name: "hours", value: -1 });
    throwsError(() => num("hours", -0.5, { min: 0 }), "Negative", { name: "hours", value: -0.5 });
    throwsError(() => num("mod", -11, { min: -10, max: 10 }), "OutOfRange", {
      name: "mod",
      value: -11,
      min: -10,
      max: 10,
    });
    throwsError(() => num("die", 0, { min: 1, max: 6 }), "OutOfRange", { name: "die", value: 0, min: 1, max: 6 });
    // A negative value above a negative minimum is fine.
    expect(num("mod", -5, { min: -10 })).toBe(-5);
  });
  it("refuses a value above the maximum, the missing bound shown as ∞", () => {
    throwsError(() => num("die", 7, { min: 1, max: 6 }), "OutOfRange", { name: "die", value: 7, min: 1, max: 6 });
    throwsError(() => num("hp", 5, { max: 3 }), "OutOfRange", { name: "hp", value: 5, min: "-∞", max: 3 });
    throwsError(() => num("hp", 1, { min: 2 }), "OutOfRange", { name: "hp", value: 1, min: 2, max: "∞" });
    throwsError(() => num("hp", 1, { min: 2, max: Number.POSITIVE_INFINITY }), "OutOfRange", {
      name: "hp",
      value: 1,
      min: 2,
      max: "Infinity",
    });
  });
  it("shows a name that is not a string as text", () => {
    throwsError(() => num(7 as unknown as string, "a"), "NotANumber", { name: "7", value: "a" });
  });
});

describe("nonNeg", () => {
  it("lets 0 and more through and says Negative below", () => {
    expect(nonNeg("d", 0)).toBe(0);
    expect(nonNeg("d", 1e6)).toBe(1e6);
    throwsError(() => nonNeg("d", -0.1), "Negative", { name: "d", value: -0.1 });
    throwsError(() => nonNeg("d", "1"), "NotANumber", { name: "d", value: "1" });
  });
});

describe("oneOf", () => {
  it("returns an allowed value", () => {
    expect(oneOf("pace", "slow", ["fast", "normal", "slow"])).toBe("slow");
  });
  it("refuses another value, listing the allowed ones", () => {
    throwsError(() => oneOf("pace", "crawl", ["fast", "normal", "slow"]), "UnknownValue", {
      name: "pace",
      value: "crawl",
      allowed: "fast, normal, slow",
    });
    throwsError(() => oneOf("pace", 1, ["fast"]), "UnknownValue", { name: "pace", value: "1", allowed: "fast" });
    throwsError(() => oneOf("pace", ["fast"], ["fast"]), "UnknownValue", {
      name: "pace",
      value: "fast",
      allowed: "fast",
    });
    // Only a string is an allowed value, even if the list holds something else.
    throwsError(() => oneOf("n", 1, [1, 2] as never), "UnknownValue", { name: "n", value: "1", allowed: "1, 2" });
  });
  it("refuses a list of allowed values that is not a list", () => {
    throwsError(() => oneOf("pace", "fast", "fast" as unknown as string[]), "Missing", { name: "allowed" });
  });
});

describe("bool", () => {
  it("returns the boolean given, the fallback for undefined", () => {
    expect(bool("b", true, false)).toBe(true);
    expect(bool("b", false, true)).toBe(false);
    expect(bool("b", undefined, true)).toBe(true);
    expect(bool("b", undefined, false)).toBe(false);
  });
  it("refuses anything else, and a fallback that is not a boolean", () => {
    throwsError(() => bool("secret", null, false), "UnknownValue", {
      name: "secret",
      value: "null",
      allowed: "true, false",
    });
    throwsError(() => bool("secret", "true", false), "UnknownValue", {
      name: "secret",
      value: "true",
      allowed: "true, false",
    });
    throwsError(() => bool("secret", true, "no" as unknown as boolean), "UnknownValue", {
      name: "fallback",
      value: "no",
      allowed: "true, false",
    });
  });
});
