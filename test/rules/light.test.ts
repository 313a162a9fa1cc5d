import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  DARKVISION_BY_RULESET,
  LIGHT_LEVELS,
  LIGHT_THRESHOLDS,
  LIGHT_VISIBILITY,
  OBSCURITY_CAP,
  OBSCURITY_LEVELS,
  RULESETS,
  ambientLight,
  clean,
  lightLevel,
  lightLevelFromNearest,
  lightRank,
  lightThresholds,
  mildestEffect,
  perceivedLight,
  perceivedLightDetail,
  perceivedVisibility,
  visibilityEffect,
  type LightLevel,
  type LightSource,
} from "../../src/rules/index.js";
import { errorKey as keyOf } from "./helpers.js";

const rank = { dark: 0, dim: 1, bright: 2 } as const;

describe("§5 visibility table", () => {
  it("is exported as data, one row per light level", () => {
    expect(LIGHT_VISIBILITY).toEqual({
      bright: { visibility: "normal", effect: "none" },
      dim: { visibility: "reduced", effect: "disadvantage" },
      dark: { visibility: "none", effect: "blinded" },
    });
    expect(LIGHT_LEVELS).toEqual(["dark", "dim", "bright"]);
  });
  it("gives the effect on a creature trying to see there", () => {
    expect(visibilityEffect("bright")).toBe("none");
    expect(visibilityEffect("dim")).toBe("disadvantage");
    expect(visibilityEffect("dark")).toBe("blinded");
  });
  it("rejects an unknown level", () => {
    expect(keyOf(() => visibilityEffect("twilight" as never))).toBe("AVENTURE.Error.UnknownValue");
    expect(keyOf(() => lightRank("gloom" as never))).toBe("AVENTURE.Error.UnknownValue");
  });
  it("the mildest of several effects (a creature with several tokens, Decision)", () => {
    expect(mildestEffect(["blinded", "disadvantage"])).toBe("disadvantage");
    expect(mildestEffect(["blinded", "none", "disadvantage"])).toBe("none");
    expect(mildestEffect(["blinded"])).toBe("blinded");
    expect(keyOf(() => mildestEffect([]))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => mildestEffect(["blinded", "deaf" as never]))).toBe("AVENTURE.Error.UnknownValue");
  });
  it("ranks the levels", () => {
    expect(lightRank("dark")).toBe(0);
    expect(lightRank("dim")).toBe(1);
    expect(lightRank("bright")).toBe(2);
  });
});

describe("ambient light from darkness (thresholds 0.25 / 0.75)", () => {
  it("exports the default thresholds", () => {
    expect(LIGHT_THRESHOLDS).toEqual({ bright: 0.25, dim: 0.75 });
  });
  it("daylight is bright, dawn/dusk/bright moon dim, night dark, with the boundaries", () => {
    expect(ambientLight(0)).toBe("bright");
    expect(ambientLight(0.24)).toBe("bright");
    expect(ambientLight(0.25)).toBe("dim");
    expect(ambientLight(0.5)).toBe("dim");
    expect(ambientLight(0.749)).toBe("dim");
    expect(ambientLight(0.75)).toBe("dark");
    expect(ambientLight(1)).toBe("dark");
  });
  it("takes custom thresholds", () => {
    expect(ambientLight(0.3, { bright: 0.4, dim: 0.9 })).toBe("bright");
    expect(ambientLight(0.8, { bright: 0.4, dim: 0.9 })).toBe("dim");
    expect(ambientLight(0.5, { bright: 0.5, dim: 0.5 })).toBe("dark");
    expect(ambientLight(0.49, { bright: 0.5, dim: 0.5 })).toBe("bright");
    expect(ambientLight(0, { bright: 0, dim: 0 })).toBe("dark");
    expect(ambientLight(1, { bright: 1, dim: 1 })).toBe("dark");
    expect(ambientLight(0.99, { bright: 1, dim: 1 })).toBe("bright");
  });
  it("validates the thresholds: 0 ≤ bright ≤ dim ≤ 1", () => {
    expect(lightThresholds()).toBe(LIGHT_THRESHOLDS);
    expect(lightThresholds({ bright: 0.1, dim: 0.2 })).toEqual({ bright: 0.1, dim: 0.2 });
    expect(keyOf(() => lightThresholds({ bright: 0.8, dim: 0.5 }))).toBe("AVENTURE.Error.OutOfRange");
    expect(keyOf(() => lightThresholds({ bright: -0.1, dim: 0.5 }))).toBe("AVENTURE.Error.Negative");
    expect(keyOf(() => lightThresholds({ bright: 0.1, dim: 1.5 }))).toBe("AVENTURE.Error.OutOfRange");
    expect(keyOf(() => lightThresholds({ bright: Number.NaN, dim: 0.5 }))).toBe("AVENTURE.Error.NotANumber");
    expect(keyOf(() => lightThresholds({ bright: 0.1 } as never))).toBe("AVENTURE.Error.NotANumber");
    expect(keyOf(() => lightThresholds(null as never))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => lightLevel({ darkness: 0, globalLight: true, sources: [] }, { bright: 0.9, dim: 0.1 }))).toBe(
      "AVENTURE.Error.OutOfRange",
    );
  });
  it("rejects a darkness outside 0..1", () => {
    expect(keyOf(() => ambientLight(1.01))).toBe("AVENTURE.Error.OutOfRange");
    expect(keyOf(() => ambientLight(-0.01))).toBe("AVENTURE.Error.Negative");
    expect(keyOf(() => ambientLight(Number.NaN))).toBe("AVENTURE.Error.NotANumber");
  });
});

describe("lightLevel at a point", () => {
  const at = (darkness: number, globalLight: boolean, ...sources: LightSource[]) =>
    lightLevel({ darkness, globalLight, sources });
  const torch: Omit<LightSource, "distance"> = { bright: 6, dim: 12 };

  it("with global light, the ambient level comes from the darkness", () => {
    expect(at(0, true)).toBe("bright");
    expect(at(0.25, true)).toBe("dim");
    expect(at(0.75, true)).toBe("dark");
  });
  it("without global light, a point no source reaches is dark (underground, unlit room)", () => {
    expect(at(0, false)).toBe("dark");
    expect(at(0.5, false)).toBe("dark");
    expect(at(1, false)).toBe("dark");
  });
  it("close to a torch is bright, farther is dim, beyond it is the ambient level; the edge counts as inside", () => {
    expect(at(1, false, { distance: 0, ...torch })).toBe("bright");
    expect(at(1, false, { distance: 5.9, ...torch })).toBe("bright");
    expect(at(1, false, { distance: 6, ...torch })).toBe("bright");
    expect(at(1, false, { distance: 6.01, ...torch })).toBe("dim");
    expect(at(1, false, { distance: 12, ...torch })).toBe("dim");
    expect(at(1, false, { distance: 12.01, ...torch })).toBe("dark");
    // floating noise on the edge still counts as inside
    expect(at(1, false, { distance: 0.1 + 0.2, bright: 0.3, dim: 0.6 })).toBe("bright");
  });
  it("a source never darkens a brighter ambient", () => {
    expect(at(0, true, { distance: 10, ...torch })).toBe("bright");
    expect(at(0.5, true, { distance: 100, ...torch })).toBe("dim");
    expect(at(0.5, true, { distance: 3, ...torch })).toBe("bright");
  });
  it("a source with bright 0 and dim r lights dim within r; radius 0 lights nothing", () => {
    expect(at(1, true, { distance: 0, bright: 0, dim: 4 })).toBe("dim");
    expect(at(1, true, { distance: 4, bright: 0, dim: 4 })).toBe("dim");
    expect(at(1, true, { distance: 4.5, bright: 0, dim: 4 })).toBe("dark");
    expect(at(1, true, { distance: 0, bright: 0, dim: 0 })).toBe("dark");
  });
  it("a bright radius larger than the dim radius lights bright inside it", () => {
    expect(at(1, false, { distance: 8, bright: 9, dim: 3 })).toBe("bright");
  });
  it("takes the best of several sources", () => {
    expect(at(1, false, { distance: 10, ...torch }, { distance: 2, bright: 3, dim: 6 })).toBe("bright");
    expect(at(1, false, { distance: 20, ...torch }, { distance: 5, bright: 3, dim: 6 })).toBe("dim");
  });
  it("uses the thresholds argument", () => {
    expect(lightLevel({ darkness: 0.3, globalLight: true, sources: [] }, { bright: 0.5, dim: 0.8 })).toBe("bright");
    expect(lightLevel({ darkness: 0.8, globalLight: true, sources: [] }, { bright: 0.5, dim: 0.8 })).toBe("dark");
  });
  it("rejects invalid input", () => {
    expect(keyOf(() => at(0, true, { distance: -1, ...torch }))).toBe("AVENTURE.Error.Negative");
    expect(keyOf(() => at(0, true, { distance: 1, bright: Number.POSITIVE_INFINITY, dim: 3 }))).toBe(
      "AVENTURE.Error.NotANumber",
    );
    expect(keyOf(() => at(0, true, { distance: 1, bright: 1, dim: -3 }))).toBe("AVENTURE.Error.Negative");
    expect(keyOf(() => at(2, true))).toBe("AVENTURE.Error.OutOfRange");
    expect(keyOf(() => lightLevel({ darkness: 0, globalLight: "yes" as never, sources: [] }))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(keyOf(() => lightLevel({ darkness: 0, sources: [] } as never))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => lightLevel({ darkness: 0, globalLight: true } as never))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => lightLevel({ darkness: 0, globalLight: true, sources: [null as never] }))).toBe(
      "AVENTURE.Error.Missing",
    );
    expect(keyOf(() => lightLevel(undefined as never))).toBe("AVENTURE.Error.Missing");
  });
});

describe("lightLevelFromNearest (fast path)", () => {
  it("gives the same levels as lightLevel", () => {
    expect(lightLevelFromNearest(1, false, true, false)).toBe("bright");
    expect(lightLevelFromNearest(1, false, false, true)).toBe("dim");
    expect(lightLevelFromNearest(1, false, false, false)).toBe("dark");
    expect(lightLevelFromNearest(0, true, false, false)).toBe("bright");
    expect(lightLevelFromNearest(0.5, true, false, true)).toBe("dim");
    expect(lightLevelFromNearest(0.5, true, false, false, { bright: 0.6, dim: 0.9 })).toBe("bright");
  });
  it("validates its arguments", () => {
    expect(keyOf(() => lightLevelFromNearest(0, true, 1 as never, false))).toBe("AVENTURE.Error.UnknownValue");
    expect(keyOf(() => lightLevelFromNearest(0, true, false, undefined as never))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => lightLevelFromNearest(0, true, false, false, { bright: 1, dim: 0.5 }))).toBe(
      "AVENTURE.Error.OutOfRange",
    );
  });
  it("agrees with lightLevel (property)", () => {
    const src = fc.record({
      distance: fc.double({ min: 0, max: 50, noNaN: true }),
      bright: fc.double({ min: 0, max: 30, noNaN: true }),
      dim: fc.double({ min: 0, max: 30, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        fc.array(src, { maxLength: 5 }),
        (d, g, sources) => {
          const inBright = sources.some((s) => s.bright > 0 && clean(s.distance) <= clean(s.bright));
          const inDim = sources.some((s) => s.dim > 0 && clean(s.distance) <= clean(s.dim));
          expect(lightLevelFromNearest(d, g, inBright, inDim)).toBe(
            lightLevel({ darkness: d, globalLight: g, sources }),
          );
        },
      ),
    );
  });
});

describe("properties of lightLevel", () => {
  const src = fc.record({
    distance: fc.double({ min: 0, max: 50, noNaN: true }),
    bright: fc.double({ min: 0, max: 30, noNaN: true }),
    dim: fc.double({ min: 0, max: 30, noNaN: true }),
  });
  const thresholds = fc
    .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([a, b]) => ({ bright: Math.min(a, b), dim: Math.max(a, b) }));

  it("more darkness never gives more light", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        fc.array(src, { maxLength: 4 }),
        thresholds,
        (a, b, g, sources, t) => {
          const lo = Math.min(a, b);
          const hi = Math.max(a, b);
          const lighter = lightLevel({ darkness: lo, globalLight: g, sources }, t);
          const darker = lightLevel({ darkness: hi, globalLight: g, sources }, t);
          expect(rank[darker]).toBeLessThanOrEqual(rank[lighter]);
        },
      ),
    );
  });
  it("adding a source never darkens", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        fc.array(src, { maxLength: 4 }),
        src,
        (d, g, sources, extra) => {
          const before = lightLevel({ darkness: d, globalLight: g, sources });
          const after = lightLevel({ darkness: d, globalLight: g, sources: [...sources, extra] });
          expect(rank[after]).toBeGreaterThanOrEqual(rank[before]);
        },
      ),
    );
  });
  it("turning global light on never darkens", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.array(src, { maxLength: 4 }), (d, sources) => {
        const off = lightLevel({ darkness: d, globalLight: false, sources });
        const on = lightLevel({ darkness: d, globalLight: true, sources });
        expect(rank[on]).toBeGreaterThanOrEqual(rank[off]);
      }),
    );
  });
});

describe("perceivedLight (§5 senses)", () => {
  it("without senses the actual level stands", () => {
    for (const level of ["bright", "dim", "dark"] as const) {
      expect(perceivedLight("rnp", level, {}, 5)).toBe(level);
      expect(perceivedLightDetail("dnd5e", level, { darkvision: 0 }, 5)).toEqual({ level, sense: "none" });
    }
  });
  it("rnp darkvision: darkness counts as dim within range, dim stays dim (Decision)", () => {
    const dv = { darkvision: 18 };
    expect(perceivedLight("rnp", "dark", dv, 10)).toBe("dim");
    expect(perceivedLight("rnp", "dim", dv, 10)).toBe("dim");
    expect(perceivedLight("rnp", "bright", dv, 10)).toBe("bright");
    expect(perceivedLight("rnp", "dark", dv, 18)).toBe("dim"); // exactly at range
    expect(perceivedLight("rnp", "dark", dv, 18.01)).toBe("dark"); // out of range
    expect(perceivedLightDetail("rnp", "dark", dv, 18)).toEqual({ level: "dim", sense: "darkvision" });
    expect(perceivedLightDetail("rnp", "dim", dv, 1)).toEqual({ level: "dim", sense: "none" });
  });
  it("dnd5e darkvision: dim counts as bright and darkness as dim (Decision, 5e SRD)", () => {
    const dv = { darkvision: 18 };
    expect(perceivedLight("dnd5e", "dark", dv, 10)).toBe("dim");
    expect(perceivedLight("dnd5e", "dim", dv, 10)).toBe("bright");
    expect(perceivedLight("dnd5e", "bright", dv, 10)).toBe("bright");
    expect(perceivedLight("dnd5e", "dim", dv, 18)).toBe("bright");
    expect(perceivedLight("dnd5e", "dim", dv, 18.5)).toBe("dim");
    expect(perceivedLight("dnd5e", "dark", dv, 18.5)).toBe("dark");
    expect(perceivedLightDetail("dnd5e", "dim", dv, 3)).toEqual({ level: "bright", sense: "darkvision" });
  });
  it("pmt, ose and polaris fall back to rnp", () => {
    for (const rs of ["pmt", "ose", "polaris"] as const) {
      expect(perceivedLight(rs, "dark", { darkvision: 9 }, 9)).toBe("dim");
      expect(perceivedLight(rs, "dim", { darkvision: 9 }, 9)).toBe("dim");
      expect(DARKVISION_BY_RULESET[rs]).toEqual(DARKVISION_BY_RULESET.rnp);
    }
  });
  it("blindsight: dim and darkness count as bright within range", () => {
    expect(perceivedLightDetail("rnp", "dark", { blindsight: 3 }, 3)).toEqual({ level: "bright", sense: "blindsight" });
    expect(perceivedLightDetail("rnp", "dim", { blindsight: 3 }, 1.5)).toEqual({
      level: "bright",
      sense: "blindsight",
    });
    expect(perceivedLight("rnp", "dark", { blindsight: 3 }, 4.5)).toBe("dark");
    expect(perceivedLightDetail("rnp", "bright", { blindsight: 3 }, 1)).toEqual({ level: "bright", sense: "none" });
  });
  it("truesight: sees in darkness within range", () => {
    expect(perceivedLightDetail("dnd5e", "dark", { truesight: 36 }, 36)).toEqual({
      level: "bright",
      sense: "truesight",
    });
    expect(perceivedLightDetail("rnp", "dim", { truesight: 36 }, 20)).toEqual({ level: "bright", sense: "truesight" });
    expect(perceivedLight("rnp", "dark", { truesight: 36 }, 37)).toBe("dark");
  });
  it("names the sense that made the difference", () => {
    // darkvision gives dim, blindsight gives bright: blindsight made the difference
    expect(perceivedLightDetail("rnp", "dark", { darkvision: 18, blindsight: 3 }, 2)).toEqual({
      level: "bright",
      sense: "blindsight",
    });
    // out of blindsight range: darkvision
    expect(perceivedLightDetail("rnp", "dark", { darkvision: 18, blindsight: 3 }, 10)).toEqual({
      level: "dim",
      sense: "darkvision",
    });
    // ties go to the first of darkvision, blindsight, truesight
    expect(perceivedLightDetail("dnd5e", "dim", { darkvision: 18, truesight: 18 }, 10)).toEqual({
      level: "bright",
      sense: "darkvision",
    });
    expect(perceivedLightDetail("rnp", "dark", { truesight: 18, blindsight: 18 }, 10)).toEqual({
      level: "bright",
      sense: "blindsight",
    });
  });
  it("rejects invalid input", () => {
    expect(keyOf(() => perceivedLight("gurps" as never, "dark", {}, 1))).toBe("AVENTURE.Error.UnknownRuleset");
    expect(keyOf(() => perceivedLight("rnp", "murky" as never, {}, 1))).toBe("AVENTURE.Error.UnknownValue");
    expect(keyOf(() => perceivedLight("rnp", "dark", { darkvision: -1 }, 1))).toBe("AVENTURE.Error.Negative");
    expect(keyOf(() => perceivedLight("rnp", "dark", { truesight: Number.NaN }, 1))).toBe("AVENTURE.Error.NotANumber");
    expect(keyOf(() => perceivedLight("rnp", "dark", {}, -1))).toBe("AVENTURE.Error.Negative");
    expect(keyOf(() => perceivedLight("rnp", "dark", {}, Number.POSITIVE_INFINITY))).toBe("AVENTURE.Error.NotANumber");
    expect(keyOf(() => perceivedLight("rnp", "dark", null as never, 1))).toBe("AVENTURE.Error.Missing");
  });
  it("is never worse than the actual level, and never better than bright (property)", () => {
    const range = fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.constantFrom(...RULESETS),
        fc.constantFrom<LightLevel>("dark", "dim", "bright"),
        fc.record({ darkvision: range, blindsight: range, truesight: range }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        (rs, level, senses, distance) => {
          const p = perceivedLightDetail(rs, level, senses, distance);
          expect(rank[p.level]).toBeGreaterThanOrEqual(rank[level]);
          expect(p.sense === "none").toBe(p.level === level);
        },
      ),
    );
  });
  it("a longer sense range never gives less light; moving closer never gives less light (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RULESETS),
        fc.constantFrom<LightLevel>("dark", "dim", "bright"),
        fc.constantFrom("darkvision", "blindsight", "truesight" as const),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (rs, level, sense, a, b, distance) => {
          const short = perceivedLight(rs, level, { [sense]: Math.min(a, b) }, distance);
          const long = perceivedLight(rs, level, { [sense]: Math.max(a, b) }, distance);
          expect(rank[long]).toBeGreaterThanOrEqual(rank[short]);
          const near = perceivedLight(rs, level, { [sense]: a }, Math.min(b, distance));
          const far = perceivedLight(rs, level, { [sense]: a }, Math.max(b, distance));
          expect(rank[near]).toBeGreaterThanOrEqual(rank[far]);
        },
      ),
    );
  });
});

describe("perceivedVisibility: obscurity (§5 Decision)", () => {
  it("light obscurity (light fog, foliage): at best dim, whatever the light", () => {
    expect(OBSCURITY_LEVELS).toEqual(["none", "light", "heavy"]);
    expect(OBSCURITY_CAP).toEqual({ none: "bright", light: "dim", heavy: "dark" });
    expect(perceivedVisibility("rnp", "bright", "light", {}, 10)).toBe("dim");
    expect(perceivedVisibility("rnp", "dim", "light", {}, 10)).toBe("dim");
    expect(perceivedVisibility("rnp", "dark", "light", {}, 10)).toBe("dark");
  });
  it("heavy obscurity (thick fog, dense foliage): dark, whatever the light", () => {
    for (const light of LIGHT_LEVELS) expect(perceivedVisibility("rnp", light, "heavy", {}, 10)).toBe("dark");
  });
  it("no obscurity: the light through the senses (perceivedLight)", () => {
    expect(perceivedVisibility("rnp", "dark", "none", { darkvision: 18 }, 10)).toBe("dim");
    expect(perceivedVisibility("dnd5e", "dim", "none", { darkvision: 18 }, 10)).toBe("bright");
    expect(perceivedVisibility("rnp", "dark", "none", {}, 10)).toBe("dark");
  });
  it("darkvision does not pierce obscurity; it still turns darkness into dim under light obscurity", () => {
    expect(perceivedVisibility("dnd5e", "dim", "light", { darkvision: 18 }, 10)).toBe("dim");
    expect(perceivedVisibility("rnp", "dark", "light", { darkvision: 18 }, 10)).toBe("dim");
    expect(perceivedVisibility("rnp", "bright", "heavy", { darkvision: 18 }, 10)).toBe("dark");
  });
  it("truesight does not pierce obscurity (it is not magical darkness)", () => {
    expect(perceivedVisibility("rnp", "bright", "heavy", { truesight: 36 }, 10)).toBe("dark");
    expect(perceivedVisibility("rnp", "bright", "light", { truesight: 36 }, 10)).toBe("dim");
  });
  it("blindsight within range ignores it; out of range it does not help", () => {
    expect(perceivedVisibility("rnp", "dark", "heavy", { blindsight: 3 }, 3)).toBe("bright");
    expect(perceivedVisibility("rnp", "bright", "light", { blindsight: 3 }, 2)).toBe("bright");
    expect(perceivedVisibility("rnp", "bright", "heavy", { blindsight: 3 }, 3.01)).toBe("dark");
  });
  it("is never better than perceivedLight (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RULESETS),
        fc.constantFrom(...LIGHT_LEVELS),
        fc.constantFrom(...OBSCURITY_LEVELS),
        fc.record({ darkvision: fc.nat(30), truesight: fc.nat(30) }),
        fc.nat(40),
        (rs, light, o, senses, d) => {
          const with_ = perceivedVisibility(rs, light, o, senses, d);
          expect(rank[with_]).toBeLessThanOrEqual(rank[perceivedLight(rs, light, senses, d)]);
          expect(rank[with_]).toBeLessThanOrEqual(rank[OBSCURITY_CAP[o]]);
        },
      ),
    );
  });
  it("rejects an unknown obscurity", () => {
    expect(keyOf(() => perceivedVisibility("rnp", "bright", "fog" as never, {}, 1))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
  });
});
