/**
 * Ambient detection (RULES.md §6, "Passive Perception in dim light" and "Ambient detection"): a hidden creature is
 * noticed by an observer's passive Perception whenever the conditions between them change — they move, the light or
 * the obscurity changes, a door opens — and each observer–hider pair is judged once until something changes again.
 * *Decision* (5e SRD convention): a check with disadvantage uses the passive score −5; in darkness (or heavy
 * obscurity) an observer without a sense that works there cannot notice by sight at all.
 */
import { RulesError } from "./errors.js";
import { LIGHT_LEVELS, type LightLevel } from "./light.js";
import { num, oneOf } from "./validate.js";

/** The passive penalty of a check with disadvantage (5e SRD convention). */
export const DISADVANTAGE_PASSIVE_PENALTY = 5;

/**
 * Whether an observer notices a hidden creature by passive Perception. `light` is the light at the hider as the
 * observer perceives it through its senses and the obscurity between them: bright → passive ≥ DC; dim → passive − 5 ≥
 * DC; dark → never.
 */
export function passiveNotices(input: { passive: number; dc: number; light: LightLevel }): boolean {
  if (!input || typeof input !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "input" });
  const passive = num("passive", input.passive, { min: -100, max: 100 });
  const dc = num("dc", input.dc, { min: -100, max: 200 });
  const light = oneOf("light", input.light, LIGHT_LEVELS);
  if (light === "dark") return false;
  return (light === "dim" ? passive - DISADVANTAGE_PASSIVE_PENALTY : passive) >= dc;
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

function check(c: unknown, i: number, where: string): DetectionCondition {
  if (!c || typeof c !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: `${where}[${i}]` });
  const d = c as Partial<DetectionCondition>;
  const id = (v: unknown, name: string) => {
    if (typeof v !== "string" || v === "" || v.length > 64) throw new RulesError("AVENTURE.Error.Missing", { name: `${where}[${i}].${name}` });
    return v;
  };
  if (typeof d.inView !== "boolean" || typeof d.searching !== "boolean") throw new RulesError("AVENTURE.Error.Missing", { name: `${where}[${i}].inView` });
  return {
    observer: id(d.observer, "observer"),
    hider: id(d.hider, "hider"),
    inView: d.inView,
    light: oneOf(`${where}[${i}].light`, d.light, LIGHT_LEVELS),
    passive: d.passive === null ? null : num(`${where}[${i}].passive`, d.passive, { min: -100, max: 100 }),
    searching: d.searching,
    dc: num(`${where}[${i}].dc`, d.dc, { min: -100, max: 200 }),
  };
}

/** At most this many pairs in one comparison (40 hiders × 60 observers is 2400). */
export const MAX_DETECTION_PAIRS = 20_000;

/**
 * The pairs of `current` whose conditions differ from `previous` (or that are new), in `current`'s order: the pairs
 * to judge again. A pair judged before and unchanged is left out, so each pair is judged once until something
 * changes; pairs that are gone are simply not listed.
 */
export function detectionChanges(previous: readonly DetectionCondition[], current: readonly DetectionCondition[]): DetectionCondition[] {
  if (!Array.isArray(previous) || !Array.isArray(current)) throw new RulesError("AVENTURE.Error.Missing", { name: "conditions" });
  if (previous.length > MAX_DETECTION_PAIRS || current.length > MAX_DETECTION_PAIRS) {
    throw new RulesError("AVENTURE.Error.OutOfRange", { name: "pairs", value: Math.max(previous.length, current.length), min: 0, max: MAX_DETECTION_PAIRS });
  }
  const before = new Map<string, DetectionCondition>();
  previous.forEach((c, i) => {
    const v = check(c, i, "previous");
    before.set(detectionKey(v), v);
  });
  const out: DetectionCondition[] = [];
  const seen = new Set<string>();
  current.forEach((c, i) => {
    const v = check(c, i, "current");
    const key = detectionKey(v);
    if (seen.has(key)) throw new RulesError("AVENTURE.Error.UnknownValue", { name: `current[${i}]`, value: key, allowed: "one condition per pair" });
    seen.add(key);
    const p = before.get(key);
    if (!p || p.inView !== v.inView || p.light !== v.light || p.passive !== v.passive || p.searching !== v.searching || p.dc !== v.dc) out.push(v);
  });
  return out;
}
