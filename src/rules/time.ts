import { RULES_LIMITS } from "./limits.js";
import { ruleset, type RulesetId } from "./rulesets.js";
import { num } from "./validate.js";
import { deepFreeze } from "./guard.js";

/** docs/rules.md §1: the length of a round and of a turn, in seconds, per ruleset. */
export const TIME_TABLE: Readonly<Record<RulesetId, Readonly<{ round: number; turn: number | null }>>> = deepFreeze({
  rnp: { round: 6, turn: null },
  dnd5e: { round: 6, turn: null },
  pmt: { round: 10, turn: 600 },
  ose: { round: 10, turn: 600 },
  polaris: { round: 6, turn: null },
});

/** Seconds in one combat round. */
export function roundSeconds(rs: RulesetId): number {
  return TIME_TABLE[ruleset(rs)].round;
}

/** Seconds in one exploration turn (10 min = 60 rounds in pmt and ose), or null where there is no turn. */
export function turnSeconds(rs: RulesetId): number | null {
  return TIME_TABLE[ruleset(rs)].turn;
}

/**
 * Splits a duration in seconds (0..1000 days) into whole days, hours, minutes and the remaining seconds (rounded).
 * Throws NotANumber, Negative, OutOfRange.
 */
export function splitDuration(seconds: number): { days: number; hours: number; minutes: number; seconds: number } {
  let s = Math.round(num("seconds", seconds, { min: 0, max: RULES_LIMITS.maxSeconds }));
  const days = Math.floor(s / 86400);
  s -= days * 86400;
  const hours = Math.floor(s / 3600);
  s -= hours * 3600;
  const minutes = Math.floor(s / 60);
  return { days, hours, minutes, seconds: s - minutes * 60 };
}
