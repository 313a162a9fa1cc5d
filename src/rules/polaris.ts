/**
 * Polaris (3rd edition, seed 003): d20 roll-under tests with difficulty, margins and degrees (docs/rules.md §9.1),
 * and the action phases of a combat round (docs/rules.md §9.2). Pure data and functions; no dice are rolled
 * here: the caller rolls the d20 and passes the result.
 */
import { RulesError } from "./errors.js";
import { bool, num, oneOf } from "./validate.js";
import { deepFreeze, list, record, show } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";

// ---------------------------------------------------------------------------------------------------------
// Tables (docs/rules.md §9.1)
// ---------------------------------------------------------------------------------------------------------

/** Difficulty ids, from the easiest to the hardest. */
export type PolarisDifficulty =
  | "extremelyEasy"
  | "veryEasy"
  | "easy"
  | "fairlyEasy"
  | "average"
  | "fairlyHard"
  | "hard"
  | "veryHard"
  | "extremelyHard"
  | "nearlyImpossible"
  | "superhuman"
  | "heroic";

/** The difficulty table: id → modifier added to the chance, with the French label of the rulebook. */
export const DIFFICULTIES: Readonly<Record<PolarisDifficulty, { readonly modifier: number; readonly label: string }>> =
  deepFreeze({
    extremelyEasy: { modifier: 10, label: "Extrêmement facile" },
    veryEasy: { modifier: 7, label: "Très facile" },
    easy: { modifier: 5, label: "Facile" },
    fairlyEasy: { modifier: 3, label: "Assez facile" },
    average: { modifier: 0, label: "Moyen" },
    fairlyHard: { modifier: -3, label: "Assez difficile" },
    hard: { modifier: -5, label: "Difficile" },
    veryHard: { modifier: -7, label: "Très difficile" },
    extremelyHard: { modifier: -10, label: "Extrêmement difficile" },
    nearlyImpossible: { modifier: -13, label: "Presque impossible" },
    superhuman: { modifier: -15, label: "Surhumain" },
    heroic: { modifier: -20, label: "Héroïque" },
  });

/** The difficulty ids in table order. */
export const POLARIS_DIFFICULTY_IDS = deepFreeze(Object.keys(DIFFICULTIES) as readonly PolarisDifficulty[]);

export type PolarisSuccessDegree =
  | "justesse"
  | "correct"
  | "assezBon"
  | "bon"
  | "tresBon"
  | "excellent"
  | "parfait"
  | "extraordinaire"
  | "heroique"
  | "legendaire";

export type PolarisFailureDegree =
  "justesse" | "mediocre" | "assezMauvais" | "mauvais" | "tresMauvais" | "execrable" | "catastrophique";

/** A success or failure degree id (read it together with `success`: "justesse" exists on both sides). */
export type PolarisDegree = PolarisSuccessDegree | PolarisFailureDegree;

/** One band of a degree table: margins `min`..`max` inclusive (`max` null = open-ended). */
export interface PolarisDegreeBand<D extends PolarisDegree> {
  readonly min: number;
  readonly max: number | null;
  readonly degree: D;
  readonly label: string;
  readonly modifier: number;
}

/**
 * Margin of success → degree and modifier. *Decision (docs/rules.md §9.1):* a margin of 0 only happens on a
 * critical success (die = final chance) and reads as "De justesse" +0, hence the first band starts at 0.
 */
export const SUCCESS_DEGREES: readonly PolarisDegreeBand<PolarisSuccessDegree>[] = deepFreeze([
  { min: 0, max: 2, degree: "justesse", label: "De justesse", modifier: 0 },
  { min: 3, max: 4, degree: "correct", label: "Correct", modifier: 1 },
  { min: 5, max: 6, degree: "assezBon", label: "Assez bon", modifier: 2 },
  { min: 7, max: 9, degree: "bon", label: "Bon", modifier: 3 },
  { min: 10, max: 12, degree: "tresBon", label: "Très bon", modifier: 4 },
  { min: 13, max: 14, degree: "excellent", label: "Excellent", modifier: 5 },
  { min: 15, max: 19, degree: "parfait", label: "Parfait", modifier: 6 },
  { min: 20, max: 24, degree: "extraordinaire", label: "Extraordinaire", modifier: 7 },
  { min: 25, max: 34, degree: "heroique", label: "Héroïque", modifier: 8 },
  { min: 35, max: null, degree: "legendaire", label: "Légendaire", modifier: 9 },
] as const);

/** Margin of failure → degree and modifier ("Catastrophique" covers 15+ with a modifier from −6 to −9). */
export const FAILURE_DEGREES: readonly PolarisDegreeBand<PolarisFailureDegree>[] = deepFreeze([
  { min: 1, max: 2, degree: "justesse", label: "De justesse", modifier: 0 },
  { min: 3, max: 4, degree: "mediocre", label: "Médiocre", modifier: -1 },
  { min: 5, max: 6, degree: "assezMauvais", label: "Assez mauvais", modifier: -2 },
  { min: 7, max: 9, degree: "mauvais", label: "Mauvais", modifier: -3 },
  { min: 10, max: 12, degree: "tresMauvais", label: "Très mauvais", modifier: -4 },
  { min: 13, max: 14, degree: "execrable", label: "Exécrable", modifier: -5 },
  { min: 15, max: 19, degree: "catastrophique", label: "Catastrophique", modifier: -6 },
  { min: 20, max: 24, degree: "catastrophique", label: "Catastrophique", modifier: -7 },
  { min: 25, max: 34, degree: "catastrophique", label: "Catastrophique", modifier: -8 },
  { min: 35, max: null, degree: "catastrophique", label: "Catastrophique", modifier: -9 },
] as const);

/** The failure degree ids, without repeats, mildest first. */
const FAILURE_DEGREE_IDS = [...new Set(FAILURE_DEGREES.map((b) => b.degree))] as readonly PolarisFailureDegree[];

/** Retry penalty per new attempt: −1, or −3 when the situation is pressing. */
export const POLARIS_RETRY_STEP = deepFreeze({ normal: -1, pressed: -3 });

// ---------------------------------------------------------------------------------------------------------
// Tests (docs/rules.md §9.1)
// ---------------------------------------------------------------------------------------------------------

export type PolarisCritical = "success" | "failure";

/** What is tested: a skill (its level) or an attribute (its level). */
export const POLARIS_TEST_KINDS = deepFreeze(["skill", "attribute"] as const);
export type PolarisTestKind = (typeof POLARIS_TEST_KINDS)[number];

export interface PolarisTestInput {
  /** Chance of success: the skill (or attribute) level, an integer; "X" = a skill that cannot be tested. */
  chance: number | "X";
  /** "skill" (default) or "attribute": what a critical success adds to the margin. */
  kind?: PolarisTestKind;
  /** The skill's mastery level (its own level, without the base from attributes), an integer. Default 0. */
  mastery?: number;
  /** The tested attribute's level, an integer; required for a critical success on an attribute test. */
  attributeLevel?: number;
  /** Overrides the critical bonus (an integer ≥ 0), for a referee who rules otherwise. */
  criticalBonus?: number;
  /** A difficulty id, or the modifier itself (an integer; the referee may use his own values). */
  difficulty: PolarisDifficulty | number;
  /** The d20 result, an integer in 1..20. */
  roll: number;
  /** The referee kept the difficulty secret (see automatic failure). Default false. */
  secret?: boolean;
  /** Cumulative retry penalty, a non-positive integer (see `retryPenalty`). Default 0. */
  retryPenalty?: number;
}

export interface PolarisTestResult {
  /** chance + difficulty modifier + retry penalty; null when the chance is "X". */
  finalChance: number | null;
  success: boolean;
  /**
   * Margin of success (final − die, improved by a critical success: baseMargin + criticalBonus) or of failure
   * (die − final, or the die on an automatic failure); ≥ 0.
   */
  margin: number;
  /** The margin before a critical success improved it (= margin otherwise). */
  baseMargin: number;
  /** What a critical success added to the margin (0 otherwise). */
  criticalBonus: number;
  /** Degree id from SUCCESS_DEGREES or FAILURE_DEGREES, depending on `success`. */
  degree: PolarisDegree;
  /** The degree modifier (+0..+9 on a success, +0..−9 on a failure). */
  modifier: number;
  /** Critical success / failure (its effects are the referee's: shown, not applied), or null. */
  critical: PolarisCritical | null;
  /** True when the test could not succeed: chance "X", or final chance below 1. */
  automaticFailure: boolean;
}

function bandFor<D extends PolarisDegree>(
  table: readonly PolarisDegreeBand<D>[],
  margin: number,
): PolarisDegreeBand<D> {
  for (const band of table) {
    // The bands are in increasing order and every margin is checked against the first band's min before.
    if (band.max === null || margin <= band.max) return band;
  }
  // Unreachable for the margins polarisTest computes; kept as a guard.
  // Stryker disable next-line all: unreachable guard (every margin is checked against the bands' range before).
  throw new RulesError("AVENTURE.Error.OutOfRange", { name: "margin", value: margin, min: table[0]!.min, max: "∞" });
}

/** Degree and modifier for a margin of success (≥ 0) or of failure (≥ 1). */
export function polarisDegree(
  success: boolean,
  margin: number,
): { degree: PolarisDegree; modifier: number; label: string } {
  if (typeof success !== "boolean") {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "success",
      value: show(success),
      allowed: "true, false",
    });
  }
  const ok = success;
  const m = num("margin", margin, { min: ok ? 0 : 1, max: RULES_LIMITS.maxScore, integer: true });
  const band = ok ? bandFor(SUCCESS_DEGREES, m) : bandFor(FAILURE_DEGREES, m);
  return { degree: band.degree, modifier: band.modifier, label: band.label };
}

/** The difficulty modifier of an id or a plain integer modifier. Throws on an unknown id or a non-integer. */
export function polarisDifficultyModifier(difficulty: PolarisDifficulty | number): number {
  if (typeof difficulty === "number") return polarisInt("difficulty", difficulty);
  return DIFFICULTIES[oneOf("difficulty", difficulty, POLARIS_DIFFICULTY_IDS)].modifier;
}

/** The absolute bound of a chance, a difficulty modifier and a mastery or attribute level. */
const POLARIS_MAX = RULES_LIMITS.maxInitiative;

function polarisInt(name: string, value: unknown, min = -POLARIS_MAX): number {
  return num(name, value, { integer: true, min, max: POLARIS_MAX });
}

/**
 * What a critical success adds to the margin (docs/rules.md §9.1): the override when given; an attribute test adds half
 * the
 * attribute's level, rounded down (seed 003); a skill test its mastery level (*Decision*: the seed's skill amount is
 * cut from the preview). *Decision:* a negative level adds nothing (a critical success never lowers the margin).
 */
function criticalBonusFor(
  override: number | null,
  kind: PolarisTestKind,
  mastery: number,
  attributeLevel: number | null,
): number {
  if (override !== null) return override;
  if (kind === "skill") return Math.max(0, mastery);
  if (attributeLevel === null) throw new RulesError("AVENTURE.Error.Missing", { name: "attributeLevel" });
  return Math.max(0, Math.floor(attributeLevel / 2));
}

/**
 * Resolves a Polaris test (docs/rules.md §9.1).
 * - final chance = chance + difficulty modifier + retry penalty; success when die ≤ final chance;
 *   margin of success = final − die, margin of failure = die − final.
 * - *Decision:* a die equal to the final chance is a critical success (margin 0 before the bonus); a natural
 *   20 is a critical failure unless the final chance is 20 or more, in which case it is a critical success.
 * - A critical success improves the margin: `margin` = `baseMargin` + `criticalBonus` (the skill's `mastery`, or
 *   ⌊`attributeLevel` / 2⌋ for `kind: "attribute"`, or the `criticalBonus` override); degree and modifier come from
 *   the improved margin. Example: chance 12, Moyen, die 12, mastery 4 → margin 4, "correct", +1.
 * - Final chance below 1: automatic failure. When the difficulty was secret, the player rolls and the die is
 *   the margin of failure (seed 003). *Decision:* the same holds when the difficulty was not secret (the
 *   seed only covers the secret case; the caller need not show the roll), so `secret` does not change
 *   the result. A natural 20 is still reported as a critical failure.
 * - *Decision:* chance "X" (a skill that cannot be tested) is an automatic failure handled like the above:
 *   finalChance null, margin = the die.
 * Throws RulesError on a die outside 1..20, a non-integer or out-of-range chance/modifier/level (|n| ≤ 100), an
 * unknown difficulty id or kind, a positive retry penalty, a critical attribute test without `attributeLevel`.
 */
export function polarisTest(input: PolarisTestInput): PolarisTestResult {
  if (input === null || typeof input !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "test" });
  const die = input.roll;
  // Number.isInteger is false for anything but a number.
  if (!Number.isInteger(die) || die < 1 || die > 20) {
    throw new RulesError("AVENTURE.Error.BadDie", { value: show(die), faces: 20 });
  }
  // Stryker disable next-line BooleanLiteral: equivalent (the value is only checked, never used).
  bool("secret", input.secret, false);
  const penalty =
    input.retryPenalty === undefined
      ? 0
      : num("retryPenalty", input.retryPenalty, { min: -POLARIS_MAX, max: 0, integer: true });
  const mod = polarisDifficultyModifier(input.difficulty);
  const kind = input.kind === undefined ? "skill" : oneOf("kind", input.kind, POLARIS_TEST_KINDS);
  const mastery = input.mastery === undefined ? 0 : polarisInt("mastery", input.mastery);
  const attributeLevel = input.attributeLevel === undefined ? null : polarisInt("attributeLevel", input.attributeLevel);
  const override = input.criticalBonus === undefined ? null : polarisInt("criticalBonus", input.criticalBonus, 0);

  const automatic = (finalChance: number | null): PolarisTestResult => {
    const band = bandFor(FAILURE_DEGREES, die);
    return {
      finalChance,
      success: false,
      margin: die,
      baseMargin: die,
      criticalBonus: 0,
      degree: band.degree,
      modifier: band.modifier,
      critical: die === 20 ? "failure" : null,
      automaticFailure: true,
    };
  };

  if (input.chance === "X") return automatic(null);
  const chance = polarisInt("chance", input.chance);
  const finalChance = chance + mod + penalty + 0;
  if (finalChance < 1) return automatic(finalChance);

  const success = die <= finalChance;
  let critical: PolarisCritical | null = null;
  if (die === finalChance) critical = "success";
  else if (die === 20) critical = success ? "success" : "failure";

  const baseMargin = success ? finalChance - die : die - finalChance;
  const bonus = critical === "success" ? criticalBonusFor(override, kind, mastery, attributeLevel) : 0;
  const margin = baseMargin + bonus;
  const band = success ? bandFor(SUCCESS_DEGREES, margin) : bandFor(FAILURE_DEGREES, margin);
  return {
    finalChance,
    success,
    margin,
    baseMargin,
    criticalBonus: bonus,
    degree: band.degree,
    modifier: band.modifier,
    critical,
    automaticFailure: false,
  };
}

/**
 * Raising (or lowering) the difficulty on purpose (docs/rules.md §9.1, "S'imposer une Difficulté supplémentaire"): the
 * difficulty id `steps` degrees harder along the table (negative = easier), clamped at `extremelyEasy` and `heroic`.
 * *Decision:* the seed's "Malaisée" is not in its table and is not offered. Throws UnknownValue (not a difficulty id:
 * a plain modifier has no degrees), NotANumber / NotAnInteger / OutOfRange (steps, |steps| ≤ 100).
 */
export function harderDifficulty(difficulty: PolarisDifficulty, steps: number): PolarisDifficulty {
  const d = oneOf("difficulty", difficulty, POLARIS_DIFFICULTY_IDS);
  const n = polarisInt("steps", steps);
  const i = Math.min(POLARIS_DIFFICULTY_IDS.length - 1, Math.max(0, POLARIS_DIFFICULTY_IDS.indexOf(d) + n));
  return POLARIS_DIFFICULTY_IDS[i]!;
}

/** A countdown (docs/rules.md §9.1): how many attempts are left. */
export interface PolarisCountdown {
  /** Attempts left (never below 0). */
  left: number;
  /** One of the tests succeeded. */
  succeeded: boolean;
  /** No attempt is left and none succeeded: the planned event happens (shown, not applied). */
  exhausted: boolean;
}

/** What a catastrophe may cost on top of its attempt (docs/rules.md §9.1: one or two more, the GM's choice). */
export const POLARIS_CATASTROPHE_COSTS = deepFreeze([1, 2] as const);

/**
 * A countdown (docs/rules.md §9.1, "comptes à rebours"): `maxAttempts` (integer 1..100) attempts; `tests` are the
 * `polarisTest` results in order. Each attempt uses one; a failure of degree "catastrophique" (margin of failure ≥ 15)
 * uses `catastropheCost` more (1 or 2, default 1). `left` never goes below 0; `succeeded` when a test succeeded;
 * `exhausted` when `left` is 0 without a success. Tests after the countdown ended (a success, or no attempt left)
 * change nothing. Throws OutOfRange / NotAnInteger (maxAttempts, catastropheCost), Missing / UnknownValue (tests).
 */
export function countdownLeft(
  maxAttempts: number,
  tests: readonly PolarisTestResult[],
  catastropheCost = 1,
): PolarisCountdown {
  const max = num("maxAttempts", maxAttempts, { integer: true, min: 1, max: POLARIS_MAX });
  const cost = num("catastropheCost", catastropheCost, { integer: true, min: 1, max: 2 });
  const items = list("tests", tests, POLARIS_MAX * 3);
  let left = max;
  let succeeded = false;
  items.forEach((t, i) => {
    const r = record(`tests[${i}]`, t);
    if (r.success === undefined) throw new RulesError("AVENTURE.Error.Missing", { name: `tests[${i}].success` });
    // Stryker disable next-line BooleanLiteral: equivalent (undefined was refused above: the fallback is never used).
    const ok = bool(`tests[${i}].success`, r.success, false);
    if (succeeded || left === 0) return;
    if (ok) {
      succeeded = true;
      left = Math.max(0, left - 1);
      return;
    }
    const degree = oneOf(`tests[${i}].degree`, r.degree, FAILURE_DEGREE_IDS);
    left = Math.max(0, left - 1 - (degree === "catastrophique" ? cost : 0));
  });
  return { left, succeeded, exhausted: left === 0 && !succeeded };
}

/**
 * The cumulative retry penalty the referee may impose (docs/rules.md §9.1): attempt 1 → 0, then −1 per new
 * attempt, or −3 per new attempt when `pressed`. `attempt` is an integer ≥ 1. Whether to apply it, and the
 * maximum number of attempts, are the referee's call.
 */
export function retryPenalty(attempt: number, pressed = false): number {
  const n = num("attempt", attempt, { min: 1, max: POLARIS_MAX, integer: true });
  // Stryker disable next-line BooleanLiteral: equivalent (the parameter's default already turns undefined into false).
  const step = bool("pressed", pressed, false) ? POLARIS_RETRY_STEP.pressed : POLARIS_RETRY_STEP.normal;
  return (n - 1) * step + 0; // + 0 turns −0 into 0
}

// ---------------------------------------------------------------------------------------------------------
// Action phases (docs/rules.md §9.2)
// ---------------------------------------------------------------------------------------------------------

/** Bonus to initiative when hastening an action. */
export const POLARIS_HASTEN_BONUS = 3;

export interface PolarisCombatant {
  id: string;
  /** Initiative level, an integer (may be 0 or negative after penalties). */
  initiative: number;
  /** Réaction level (with wound/fatigue penalties), an integer: breaks ties within a phase. */
  reaction: number;
  /** Hasten the action: +3 initiative this round (the action penalty is the caller's). */
  hasten?: boolean;
  /** Delay the action to this phase: an integer ≥ 1, lower than the phase the combatant would act at. */
  delayTo?: number;
}

export interface PolarisPhases {
  /** Number of action phases this round (≥ 1). */
  phases: number;
  /** Every phase from `phases` down to 1, with the ids acting in it, in resolution order (may be empty). */
  order: { phase: number; ids: string[] }[];
  /** Ids in the order intentions are declared: increasing base initiative (slowest first). */
  declarationOrder: string[];
}

interface Checked {
  id: string;
  initiative: number;
  effective: number;
  reaction: number;
  phase: number;
  /** 0, or how far below phase 1 a non-positive initiative lies (−1 for 0, −2 for −1...). */
  below: number;
}

function checkCombatant(c: PolarisCombatant, i: number): Checked {
  if (c === null || typeof c !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: `combatants[${i}]` });
  if (typeof c.id !== "string" || c.id === "")
    throw new RulesError("AVENTURE.Error.Missing", { name: `combatants[${i}].id` });
  // Bounded (|n| ≤ 100): the number of phases, and so the size of the result, is at most 103.
  const initiative = polarisInt("initiative", c.initiative);
  const reaction = polarisInt("reaction", c.reaction);
  const effective = initiative + (bool("hasten", c.hasten, false) ? POLARIS_HASTEN_BONUS : 0);
  const natural = Math.max(1, effective);
  if (c.delayTo !== undefined) {
    const to = polarisInt("delayTo", c.delayTo);
    if (to < 1 || to >= natural) {
      throw new RulesError("AVENTURE.Error.OutOfRange", { name: "delayTo", value: to, min: 1, max: natural - 1 });
    }
    return { id: c.id, initiative, effective, reaction, phase: to, below: 0 };
  }
  return { id: c.id, initiative, effective, reaction, phase: natural, below: Math.min(0, effective - 1) };
}

function compareChecked(a: Checked, b: Checked): number {
  return b.phase - a.phase || b.below - a.below || b.reaction - a.reaction;
}

/**
 * The phase a combatant acts at: its effective initiative (+3 when hastening), or `delayTo` when delaying.
 * *Decision:* an effective initiative of 0 or less acts at phase 1 (everyone acts each round).
 * Throws like `polarisPhases`.
 */
export function polarisActingPhase(c: PolarisCombatant): number {
  return checkCombatant(c, 0).phase;
}

/**
 * Comparator for a combat tracker (use with Array.prototype.sort, which is stable): acting phase
 * descending, then — within phase 1 — combatants whose effective initiative is 0 or less after the others,
 * by decreasing initiative, then Réaction descending. Equal keys keep their order (0).
 */
export function comparePolaris(a: PolarisCombatant, b: PolarisCombatant): number {
  return compareChecked(checkCombatant(a, 0), checkCombatant(b, 1));
}

/**
 * The action phases of a Polaris round (docs/rules.md §9.2).
 * - phases = the highest effective initiative (hasten +3 counts); phases count down to 1.
 * - A combatant acts at its effective initiative, or at `delayTo` when delaying (must be a later phase, i.e.
 *   a lower number, ≥ 1; throws OutOfRange otherwise). Delaying does not lower the number of phases.
 * - Same phase: higher Réaction first; *Decision:* equal Réaction keeps the input order.
 * - *Decision:* an effective initiative of 0 or less acts at phase 1, after the combatants whose initiative
 *   is 1 or more, by decreasing initiative then Réaction (everyone acts each round); when no one has an
 *   initiative of 1 or more there is 1 phase.
 * - declarationOrder: increasing base initiative (hasten and delay are themselves declarations, so they do
 *   not count); *Decision:* ties → lower Réaction first (the slower declares first), then input order.
 * Throws EmptyParty on an empty list, Missing on a missing id, UnknownValue on a duplicate id, and
 * NotANumber/NotAnInteger on bad numbers.
 */
export function polarisPhases(combatants: readonly PolarisCombatant[]): PolarisPhases {
  if (!Array.isArray(combatants) || combatants.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", {});
  const checked = (list("combatants", combatants, RULES_LIMITS.maxParty) as readonly PolarisCombatant[]).map((c, i) =>
    checkCombatant(c, i),
  );
  const seen = new Set<string>();
  for (const c of checked) {
    if (seen.has(c.id))
      throw new RulesError("AVENTURE.Error.UnknownValue", { name: "id", value: c.id, allowed: "unique ids" });
    seen.add(c.id);
  }
  const phases = Math.max(1, ...checked.map((c) => c.effective));
  const sorted = [...checked].sort(compareChecked);
  const order: { phase: number; ids: string[] }[] = [];
  for (let p = phases; p >= 1; p--) order.push({ phase: p, ids: sorted.filter((c) => c.phase === p).map((c) => c.id) });
  const declarationOrder = [...checked]
    .sort((a, b) => a.initiative - b.initiative || a.reaction - b.reaction)
    .map((c) => c.id);
  return { phases, order, declarationOrder };
}
