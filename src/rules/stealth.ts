/**
 * Stealth and hiding (docs/rules.md §6, rnp; the other rulesets use the same rules when the glue offers hiding).
 * Pure functions, metres. Documented in docs/api/light.md.
 */
import { RulesError } from "./errors.js";
import {
  LIGHT_LEVELS,
  OBSCURITY_LEVELS,
  perceivedLightDetail,
  type LightLevel,
  type Obscurity,
  type VisionSense,
  type VisionSenses,
} from "./light.js";
import { ruleset, type RulesetId } from "./rulesets.js";
import { clean } from "./units.js";
import { bool, num, oneOf } from "./validate.js";
import { deepFreeze, list, metres } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";

/**
 * Travel paces accepted by canTryToHide (docs/rules.md §2.1); only "slow" allows stealth while travelling (§2.2, §6).
 */
export const STEALTH_PACES = deepFreeze(["slow", "normal", "fast"] as const);
export type StealthPace = (typeof STEALTH_PACES)[number];

/** Why a hider can try to hide from an observer (the §6 prerequisites, in the order they are checked). */
export const HIDE_BECAUSE = deepFreeze(["cover", "darkness", "obscured", "invisible", "notWatching"] as const);
export type HideBecause = (typeof HIDE_BECAUSE)[number];

/** What lets an observer see the hider: the hider stands in light (bright or dim), or one of the observer's senses. */
export type HideBlocker = "light" | VisionSense;

/** Reason codes for an overall refusal. */
export const HIDE_REASONS = deepFreeze(["noObservers", "needsSlowPace", "observerSees"] as const);
export type HideReason = (typeof HIDE_REASONS)[number];

export interface HideObserver {
  id: string;
  /** false = total cover between the observer and the hider. */
  hasLineOfSight: boolean;
  senses: VisionSenses;
  /** Distance from the observer to the hider, metres. */
  distance: number;
  /** With the referee's agreement, the observer is not watching the hider's spot. */
  notWatching?: boolean;
}

export interface HideAttemptInput {
  ruleset: RulesetId;
  /** Actual light level at the hider. */
  hiderLight: LightLevel;
  /**
   * How obscured the hider's area is (docs/rules.md §5): heavy obscurity is a zone of no visibility. Default "none".
   */
  hiderObscurity?: Obscurity;
  invisible: boolean;
  travelling?: boolean;
  /** Required when travelling. */
  pace?: StealthPace;
  observers: readonly HideObserver[];
}

export interface HideObserverResult {
  id: string;
  canHideFrom: boolean;
  /** The prerequisite that holds against this observer, or null. */
  because: HideBecause | null;
  /** When canHideFrom is false: what lets the observer see the hider. */
  blockedBy?: HideBlocker;
}

export interface HideAttempt {
  /** True when the hider can try to hide from every observer (and the pace allows it). */
  ok: boolean;
  /** Why not (empty when ok). */
  reasons: HideReason[];
  observers: HideObserverResult[];
  /** Ids of the observers it may hide from (empty when the pace forbids stealth). */
  hideableFrom: string[];
  /** Ids of the observers that see it. */
  seenBy: string[];
}

function requireBool(name: string, value: unknown): boolean {
  if (value === undefined || value === null) throw new RulesError("AVENTURE.Error.Missing", { name });
  // Stryker disable next-line BooleanLiteral: equivalent (undefined was refused above: the fallback is never used).
  return bool(name, value, false);
}

function requireId(name: string, value: unknown): string {
  if (typeof value !== "string" || value === "") throw new RulesError("AVENTURE.Error.Missing", { name });
  return value;
}

function requireObject<T>(name: string, value: T): T {
  if (value === null || typeof value !== "object") throw new RulesError("AVENTURE.Error.Missing", { name });
  return value;
}

function within(distance: number, range: number | undefined, name: string): boolean {
  if (range === undefined) return false;
  const r = metres(name, range);
  return r > 0 && clean(distance) <= clean(r);
}

/**
 * Whether the §6 prerequisites hold: each observer must not see the hider, by one of (checked in this order)
 * - "cover": no line of sight (total cover);
 * - "darkness": the hider's light, as perceived by THAT observer with its senses at its distance, is dark
 *   (no darkvision or out of its range; blindsight and truesight see in darkness; see perceivedLight);
 * - "obscured": the hider is in a heavily obscured area (thick fog, dense foliage: a zone of no visibility,
 * docs/rules.md
 *   §5–6) and the observer has no blindsight within range (darkvision and truesight do not see through it);
 * - "invisible": the hider is invisible and the observer has neither truesight nor blindsight within range.
 * *Decision*: docs/rules.md says an invisible creature counts as in a zone of no visibility; blindsight is "not
 * affected
 *   by darkness", so it perceives an invisible hider too; darkvision does not;
 * - "notWatching": the referee agrees the observer is not watching the spot.
 * Being invisible is not being hidden: it only allows the attempt (hideResult decides).
 * While travelling, stealth requires the slow pace ("needsSlowPace"; then hideableFrom is empty).
 * No observers → ok false, "noObservers". Some observer sees the hider → ok false, "observerSees"; the glue may still
 * let it hide from `hideableFrom` only.
 * Throws UnknownRuleset / UnknownValue / Missing / NotANumber / Negative.
 */
export function canTryToHide(input: HideAttemptInput): HideAttempt {
  requireObject("input", input);
  const rs = ruleset(input.ruleset);
  const hiderLight = oneOf("hiderLight", input.hiderLight, LIGHT_LEVELS);
  // Only heavy obscurity counts (light obscurity is not enough, none is the default).
  const heavy =
    input.hiderObscurity !== undefined && oneOf("hiderObscurity", input.hiderObscurity, OBSCURITY_LEVELS) === "heavy";
  const invisible = requireBool("invisible", input.invisible);
  const travelling = bool("travelling", input.travelling, false);
  let pace: StealthPace | undefined;
  if (input.pace !== undefined) pace = oneOf("pace", input.pace, STEALTH_PACES);
  if (travelling && pace === undefined) throw new RulesError("AVENTURE.Error.Missing", { name: "pace" });
  const observers = list("observers", input.observers, RULES_LIMITS.maxParty) as readonly HideObserver[];

  const results: HideObserverResult[] = observers.map((o, i) => {
    requireObject(`observers[${i}]`, o);
    const id = requireId(`observers[${i}].id`, o.id);
    const los = requireBool(`observers[${i}].hasLineOfSight`, o.hasLineOfSight);
    const senses = requireObject(`observers[${i}].senses`, o.senses);
    const distance = metres(`observers[${i}].distance`, o.distance);
    const notWatching = bool(`observers[${i}].notWatching`, o.notWatching, false);
    // The senses are checked here first, so that a bad range names its observer (perceivedLightDetail cannot).
    if (senses.darkvision !== undefined) metres(`observers[${i}].senses.darkvision`, senses.darkvision);
    const blindsight = within(distance, senses.blindsight, `observers[${i}].senses.blindsight`);
    const truesight = within(distance, senses.truesight, `observers[${i}].senses.truesight`);
    const seesInvisible: VisionSense | null = blindsight ? "blindsight" : truesight ? "truesight" : null;
    const perceived = perceivedLightDetail(rs, hiderLight, senses, distance);

    let because: HideBecause | null = null;
    if (!los) because = "cover";
    else if (perceived.level === "dark") because = "darkness";
    else if (heavy && !blindsight) because = "obscured";
    else if (invisible && seesInvisible === null) because = "invisible";
    else if (notWatching) because = "notWatching";
    if (because !== null) return { id, canHideFrom: true, because };

    let blockedBy: HideBlocker = "light";
    // A hider in darkness that the observer does not perceive as dark: one of its senses made the difference.
    if (hiderLight === "dark") blockedBy = perceived.sense as VisionSense;
    else if (heavy) blockedBy = "blindsight";
    // An invisible hider seen: only by a sense that sees it (otherwise "invisible" above).
    else if (invisible) blockedBy = seesInvisible as VisionSense;
    return { id, canHideFrom: false, because: null, blockedBy };
  });

  const reasons: HideReason[] = [];
  if (results.length === 0) reasons.push("noObservers");
  const paceOk = !travelling || pace === "slow";
  if (!paceOk) reasons.push("needsSlowPace");
  if (results.some((r) => !r.canHideFrom)) reasons.push("observerSees");
  return {
    ok: reasons.length === 0,
    reasons,
    observers: results,
    hideableFrom: paceOk ? results.filter((r) => r.canHideFrom).map((r) => r.id) : [],
    seenBy: results.filter((r) => !r.canHideFrom).map((r) => r.id),
  };
}

export interface HideCheckObserver {
  id: string;
  /** Passive Wisdom (Perception); may be null (unknown) only for a searching observer, whose roll is used instead. */
  passivePerception: number | null;
  /** Actively searching: it rolls Wisdom (Perception) instead of using its passive score. */
  searching: boolean;
  /** The Wisdom (Perception) total; required when searching. */
  perceptionRoll?: number;
}

export interface HideCheckResult {
  /** The DC to spot the hider: its Dexterity (Stealth) total. */
  dc: number;
  spottedBy: string[];
  hiddenFrom: string[];
}

/**
 * Resolves a hiding attempt (docs/rules.md §6): the Dexterity (Stealth) total is the DC. An observer not searching
 * spots
 * the hider when its passive Perception ≥ DC; a searching observer spots it when its Wisdom (Perception) roll ≥ DC
 * (its passive score is not used). The hider is hidden from every observer that fails.
 * All numbers must be finite integers; a searching observer's passive may be null (unknown). Throws NotANumber /
 * NotAnInteger / Missing (perceptionRoll when searching, id, searching) / UnknownValue.
 * (Modifiers such as the fast pace's −5 passive are the caller's: pass the adjusted passive score.)
 */
export function hideResult(input: { stealthTotal: number; observers: readonly HideCheckObserver[] }): HideCheckResult {
  requireObject("input", input);
  const score = { integer: true, min: -RULES_LIMITS.maxScore, max: RULES_LIMITS.maxScore };
  const dc = num("stealthTotal", input.stealthTotal, score);
  const observers = list("observers", input.observers, RULES_LIMITS.maxParty) as readonly HideCheckObserver[];
  const spottedBy: string[] = [];
  const hiddenFrom: string[] = [];
  observers.forEach((o, i) => {
    requireObject(`observers[${i}]`, o);
    const id = requireId(`observers[${i}].id`, o.id);
    const searching = requireBool(`observers[${i}].searching`, o.searching);
    const passiveKnown = !(searching && (o.passivePerception === null || o.passivePerception === undefined));
    const passive = passiveKnown ? num(`observers[${i}].passivePerception`, o.passivePerception, score) : null;
    let total = passive ?? 0;
    if (searching) {
      if (o.perceptionRoll === undefined || o.perceptionRoll === null) {
        throw new RulesError("AVENTURE.Error.Missing", { name: `observers[${i}].perceptionRoll` });
      }
      total = num(`observers[${i}].perceptionRoll`, o.perceptionRoll, score);
    } else if (o.perceptionRoll !== undefined) {
      num(`observers[${i}].perceptionRoll`, o.perceptionRoll, score);
    }
    (total >= dc ? spottedBy : hiddenFrom).push(id);
  });
  return { dc, spottedBy, hiddenFrom };
}

/** Events that end hiding (docs/rules.md §6). */
export const HIDE_END_EVENTS = deepFreeze([
  "revealed",
  "attacked",
  "enteredView",
  "seenByMover",
  "coverRemoved",
  "leftDarkness",
  "noise",
] as const);
export type HideEndEvent = (typeof HIDE_END_EVENTS)[number];

/**
 * docs/rules.md §6 list of what ends hiding, as data. Every event ends hiding; to hide again the prerequisites must be
 * met
 * again. `perceptionCheck`: *Decision* — the events that make the prerequisites stop holding (the hider moves into a
 * field of view, an observer moves so that it sees it, its cover is moved or destroyed, it leaves the zone of no
 * visibility) give observers a Wisdom (Perception) check; those where the hider gives itself away (reveals itself,
 * attacks even if it misses, makes noise) reveal its position outright, no check. The referee may still rule an
 * obvious reveal spots it without a check (seed 000).
 */
export const HIDE_ENDS: Readonly<Record<HideEndEvent, Readonly<{ perceptionCheck: boolean }>>> = Object.freeze({
  revealed: Object.freeze({ perceptionCheck: false }),
  attacked: Object.freeze({ perceptionCheck: false }),
  enteredView: Object.freeze({ perceptionCheck: true }),
  seenByMover: Object.freeze({ perceptionCheck: true }),
  coverRemoved: Object.freeze({ perceptionCheck: true }),
  leftDarkness: Object.freeze({ perceptionCheck: true }),
  noise: Object.freeze({ perceptionCheck: false }),
});

export interface HideEnd {
  event: HideEndEvent;
  /** Always true: every listed event ends hiding. */
  endsHiding: true;
  /** Whether observers get a Wisdom (Perception) check (the prerequisites stopped holding). */
  perceptionCheck: boolean;
}

/** What happens to a hidden creature on `event` (HIDE_ENDS). Throws UnknownValue for an unknown event. */
export function hideEnds(event: HideEndEvent): HideEnd {
  const e = oneOf("event", event, HIDE_END_EVENTS);
  return { event: e, endsHiding: true, perceptionCheck: HIDE_ENDS[e].perceptionCheck };
}
