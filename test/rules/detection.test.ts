/**
 * Ambient detection rules (RULES.md §6, issue 15): passive Perception against the Stealth result, −5 in dim light,
 * never in darkness; each observer–hider pair judged once until its conditions change.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  detectionChanges,
  passiveNotices,
  perceivedHider,
  type DetectionCondition,
} from "../../src/rules/detection.js";
import { throwsKey } from "./helpers.js";

describe("passiveNotices (RULES.md §6)", () => {
  it("bright light: passive ≥ DC; dim light: passive − 5 ≥ DC; darkness: never", () => {
    expect(passiveNotices({ passive: 12, dc: 12, light: "bright" })).toBe(true);
    expect(passiveNotices({ passive: 11, dc: 12, light: "bright" })).toBe(false);
    // The example: a watcher with passive 17 notices Stealth 12 in a torch's dim light; with 16 it does not.
    expect(passiveNotices({ passive: 17, dc: 12, light: "dim" })).toBe(true);
    expect(passiveNotices({ passive: 16, dc: 12, light: "dim" })).toBe(false);
    expect(passiveNotices({ passive: 30, dc: 1, light: "dark" })).toBe(false);
  });

  it("refuses what is not a number or a light level", () => {
    throwsKey(() => passiveNotices({ passive: Number.NaN, dc: 12, light: "bright" }), "NotANumber");
    throwsKey(() => passiveNotices({ passive: 12, dc: 12, light: "twilight" as never }), "UnknownValue");
    throwsKey(() => passiveNotices(null as never), "Missing");
  });

  it("property: dim light never notices what bright light misses, darkness never notices", () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 40 }), fc.integer({ min: -5, max: 40 }), (passive, dc) => {
        if (passiveNotices({ passive, dc, light: "dim" }))
          expect(passiveNotices({ passive, dc, light: "bright" })).toBe(true);
        expect(passiveNotices({ passive, dc, light: "dark" })).toBe(false);
      }),
    );
  });
});

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

describe("detectionChanges", () => {
  it("lists new pairs and changed pairs only, in the current order", () => {
    const before = [pair("orc", "aria"), pair("orc2", "aria"), pair("orc", "bram")];
    const now = [
      pair("orc", "aria"),
      pair("orc2", "aria", { light: "dim" }),
      pair("orc", "bram", { inView: false }),
      pair("orc3", "aria"),
    ];
    expect(detectionChanges(before, now).map((c) => `${c.observer}|${c.hider}`)).toEqual([
      "orc2|aria",
      "orc|bram",
      "orc3|aria",
    ]);
  });

  it("a pair judged and unchanged is not judged again; a change of DC, passive or searching is a change", () => {
    const a = [pair("orc", "aria")];
    expect(detectionChanges(a, a)).toEqual([]);
    expect(detectionChanges(a, [pair("orc", "aria", { dc: 15 })])).toHaveLength(1);
    expect(detectionChanges(a, [pair("orc", "aria", { passive: null })])).toHaveLength(1);
    expect(detectionChanges(a, [pair("orc", "aria", { searching: true })])).toHaveLength(1);
  });

  it("returns copies of the seven fields, never what else the caller's objects hold (found by the exports property)", () => {
    const extra = { ...pair("orc", "aria", { light: "dim" }), note: Number.NaN, cache: [undefined] };
    expect(detectionChanges([pair("orc", "aria")], [extra])).toEqual([pair("orc", "aria", { light: "dim" })]);
    expect(detectionChanges([], [extra])[0]).not.toBe(extra);
  });

  it("refuses malformed conditions and the same pair twice", () => {
    throwsKey(() => detectionChanges([], [pair("orc", "aria"), pair("orc", "aria")]), "UnknownValue");
    throwsKey(() => detectionChanges([], [{ ...pair("orc", "aria"), light: "x" as never }]), "UnknownValue");
    throwsKey(() => detectionChanges(null as never, []), "Missing");
  });

  it("property: judging the changes and then the same conditions again yields nothing", () => {
    const cond = fc.record({
      observer: fc.constantFrom("a", "b", "c"),
      hider: fc.constantFrom("x", "y"),
      inView: fc.boolean(),
      light: fc.constantFrom("bright", "dim", "dark" as const),
      passive: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
      searching: fc.boolean(),
      dc: fc.integer({ min: 0, max: 30 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(cond, { selector: (c) => `${c.observer}|${c.hider}` }),
        fc.uniqueArray(cond, { selector: (c) => `${c.observer}|${c.hider}` }),
        (prev, now) => {
          detectionChanges(prev, now);
          expect(detectionChanges(now, now)).toEqual([]);
        },
      ),
    );
  });
});

describe("perceivedHider (RULES.md §5–6)", () => {
  it("the light through the senses, capped by the obscurity of the hider's spot; an invisible hider is seen only by blindsight or truesight", () => {
    expect(perceivedHider({ ruleset: "rnp", light: "bright", senses: {}, distance: 9 })).toBe("bright");
    expect(perceivedHider({ ruleset: "rnp", light: "bright", obscurity: "light", senses: {}, distance: 9 })).toBe(
      "dim",
    );
    expect(
      perceivedHider({ ruleset: "rnp", light: "bright", obscurity: "heavy", senses: { truesight: 36 }, distance: 9 }),
    ).toBe("dark");
    expect(
      perceivedHider({ ruleset: "rnp", light: "dark", obscurity: "heavy", senses: { blindsight: 3 }, distance: 3 }),
    ).toBe("bright");
    expect(perceivedHider({ ruleset: "rnp", light: "dark", senses: { darkvision: 18 }, distance: 18 })).toBe("dim");
    expect(perceivedHider({ ruleset: "rnp", light: "dark", senses: { darkvision: 18 }, distance: 18.5 })).toBe("dark");
    expect(
      perceivedHider({ ruleset: "dnd5e", light: "bright", invisible: true, senses: { darkvision: 18 }, distance: 9 }),
    ).toBe("dark");
    expect(
      perceivedHider({ ruleset: "dnd5e", light: "bright", invisible: true, senses: { truesight: 9 }, distance: 9 }),
    ).toBe("bright");
    expect(
      perceivedHider({ ruleset: "dnd5e", light: "dim", invisible: true, senses: { blindsight: 3 }, distance: 3 }),
    ).toBe("bright");
    expect(
      perceivedHider({ ruleset: "dnd5e", light: "bright", invisible: true, senses: { blindsight: 3 }, distance: 3.5 }),
    ).toBe("dark");
  });

  it("refuses bad input", () => {
    throwsKey(() => perceivedHider(null as never), "Missing");
    throwsKey(
      () => perceivedHider({ ruleset: "rnp", light: "bright", invisible: "yes" as never, senses: {}, distance: 1 }),
      "UnknownValue",
    );
    throwsKey(
      () => perceivedHider({ ruleset: "rnp", light: "bright", obscurity: "fog" as never, senses: {}, distance: 1 }),
      "UnknownValue",
    );
    throwsKey(
      () => perceivedHider({ ruleset: "rnp", light: "bright", senses: {}, distance: Number.NaN }),
      "NotANumber",
    );
    throwsKey(
      () => perceivedHider({ ruleset: "xx" as never, light: "bright", senses: {}, distance: 1 }),
      "UnknownRuleset",
    );
  });

  it("property: never better than without obscurity and without invisibility", () => {
    const rank = { dark: 0, dim: 1, bright: 2 } as const;
    fc.assert(
      fc.property(
        fc.constantFrom("rnp", "dnd5e" as const),
        fc.constantFrom("bright", "dim", "dark" as const),
        fc.constantFrom("none", "light", "heavy" as const),
        fc.boolean(),
        fc.record({
          darkvision: fc.integer({ min: 0, max: 30 }),
          blindsight: fc.integer({ min: 0, max: 30 }),
          truesight: fc.integer({ min: 0, max: 30 }),
        }),
        fc.integer({ min: 0, max: 40 }),
        (ruleset, light, obscurity, invisible, senses, distance) => {
          const plain = perceivedHider({ ruleset, light, senses, distance });
          expect(rank[perceivedHider({ ruleset, light, obscurity, invisible, senses, distance })]).toBeLessThanOrEqual(
            rank[plain],
          );
        },
      ),
    );
  });
});
