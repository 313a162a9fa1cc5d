import { ruleset, type RulesetId } from "./rulesets.js";

/** RULES.md §1: the length of a round and of a turn, in seconds, per ruleset. */
export const TIME_TABLE: Readonly<Record<RulesetId, { round: number; turn: number | null }>> = {
  rnp: { round: 6, turn: null },
  dnd5e: { round: 6, turn: null },
  pmt: { round: 10, turn: 600 },
  ose: { round: 10, turn: 600 },
  polaris: { round: 6, turn: null },
};

/** Seconds in one combat round. */
export function roundSeconds(rs: RulesetId): number {
  return TIME_TABLE[ruleset(rs)].round;
}

/** Seconds in one exploration turn (10 min = 60 rounds in pmt and ose), or null where there is no turn. */
export function turnSeconds(rs: RulesetId): number | null {
  return TIME_TABLE[ruleset(rs)].turn;
}

/** Splits a duration in seconds into whole days, hours, minutes and the remaining seconds. */
export function splitDuration(seconds: number): { days: number; hours: number; minutes: number; seconds: number } {
  let s = Math.round(seconds);
  const days = Math.floor(s / 86400);
  s -= days * 86400;
  const hours = Math.floor(s / 3600);
  s -= hours * 3600;
  const minutes = Math.floor(s / 60);
  return { days, hours, minutes, seconds: s - minutes * 60 };
}
