/**
 * Light, vision and visibility (docs/rules.md §5): thresholds and radii on both sides, every combination of the fast
 * path, the sense that is named, obscurity caps, and the whole errors the user reads (key and data).
 */
import { describe, expect, it } from "vitest";
import {
  ambientLight,
  lightLevel,
  lightLevelFromNearest,
  lightRank,
  lightThresholds,
  mildestEffect,
  perceivedLightDetail,
  perceivedVisibility,
  visibilityEffect,
} from "../../src/rules/index.js";
import { throwsError } from "./helpers.js";

const LEVELS = "dark, dim, bright";

describe("ambient light and thresholds (§5)", () => {
  it("darkness below 0.25 is bright, below 0.75 dim, otherwise dark; both sides of each threshold", () => {
    expect(ambientLight(0)).toBe("bright");
    expect(ambientLight(0.2499)).toBe("bright");
    expect(ambientLight(0.25)).toBe("dim");
    expect(ambientLight(0.7499)).toBe("dim");
    expect(ambientLight(0.75)).toBe("dark");
    expect(ambientLight(1)).toBe("dark");
    expect(ambientLight(0.5, { bright: 0.5, dim: 0.6 })).toBe("dim");
    expect(ambientLight(0.49, { bright: 0.5, dim: 0.6 })).toBe("bright");
    expect(ambientLight(0.6, { bright: 0.5, dim: 0.6 })).toBe("dark");
  });
  it("thresholds: fresh and frozen when given, the defaults otherwise; bright may equal dim", () => {
    const t = lightThresholds({ bright: 0.4, dim: 0.4 });
    expect(t).toEqual({ bright: 0.4, dim: 0.4 });
    expect(Object.isFrozen(t)).toBe(true);
    expect(lightThresholds()).toEqual({ bright: 0.25, dim: 0.75 });
    expect(ambientLight(0.4, t)).toBe("dark");
  });
  it("names what it refuses", () => {
    throwsError(() => ambientLight(1.01), "OutOfRange", { name: "darkness", value: 1.01, min: 0, max: 1 });
    throwsError(() => ambientLight(-0.1), "Negative", { name: "darkness", value: -0.1 });
    throwsError(() => lightThresholds({ bright: 0.8, dim: 0.5 }), "OutOfRange", {
      name: "thresholds.bright",
      value: 0.8,
      min: 0,
      max: 0.5,
    });
    throwsError(() => lightThresholds({ bright: 0.2, dim: 1.5 }), "OutOfRange", {
      name: "thresholds.dim",
      value: 1.5,
      min: 0,
      max: 1,
    });
    throwsError(() => lightThresholds(null as never), "Missing", { name: "thresholds" });
    throwsError(() => ambientLight(0.5, 3 as never), "Missing", { name: "thresholds" });
  });
});

describe("lightLevelFromNearest (§5): every combination", () => {
  it("without global light the ambient is dark whatever the darkness; sources lift it", () => {
    expect(lightLevelFromNearest(0, false, false, false)).toBe("dark");
    expect(lightLevelFromNearest(0, false, false, true)).toBe("dim");
    expect(lightLevelFromNearest(1, false, true, false)).toBe("bright");
  });
  it("with global light: the ambient from the darkness, at least dim in a dim radius, bright in a bright one", () => {
    expect(lightLevelFromNearest(0.1, true, false, false)).toBe("bright");
    expect(lightLevelFromNearest(0.1, true, false, true)).toBe("bright");
    expect(lightLevelFromNearest(0.5, true, false, false)).toBe("dim");
    expect(lightLevelFromNearest(0.5, true, false, true)).toBe("dim");
    expect(lightLevelFromNearest(0.9, true, false, false)).toBe("dark");
    expect(lightLevelFromNearest(0.9, true, false, true)).toBe("dim");
    expect(lightLevelFromNearest(0.9, true, true, true)).toBe("bright");
    expect(lightLevelFromNearest(0.5, true, false, false, { bright: 0.6, dim: 0.9 })).toBe("bright");
  });
  it("names what it refuses", () => {
    throwsError(() => lightLevelFromNearest(0.5, undefined as never, false, false), "Missing", { name: "globalLight" });
    throwsError(() => lightLevelFromNearest(0.5, true, null as never, false), "Missing", { name: "inBright" });
    throwsError(() => lightLevelFromNearest(0.5, true, false, "no" as never), "UnknownValue", {
      name: "inDim",
      value: "no",
      allowed: "true, false",
    });
    throwsError(() => lightLevelFromNearest(Number.NaN, true, false, false), "NotANumber", {
      name: "darkness",
      value: "NaN",
    });
  });
});

describe("lightLevel (§5): radii on both sides", () => {
  const at = (distance: number, bright: number, dim: number) =>
    lightLevel({ darkness: 1, globalLight: true, sources: [{ distance, bright, dim }] });
  it("the edge of a radius is inside; just beyond is outside; a radius of 0 lights nothing", () => {
    expect(at(6, 6, 12)).toBe("bright");
    expect(at(6.01, 6, 12)).toBe("dim");
    expect(at(12, 6, 12)).toBe("dim");
    expect(at(12.01, 6, 12)).toBe("dark");
    expect(at(0, 0, 0)).toBe("dark");
    expect(at(3, 0, 6)).toBe("dim");
    expect(at(9, 12, 6)).toBe("bright");
  });
  it("the best of several sources, in any order", () => {
    const s = [
      { distance: 10, bright: 0, dim: 12 },
      { distance: 3, bright: 6, dim: 12 },
      { distance: 50, bright: 6, dim: 12 },
    ];
    expect(lightLevel({ darkness: 1, globalLight: false, sources: s })).toBe("bright");
    expect(lightLevel({ darkness: 1, globalLight: false, sources: [s[2]!, s[0]!] })).toBe("dim");
    expect(lightLevel({ darkness: 0, globalLight: true, sources: [] })).toBe("bright");
  });
  it("names what it refuses", () => {
    throwsError(() => lightLevel(null as never), "Missing", { name: "point" });
    throwsError(() => lightLevel({ darkness: 0, globalLight: true, sources: null as never }), "Missing", {
      name: "sources",
    });
    throwsError(
      () =>
        lightLevel({ darkness: 0, globalLight: true, sources: [{ distance: 1, bright: 1, dim: 1 }, null as never] }),
      "Missing",
      { name: "sources[1]" },
    );
    throwsError(
      () => lightLevel({ darkness: 0, globalLight: true, sources: [{ distance: -1, bright: 1, dim: 1 }] }),
      "Negative",
      { name: "sources[0].distance", value: -1 },
    );
    throwsError(
      () => lightLevel({ darkness: 0, globalLight: true, sources: [{ distance: 1, bright: -1, dim: 1 }] }),
      "Negative",
      { name: "sources[0].bright", value: -1 },
    );
    throwsError(
      () => lightLevel({ darkness: 0, globalLight: true, sources: [{ distance: 1, bright: 1, dim: 2e7 }] }),
      "OutOfRange",
      { name: "sources[0].dim", value: 2e7, min: 0, max: 10_000_000 },
    );
    throwsError(() => lightLevel({ darkness: 0, globalLight: "yes" as never, sources: [] }), "UnknownValue", {
      name: "globalLight",
      value: "yes",
      allowed: "true, false",
    });
  });
});

describe("perceived light (§5): which sense is named", () => {
  it("darkvision: dark → dim in every ruleset, dim → bright in dnd5e only; the edge of its range counts", () => {
    expect(perceivedLightDetail("rnp", "dark", { darkvision: 18 }, 18)).toEqual({ level: "dim", sense: "darkvision" });
    expect(perceivedLightDetail("rnp", "dark", { darkvision: 18 }, 18.01)).toEqual({ level: "dark", sense: "none" });
    expect(perceivedLightDetail("rnp", "dim", { darkvision: 18 }, 1)).toEqual({ level: "dim", sense: "none" });
    expect(perceivedLightDetail("dnd5e", "dim", { darkvision: 18 }, 1)).toEqual({
      level: "bright",
      sense: "darkvision",
    });
    expect(perceivedLightDetail("ose", "dim", { darkvision: 18 }, 1)).toEqual({ level: "dim", sense: "none" });
  });
  it("the first sense that improves the level is named; a later one only when it improves it further", () => {
    expect(perceivedLightDetail("rnp", "dark", { darkvision: 18, blindsight: 3 }, 2)).toEqual({
      level: "bright",
      sense: "blindsight",
    });
    expect(perceivedLightDetail("dnd5e", "dim", { darkvision: 18, blindsight: 3 }, 2)).toEqual({
      level: "bright",
      sense: "darkvision",
    });
    expect(perceivedLightDetail("rnp", "dark", { blindsight: 3, truesight: 3 }, 2)).toEqual({
      level: "bright",
      sense: "blindsight",
    });
    expect(perceivedLightDetail("rnp", "dark", { truesight: 3 }, 3)).toEqual({ level: "bright", sense: "truesight" });
    expect(perceivedLightDetail("rnp", "bright", { truesight: 3 }, 1)).toEqual({ level: "bright", sense: "none" });
    expect(perceivedLightDetail("rnp", "dark", { truesight: 0 }, 0)).toEqual({ level: "dark", sense: "none" });
  });
  it("obscurity caps what is seen: light at dim, heavy at dark; blindsight within range sees through it", () => {
    expect(perceivedVisibility("rnp", "bright", "light", {}, 1)).toBe("dim");
    expect(perceivedVisibility("rnp", "dark", "light", {}, 1)).toBe("dark");
    expect(perceivedVisibility("rnp", "bright", "heavy", { truesight: 9, darkvision: 9 }, 1)).toBe("dark");
    expect(perceivedVisibility("rnp", "dark", "heavy", { blindsight: 3 }, 3)).toBe("bright");
    expect(perceivedVisibility("rnp", "bright", "heavy", { blindsight: 3 }, 3.01)).toBe("dark");
    expect(perceivedVisibility("rnp", "dim", "none", {}, 1)).toBe("dim");
  });
  it("names what it refuses", () => {
    throwsError(() => perceivedLightDetail("rnp", "murky" as never, {}, 1), "UnknownValue", {
      name: "level",
      value: "murky",
      allowed: LEVELS,
    });
    throwsError(() => perceivedLightDetail("rnp", "dark", null as never, 1), "Missing", { name: "senses" });
    throwsError(() => perceivedLightDetail("rnp", "dark", {}, -1), "Negative", { name: "distance", value: -1 });
    throwsError(() => perceivedLightDetail("rnp", "dark", { darkvision: -1 }, 1), "Negative", {
      name: "senses.darkvision",
      value: -1,
    });
    throwsError(() => perceivedLightDetail("rnp", "dark", { blindsight: -1 }, 1), "Negative", {
      name: "senses.blindsight",
      value: -1,
    });
    throwsError(() => perceivedLightDetail("rnp", "dark", { truesight: -1 }, 1), "Negative", {
      name: "senses.truesight",
      value: -1,
    });
    throwsError(() => perceivedLightDetail("gurps" as never, "dark", {}, 1), "UnknownRuleset", { value: "gurps" });
    throwsError(() => perceivedVisibility("rnp", "dark", "thick" as never, {}, 1), "UnknownValue", {
      name: "obscurity",
      value: "thick",
      allowed: "none, light, heavy",
    });
  });
});

describe("effects (§5)", () => {
  it("bright none, dim disadvantage, dark blinded; the mildest of several", () => {
    expect(visibilityEffect("bright")).toBe("none");
    expect(visibilityEffect("dim")).toBe("disadvantage");
    expect(visibilityEffect("dark")).toBe("blinded");
    expect(mildestEffect(["blinded"])).toBe("blinded");
    expect(mildestEffect(["blinded", "disadvantage", "blinded"])).toBe("disadvantage");
    expect(mildestEffect(["disadvantage", "none"])).toBe("none");
    expect(lightRank("dark")).toBe(0);
    expect(lightRank("bright")).toBe(2);
  });
  it("names what it refuses", () => {
    throwsError(() => mildestEffect([]), "Missing", { name: "effects" });
    throwsError(() => mildestEffect(null as never), "Missing", { name: "effects" });
    throwsError(() => mildestEffect(["none", "deaf" as never]), "UnknownValue", {
      name: "effect",
      value: "deaf",
      allowed: "none, disadvantage, blinded",
    });
    throwsError(() => visibilityEffect("murky" as never), "UnknownValue", {
      name: "level",
      value: "murky",
      allowed: LEVELS,
    });
    throwsError(() => lightRank(4 as never), "UnknownValue", { name: "level", value: "4", allowed: LEVELS });
  });
});
