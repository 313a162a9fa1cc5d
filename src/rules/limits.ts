/**
 * The sane bounds of the rules engine: every number and list an export accepts stays within these, so every
 * result is finite and of bounded size (an argument beyond a bound throws OutOfRange, never allocates without end).
 */
export const RULES_LIMITS = Object.freeze({
  /** Distances, speeds in metres per round, ranges, heights: 0..10,000 km. */
  maxMetres: 10_000_000,
  /** Durations: 1000 days. */
  maxSeconds: 86_400_000,
  /** Days of a journey, of a chase, of a counter. */
  maxDays: 1000,
  /** Members of a travelling party, observers of a hider, combatants of a Polaris round, sides. */
  maxParty: 500,
  /** Members of a group in a flight (a horde may be larger than a party). */
  maxGroup: 10_000,
  /** Polaris initiative, Réaction, chance and difficulty modifier (absolute value). */
  maxInitiative: 100,
  /** Ability scores, modifiers, check totals, DCs, margins (absolute value). */
  maxScore: 1000,
  /** Other lists (light sources, effects, legs of a route, log entries). */
  maxList: 10_000,
  /** A journey's party size × days (the plan lists every member's every day). */
  maxPartyDays: 20_000,
  /** Speeds given in km/h (boats, special mounts). */
  maxSpeedKmh: 1000,
  /** Fasting and thirst counters, in days. */
  maxCounterDays: 10_000,
});
