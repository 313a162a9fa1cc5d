/**
 * The movement modes of an OSE monster (docs/research/systems.md §2). The OSE system stores one number, the base
 * rate `system.movement.base` (feet per 10-minute turn), and the other modes as free text, the monster sheet's
 * "Movement Details" field `system.details.movement` (`system.movement.value` in data made before the system moved
 * it there). Shapes found in the OSE system's SRD monsters: "240' Flying", "90' Swimming", "180 Flying", a bare
 * "Flying" or "Swimming" (the base rate is the flying or swimming rate: the creature does not walk), and notes that
 * are no speed ("Cling", "Blink", "120' in Webs", "210' Gliding", "120' Human Form"). Typed by hand, as the
 * rulebooks print them: "90' (30'), fly 180' (60')", "swim 120' (40')", "30' (10') / 180' (60') flying".
 * Pure: no Foundry globals.
 */

/** Feet per turn for each mode (0 = none). */
export interface OseMoves {
  walk: number;
  fly: number;
  swim: number;
}

/** At most this much of the text is read (a movement line is a few dozen characters). */
const MAX_TEXT = 200;

const FLY = /\b(?:fly|flying|flies|vol|volant)\b/i;
const SWIM = /\b(?:swim|swimming|swims|nage|nageant)\b/i;
const NUMBER = /(\d+(?:[.,]\d+)?)/;
/** A segment that is only a rate ("90'", "90 ft"): the walking rate written out. */
const ONLY_RATE = /^\s*(\d+(?:[.,]\d+)?)\s*(?:'|ft\.?|feet|pieds?)?\s*$/i;

function rate(s: string): number | null {
  const n = Number(s.replace(",", "."));
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * The walking, flying and swimming rates (feet per turn) of a monster whose base rate is `base` and whose movement
 * details are `text`. A mode written with a rate ("240' Flying") adds that mode and keeps walking at the base rate;
 * a mode written without one ("Flying") says the base rate is that mode's, and the monster walks only at a rate the
 * text writes out ("90', flying"), else not at all. Segments are separated by "," ";" "/" "or" "and"; the per-round
 * rates in parentheses are left out (a third of the turn rate). Anything else in the text is ignored.
 */
export function oseMoves(base: number, text: unknown): OseMoves {
  const out: OseMoves = { walk: base, fly: 0, swim: 0 };
  if (typeof text !== "string" || !text.trim()) return out;
  const clean = text
    .slice(0, MAX_TEXT)
    .replace(/[′’‘`]/g, "'")
    .replace(/\([^)]*\)/g, " ");
  let bare = false;
  let written: number | null = null;
  for (const segment of clean.split(/[,;/]|\b(?:or|and|ou|et)\b/i)) {
    const mode = FLY.test(segment) ? "fly" : SWIM.test(segment) ? "swim" : null;
    if (!mode) {
      const only = ONLY_RATE.exec(segment);
      if (only && written === null) written = rate(only[1]!);
      continue;
    }
    const n = NUMBER.exec(segment);
    const value = n ? rate(n[1]!) : null;
    if (value === null) {
      bare = true;
      out[mode] = Math.max(out[mode], base);
    } else {
      out[mode] = Math.max(out[mode], value);
    }
  }
  if (bare) out.walk = written ?? 0;
  return out;
}
