/**
 * Light, vision and visibility (docs/rules.md §5; rnp, dnd5e falls back to rnp except for the darkvision Decision).
 * Pure functions, metres. Documented in docs/api/light.md.
 */
import { show } from "./text.js";
import { RulesError } from "./errors.js";
import { ruleset, type RulesetId } from "./rulesets.js";
import { clean } from "./units.js";
import { num, oneOf } from "./validate.js";
import { deepFreeze, list, metres } from "./guard.js";

/** The three light levels, darkest first (the order is used to compare levels). */
export const LIGHT_LEVELS = deepFreeze(["dark", "dim", "bright"] as const);
export type LightLevel = (typeof LIGHT_LEVELS)[number];

export type Visibility = "normal" | "reduced" | "none";
/** The §5 effects, mildest first (the order is used to compare effects). */
export const VISIBILITY_EFFECTS = deepFreeze(["none", "disadvantage", "blinded"] as const);
export type VisibilityEffect = (typeof VISIBILITY_EFFECTS)[number];

/**
 * docs/rules.md §5 table: light level → visibility and the effect on a creature trying to see there.
 * - bright: normal visibility, no effect;
 * - dim: reduced visibility (light fog, foliage too): disadvantage on Wisdom (Perception) checks relying on sight;
 * - dark: no visibility (thick fog, darkness spell, dense foliage too): effectively blinded (sees nothing,
 *   automatically fails checks needing sight; its attacks have disadvantage, attacks against it have advantage).
 */
export const LIGHT_VISIBILITY: Readonly<
  Record<LightLevel, Readonly<{ visibility: Visibility; effect: VisibilityEffect }>>
> = Object.freeze({
  bright: Object.freeze({ visibility: "normal", effect: "none" }),
  dim: Object.freeze({ visibility: "reduced", effect: "disadvantage" }),
  dark: Object.freeze({ visibility: "none", effect: "blinded" }),
});

/** Darkness thresholds (scene darkness 0..1) separating the ambient light levels. */
export interface LightThresholds {
  /** Darkness strictly below this is bright (daylight). */
  bright: number;
  /**
   * Darkness strictly below this (and not below `bright`) is dim (dawn, dusk, bright full moon); at or above: dark
   * (night).
   */
  dim: number;
}

/**
 * Default thresholds: darkness < 0.25 bright (daylight), < 0.75 dim (dawn, dusk, bright moon), otherwise dark (night).
 */
export const LIGHT_THRESHOLDS: Readonly<LightThresholds> = Object.freeze({ bright: 0.25, dim: 0.75 });

/** A light source reaching the point (walls already accounted for by the caller). Metres. */
export interface LightSource {
  /** Distance from the source to the point. */
  distance: number;
  /** Bright-light radius (0 = none). */
  bright: number;
  /** Dim-light radius (0 = none). */
  dim: number;
}

export interface LightPoint {
  /** Scene darkness level at the point, 0 (full daylight) .. 1 (full darkness). */
  darkness: number;
  /** Whether global illumination (ambient daylight/moonlight) reaches the point. */
  globalLight: boolean;
  /** The light sources that reach the point. */
  sources: readonly LightSource[];
}

/** Senses of a creature, ranges in metres; 0 or undefined = the creature lacks the sense. */
export interface VisionSenses {
  darkvision?: number;
  blindsight?: number;
  truesight?: number;
}

/** The senses the module knows, in the order used to name "which sense made the difference". */
export const VISION_SENSES = deepFreeze(["darkvision", "blindsight", "truesight"] as const);
export type VisionSense = (typeof VISION_SENSES)[number];
export type PerceivedSense = "none" | VisionSense;

/**
 * What darkvision does to each light level, per ruleset (docs/rules.md §5 *Decision*):
 * rnp says darkness counts as dim within range and says nothing about dim light, so dim stays dim;
 * dnd5e follows the 5e SRD (dim counts as bright, darkness as dim). pmt, ose and polaris have no vision rules
 * in their sources and fall back to rnp.
 */
export const DARKVISION_BY_RULESET: Readonly<Record<RulesetId, Readonly<Record<LightLevel, LightLevel>>>> =
  Object.freeze({
    rnp: Object.freeze({ dark: "dim", dim: "dim", bright: "bright" }),
    dnd5e: Object.freeze({ dark: "dim", dim: "bright", bright: "bright" }),
    pmt: Object.freeze({ dark: "dim", dim: "dim", bright: "bright" }),
    ose: Object.freeze({ dark: "dim", dim: "dim", bright: "bright" }),
    polaris: Object.freeze({ dark: "dim", dim: "dim", bright: "bright" }),
  });

/**
 * What blindsight and truesight do within range (docs/rules.md §5): blindsight is not affected by dim light or
 * darkness, truesight sees in (magical) darkness; both make dim and dark count as bright.
 */
export const NON_DARKVISION_SENSE_EFFECT: Readonly<Record<LightLevel, LightLevel>> = Object.freeze({
  dark: "bright",
  dim: "bright",
  bright: "bright",
});

/** Rank of a light level: dark 0, dim 1, bright 2 (higher = more light). */
export function lightRank(level: LightLevel): number {
  return LIGHT_LEVELS.indexOf(oneOf("level", level, LIGHT_LEVELS));
}

/** True when `distance` is within `radius` (the edge counts as inside; a radius of 0 reaches nothing). */
function reaches(distance: number, radius: number): boolean {
  return radius > 0 && clean(distance) <= clean(radius);
}

function requireBool(name: string, value: unknown): boolean {
  if (value === undefined || value === null) throw new RulesError("AVENTURE.Error.Missing", { name });
  if (typeof value !== "boolean") {
    throw new RulesError("AVENTURE.Error.UnknownValue", { name, value: show(value), allowed: "true, false" });
  }
  return value;
}

/**
 * Validates light thresholds: both numbers in 0..1 with bright ≤ dim. Returns them (a fresh frozen object), or
 * LIGHT_THRESHOLDS when `thresholds` is undefined. Throws NotANumber / Negative / OutOfRange / Missing.
 */
export function lightThresholds(thresholds?: LightThresholds): Readonly<LightThresholds> {
  if (thresholds === undefined) return LIGHT_THRESHOLDS;
  checkThresholds(thresholds);
  return Object.freeze({ bright: thresholds.bright, dim: thresholds.dim });
}

/** Allocation-free validation of thresholds (used on the fast path). */
function checkThresholds(t: LightThresholds): void {
  if (t === null || typeof t !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "thresholds" });
  const dim = num("thresholds.dim", t.dim, { min: 0, max: 1 });
  num("thresholds.bright", t.bright, { min: 0, max: dim });
}

/**
 * The ambient light level from the darkness alone: darkness < thresholds.bright → bright; < thresholds.dim → dim;
 * otherwise dark. Boundaries: exactly 0.25 is dim, exactly 0.75 is dark with the defaults.
 */
export function ambientLight(darkness: number, thresholds: LightThresholds = LIGHT_THRESHOLDS): LightLevel {
  checkThresholds(thresholds);
  const d = num("darkness", darkness, { min: 0, max: 1 });
  if (d < thresholds.bright) return "bright";
  if (d < thresholds.dim) return "dim";
  return "dark";
}

/**
 * Fast, allocation-free light level for the glue: the caller has already decided whether the point is inside some
 * source's bright radius (`inBright`) or dim radius (`inDim`).
 *
 * *Decision* (global light): `globalLight` says whether ambient light (daylight, moonlight) reaches the point, like
 * Foundry's global illumination. When it is off the ambient level is **dark** whatever the darkness (underground,
 * unlit room: docs/rules.md §5); when it is on the ambient level comes from the darkness and the thresholds
 * (day bright, dawn/dusk/bright moon dim, night dark). The result is the best of the ambient level and the sources:
 * inBright → bright; inDim → at least dim.
 */
export function lightLevelFromNearest(
  darkness: number,
  globalLight: boolean,
  inBright: boolean,
  inDim: boolean,
  thresholds: LightThresholds = LIGHT_THRESHOLDS,
): LightLevel {
  checkThresholds(thresholds);
  const d = num("darkness", darkness, { min: 0, max: 1 });
  const g = requireBool("globalLight", globalLight);
  const b = requireBool("inBright", inBright);
  const m = requireBool("inDim", inDim);
  if (b) return "bright";
  const ambient: LightLevel = !g ? "dark" : d < thresholds.bright ? "bright" : d < thresholds.dim ? "dim" : "dark";
  if (ambient === "bright") return "bright";
  if (m) return "dim";
  return ambient;
}

/**
 * The light level at a point (docs/rules.md §5). Inside a source's bright radius → bright; inside a dim radius → at
 * least
 * dim; otherwise the ambient level (see lightLevelFromNearest for the globalLight *Decision*). A point exactly on a
 * radius is inside; a radius of 0 lights nothing (a source with bright 0 and dim r lights dim within r). A bright
 * radius larger than the dim radius is allowed (bright wins inside it).
 * Throws NotANumber / Negative / OutOfRange (darkness outside 0..1, bad thresholds) / Missing / UnknownValue.
 */
export function lightLevel(point: LightPoint, thresholds: LightThresholds = LIGHT_THRESHOLDS): LightLevel {
  if (point === null || typeof point !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "point" });
  const sources = list("sources", point.sources);
  let inBright = false;
  let inDim = false;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i] as LightSource;
    if (s === null || typeof s !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: `sources[${i}]` });
    const distance = metres(`sources[${i}].distance`, s.distance);
    const bright = metres(`sources[${i}].bright`, s.bright);
    const dim = metres(`sources[${i}].dim`, s.dim);
    if (reaches(distance, bright)) inBright = true;
    else if (reaches(distance, dim)) inDim = true;
  }
  return lightLevelFromNearest(point.darkness, point.globalLight, inBright, inDim, thresholds);
}

export interface PerceivedLight {
  /** The level the creature effectively experiences. */
  level: LightLevel;
  /** The sense that improved the level ("none" when the actual level stands). */
  sense: PerceivedSense;
}

function senseRange(senses: VisionSenses, sense: VisionSense): number {
  const v = senses[sense];
  return v === undefined ? 0 : metres(`senses.${sense}`, v);
}

/**
 * Like perceivedLight, and names the sense that made the difference (for the HUD). When several senses give the
 * same result the first in VISION_SENSES order (darkvision, blindsight, truesight) is named.
 */
export function perceivedLightDetail(
  rulesetId: RulesetId,
  level: LightLevel,
  senses: VisionSenses,
  distance: number,
): PerceivedLight {
  const rs = ruleset(rulesetId);
  const actual = oneOf("level", level, LIGHT_LEVELS);
  if (senses === null || typeof senses !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "senses" });
  const d = metres("distance", distance);
  const dv = senseRange(senses, "darkvision");
  const bs = senseRange(senses, "blindsight");
  const ts = senseRange(senses, "truesight");
  let best: LightLevel = actual;
  let sense: PerceivedSense = "none";
  const consider = (candidate: LightLevel, by: VisionSense): void => {
    if (LIGHT_LEVELS.indexOf(candidate) > LIGHT_LEVELS.indexOf(best)) {
      best = candidate;
      sense = by;
    }
  };
  if (reaches(d, dv)) consider(DARKVISION_BY_RULESET[rs][actual], "darkvision");
  if (reaches(d, bs)) consider(NON_DARKVISION_SENSE_EFFECT[actual], "blindsight");
  if (reaches(d, ts)) consider(NON_DARKVISION_SENSE_EFFECT[actual], "truesight");
  return { level: best, sense };
}

/**
 * The light level a creature with `senses` effectively experiences when looking at a point `distance` metres away
 * whose actual light is `level` (docs/rules.md §5). A sense works within its range (the edge counts; 0 = none):
 * - darkvision: rnp turns dark into dim and leaves dim as dim; dnd5e also turns dim into bright (*Decision*, 5e SRD);
 *   pmt, ose and polaris fall back to rnp;
 * - blindsight and truesight: dim and dark count as bright.
 * Never worse than `level`. Magical darkness that defeats darkvision is not modelled (the glue passes senses that
 * apply).
 * Throws UnknownRuleset / UnknownValue / NotANumber / Negative / Missing.
 */
export function perceivedLight(
  rulesetId: RulesetId,
  level: LightLevel,
  senses: VisionSenses,
  distance: number,
): LightLevel {
  return perceivedLightDetail(rulesetId, level, senses, distance).level;
}

/**
 * How obscured an area is (docs/rules.md §5 *Decision*): not, lightly (light fog, foliage) or heavily (thick fog, dense
 * foliage).
 */
export const OBSCURITY_LEVELS = deepFreeze(["none", "light", "heavy"] as const);
export type Obscurity = (typeof OBSCURITY_LEVELS)[number];

/**
 * The best light level one can perceive through each obscurity (docs/rules.md §5): none → bright, light → dim, heavy →
 * dark.
 */
export const OBSCURITY_CAP: Readonly<Record<Obscurity, LightLevel>> = Object.freeze({
  none: "bright",
  light: "dim",
  heavy: "dark",
});

/**
 * What a creature with `senses` perceives of a point `distance` metres away whose light is `light` and which is
 * `obscurity` obscured (docs/rules.md §5 *Decision*): the light as perceived through the senses (perceivedLight), then
 * at
 * best dim (lightly obscured) or dark (heavily obscured), whatever the light. Darkvision does not see through
 * obscurity (it only turns darkness into dim) and neither does truesight (obscurity is not magical darkness);
 * blindsight within range ignores it (bright). Throws like perceivedLight, and UnknownValue (obscurity).
 */
export function perceivedVisibility(
  rulesetId: RulesetId,
  light: LightLevel,
  obscurity: Obscurity,
  senses: VisionSenses,
  distance: number,
): LightLevel {
  const o = oneOf("obscurity", obscurity, OBSCURITY_LEVELS);
  const seen = perceivedLightDetail(rulesetId, light, senses, distance);
  // (No obscurity caps nothing: its cap is bright.)
  if (reaches(distance, senseRange(senses, "blindsight"))) return "bright";
  return LIGHT_LEVELS[Math.min(LIGHT_LEVELS.indexOf(seen.level), LIGHT_LEVELS.indexOf(OBSCURITY_CAP[o]))]!;
}

/**
 * The effect on a creature trying to see in `level` (docs/rules.md §5): bright none, dim disadvantage, dark blinded.
 */
export function visibilityEffect(level: LightLevel): VisibilityEffect {
  return LIGHT_VISIBILITY[oneOf("level", level, LIGHT_LEVELS)].effect;
}

/**
 * The mildest of several effects. *Decision*: a creature with several tokens on a scene (a linked actor placed twice)
 * gets the mildest effect of its tokens, so it is never blinded while one of its tokens can see. Throws Missing for an
 * empty list, UnknownValue for an unknown effect.
 */
export function mildestEffect(effects: readonly VisibilityEffect[]): VisibilityEffect {
  const given = list("effects", effects);
  if (given.length === 0) throw new RulesError("AVENTURE.Error.Missing", { name: "effects" });
  return VISIBILITY_EFFECTS[
    Math.min(...given.map((e) => VISIBILITY_EFFECTS.indexOf(oneOf("effect", e, VISIBILITY_EFFECTS))))
  ]!;
}
