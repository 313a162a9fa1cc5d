/**
 * Ambient detection (docs/rules.md §6, "Passive Perception in dim light" and "Ambient detection"): a hidden creature is
 * noticed by an observer's passive Perception whenever the conditions between them change — they move, the light or
 * the obscurity changes, a door opens — and each observer–hider pair is judged once until something changes again.
 * *Decision* (5e SRD convention): a check with disadvantage uses the passive score −5; in darkness (or heavy
 * obscurity) an observer without a sense that works there cannot notice by sight at all.
 */
import { RulesError } from "./errors.js";
import {
  LIGHT_LEVELS,
  OBSCURITY_LEVELS,
  perceivedVisibility,
  type LightLevel,
  type Obscurity,
  type VisionSenses,
} from "./light.js";
import type { RulesetId } from "./rulesets.js";
import { clean } from "./units.js";
import { bool, num, oneOf } from "./validate.js";

/** The accepted passive Perception scores and Stealth results (DCs). */
const PASSIVE_RANGE = Object.freeze({ min: -100, max: 100 });
const DC_RANGE = Object.freeze({ min: -100, max: 200 });

/** The passive penalty of a check with disadvantage (5e SRD convention). */
export const DISADVANTAGE_PASSIVE_PENALTY = 5;

/**
 * Whether an observer notices a hidden creature by passive Perception. `light` is the light at the hider as the
 * observer perceives it through its senses and the obscurity between them: bright → passive ≥ DC; dim → passive − 5 ≥
 * DC; dark → never.
 */
export function passiveNotices(input: { passive: number; dc: number; light: LightLevel }): boolean {
  if (!input || typeof input !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "input" });
  const passive = num("passive", input.passive, PASSIVE_RANGE);
  const dc = num("dc", input.dc, DC_RANGE);
  const light = oneOf("light", input.light, LIGHT_LEVELS);
  if (light === "dark") return false;
  return (light === "dim" ? passive - DISADVANTAGE_PASSIVE_PENALTY : passive) >= dc;
}

/** What an observer perceives of a hider's spot: the input of `perceivedHider`. Metres. */
export interface HiderView {
  ruleset: RulesetId;
  /** The actual light at the hider. */
  light: LightLevel;
  /** How obscured the hider's spot is (default "none"). */
  obscurity?: Obscurity;
  /** Whether the hider is invisible (default false). */
  invisible?: boolean;
  /** The observer's senses and its distance to the hider. */
  senses: VisionSenses;
  distance: number;
}

/**
 * The light at a hider as an observer perceives it (docs/rules.md §5–6): `perceivedVisibility` (the light through the
 * observer's senses, then capped by the obscurity of the hider's spot), and an invisible hider counts as in a zone of
 * no visibility ("dark") unless the observer's blindsight or truesight reaches it (the *Decision* of `canTryToHide`).
 * Throws like `perceivedVisibility`, and UnknownValue (a non-boolean `invisible`).
 */
export function perceivedHider(view: HiderView): LightLevel {
  if (!view || typeof view !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "view" });
  const obscurity = view.obscurity === undefined ? "none" : oneOf("obscurity", view.obscurity, OBSCURITY_LEVELS);
  const invisible = bool("invisible", view.invisible, false);
  const level = perceivedVisibility(view.ruleset, view.light, obscurity, view.senses, view.distance);
  if (!invisible) return level;
  // perceivedVisibility has checked the distance and the senses' ranges.
  const d = clean(view.distance);
  const reaches = (range: number = 0) => range > 0 && d <= clean(range);
  return reaches(view.senses.blindsight) || reaches(view.senses.truesight) ? level : "dark";
}

/** What decides whether an observer may notice a hider, as last judged. */
export interface DetectionCondition {
  observer: string;
  hider: string;
  /** Line of sight through walls and within the range of a sense that works there. */
  inView: boolean;
  /** The light at the hider as the observer perceives it (obscurity included). */
  light: LightLevel;
  /** The observer's passive Perception (null: unknown) and whether it is searching (it rolls instead). */
  passive: number | null;
  searching: boolean;
  /** The hider's Stealth result. */
  dc: number;
}

/** The key of an observer–hider pair. */
export function detectionKey(c: Pick<DetectionCondition, "observer" | "hider">): string {
  if (!c || typeof c !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "pair" });
  for (const k of ["observer", "hider"] as const) {
    const v = c[k];
    if (typeof v !== "string" || v === "" || v.length > 64) throw new RulesError("AVENTURE.Error.Missing", { name: k });
  }
  return `${c.observer}|${c.hider}`;
}

const isId = (v: unknown): v is string => typeof v === "string" && v !== "" && v.length <= 64;
// Stryker disable next-line all: equivalent (a fast path: when it says no, num() makes the same check and throws only
// for a bad value).
const within = (v: unknown, r: { min: number; max: number }): boolean =>
  typeof v === "number" && v >= r.min && v <= r.max;

/** A condition checked field by field (no copy: it runs for thousands of pairs on every change). */
function check(c: unknown, i: number, where: string): DetectionCondition {
  if (!c || typeof c !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: `${where}[${i}]` });
  const d = c as DetectionCondition;
  if (!isId(d.observer)) throw new RulesError("AVENTURE.Error.Missing", { name: `${where}[${i}].observer` });
  if (!isId(d.hider)) throw new RulesError("AVENTURE.Error.Missing", { name: `${where}[${i}].hider` });
  if (typeof d.inView !== "boolean" || typeof d.searching !== "boolean")
    throw new RulesError("AVENTURE.Error.Missing", { name: `${where}[${i}].inView` });
  // The error (and its message) is built only for a bad value: each condition below is a fast path that oneOf() and
  // num() repeat (the mutants of the fast paths are equivalent).
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent (a fast path: oneOf()
  // makes the same check).
  if (d.light !== "bright" && d.light !== "dim" && d.light !== "dark")
    oneOf(`${where}[${i}].light`, d.light, LIGHT_LEVELS);
  // Stryker disable next-line ConditionalExpression: equivalent (a fast path: num() makes the same check).
  if (d.passive !== null && !within(d.passive, PASSIVE_RANGE)) num(`${where}[${i}].passive`, d.passive, PASSIVE_RANGE);
  // Stryker disable next-line ConditionalExpression: equivalent (a fast path: num() makes the same check).
  if (!within(d.dc, DC_RANGE)) num(`${where}[${i}].dc`, d.dc, DC_RANGE);
  return d;
}

/** At most this many pairs in one comparison (40 hiders × 60 observers is 2400). */
export const MAX_DETECTION_PAIRS = 20_000;

/**
 * The pairs of `current` whose conditions differ from `previous` (or that are new), in `current`'s order: the pairs
 * to judge again. A pair judged before and unchanged is left out, so each pair is judged once until something
 * changes; pairs that are gone are simply not listed. Each listed pair is a copy of its seven fields.
 */
export function detectionChanges(
  previous: readonly DetectionCondition[],
  current: readonly DetectionCondition[],
): DetectionCondition[] {
  if (!Array.isArray(previous) || !Array.isArray(current))
    throw new RulesError("AVENTURE.Error.Missing", { name: "conditions" });
  if (previous.length > MAX_DETECTION_PAIRS || current.length > MAX_DETECTION_PAIRS) {
    throw new RulesError("AVENTURE.Error.OutOfRange", {
      name: "pairs",
      value: Math.max(previous.length, current.length),
      min: 0,
      max: MAX_DETECTION_PAIRS,
    });
  }
  // By observer, then hider: no key string built per pair (this runs on every change, for thousands of pairs).
  const before = new Map<string, Map<string, DetectionCondition>>();
  previous.forEach((c, i) => {
    const v = check(c, i, "previous");
    let row = before.get(v.observer);
    if (!row) before.set(v.observer, (row = new Map()));
    row.set(v.hider, v);
  });
  const out: DetectionCondition[] = [];
  const seen = new Map<string, Set<string>>();
  current.forEach((c, i) => {
    const v = check(c, i, "current");
    let hiders = seen.get(v.observer);
    if (!hiders) seen.set(v.observer, (hiders = new Set()));
    if (hiders.has(v.hider))
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `current[${i}]`,
        value: detectionKey(v),
        allowed: "one condition per pair",
      });
    hiders.add(v.hider);
    const p = before.get(v.observer)?.get(v.hider);
    // A changed pair is returned as a copy of its known fields only (whatever else the caller's object holds stays
    // out).
    if (
      !p ||
      p.inView !== v.inView ||
      p.light !== v.light ||
      p.passive !== v.passive ||
      p.searching !== v.searching ||
      p.dc !== v.dc
    ) {
      out.push({
        observer: v.observer,
        hider: v.hider,
        inView: v.inView,
        light: v.light,
        passive: v.passive,
        searching: v.searching,
        dc: v.dc,
      });
    }
  });
  return out;
}
