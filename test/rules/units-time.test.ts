/**
 * Units (docs/rules.md, units: the French 5e convention, 5 ft = 1.5 m, 1 mile = 1.5 km) and time (§1): edges and the
 * whole errors the user reads (key and data), so that a wrong bound or a wrong argument name is caught.
 */
import { describe, expect, it } from "vitest";
import { clean, fromMetres, parseUnit, splitDuration, toMetres } from "../../src/rules/index.js";
import { throwsError } from "./helpers.js";

const UNITS = "m, ft, km, mi";

describe("splitDuration (docs/rules.md §1): 0 to 1000 days", () => {
  it("splits into days, hours, minutes and seconds", () => {
    expect(splitDuration(0)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
    expect(splitDuration(90_061)).toEqual({ days: 1, hours: 1, minutes: 1, seconds: 1 });
    expect(splitDuration(86_399.6)).toEqual({ days: 1, hours: 0, minutes: 0, seconds: 0 });
    expect(splitDuration(1000 * 86_400)).toEqual({ days: 1000, hours: 0, minutes: 0, seconds: 0 });
  });
  it("names the argument and its bounds when refusing", () => {
    throwsError(() => splitDuration(1000 * 86_400 + 1), "OutOfRange", {
      name: "seconds",
      value: 86_400_001,
      min: 0,
      max: 86_400_000,
    });
    throwsError(() => splitDuration(-1), "Negative", { name: "seconds", value: -1 });
    throwsError(() => splitDuration(Number.NaN), "NotANumber", { name: "seconds", value: "NaN" });
  });
});

describe("units: conversions at their edges", () => {
  it("m and km keep their factor whatever the override", () => {
    expect(toMetres(1, "m", 5)).toBe(1);
    expect(toMetres(1, "km", 5)).toBe(1000);
    expect(fromMetres(1000, "km", 5)).toBe(1);
    expect(fromMetres(3, "m", 5)).toBe(3);
  });
  it("takes a factor from 1 µm to 1000 km per unit, and names it when out of range", () => {
    expect(toMetres(2, "ft", 1e-6)).toBe(2e-6);
    expect(toMetres(2, "mi", 1e6)).toBe(2e6);
    throwsError(() => toMetres(1, "ft", 0), "OutOfRange", { name: "factor", value: 0, min: 1e-6, max: 1e6 });
    throwsError(() => fromMetres(1, "mi", 1e6 + 1), "OutOfRange", {
      name: "factor",
      value: 1e6 + 1,
      min: 1e-6,
      max: 1e6,
    });
    throwsError(() => toMetres(1, "ft", Number.NaN), "NotANumber", { name: "factor", value: "NaN" });
  });
  it("at most ±10,000 km, on both sides, in the unit given", () => {
    expect(toMetres(-10_000, "km")).toBe(-10_000_000);
    expect(toMetres(10_000, "km")).toBe(10_000_000);
    throwsError(() => toMetres(10_001, "km"), "OutOfRange", {
      name: "value",
      value: 10_001,
      min: -10_000,
      max: 10_000,
    });
    throwsError(() => toMetres(-10_001, "km"), "OutOfRange", {
      name: "value",
      value: -10_001,
      min: -10_000,
      max: 10_000,
    });
    expect(fromMetres(-10_000_000, "m")).toBe(-10_000_000);
    expect(fromMetres(10_000_000, "mi")).toBe(6666.666666667); // 10,000 km in miles, to 1e-9
    throwsError(() => fromMetres(10_000_001, "m"), "OutOfRange", {
      name: "metres",
      value: 10_000_001,
      min: -10_000_000,
      max: 10_000_000,
    });
    throwsError(() => fromMetres(-10_000_001, "ft"), "OutOfRange", {
      name: "metres",
      value: -10_000_001,
      min: -10_000_000,
      max: 10_000_000,
    });
  });
  it("names the unit and the allowed units when it is unknown", () => {
    throwsError(() => toMetres(1, "yd" as never), "UnknownValue", { name: "unit", value: "yd", allowed: UNITS });
    throwsError(() => fromMetres(1, "league" as never), "UnknownValue", {
      name: "unit",
      value: "league",
      allowed: UNITS,
    });
  });
  it("clean: rounds noise on both signs, leaves huge numbers of either sign as they are", () => {
    expect(clean(0.1 + 0.2)).toBe(0.3);
    expect(clean(-(0.1 + 0.2))).toBe(-0.3);
    expect(clean(1.5e-10)).toBe(0);
    expect(clean(2.0000000004)).toBe(2);
    expect(clean(-1e300)).toBe(-1e300);
    expect(clean(1e300)).toBe(1e300);
    throwsError(() => clean(Number.NaN), "NotANumber", { name: "value", value: "NaN" });
    throwsError(() => clean("3" as never), "NotANumber", { name: "value", value: "3" });
  });
});

describe("parseUnit: the names game systems use", () => {
  it("knows every spelling", () => {
    for (const n of ["m", "meter", "meters", "metre", "metres", "mètre", "mètres"]) expect(parseUnit(n)).toBe("m");
    for (const n of ["ft", "feet", "foot", "pi", "pieds"]) expect(parseUnit(n, "m")).toBe("ft");
    for (const n of ["km", "kilometer", "kilometers", "kilometre", "kilometres"]) expect(parseUnit(n)).toBe("km");
    for (const n of ["mi", "mile", "miles"]) expect(parseUnit(n)).toBe("mi");
    expect(parseUnit("  Feet ", "m")).toBe("ft");
    expect(parseUnit("KM")).toBe("km");
  });
  it("falls back on nothing, defaults to feet, and names what it does not know", () => {
    expect(parseUnit("", "km")).toBe("km");
    expect(parseUnit(undefined, "mi")).toBe("mi");
    expect(parseUnit(12, "m")).toBe("m");
    expect(parseUnit(undefined)).toBe("ft");
    throwsError(() => parseUnit("Yards"), "UnknownValue", { name: "unit", value: "yards", allowed: UNITS });
    throwsError(() => parseUnit("m", "yd" as never), "UnknownValue", { name: "fallback", value: "yd", allowed: UNITS });
  });
});
