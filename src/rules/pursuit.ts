/**
 * Flight and pursuit (docs/rules.md §8): in the dungeon (§8.1), outdoors (§8.2, pmt's table, which ose also
 * uses per §8.3), and the dungeon running limit.
 *
 * Rulesets other than pmt and ose use the ose rules (ENCOUNTER_BASE_RULESET in encounter.ts); only
 * `pursues` and `dungeonRunRound` depend on the ruleset.
 */
import { RulesError } from "./errors.js";
import type { Dice } from "./dice.js";
import { encounterRules, reactionTotal, type EncounterRules } from "./encounter.js";
import { ruleset as checkRuleset, type RulesetId } from "./rulesets.js";
import { bool, num, oneOf } from "./validate.js";
import { deepFreeze, list, metres, record, rollChecked } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";
import { clean } from "./units.js";
import { turnSeconds } from "./time.js";

function requiredBool(name: string, value: unknown): boolean {
  if (value === undefined) throw new RulesError("AVENTURE.Error.Missing", { name });
  // Stryker disable next-line BooleanLiteral: equivalent (undefined was refused above: the fallback is never used).
  return bool(name, value, false);
}

function object<T>(name: string, value: T): T {
  if (value === null || typeof value !== "object") throw new RulesError("AVENTURE.Error.Missing", { name });
  return value;
}

// ---------------------------------------------------------------------------------------------
// §8.1 In the dungeon
// ---------------------------------------------------------------------------------------------

/** The result of trying to flee in the dungeon. */
export type DungeonFlightOutcome = "escapes" | "pursuit" | "impossible";

export interface DungeonFlightOptions {
  /** Movement rates of the slowest member of each side, in any one unit (e.g. metres per round). */
  fleeingSpeed: number;
  pursuerSpeed: number;
  /** True once combat has started: flight is then impossible. */
  combatStarted: boolean;
}

export interface DungeonFlightDetail {
  outcome: DungeonFlightOutcome;
  /** In a pursuit: whether the pursuers can catch the fleeing side (only if strictly faster). False otherwise. */
  pursuersCanCatch: boolean;
}

/**
 * docs/rules.md §8.1 with detail. Flight is impossible once combat has started; a strictly faster fleeing
 * side always escapes; otherwise there is a pursuit, in which the pursuers catch the fleeing side only
 * if they are strictly faster (equal speeds: a pursuit the pursuers cannot win — it ends when the
 * fleeing side leaves the monster's field of view or the referee says so).
 * Throws NotANumber / Negative (speeds), Missing / UnknownValue (combatStarted).
 */
export function dungeonFlightDetail(opts: DungeonFlightOptions): DungeonFlightDetail {
  object("opts", opts);
  const fleeing = metres("fleeingSpeed", opts.fleeingSpeed);
  const pursuer = metres("pursuerSpeed", opts.pursuerSpeed);
  if (requiredBool("combatStarted", opts.combatStarted)) return { outcome: "impossible", pursuersCanCatch: false };
  if (fleeing > pursuer) return { outcome: "escapes", pursuersCanCatch: false };
  return { outcome: "pursuit", pursuersCanCatch: pursuer > fleeing };
}

/** docs/rules.md §8.1: `escapes | pursuit | impossible` (see dungeonFlightDetail). */
export function dungeonFlight(opts: DungeonFlightOptions): DungeonFlightOutcome {
  return dungeonFlightDetail(opts).outcome;
}

/** pmt: a reaction total of 7..12 means the monster pursues (docs/rules.md §8.1). */
export const PMT_PURSUIT_MIN_REACTION = 7;
/**
 * ose: the referee decides; "a low reaction result suggests pursuit". *Decision (module):* a total of
 * 5 or less (ose "hostile" or "unfriendly") is shown as a suggestion to pursue.
 */
export const OSE_PURSUIT_SUGGESTION_MAX_REACTION = 5;

export interface PursuesDetail {
  /** pmt: the table's answer. ose: null (the referee decides). */
  pursues: boolean | null;
  /** The answer to show by default: pmt the table's answer, ose the module's suggestion. */
  suggested: boolean;
  /** "table" (pmt: rolled) or "referee" (ose: only a suggestion). */
  decidedBy: "table" | "referee";
  rules: EncounterRules;
}

/**
 * Whether a monster pursues fleeing characters, from a reaction total (docs/rules.md §8.1, §8.3).
 * pmt: 2d6 (2..12), 7–12 → pursues. ose and the rulesets that fall back to it: the referee decides,
 * `pursues` is null and `suggested` is true for a total ≤ 5 (2d6 + CHA mod, any integer).
 */
export function pursuesDetail(rs: RulesetId, reactionTotalValue: number): PursuesDetail {
  const rules = encounterRules(rs);
  const t = reactionTotal(rules, reactionTotalValue);
  if (rules === "pmt") {
    const p = t >= PMT_PURSUIT_MIN_REACTION;
    return { pursues: p, suggested: p, decidedBy: "table", rules };
  }
  return { pursues: null, suggested: t <= OSE_PURSUIT_SUGGESTION_MAX_REACTION, decidedBy: "referee", rules };
}

/**
 * pmt: true for a reaction total 7..12, false for 2..6. ose (and fallbacks): null — the referee
 * decides (use pursuesDetail for the suggestion). Throws UnknownRuleset, NotAnInteger, OutOfRange.
 */
export function pursues(rs: RulesetId, reactionTotalValue: number): boolean | null {
  return pursuesDetail(rs, reactionTotalValue).pursues;
}

/** docs/rules.md §8.1: a treasure-loving monster stops to pick up dropped treasure on 3–6 on 1d6 (50 %). */
export function dropDistracts(d6: number): boolean {
  return num("d6", d6, { min: 1, max: 6, integer: true }) >= 3;
}

// ---------------------------------------------------------------------------------------------
// §8.2 Outdoors
// ---------------------------------------------------------------------------------------------

/** One row of the §8.2 table: fleeing group `minFleeing..maxFleeing` (null = no upper bound). */
export interface EvasionRow {
  minFleeing: number;
  maxFleeing: number | null;
  /** Base escape chance, percent. */
  base: number;
  /** Percentage points added for bands 1, 2, 3. */
  bands: readonly [number, number, number];
}

/**
 * docs/rules.md §8.2, the escape chance by size of the fleeing group and size of the pursuing group
 * relative to it. *Decision (docs/rules.md):* band 1 = pursuers up to 25 % of the fleeing group, band 2 =
 * above 25 % up to 75 %, band 3 = above 75 %.
 */
export const EVASION_TABLE: readonly EvasionRow[] = deepFreeze([
  { minFleeing: 1, maxFleeing: 4, base: 50, bands: [0, 20, 40] },
  { minFleeing: 5, maxFleeing: 12, base: 35, bands: [0, 15, 25] },
  { minFleeing: 13, maxFleeing: 24, base: 25, bands: [0, 15, 25] },
  { minFleeing: 25, maxFleeing: null, base: 10, bands: [0, 15, 25] },
] as const);

/** The band upper limits, in percent of the fleeing group (band 3 has none). */
export const EVASION_BAND_LIMITS = deepFreeze([25, 75] as const);
/** The fleeing side always has at least 5 % (docs/rules.md §8.2). */
export const EVASION_MIN_CHANCE = 5;
/** *Decision (module):* the chance is capped at 100 % (a certain escape). */
export const EVASION_MAX_CHANCE = 100;

/** The column of the §8.2 table used. */
export type EvasionBand = 1 | 2 | 3;

export interface EvasionOptions {
  /** Number in the fleeing group (integer ≥ 1). */
  fleeing: number;
  /** Number in the pursuing group (integer ≥ 1). */
  pursuers: number;
  /** Percentage points for the fleeing side (e.g. dense woods +20 to +25), ≥ 0. Default 0. */
  fleeingBonus?: number;
  /** Percentage points for the pursuers (e.g. twice as fast +20 to +25), ≥ 0, subtracted. Default 0. */
  pursuerBonus?: number;
}

export interface EvasionChance {
  /** The escape chance in percent, within 5..100: roll 1d100, 1..chance = escaped. */
  chance: number;
  /** The base chance of the row. */
  base: number;
  band: EvasionBand;
  /** The points added by the band. */
  bandModifier: number;
  /** base + bandModifier + fleeingBonus − pursuerBonus, before the 5..100 limits. */
  raw: number;
}

/** A group's size: 1..10,000. */
const GROUP = Object.freeze({ min: 1, max: RULES_LIMITS.maxGroup, integer: true });
/** A referee adjustment in percentage points: 0..100. */
const POINTS = Object.freeze({ min: 0, max: 100 });

/** The §8.2 band for `pursuers` relative to `fleeing` (integer arithmetic: 25 % and 75 % are exact). */
function evasionBand(fleeing: number, pursuers: number): EvasionBand {
  if (pursuers * 100 <= fleeing * EVASION_BAND_LIMITS[0]) return 1;
  if (pursuers * 100 <= fleeing * EVASION_BAND_LIMITS[1]) return 2;
  return 3;
}

/**
 * docs/rules.md §8.2: the fleeing side's escape chance in percent. Worked examples: 4 fleeing vs 1 pursuer
 * → 50 %; vs 2 → 70 %. More pursuers never lower the chance (larger groups are slower and noisier).
 * The bonuses are referee adjustments in percentage points, both ≥ 0 (the pursuers' bonus is
 * subtracted). The result is never below 5 % and never above 100 %.
 * Throws NotANumber, NotAnInteger, OutOfRange (group sizes < 1), Negative (bonuses).
 */
export function evasionChance(opts: EvasionOptions): EvasionChance {
  object("opts", opts);
  const fleeing = num("fleeing", opts.fleeing, GROUP);
  const pursuers = num("pursuers", opts.pursuers, GROUP);
  const fb = opts.fleeingBonus === undefined ? 0 : num("fleeingBonus", opts.fleeingBonus, POINTS);
  const pb = opts.pursuerBonus === undefined ? 0 : num("pursuerBonus", opts.pursuerBonus, POINTS);
  // The rows run from the smallest groups up: the first whose upper bound holds the group is its row.
  const row = EVASION_TABLE.find((r) => r.maxFleeing === null || fleeing <= r.maxFleeing)!;
  const band = evasionBand(fleeing, pursuers);
  const bandModifier = row.bands[band - 1]!;
  const raw = clean(row.base + bandModifier + fb - pb);
  const chance = Math.min(EVASION_MAX_CHANCE, Math.max(EVASION_MIN_CHANCE, raw));
  return { chance, base: row.base, band, bandModifier, raw };
}

/** The pursuers' chance to catch the fleeing side after a failed escape, if faster: 50 % on 1d100. */
export const PURSUIT_CATCH_CHANCE = 50;

/** Where an outdoor chase stands. */
export type PursuitOutcome = "continues" | "escaped" | "caught";

/** The outcomes of an outdoor chase, as data. */
export const PURSUIT_OUTCOMES = deepFreeze(["continues", "escaped", "caught"] as const);

const PURSUIT_REASONS = ["pursuersSurprised", "evaded", "caught", "notCaught", "pursuersNotFaster"] as const;

/** Why a day of the chase ended the way it did. */
export type PursuitReason = "pursuersSurprised" | "evaded" | "caught" | "notCaught" | "pursuersNotFaster";

/** The record of one day of the chase (JSON-able). */
export interface PursuitDayRecord {
  /** 1 for the first day. */
  day: number;
  /** The escape chance used that day (null when surprise decided). */
  chance: number | null;
  band: EvasionBand | null;
  /** The 1d100 escape roll (null when surprise decided). */
  evasionRoll: number | null;
  /** The 1d100 catch roll (only after a failed escape against faster pursuers). */
  catchRoll: number | null;
  outcome: PursuitOutcome;
  reason: PursuitReason;
}

/** The state of an outdoor chase (JSON-able; every function returns a new object). */
export interface PursuitState {
  /** Days already played (0 before the first). */
  day: number;
  fleeing: number;
  pursuers: number;
  fleeingBonus: number;
  pursuerBonus: number;
  /** Whether the pursuers' movement is higher than the fleeing side's (only then can they catch it). */
  pursuersFaster: boolean;
  /** The side surprised at the start, or null (also when both or neither are surprised). */
  surprised?: "fleeing" | "pursuers" | null;
  outcome: PursuitOutcome;
  log: PursuitDayRecord[];
}

export const PURSUIT_SURPRISE = deepFreeze(["fleeing", "pursuers"] as const);

/** A new chase, not started (`day` 0, `outcome` "continues"). Validates like pursuitDay. */
export function startPursuit(opts: {
  fleeing: number;
  pursuers: number;
  fleeingBonus?: number;
  pursuerBonus?: number;
  pursuersFaster: boolean;
  surprised?: "fleeing" | "pursuers" | null;
}): PursuitState {
  object("opts", opts);
  return checkPursuitState({
    day: 0,
    fleeing: opts.fleeing,
    pursuers: opts.pursuers,
    fleeingBonus: opts.fleeingBonus ?? 0,
    pursuerBonus: opts.pursuerBonus ?? 0,
    pursuersFaster: opts.pursuersFaster,
    surprised: opts.surprised,
    outcome: "continues",
    log: [],
  });
}

/** A d100 result, or null. */
function d100OrNull(name: string, v: unknown): number | null {
  return v === null ? null : num(name, v, { integer: true, min: 1, max: 100 });
}

/** One record of an outdoor chase log, checked field by field (a new object: nothing else is copied). */
function checkDayRecord(name: string, raw: unknown): PursuitDayRecord {
  const r = record(name, raw);
  return {
    day: num(`${name}.day`, r.day, { integer: true, min: 1, max: RULES_LIMITS.maxDays }),
    chance: r.chance === null ? null : num(`${name}.chance`, r.chance, { min: 0, max: 100 }),
    band: r.band === null ? null : (num(`${name}.band`, r.band, { integer: true, min: 1, max: 3 }) as EvasionBand),
    evasionRoll: d100OrNull(`${name}.evasionRoll`, r.evasionRoll),
    catchRoll: d100OrNull(`${name}.catchRoll`, r.catchRoll),
    outcome: oneOf(`${name}.outcome`, r.outcome, PURSUIT_OUTCOMES),
    reason: oneOf(`${name}.reason`, r.reason, PURSUIT_REASONS),
  };
}

/** An outdoor chase state, checked field by field; returns a new state with only its own fields. */
function checkPursuitState(state: PursuitState): PursuitState {
  const s = record("state", state);
  const checked: PursuitState = {
    day: num("state.day", s.day, { min: 0, max: RULES_LIMITS.maxDays, integer: true }),
    fleeing: num("state.fleeing", s.fleeing, GROUP),
    pursuers: num("state.pursuers", s.pursuers, GROUP),
    fleeingBonus: num("state.fleeingBonus", s.fleeingBonus, POINTS),
    pursuerBonus: num("state.pursuerBonus", s.pursuerBonus, POINTS),
    pursuersFaster: requiredBool("state.pursuersFaster", s.pursuersFaster),
    surprised:
      s.surprised === undefined || s.surprised === null
        ? null
        : oneOf("state.surprised", s.surprised, PURSUIT_SURPRISE),
    outcome: oneOf("state.outcome", s.outcome, PURSUIT_OUTCOMES),
    log: list("state.log", s.log, RULES_LIMITS.maxDays).map((r, i) => checkDayRecord(`state.log[${i}]`, r)),
  };
  evasionChance(checked);
  return checked;
}

/**
 * Plays one day of the outdoor chase (docs/rules.md §8.2) and returns the new state (the input is not
 * changed) with the day's record appended to `log` and also returned as `record`.
 * - pursuers surprised: the fleeing side escapes automatically (no dice);
 * - fleeing side surprised: *Decision (docs/rules.md §8.2):* it is not barred from fleeing; it rolls on the table like
 *   any side (only the side that is not surprised escapes automatically);
 * - otherwise 1d100 ≤ evasion chance → `escaped`; on a failure, if the pursuers are faster, 1d100 ≤ 50
 *   → `caught` (*Decision (module):* the 50 % is rolled on 1d100), else the chase `continues` to the
 *   next day (pursuers not faster: it always continues).
 * Surprise is part of the state; the glue clears it (`surprised: null`) if it should not apply.
 * Throws UnknownValue (`state.outcome`) when the chase is already over, and the evasionChance errors.
 */
export async function pursuitDay(
  input: PursuitState,
  dice: Dice,
): Promise<{ state: PursuitState; record: PursuitDayRecord }> {
  const state = checkPursuitState(input);
  oneOf("state.outcome", state.outcome, ["continues"] as const);
  const day = num("day", state.day + 1, { max: RULES_LIMITS.maxDays });
  let record: PursuitDayRecord;
  if (state.surprised === "pursuers") {
    record = {
      day,
      chance: null,
      band: null,
      evasionRoll: null,
      catchRoll: null,
      outcome: "escaped",
      reason: "pursuersSurprised",
    };
  } else {
    const e = evasionChance(state);
    const [evasionRoll] = await rollChecked(dice, 1, 100, "evasion");
    if (evasionRoll! <= e.chance) {
      record = {
        day,
        chance: e.chance,
        band: e.band,
        evasionRoll: evasionRoll!,
        catchRoll: null,
        outcome: "escaped",
        reason: "evaded",
      };
    } else if (!state.pursuersFaster) {
      record = {
        day,
        chance: e.chance,
        band: e.band,
        evasionRoll: evasionRoll!,
        catchRoll: null,
        outcome: "continues",
        reason: "pursuersNotFaster",
      };
    } else {
      const [catchRoll] = await rollChecked(dice, 1, 100, "pursuitCatch");
      const caught = catchRoll! <= PURSUIT_CATCH_CHANCE;
      record = {
        day,
        chance: e.chance,
        band: e.band,
        evasionRoll: evasionRoll!,
        catchRoll: catchRoll!,
        outcome: caught ? "caught" : "continues",
        reason: caught ? "caught" : "notCaught",
      };
    }
  }
  return { state: { ...state, day, outcome: record.outcome, log: [...state.log, record] }, record };
}

/**
 * Plays up to `maxDays` days (integer ≥ 1) from `initialState`, stopping as soon as the chase is over.
 * The same initial state and dice give the same final state: `replayPursuit(s, fixedDice(pursuitLogDice(final.log)),
 * n)`
 * reproduces a chase. The final state may still be `continues` if `maxDays` ran out.
 */
export async function replayPursuit(initialState: PursuitState, dice: Dice, maxDays: number): Promise<PursuitState> {
  const n = num("maxDays", maxDays, { min: 1, max: RULES_LIMITS.maxDays, integer: true });
  let state = checkPursuitState(initialState);
  for (let i = 0; i < n && state.outcome === "continues"; i++) state = (await pursuitDay(state, dice)).state;
  return state;
}

/** The d100 results of a chase log, in the order they were rolled (feed them to fixedDice to replay). */
export function pursuitLogDice(log: readonly PursuitDayRecord[]): number[] {
  const records = list("log", log, RULES_LIMITS.maxDays).map((r, i) => checkDayRecord(`log[${i}]`, r));
  return records.flatMap((r) => [r.evasionRoll, r.catchRoll].filter((x): x is number => x !== null));
}

// ---------------------------------------------------------------------------------------------
// Running in the dungeon
// ---------------------------------------------------------------------------------------------

export interface DungeonRunRule {
  /** Rounds a character can run (exploration rate per round). */
  limitRounds: number;
  /**
   * Penalty to attacks, damage and AC while exhausted; null where the source gives none (pmt: "exhausted, see Rest").
   */
  penalty: number | null;
  /** Turns of rest that end the exhaustion; null where the source gives none. */
  restTurns: number | null;
}

/**
 * Running limits. pmt (seed 002): 30 rounds (½ turn), then the character is exhausted (the effects are
 * in a "Rest" section the seed does not include). ose: 30 rounds, then exhausted: −2 to attacks, damage
 * and AC until three turns of rest (this text is not in seed 004 nor docs/rules.md; see docs/api/encounter.md).
 * Not to be confused with ose's encounter movement (⅓ rate), limited to 60 rounds = 1 turn (seed 004,
 * docs/rules.md §8.3). Other rulesets use ose.
 */
export const DUNGEON_RUN: Readonly<Record<EncounterRules, Readonly<DungeonRunRule>>> = deepFreeze({
  pmt: { limitRounds: 30, penalty: null, restTurns: null },
  ose: { limitRounds: 30, penalty: -2, restTurns: 3 },
});

/** A character's running count (JSON-able). */
export interface DungeonRunState {
  ruleset: RulesetId;
  /** Rounds run so far. */
  rounds: number;
  exhausted: boolean;
}

export interface DungeonRunResult extends DungeonRunState {
  limitRounds: number;
  /** Rounds of running left (0 once exhausted). */
  remaining: number;
  /** The penalty now in force (0 when not exhausted or when the ruleset gives none). */
  penalty: number;
  /** Turns of rest needed to recover, or null. */
  restTurns: number | null;
  rules: EncounterRules;
}

/** A fresh running count for `rs`. */
export function dungeonRunStart(rs: RulesetId): DungeonRunResult {
  const rule = DUNGEON_RUN[encounterRules(rs)];
  return {
    ruleset: rs,
    rounds: 0,
    exhausted: false,
    limitRounds: rule.limitRounds,
    remaining: rule.limitRounds,
    penalty: 0,
    restTurns: rule.restTurns,
    rules: encounterRules(rs),
  };
}

/**
 * Counts one more round of running against the limit (DUNGEON_RUN) and returns the new state: the
 * character becomes `exhausted` when `rounds` reaches `limitRounds` (the last round allowed is the
 * 30th). Throws UnknownValue (`state.exhausted`) if the character is already exhausted (it must rest:
 * start a new count with dungeonRunStart after `restTurns` turns), UnknownRuleset, NotAnInteger,
 * Negative, OutOfRange (rounds beyond the limit).
 */
export function dungeonRunRound(state: DungeonRunState): DungeonRunResult {
  object("state", state);
  const rules = encounterRules(state.ruleset);
  const rule = DUNGEON_RUN[rules];
  const rounds = num("state.rounds", state.rounds, { min: 0, max: rule.limitRounds, integer: true });
  if (requiredBool("state.exhausted", state.exhausted) || rounds >= rule.limitRounds) {
    throw new RulesError("AVENTURE.Error.UnknownValue", { name: "state.exhausted", value: "true", allowed: "false" });
  }
  const next = rounds + 1;
  const exhausted = next >= rule.limitRounds;
  return {
    ruleset: state.ruleset,
    rounds: next,
    exhausted,
    limitRounds: rule.limitRounds,
    remaining: rule.limitRounds - next,
    penalty: exhausted ? (rule.penalty ?? 0) : 0,
    restTurns: rule.restTurns,
    rules,
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers for the Pursuit dialog (group speed, referee adjustments, the dungeon chase as a state machine)
// ---------------------------------------------------------------------------------------------

/**
 * A group moves at the rate of its slowest member (docs/rules.md §8.1 compares "the movement rates of the
 * slowest member of each side"). Throws EmptyParty (no member), NotANumber / Negative.
 */
export function groupSpeed(speeds: readonly number[]): number {
  const items = list("speeds", speeds, RULES_LIMITS.maxGroup);
  if (items.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty");
  return items.reduce((a: number, s, i) => Math.min(a, metres(`speeds[${i}]`, s)), Number.MAX_VALUE);
}

export interface SpeedComparison {
  /** Pursuers strictly faster: only they can catch the fleeing side (§8.1, §8.2). */
  pursuersFaster: boolean;
  /** Pursuers at least twice as fast (and moving): suggests the §8.2 adjustment for the pursuers. */
  twiceAsFast: boolean;
}

/** Compares the two sides' speeds (any one unit). Throws NotANumber / Negative. */
export function compareSpeeds(fleeingSpeed: number, pursuerSpeed: number): SpeedComparison {
  const f = metres("fleeingSpeed", fleeingSpeed);
  const p = metres("pursuerSpeed", pursuerSpeed);
  return { pursuersFaster: p > f, twiceAsFast: p > 0 && p >= 2 * f };
}

/**
 * docs/rules.md §8.2 referee adjustments: dense woods (for the fleeing side) and pursuers twice as fast
 * (for the pursuers) are each worth +20 to +25 percentage points. The dialog offers 20 by default.
 */
export const EVASION_ADJUSTMENT = deepFreeze({ min: 20, max: 25, default: 20 } as const);

/** Checks a referee adjustment (20..25, integer) and returns it. Throws NotANumber, NotAnInteger, OutOfRange. */
export function evasionAdjustment(name: string, value: unknown): number {
  return num(name, value, { min: EVASION_ADJUSTMENT.min, max: EVASION_ADJUSTMENT.max, integer: true });
}

/** One day of the outdoor chase in seconds (the glue may advance world time by it). */
export const PURSUIT_DAY_SECONDS = 86400;

/**
 * The rest that ends running exhaustion, in seconds: `restTurns` turns of 10 minutes (ose: 3 turns =
 * 1800 s); null where the ruleset gives no rest length (pmt).
 */
export function dungeonRunRestSeconds(rs: RulesetId): number | null {
  const rules = encounterRules(rs);
  const rule = DUNGEON_RUN[rules];
  return rule.restTurns === null ? null : rule.restTurns * turnSeconds(rules)!;
}

/** Where a dungeon chase stands. `impossible`: combat had started. */
export type DungeonChaseOutcome = "continues" | "escaped" | "caught" | "impossible";

export type DungeonChaseReason =
  | "pursuersSurprised"
  | "combatStarted"
  | "faster"
  | "notPursued"
  | "pursuit"
  | "distracted"
  | "notDistracted"
  | "running"
  | "exhausted"
  | "outOfSight"
  | "caught"
  | "gaveUp";

/** One event of a dungeon chase (JSON-able). Rolls not made are null. */
export interface DungeonChaseEvent {
  kind: "start" | "round" | "drop" | "end";
  /** Rounds run when the event happened (after counting it, for a round). */
  round: number;
  outcome: DungeonChaseOutcome;
  reason: DungeonChaseReason;
  /** pmt: the 2d6 reaction total that decided whether the monsters pursue. */
  reactionTotal: number | null;
  /** The 1d6 for dropped treasure or food. */
  dropRoll: number | null;
}

/** A dungeon chase (JSON-able; every function returns a new object). */
export interface DungeonChaseState {
  ruleset: RulesetId;
  fleeingSpeed: number;
  pursuerSpeed: number;
  /** Only strictly faster pursuers can catch the fleeing side. */
  pursuersCanCatch: boolean;
  /** pmt: the reaction table's answer (monsters pursuing); ose: null (the referee decides). */
  pursues: boolean | null;
  /** ose: the module's suggestion from a reaction total (≤ 5 suggests pursuit), or null without one. */
  suggested: boolean | null;
  /** Rounds run so far, against DUNGEON_RUN. */
  rounds: number;
  exhausted: boolean;
  outcome: DungeonChaseOutcome;
  log: DungeonChaseEvent[];
}

export interface DungeonChaseOptions extends DungeonFlightOptions {
  ruleset: RulesetId;
  surprised?: "fleeing" | "pursuers" | null;
  /** True when the pursuers are monsters (pmt then rolls the reaction table for it). Default true. */
  monstersPursue?: boolean;
  /**
   * A reaction total already rolled for these monsters (pmt 2..12; ose 2d6 + CHA mod); null/undefined: pmt rolls 2d6.
   */
  reactionTotal?: number | null;
  /** The fleeing side drops treasure or food as it flees (1d6: 3–6 distracts). Default false. */
  dropped?: boolean;
}

function dungeonEvent(
  kind: DungeonChaseEvent["kind"],
  round: number,
  outcome: DungeonChaseOutcome,
  reason: DungeonChaseReason,
  extra: Partial<DungeonChaseEvent> = {},
): DungeonChaseEvent {
  return { kind, round, outcome, reason, reactionTotal: null, dropRoll: null, ...extra };
}

function pushEvent(
  state: DungeonChaseState,
  e: DungeonChaseEvent,
  more: Partial<DungeonChaseState> = {},
): { state: DungeonChaseState; event: DungeonChaseEvent } {
  return { state: { ...state, ...more, outcome: e.outcome, log: [...state.log, e] }, event: e };
}

/**
 * Starts a flight in the dungeon (docs/rules.md §8.1, §7.2, §8.3), in this order:
 * 1. surprise: surprised pursuers → `escaped`; a surprised fleeing side is not barred from fleeing (*Decision*, as
 *    outdoors, docs/rules.md §8.2): it goes on like any side (if the other side attacked in the free round, combat has
 *    started: pass `combatStarted`);
 * 2. `dungeonFlightDetail`: `impossible` once combat has started; a strictly faster fleeing side `escaped`;
 * 3. pmt, monsters pursuing: the reaction total (rolled 2d6, reason "reaction", unless given) decides;
 *    2–6 → `escaped` (reason `notPursued`). ose: the referee decides (`pursues` null; `suggested` from a
 *    given total);
 * 4. dropped treasure or food: 1d6 (reason "drop"), 3–6 → `escaped` (`distracted`);
 * 5. otherwise the chase `continues` (reason `pursuit`), round by round (`dungeonChaseRound`).
 * Throws the dungeonFlight errors, UnknownValue (surprised), the reaction errors (pmt 2..12).
 */
export async function startDungeonChase(
  opts: DungeonChaseOptions,
  dice: Dice,
): Promise<{ state: DungeonChaseState; event: DungeonChaseEvent }> {
  object("opts", opts);
  const detail = dungeonFlightDetail(opts);
  const rs = checkRuleset(opts.ruleset);
  const rules = encounterRules(rs);
  const surprised = opts.surprised ?? null;
  if (surprised !== null) oneOf("surprised", surprised, PURSUIT_SURPRISE);
  const monsters = bool("monstersPursue", opts.monstersPursue, true);
  const dropped = bool("dropped", opts.dropped, false);
  const given = opts.reactionTotal ?? null;
  if (given !== null) reactionTotal(rules, given);
  const state: DungeonChaseState = {
    ruleset: rs,
    // dungeonFlightDetail has checked the speeds.
    fleeingSpeed: opts.fleeingSpeed,
    pursuerSpeed: opts.pursuerSpeed,
    pursuersCanCatch: detail.pursuersCanCatch,
    pursues: null,
    suggested: null,
    rounds: 0,
    exhausted: false,
    // Stryker disable next-line StringLiteral: equivalent (pushEvent sets the outcome to the start event's).
    outcome: "continues",
    log: [],
  };
  if (surprised === "pursuers") return pushEvent(state, dungeonEvent("start", 0, "escaped", "pursuersSurprised"));
  if (detail.outcome === "impossible") return pushEvent(state, dungeonEvent("start", 0, "impossible", "combatStarted"));
  if (detail.outcome === "escapes") return pushEvent(state, dungeonEvent("start", 0, "escaped", "faster"));
  let total: number | null = given;
  let more: Partial<DungeonChaseState> = {};
  if (monsters) {
    if (rules === "pmt" && total === null)
      total = (await rollChecked(dice, 2, 6, "reaction")).reduce((a, b) => a + b, 0);
    if (total !== null) {
      const p = pursuesDetail(rs, total);
      more = { pursues: p.pursues, suggested: p.decidedBy === "referee" ? p.suggested : null };
      if (p.pursues === false)
        return pushEvent(state, dungeonEvent("start", 0, "escaped", "notPursued", { reactionTotal: total }), more);
    }
  }
  if (dropped) {
    const [d6] = await rollChecked(dice, 1, 6, "drop");
    const outcome = dropDistracts(d6!) ? "escaped" : "continues";
    return pushEvent(
      state,
      dungeonEvent("start", 0, outcome, outcome === "escaped" ? "distracted" : "notDistracted", {
        reactionTotal: total,
        dropRoll: d6!,
      }),
      more,
    );
  }
  return pushEvent(state, dungeonEvent("start", 0, "continues", "pursuit", { reactionTotal: total }), more);
}

const DUNGEON_CHASE_KINDS = ["start", "round", "drop", "end"] as const;
const DUNGEON_CHASE_OUTCOMES = ["continues", "escaped", "caught", "impossible"] as const;
const DUNGEON_CHASE_REASONS = [
  "pursuersSurprised",
  "combatStarted",
  "faster",
  "notPursued",
  "pursuit",
  "distracted",
  "notDistracted",
  "running",
  "exhausted",
  "outOfSight",
  "caught",
  "gaveUp",
] as const;

function nullableBool(name: string, v: unknown): boolean | null {
  return v === null ? null : requiredBool(name, v);
}

/** One event of a dungeon chase log, checked field by field (a new object). */
function checkDungeonEvent(name: string, raw: unknown, limitRounds: number): DungeonChaseEvent {
  const e = record(name, raw);
  return {
    kind: oneOf(`${name}.kind`, e.kind, DUNGEON_CHASE_KINDS),
    round: num(`${name}.round`, e.round, { integer: true, min: 0, max: limitRounds }),
    outcome: oneOf(`${name}.outcome`, e.outcome, DUNGEON_CHASE_OUTCOMES),
    reason: oneOf(`${name}.reason`, e.reason, DUNGEON_CHASE_REASONS),
    reactionTotal:
      e.reactionTotal === null
        ? null
        : num(`${name}.reactionTotal`, e.reactionTotal, {
            integer: true,
            min: -RULES_LIMITS.maxScore,
            max: RULES_LIMITS.maxScore,
          }),
    dropRoll: e.dropRoll === null ? null : num(`${name}.dropRoll`, e.dropRoll, { integer: true, min: 1, max: 6 }),
  };
}

/**
 * A dungeon chase that goes on, checked field by field (ruleset, speeds, flags, rounds against DUNGEON_RUN, every
 * event of the log); returns a new state with only its own fields. Throws UnknownValue when the chase is over.
 */
function checkDungeonChase(state: unknown): DungeonChaseState {
  const s = record("state", state);
  const rs = checkRuleset(s.ruleset);
  const limit = DUNGEON_RUN[encounterRules(rs)].limitRounds;
  return {
    ruleset: rs,
    fleeingSpeed: metres("state.fleeingSpeed", s.fleeingSpeed),
    pursuerSpeed: metres("state.pursuerSpeed", s.pursuerSpeed),
    pursuersCanCatch: requiredBool("state.pursuersCanCatch", s.pursuersCanCatch),
    pursues: nullableBool("state.pursues", s.pursues),
    suggested: nullableBool("state.suggested", s.suggested),
    rounds: num("state.rounds", s.rounds, { integer: true, min: 0, max: limit }),
    exhausted: requiredBool("state.exhausted", s.exhausted),
    outcome: oneOf("state.outcome", s.outcome, ["continues"] as const),
    log: list("state.log", s.log).map((e, i) => checkDungeonEvent(`state.log[${i}]`, e, limit)),
  };
}

/**
 * One more round of running (DUNGEON_RUN via dungeonRunRound). The chase goes on; when the limit is
 * reached the event's reason is `exhausted` (ose: −2 to attacks, damage and AC until three turns of
 * rest) and no further round can be run (the referee ends the chase). Throws UnknownValue when the
 * chase is over or the runners are exhausted.
 */
export function dungeonChaseRound(input: DungeonChaseState): {
  state: DungeonChaseState;
  event: DungeonChaseEvent;
  run: DungeonRunResult;
} {
  const state = checkDungeonChase(input);
  const run = dungeonRunRound({ ruleset: state.ruleset, rounds: state.rounds, exhausted: state.exhausted });
  const e = dungeonEvent("round", run.rounds, "continues", run.exhausted ? "exhausted" : "running");
  return { ...pushEvent(state, e, { rounds: run.rounds, exhausted: run.exhausted }), run };
}

/** The fleeing side drops treasure or food during the chase: 1d6 (reason "drop"), 3–6 → `escaped`. */
export async function dungeonChaseDrop(
  input: DungeonChaseState,
  dice: Dice,
): Promise<{ state: DungeonChaseState; event: DungeonChaseEvent }> {
  const state = checkDungeonChase(input);
  const [d6] = await rollChecked(dice, 1, 6, "drop");
  const distracted = dropDistracts(d6!);
  return pushEvent(
    state,
    dungeonEvent(
      "drop",
      state.rounds,
      distracted ? "escaped" : "continues",
      distracted ? "distracted" : "notDistracted",
      { dropRoll: d6! },
    ),
  );
}

export const DUNGEON_CHASE_ENDS = deepFreeze(["outOfSight", "caught", "gaveUp"] as const);

/**
 * The referee ends the chase: the fleeing side left the monsters' field of view (`outOfSight` →
 * `escaped`), the pursuers gave up (`gaveUp` → `escaped`), or they caught the fleeing side (`caught`,
 * only if the pursuers are strictly faster, §8.1). Throws UnknownValue otherwise.
 */
export function dungeonChaseEnd(
  input: DungeonChaseState,
  how: (typeof DUNGEON_CHASE_ENDS)[number],
): { state: DungeonChaseState; event: DungeonChaseEvent } {
  const state = checkDungeonChase(input);
  oneOf("how", how, DUNGEON_CHASE_ENDS);
  if (how === "caught" && !state.pursuersCanCatch) {
    throw new RulesError("AVENTURE.Error.UnknownValue", { name: "how", value: how, allowed: "outOfSight, gaveUp" });
  }
  return pushEvent(state, dungeonEvent("end", state.rounds, how === "caught" ? "caught" : "escaped", how));
}

// ---------------------------------------------------------------------------------------------
// Stored states (a chase card's flags): checked field by field before they are used again
// ---------------------------------------------------------------------------------------------

/**
 * Checks an outdoor chase state read back from storage (a chat card written earlier), field by field (as every rule
 * that takes a state does), and its consistency: `day` is the number of days played, the log's days are 1, 2, 3...,
 * every day but the last let the chase go on, and the state's outcome is the last day's. Returns a clean copy; throws
 * the validation errors (NotANumber, OutOfRange, UnknownValue, Missing...) on anything else.
 */
export function checkStoredPursuitState(value: unknown): PursuitState {
  const s = checkPursuitState(object("state", value) as PursuitState);
  // A referee adjustment is stored as 0 (none) or within EVASION_ADJUSTMENT; a day's chance within 5..100.
  if (s.fleeingBonus !== 0) evasionAdjustment("state.fleeingBonus", s.fleeingBonus);
  if (s.pursuerBonus !== 0) evasionAdjustment("state.pursuerBonus", s.pursuerBonus);
  s.log.forEach((e, i) => {
    if (e.chance !== null)
      num(`state.log[${i}].chance`, e.chance, { min: EVASION_MIN_CHANCE, max: EVASION_MAX_CHANCE, integer: true });
  });
  if (s.day !== s.log.length)
    throw new RulesError("AVENTURE.Error.OutOfRange", {
      name: "state.day",
      value: s.day,
      min: s.log.length,
      max: s.log.length,
    });
  s.log.forEach((e, i) => {
    if (e.day !== i + 1)
      throw new RulesError("AVENTURE.Error.OutOfRange", {
        name: `state.log[${i}].day`,
        value: e.day,
        min: i + 1,
        max: i + 1,
      });
    if (i < s.log.length - 1 && e.outcome !== "continues")
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `state.log[${i}].outcome`,
        value: e.outcome,
        allowed: "continues",
      });
  });
  const expected = s.log.at(-1)?.outcome ?? "continues";
  if (s.outcome !== expected)
    throw new RulesError("AVENTURE.Error.UnknownValue", { name: "state.outcome", value: s.outcome, allowed: expected });
  return s;
}

/**
 * Checks a dungeon chase state read back from storage, field by field (as the chase rules do) and its consistency: a
 * start event first and only first, rounds within the running limit and `exhausted` exactly at it, pursuers able to
 * catch only when strictly faster, every event but the last letting the chase go on, the state's outcome the last
 * event's. Finished chases are accepted (the card of a chase that is over). Returns a clean copy.
 */
export function checkStoredDungeonChase(value: unknown): DungeonChaseState {
  const raw = object("state", value) as object;
  const outcome = oneOf("state.outcome", "outcome" in raw ? raw.outcome : undefined, DUNGEON_CHASE_OUTCOMES);
  const s = { ...checkDungeonChase({ ...raw, outcome: "continues" }), outcome };
  const limit = DUNGEON_RUN[encounterRules(s.ruleset)].limitRounds;
  if (!s.log.length) throw new RulesError("AVENTURE.Error.Missing", { name: "state.log" });
  s.log.forEach((e, i) => {
    if ((i === 0) !== (e.kind === "start"))
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `state.log[${i}].kind`,
        value: e.kind,
        allowed: i === 0 ? "start" : "round, drop, end",
      });
    if (e.round > s.rounds)
      throw new RulesError("AVENTURE.Error.OutOfRange", {
        name: `state.log[${i}].round`,
        value: e.round,
        min: 0,
        max: s.rounds,
      });
    if (i < s.log.length - 1 && e.outcome !== "continues")
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `state.log[${i}].outcome`,
        value: e.outcome,
        allowed: "continues",
      });
  });
  if (s.exhausted !== s.rounds >= limit)
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "state.exhausted",
      value: String(s.exhausted),
      allowed: String(s.rounds >= limit),
    });
  if (s.pursuersCanCatch && !(s.pursuerSpeed > s.fleeingSpeed))
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "state.pursuersCanCatch",
      value: "true",
      allowed: "false",
    });
  if (s.outcome !== s.log.at(-1)!.outcome)
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "state.outcome",
      value: s.outcome,
      allowed: s.log.at(-1)!.outcome,
    });
  return s;
}
