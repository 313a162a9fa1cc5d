/**
 * Ambient detection (docs/rules.md §6) at its edges: the bounds of the passive score and the DC on both sides, each
 * condition field a change on its own, the whole error of each malformed condition (the name shows which pair and
 * which field), a sense of range 0, and the pair key.
 */
import { describe, expect, it } from "vitest";
import {
  MAX_DETECTION_PAIRS,
  detectionChanges,
  detectionKey,
  passiveNotices,
  perceivedHider,
  type DetectionCondition,
} from "../../src/rules/detection.js";
import { throwsError } from "./helpers.js";

const pair = (o: string, h: string, over: Partial<DetectionCondition> = {}): DetectionCondition => ({
  observer: o,
  hider: h,
  inView: true,
  light: "bright",
  passive: 13,
  searching: false,
  dc: 12,
  ...over,
});
const cond = (over: Record<string, unknown>) => ({ ...pair("orc", "aria"), ...over }) as unknown as DetectionCondition;

describe("passiveNotices at its edges", () => {
  it("passive −100..100 and DC −100..200, both sides of each bound", () => {
    expect(passiveNotices({ passive: 100, dc: 100, light: "bright" })).toBe(true);
    expect(passiveNotices({ passive: -100, dc: -100, light: "bright" })).toBe(true);
    expect(passiveNotices({ passive: 100, dc: 200, light: "bright" })).toBe(false);
    expect(passiveNotices({ passive: -100, dc: -100, light: "dim" })).toBe(false);
    throwsError(() => passiveNotices({ passive: 101, dc: 12, light: "bright" }), "OutOfRange", {
      name: "passive",
      value: 101,
      min: -100,
      max: 100,
    });
    throwsError(() => passiveNotices({ passive: -101, dc: 12, light: "bright" }), "OutOfRange", {
      name: "passive",
      value: -101,
      min: -100,
      max: 100,
    });
    throwsError(() => passiveNotices({ passive: 12, dc: 201, light: "bright" }), "OutOfRange", {
      name: "dc",
      value: 201,
      min: -100,
      max: 200,
    });
    throwsError(() => passiveNotices({ passive: 12, dc: -101, light: "bright" }), "OutOfRange", {
      name: "dc",
      value: -101,
      min: -100,
      max: 200,
    });
  });
  it("dim light: passive − 5 against the DC, both sides", () => {
    expect(passiveNotices({ passive: 10, dc: 5, light: "dim" })).toBe(true);
    expect(passiveNotices({ passive: 10, dc: 6, light: "dim" })).toBe(false);
    expect(passiveNotices({ passive: 10, dc: 10, light: "bright" })).toBe(true);
    expect(passiveNotices({ passive: 10, dc: 11, light: "bright" })).toBe(false);
  });
  it("names what is wrong", () => {
    throwsError(() => passiveNotices("x" as never), "Missing", { name: "input" });
    throwsError(() => passiveNotices({ passive: 12, dc: 12, light: "twilight" as never }), "UnknownValue", {
      name: "light",
      value: "twilight",
      allowed: "dark, dim, bright",
    });
  });
});

describe("perceivedHider at its edges", () => {
  it("an invisible hider: a blindsight or truesight of range 0 reaches nothing, not even at distance 0", () => {
    expect(
      perceivedHider({
        ruleset: "rnp",
        light: "bright",
        invisible: true,
        senses: { blindsight: 0, truesight: 0 },
        distance: 0,
      }),
    ).toBe("dark");
    expect(
      perceivedHider({ ruleset: "rnp", light: "bright", invisible: false, senses: { blindsight: 0 }, distance: 0 }),
    ).toBe("bright");
    // Truesight alone reaches it, up to its range included.
    expect(
      perceivedHider({ ruleset: "rnp", light: "dim", invisible: true, senses: { truesight: 9 }, distance: 9 }),
    ).toBe("bright");
    expect(
      perceivedHider({ ruleset: "rnp", light: "bright", invisible: true, senses: { truesight: 9 }, distance: 9.5 }),
    ).toBe("dark");
    // Blindsight alone, at its range.
    expect(
      perceivedHider({
        ruleset: "rnp",
        light: "dark",
        invisible: true,
        senses: { blindsight: 3, truesight: 1 },
        distance: 3,
      }),
    ).toBe("bright");
  });
  it("names what is wrong", () => {
    throwsError(() => perceivedHider("x" as never), "Missing", { name: "view" });
    throwsError(
      () => perceivedHider({ ruleset: "rnp", light: "bright", invisible: 1 as never, senses: {}, distance: 1 }),
      "UnknownValue",
      { name: "invisible", value: "1", allowed: "true, false" },
    );
    throwsError(
      () => perceivedHider({ ruleset: "rnp", light: "bright", obscurity: "fog" as never, senses: {}, distance: 1 }),
      "UnknownValue",
      { name: "obscurity", value: "fog", allowed: "none, light, heavy" },
    );
    throwsError(
      () =>
        perceivedHider({ ruleset: "rnp", light: "bright", invisible: true, senses: { truesight: -1 }, distance: 1 }),
      "Negative",
      { name: "senses.truesight", value: -1 },
    );
    throwsError(
      () => perceivedHider({ ruleset: "rnp", light: "bright", invisible: true, senses: {}, distance: -2 }),
      "Negative",
      { name: "distance", value: -2 },
    );
  });
});

describe("detectionKey", () => {
  it("observer|hider, ids of 1 to 64 characters", () => {
    expect(detectionKey({ observer: "orc", hider: "aria" })).toBe("orc|aria");
    const id64 = "a".repeat(64);
    expect(detectionKey({ observer: id64, hider: "b" })).toBe(`${id64}|b`);
    throwsError(() => detectionKey({ observer: `${id64}a`, hider: "b" }), "Missing", { name: "observer" });
    throwsError(() => detectionKey({ observer: "", hider: "b" }), "Missing", { name: "observer" });
    throwsError(() => detectionKey({ observer: "a", hider: 3 as never }), "Missing", { name: "hider" });
    throwsError(() => detectionKey({ observer: "a", hider: `${id64}b` }), "Missing", { name: "hider" });
    throwsError(() => detectionKey(null as never), "Missing", { name: "pair" });
    throwsError(() => detectionKey("a|b" as never), "Missing", { name: "pair" });
  });
});

describe("detectionChanges at its edges", () => {
  it("each field is a change on its own, and the changed pair comes back whole", () => {
    const a = [pair("orc", "aria")];
    for (const over of [
      { inView: false },
      { light: "dark" as const },
      { passive: 14 },
      { passive: null },
      { searching: true },
      { dc: 13 },
    ]) {
      expect(detectionChanges(a, [pair("orc", "aria", over)])).toEqual([pair("orc", "aria", over)]);
    }
    // From unknown passive to a known one.
    expect(detectionChanges([pair("orc", "aria", { passive: null })], [pair("orc", "aria")])).toEqual([
      pair("orc", "aria"),
    ]);
    // The same hider seen by another observer, the same observer watching another hider: new pairs.
    expect(detectionChanges(a, [pair("orc", "bram"), pair("wolf", "aria"), pair("orc", "aria")])).toEqual([
      pair("orc", "bram"),
      pair("wolf", "aria"),
    ]);
  });
  it("the same hider for two observers, or two hiders for one observer, is not the same pair twice", () => {
    expect(detectionChanges([], [pair("orc", "aria"), pair("wolf", "aria"), pair("orc", "bram")])).toEqual([
      pair("orc", "aria"),
      pair("wolf", "aria"),
      pair("orc", "bram"),
    ]);
  });
  it("refuses the same pair twice, naming the second and the pair", () => {
    throwsError(
      () => detectionChanges([], [pair("orc", "bram"), pair("orc", "aria"), pair("orc", "aria", { dc: 3 })]),
      "UnknownValue",
      {
        name: "current[2]",
        value: "orc|aria",
        allowed: "one condition per pair",
      },
    );
  });
  it("names the malformed condition and its field, in previous or current", () => {
    throwsError(() => detectionChanges([pair("a", "b"), null as never], []), "Missing", { name: "previous[1]" });
    throwsError(() => detectionChanges([], ["x" as never]), "Missing", { name: "current[0]" });
    throwsError(() => detectionChanges([], [pair("a", "b"), cond({ observer: "" })]), "Missing", {
      name: "current[1].observer",
    });
    throwsError(() => detectionChanges([], [cond({ observer: "x".repeat(65) })]), "Missing", {
      name: "current[0].observer",
    });
    throwsError(() => detectionChanges([], [cond({ hider: 7 })]), "Missing", { name: "current[0].hider" });
    throwsError(() => detectionChanges([], [cond({ hider: "y".repeat(65) })]), "Missing", { name: "current[0].hider" });
    throwsError(() => detectionChanges([cond({ inView: "yes" })], []), "Missing", { name: "previous[0].inView" });
    throwsError(() => detectionChanges([], [cond({ searching: 1 })]), "Missing", { name: "current[0].inView" });
    throwsError(() => detectionChanges([], [cond({ light: "gloom" })]), "UnknownValue", {
      name: "current[0].light",
      value: "gloom",
      allowed: "dark, dim, bright",
    });
    throwsError(() => detectionChanges([], [cond({ passive: 101 })]), "OutOfRange", {
      name: "current[0].passive",
      value: 101,
      min: -100,
      max: 100,
    });
    throwsError(() => detectionChanges([], [cond({ passive: -101 })]), "OutOfRange", {
      name: "current[0].passive",
      value: -101,
      min: -100,
      max: 100,
    });
    throwsError(() => detectionChanges([], [cond({ passive: "13" })]), "NotANumber", {
      name: "current[0].passive",
      value: "13",
    });
    throwsError(() => detectionChanges([], [cond({ dc: 201 })]), "OutOfRange", {
      name: "current[0].dc",
      value: 201,
      min: -100,
      max: 200,
    });
    throwsError(() => detectionChanges([], [cond({ dc: -101 })]), "OutOfRange", {
      name: "current[0].dc",
      value: -101,
      min: -100,
      max: 200,
    });
    throwsError(() => detectionChanges([], [cond({ dc: undefined })]), "NotANumber", {
      name: "current[0].dc",
      value: "undefined",
    });
    throwsError(() => detectionChanges([], {} as never), "Missing", { name: "conditions" });
  });
  it("lets the bounds themselves through: ids of 64 characters, passive ±100, DC −100 and 200, and each light", () => {
    const id = "z".repeat(64);
    const ok = [
      pair(id, id, { passive: 100, dc: 200, light: "dim" }),
      pair("a", "b", { passive: -100, dc: -100, light: "dark" }),
      pair("a", "c", { passive: null, inView: false, searching: true }),
    ];
    expect(detectionChanges([], ok)).toEqual(ok);
  });
  it("at most 20,000 pairs on either side", () => {
    expect(MAX_DETECTION_PAIRS).toBe(20_000);
    const many = Array.from({ length: 20_000 }, (_, i) => pair(`o${i}`, "h"));
    expect(detectionChanges(many, many)).toEqual([]);
    const tooMany = [...many, pair("x", "h")];
    throwsError(() => detectionChanges(tooMany, []), "OutOfRange", {
      name: "pairs",
      value: 20_001,
      min: 0,
      max: 20_000,
    });
    throwsError(() => detectionChanges([], tooMany), "OutOfRange", {
      name: "pairs",
      value: 20_001,
      min: 0,
      max: 20_000,
    });
  });
});
