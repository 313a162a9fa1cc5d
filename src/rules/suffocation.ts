import { deepFreeze } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";
import { holdBreath, suffocationRounds } from "./survival.js";
import { num } from "./validate.js";

/**
 * docs/rules.md §4.2 in play: a creature that holds its breath, then runs out of air, then drops to 0 HP. Everything is
 * relative to the moment it started holding its breath (in seconds of world time), so that the glue only stores the
 * start and compares with the world clock.
 */

/** Where a creature that cannot breathe stands: still holding its breath, out of air (counting rounds), or down. */
export const BREATH_PHASES = deepFreeze(["holding", "outOfAir", "down"] as const);
export type BreathPhase = (typeof BREATH_PHASES)[number];

/** The longest round accepted (seconds): rulesets use 6 or 10. */
const MAX_ROUND_SECONDS = 600;

export interface SuffocationTimeline {
  /** Seconds of held breath: `holdBreath(conMod)`. */
  holdSeconds: number;
  /** Rounds survived once out of air: `suffocationRounds(conMod)`. */
  rounds: number;
  /** The length of a round in seconds (the ruleset's `roundSeconds`). */
  roundSeconds: number;
  /**
   * When it drops to 0 HP, in seconds after it started holding its breath: the start of the round after the last one
   * survived.
   */
  dropSeconds: number;
}

/**
 * docs/rules.md §4.2: the whole timeline of a creature that stops breathing. It holds its breath `holdBreath(conMod)`
 * seconds, then survives `suffocationRounds(conMod)` rounds of `roundSeconds` out of air, and at the start of the
 * next round drops to 0 HP. CON +2 with 6 s rounds: 180 s, then 2 rounds, down at 192 s.
 */
export function suffocationTimeline(conMod: number, roundSeconds: number): SuffocationTimeline {
  const holdSeconds = holdBreath(conMod);
  const rounds = suffocationRounds(conMod);
  const round = num("roundSeconds", roundSeconds, { integer: true, min: 1, max: MAX_ROUND_SECONDS });
  return { holdSeconds, rounds, roundSeconds: round, dropSeconds: holdSeconds + rounds * round };
}

export interface BreathState extends SuffocationTimeline {
  phase: BreathPhase;
  /** Seconds until the next change: the end of the held breath (holding), the drop (out of air); 0 once down. */
  secondsLeft: number;
  /** Out of air: rounds left before the drop (the current one counts); holding: all of them; 0 once down. */
  roundsLeft: number;
}

/**
 * Where a creature stands `elapsedSeconds` after it started holding its breath (docs/rules.md §4.2). Holding while
 * `elapsedSeconds < holdSeconds`; out of air until `dropSeconds`; down from then on. A negative `elapsedSeconds`
 * (world time rewound before the start) is the start itself. CON −1, 6 s rounds, 33 s later: out of air, 3 s and
 * 1 round left.
 */
export function breathState(conMod: number, roundSeconds: number, elapsedSeconds: number): BreathState {
  const timeline = suffocationTimeline(conMod, roundSeconds);
  const elapsed = Math.max(
    0,
    num("elapsedSeconds", elapsedSeconds, { min: -RULES_LIMITS.maxSeconds, max: RULES_LIMITS.maxSeconds }),
  );
  if (elapsed < timeline.holdSeconds) {
    return { ...timeline, phase: "holding", secondsLeft: timeline.holdSeconds - elapsed, roundsLeft: timeline.rounds };
  }
  if (elapsed < timeline.dropSeconds) {
    const secondsLeft = timeline.dropSeconds - elapsed;
    return { ...timeline, phase: "outOfAir", secondsLeft, roundsLeft: Math.ceil(secondsLeft / timeline.roundSeconds) };
  }
  return { ...timeline, phase: "down", secondsLeft: 0, roundsLeft: 0 };
}
