/**
 * Tactical movement, jumps and falls: docs/rules.md §3 (costs, jumps) and §4.1 (falls).
 * Pure functions, metres only. Documented in docs/api/movement.md.
 */
import { RulesError } from "./errors.js";
import { ruleset as checkRuleset, type RulesetId } from "./rulesets.js";
import { clean } from "./units.js";
import { bool, num, oneOf } from "./validate.js";
import { deepFreeze, metres as checkMetres } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";

// ---------------------------------------------------------------------------------------------
// §3.1 Movement costs
// ---------------------------------------------------------------------------------------------

/** The kinds of tactical movement the cost rules distinguish. */
export const MOVEMENT_ACTIONS = deepFreeze(["walk", "climb", "swim", "crawl", "jump"] as const);
export type MovementAction = (typeof MOVEMENT_ACTIONS)[number];

/** Metres of movement spent per metre travelled, on normal and on difficult terrain. */
export interface MovementCostEntry {
  readonly normal: number;
  readonly difficult: number;
}

/**
 * docs/rules.md §3.1, metres of movement per metre travelled (rnp seed 000, dnd5e seed 001).
 * - walk: 1; difficult terrain 2.
 * - climb / swim / crawl (squeeze): 1 extra metre per metre, 1 more in difficult terrain, so 2 and 3.
 *   The extras ADD (difficult climbing = 3 per metre); Foundry core would multiply (2 × 2 = 4).
 * - jump: each metre jumped costs a metre of movement (§3.2 "cost").
 *   *Decision:* difficult terrain does not raise the cost of a jump (the jumper is in the air; the
 *   difficult landing is handled by the Dexterity (Acrobatics) check in JUMP_CHECKS instead).
 */
export const MOVEMENT_COSTS: Readonly<Record<MovementAction, MovementCostEntry>> = deepFreeze({
  walk: { normal: 1, difficult: 2 },
  climb: { normal: 2, difficult: 3 },
  swim: { normal: 2, difficult: 3 },
  crawl: { normal: 2, difficult: 3 },
  jump: { normal: 1, difficult: 1 },
});

/** Where a ruleset's movement rules come from, and which extra costs a matching speed waives. */
export interface MovementCostRule {
  /** The ruleset whose source text the rule follows ("rnp" for the rulesets that fall back to it). */
  readonly source: "rnp" | "dnd5e";
  /**
   * Actions whose extra cost is waived when the creature has a speed of that kind (`hasSpeed`);
   * the action then costs what walking costs (1, or 2 in difficult terrain).
   */
  readonly speedWaives: readonly MovementAction[];
}

const RNP_MOVEMENT: MovementCostRule = { source: "rnp", speedWaives: [] };

/**
 * Per-ruleset movement cost rules. docs/rules.md §3.1 covers rnp and dnd5e only.
 * - dnd5e: no extra cost for climbing or swimming with a climbing or swimming speed (crawling always
 *   costs the extra metre).
 * - rnp: no such waiver (seed 000 does not mention one): a climb speed changes nothing.
 * - *Fallback:* pmt, ose and polaris have no tactical cost rules in their sources; they use the rnp
 *   costs.
 */
export const MOVEMENT_COST_RULES: Readonly<Record<RulesetId, MovementCostRule>> = deepFreeze({
  rnp: RNP_MOVEMENT,
  dnd5e: { source: "dnd5e", speedWaives: ["climb", "swim"] },
  pmt: RNP_MOVEMENT,
  ose: RNP_MOVEMENT,
  polaris: RNP_MOVEMENT,
});

/** Situations that may call for a Strength (Athletics) check while moving (docs/rules.md §3.1, last bullet). */
export const MOVEMENT_HARD_CONDITIONS = deepFreeze(["hardClimb", "icyWater", "strongCurrent", "narrowDuct"] as const);
export type MovementHardCondition = (typeof MOVEMENT_HARD_CONDITIONS)[number];

/** A check that the referee may call for; the module only flags it and never rolls it automatically. */
export interface MovementHardConditionCheck {
  readonly action: MovementAction;
  readonly ability: "str";
  readonly skill: "ath";
  /** Always true: the check is at the referee's discretion. */
  readonly discretionary: true;
  /** Always false: no automatic roll. */
  readonly automatic: false;
}

/**
 * docs/rules.md §3.1: a hard climb (few holds, slippery), icy water, strong currents, a very narrow duct →
 * Strength (Athletics) check at the referee's discretion. Data for the glue to show; nothing is rolled.
 * `action` is the movement the condition belongs to.
 */
export const MOVEMENT_HARD_CONDITION_CHECKS: Readonly<Record<MovementHardCondition, MovementHardConditionCheck>> =
  deepFreeze({
    hardClimb: { action: "climb", ability: "str", skill: "ath", discretionary: true, automatic: false },
    icyWater: { action: "swim", ability: "str", skill: "ath", discretionary: true, automatic: false },
    strongCurrent: { action: "swim", ability: "str", skill: "ath", discretionary: true, automatic: false },
    narrowDuct: { action: "crawl", ability: "str", skill: "ath", discretionary: true, automatic: false },
  });

/**
 * Metres of movement spent per metre travelled (docs/rules.md §3.1), for the Foundry cost function:
 * cost = distance × this. Allocation-free on valid input.
 * `difficult` and `hasSpeed` default to false when omitted. `hasSpeed` (the creature has a speed for
 * this action) only matters in dnd5e, for climb and swim. Throws UnknownRuleset, UnknownValue.
 */
export function movementCostPerMetre(
  ruleset: RulesetId,
  action: MovementAction,
  difficult?: boolean,
  hasSpeed?: boolean,
): number {
  const r = checkRuleset(ruleset);
  const a = oneOf("action", action, MOVEMENT_ACTIONS);
  const d = bool("difficult", difficult, false);
  const s = bool("hasSpeed", hasSpeed, false);
  const entry = s && MOVEMENT_COST_RULES[r].speedWaives.includes(a) ? MOVEMENT_COSTS.walk : MOVEMENT_COSTS[a];
  return d ? entry.difficult : entry.normal;
}

export interface MovementCostOptions {
  /** Metres travelled (≥ 0). */
  metres: number;
  action: MovementAction;
  /** Difficult terrain (default false). */
  difficult?: boolean;
  /** The creature has a speed for this action, e.g. a climbing speed (default false; dnd5e only). */
  hasSpeed?: boolean;
}

function requireObject(name: string, value: unknown): void {
  if (typeof value !== "object" || value === null) throw new RulesError("AVENTURE.Error.Missing", { name });
}

/**
 * Metres of movement spent to travel `metres` (docs/rules.md §3.1): exactly
 * `metres × movementCostPerMetre(ruleset, action, difficult, hasSpeed)`.
 * Throws UnknownRuleset, UnknownValue (action, flags), NotANumber / Negative (metres), Missing (no options).
 */
export function movementCost(ruleset: RulesetId, options: MovementCostOptions): number {
  requireObject("options", options);
  const perMetre = movementCostPerMetre(ruleset, options.action, options.difficult, options.hasSpeed);
  return checkMetres("metres", options.metres) * perMetre;
}

// ---------------------------------------------------------------------------------------------
// §3.2 Jumps
// ---------------------------------------------------------------------------------------------

/** A rational factor `times / per`, kept as a fraction so 0.3 × 15 is exactly 4.5. */
export interface JumpFactor {
  readonly times: number;
  readonly per: number;
}

export interface JumpRule {
  /** The ruleset whose source text the rule follows ("rnp" for the fallbacks). */
  readonly source: "rnp" | "dnd5e";
  /** Long jump with run-up = Strength score × times / per metres. */
  readonly longPerScore: JumpFactor;
  /** High jump with run-up = base + Strength modifier × times / per metres. */
  readonly highBase: number;
  readonly highPerMod: JumpFactor;
  /** Jumps are never below this (metres). */
  readonly min: number;
  /** Standing jump = this × the run-up jump. */
  readonly standingFactor: number;
  /** Metres of run-up needed for a full jump. */
  readonly runUpMetres: number;
  /** Reach while jumping = jump height + this × the creature's height. */
  readonly reachHeightFactor: number;
}

const RNP_JUMP: JumpRule = {
  source: "rnp",
  longPerScore: { times: 3, per: 10 },
  highBase: 1,
  highPerMod: { times: 3, per: 10 },
  min: 0,
  standingFactor: 0.5,
  runUpMetres: 3,
  reachHeightFactor: 1.5,
};

/**
 * docs/rules.md §3.2 jump table.
 * - rnp (seed 000): long = 0.3 m × Strength score; high = 1 m + 0.3 × Strength modifier.
 * - dnd5e (seed 001, literally "votre valeur de Force divisée par 3" metres and "votre modificateur de
 *   Force divisé par 3 + 1 (minimum 0)"): long = score / 3 m; high = 1 m + modifier / 3.
 * - Both: standing jumps are half; run-up ≥ 3 m; reach = jump height + 1.5 × the creature's height.
 * - *Decision:* a jump is never negative; rnp's high jump is clamped at 0 like dnd5e's.
 * - *Fallback:* pmt, ose and polaris have no jump rules in their sources; they use rnp's.
 */
export const JUMP_RULES: Readonly<Record<RulesetId, JumpRule>> = deepFreeze({
  rnp: RNP_JUMP,
  dnd5e: {
    source: "dnd5e",
    longPerScore: { times: 1, per: 3 },
    highBase: 1,
    highPerMod: { times: 1, per: 3 },
    min: 0,
    standingFactor: 0.5,
    runUpMetres: 3,
    reachHeightFactor: 1.5,
  },
  pmt: RNP_JUMP,
  ose: RNP_JUMP,
  polaris: RNP_JUMP,
});

/** The checks around a jump. */
export const JUMP_CHECK_IDS = deepFreeze(["obstacle", "landing"] as const);
export type JumpCheckId = (typeof JUMP_CHECK_IDS)[number];
/** What happens when a jump check fails. */
export type JumpCheckFailure = "hitsObstacle" | "prone";

export interface JumpCheck {
  readonly ability: "str" | "dex";
  readonly skill: "ath" | "acr";
  readonly dc: number;
  /** "source" when the ruleset's text gives the DC, "decision" when the module chose it. */
  readonly dcFrom: "source" | "decision";
  /** True when the referee decides whether to call for the check (the module never rolls it itself). */
  readonly discretionary: boolean;
  readonly onFailure: JumpCheckFailure;
}

const DND5E_JUMP_CHECKS: Readonly<Record<JumpCheckId, JumpCheck>> = {
  obstacle: { ability: "str", skill: "ath", dc: 10, dcFrom: "source", discretionary: true, onFailure: "hitsObstacle" },
  landing: { ability: "dex", skill: "acr", dc: 10, dcFrom: "source", discretionary: false, onFailure: "prone" },
};
const RNP_JUMP_CHECKS: Readonly<Record<JumpCheckId, JumpCheck>> = {
  obstacle: {
    ability: "str",
    skill: "ath",
    dc: 10,
    dcFrom: "decision",
    discretionary: true,
    onFailure: "hitsObstacle",
  },
  landing: { ability: "dex", skill: "acr", dc: 10, dcFrom: "decision", discretionary: false, onFailure: "prone" },
};

/**
 * docs/rules.md §3.2 checks: clearing an obstacle (up to ¼ of the long jump; Strength (Athletics) at the
 * referee's discretion, failure = hits it) and landing in difficult terrain (Dexterity (Acrobatics),
 * failure = prone). dnd5e gives DC 10 for both.
 * *Decision:* rnp gives no DC; the module uses DC 10 as in dnd5e and shows it (docs/rules.md states this for
 * the landing; the module applies the same to the obstacle, which rnp also leaves without a DC).
 * pmt, ose and polaris fall back to rnp.
 */
export const JUMP_CHECKS: Readonly<Record<RulesetId, Readonly<Record<JumpCheckId, JumpCheck>>>> = deepFreeze({
  rnp: RNP_JUMP_CHECKS,
  dnd5e: DND5E_JUMP_CHECKS,
  pmt: RNP_JUMP_CHECKS,
  ose: RNP_JUMP_CHECKS,
  polaris: RNP_JUMP_CHECKS,
});

/**
 * `runUp` is either a boolean (true = at least the ruleset's 3 m run-up) or the metres of run-up taken.
 * It is required: a missing value throws Missing rather than silently picking a jump length.
 */
export type JumpRunUp = boolean | number;

function hasRunUp(rule: JumpRule, runUp: unknown): boolean {
  if (runUp === undefined) throw new RulesError("AVENTURE.Error.Missing", { name: "runUp" });
  if (typeof runUp === "number") return checkMetres("runUp", runUp) >= rule.runUpMetres;
  // Stryker disable next-line BooleanLiteral: equivalent (undefined was refused above: the fallback is never used).
  return bool("runUp", runUp, false);
}

function applyStanding(rule: JumpRule, metres: number, runUp: unknown): number {
  const full = Math.max(rule.min, metres);
  return clean(hasRunUp(rule, runUp) ? full : full * rule.standingFactor);
}

export interface LongJumpOptions {
  /** Strength score (≥ 0). */
  strength: number;
  runUp: JumpRunUp;
}

/**
 * Long jump length in metres (docs/rules.md §3.2): rnp 0.3 × Strength score, dnd5e score / 3; half standing.
 * Throws UnknownRuleset, Missing, NotANumber / Negative (strength, runUp), UnknownValue (runUp).
 */
export function longJump(ruleset: RulesetId, options: LongJumpOptions): number {
  const rule = JUMP_RULES[checkRuleset(ruleset)];
  requireObject("options", options);
  const score = num("strength", options.strength, { min: 0, max: RULES_LIMITS.maxScore });
  const f = rule.longPerScore;
  return applyStanding(rule, (score * f.times) / f.per, options.runUp);
}

export interface HighJumpOptions {
  /** Strength modifier (may be negative). */
  strengthMod: number;
  runUp: JumpRunUp;
}

/**
 * High jump height in metres (docs/rules.md §3.2): rnp 1 + 0.3 × Strength modifier, dnd5e 1 + modifier / 3;
 * never below 0 (dnd5e rule; rnp by *Decision*); half standing.
 * Throws UnknownRuleset, Missing, NotANumber (strengthMod), NotANumber / Negative / UnknownValue (runUp).
 */
export function highJump(ruleset: RulesetId, options: HighJumpOptions): number {
  const rule = JUMP_RULES[checkRuleset(ruleset)];
  requireObject("options", options);
  const mod = num("strengthMod", options.strengthMod, { min: -RULES_LIMITS.maxScore, max: RULES_LIMITS.maxScore });
  const f = rule.highPerMod;
  return applyStanding(rule, (rule.highBase * f.per + mod * f.times) / f.per, options.runUp);
}

export interface JumpReachOptions extends HighJumpOptions {
  /** The creature's height in metres (≥ 0). */
  height: number;
}

/**
 * Highest point reachable while jumping, in metres above the take-off ground (docs/rules.md §3.2):
 * highJump + 1.5 × height (arms stretched half the height above the normal reach).
 * Throws as highJump, plus NotANumber / Negative (height).
 */
export function jumpReach(ruleset: RulesetId, options: JumpReachOptions): number {
  const rule = JUMP_RULES[checkRuleset(ruleset)];
  requireObject("options", options);
  const height = checkMetres("height", options.height);
  return clean(highJump(ruleset, options) + height * rule.reachHeightFactor);
}

/** Fraction of the long jump length that an obstacle may be high and still be jumped over. */
export const JUMP_OBSTACLE_FRACTION = 0.25;

/** Highest obstacle (metres) clearable during a long jump of `longJumpMetres`: a quarter of it. */
export function jumpObstacleMax(longJumpMetres: number): number {
  return clean(checkMetres("longJumpMetres", longJumpMetres) * JUMP_OBSTACLE_FRACTION);
}

// ---------------------------------------------------------------------------------------------
// §4.1 Falls
// ---------------------------------------------------------------------------------------------

/**
 * docs/rules.md §4.1 (rnp seed 000): 1d6 bludgeoning per full 3 m fallen, at most 20d6; a creature that takes
 * any damage from the fall ends prone.
 */
export const FALL_RULES = deepFreeze({
  metresPerDie: 3,
  faces: 6,
  maxDice: 20,
  damageType: "bludgeoning",
  proneOnDamage: true,
} as const);

/**
 * docs/rules.md §0 (falls under ose): the OSE SRD, *Hazards and Challenges*, "Falling": 1d6 damage per 10′ fallen
 * (10′ = 3 m). The page gives no damage type, no prone condition and no maximum; the module bounds the dice at
 * 1000 (a fall of 3 km), as it bounds every number (docs/rules.md, "Bounds").
 */
export const OSE_FALL_RULES = deepFreeze({
  metresPerDie: 3,
  faces: 6,
  maxDice: 1000,
  damageType: null,
  proneOnDamage: false,
} as const);

export interface FallRule {
  readonly metresPerDie: number;
  readonly faces: number;
  readonly maxDice: number;
  /** The damage type named by the rule (null: the game has none). */
  readonly damageType: "bludgeoning" | null;
  readonly proneOnDamage: boolean;
}

/**
 * The fall rule a game's falls follow: Old-School Essentials' for ose, Rôle'n Play's (= the 5e SRD's) otherwise. Throws
 * UnknownRuleset.
 */
export function fallRules(ruleset: RulesetId): FallRule {
  return checkRuleset(ruleset) === "ose" ? OSE_FALL_RULES : FALL_RULES;
}

/**
 * Number of d6 for a fall of `metres`: one per full 3 m, at most 20 (0 below 3 m); under `ruleset` "ose", at most
 * 1000 (OSE_FALL_RULES). Floating-point noise is rounded away first (8.999999999999998 m counts as 9 m; 8.999 m does
 * not). Throws NotANumber / Negative / UnknownRuleset.
 */
export function fallDice(metres: number, ruleset: RulesetId = "rnp"): number {
  const rule = fallRules(ruleset);
  const m = checkMetres("metres", metres);
  return Math.min(rule.maxDice, Math.floor(clean(m / rule.metresPerDie)));
}

/** The fall damage formula, e.g. "3d6", or null when the fall deals no dice. Throws as fallDice. */
export function fallFormula(metres: number, ruleset: RulesetId = "rnp"): string | null {
  const n = fallDice(metres, ruleset);
  return n > 0 ? `${n}d${fallRules(ruleset).faces}` : null;
}

// ---------------------------------------------------------------------------------------------
// Movement budget per turn and jump length check (used by the token ruler)
// ---------------------------------------------------------------------------------------------

/** A creature's speeds in metres per round (0 = none). `fly` is optional. */
export interface MovementSpeeds {
  walk: number;
  climb: number;
  swim: number;
  fly?: number;
}

/**
 * Whether the creature has a speed of its own for `action` (a climbing speed to climb, a swimming speed
 * to swim): the `hasSpeed` flag of movementCostPerMetre. Walk, crawl and jump never have one.
 * Throws UnknownValue (action), NotANumber / Negative (speeds).
 */
export function hasSpeedFor(speeds: MovementSpeeds, action: MovementAction): boolean {
  requireObject("speeds", speeds);
  const a = oneOf("action", action, MOVEMENT_ACTIONS);
  if (a === "climb") return checkMetres("climb", speeds.climb) > 0;
  if (a === "swim") return checkMetres("swim", speeds.swim) > 0;
  return false;
}

/** The actions movementBudget knows: the rule actions, and flying (no cost rule, but a speed of its own). */
export const BUDGET_ACTIONS = deepFreeze([...MOVEMENT_ACTIONS, "fly"] as const);
export type BudgetAction = (typeof BUDGET_ACTIONS)[number];

/**
 * Metres of movement a creature has per turn for `action`, against which the costs of §3.1 are spent.
 * *Decision* (docs/rules.md gives costs, not budgets): the walking speed; for climbing, swimming and flying, the
 * creature's own climbing, swimming or flying speed when it is higher (the cost then follows `hasSpeed`).
 * Throws UnknownValue (action), NotANumber / Negative (speeds).
 */
export function movementBudget(speeds: MovementSpeeds, action: BudgetAction): number {
  requireObject("speeds", speeds);
  const a = oneOf("action", action, BUDGET_ACTIONS);
  const walk = checkMetres("walk", speeds.walk);
  if (a === "fly") return Math.max(walk, checkMetres("fly", speeds.fly ?? 0));
  if (a === "climb") return Math.max(walk, checkMetres("climb", speeds.climb));
  if (a === "swim") return Math.max(walk, checkMetres("swim", speeds.swim));
  return walk;
}

/**
 * The speed a creature moves at when no action is named (a chase, a prefilled group speed): its walking speed; a
 * creature that does not walk (walk 0: one that only flies or swims), its fastest other speed.
 * *Decision* (docs/rules.md gives speeds per mode, not which one a chase uses). Throws NotANumber / Negative (speeds).
 */
export function usualSpeed(speeds: MovementSpeeds): number {
  requireObject("speeds", speeds);
  const walk = checkMetres("walk", speeds.walk);
  if (walk > 0) return walk;
  return Math.max(
    checkMetres("fly", speeds.fly ?? 0),
    checkMetres("swim", speeds.swim),
    checkMetres("climb", speeds.climb),
  );
}

export interface MovementLeft {
  /** Metres left this turn (negative when the movement went beyond the budget). */
  left: number;
  /** True when more was spent than the budget allows. */
  exceeded: boolean;
}

/** Movement left after spending `spentMetres` of a `budgetMetres` budget. Throws NotANumber / Negative. */
export function movementLeft(budgetMetres: number, spentMetres: number): MovementLeft {
  const left = clean(checkMetres("budget", budgetMetres) - checkMetres("spent", spentMetres));
  return { left, exceeded: left < 0 };
}

export interface JumpCheckOptions extends LongJumpOptions {
  /** Metres covered by the single jump. */
  metres: number;
}

/**
 * True when a single jump of `metres` is longer than the creature's long jump (docs/rules.md §3.2), with the
 * run-up it took (`runUp`: boolean or metres). Throws as longJump, plus NotANumber / Negative (metres).
 */
export function jumpTooLong(ruleset: RulesetId, options: JumpCheckOptions): boolean {
  requireObject("options", options);
  const metres = checkMetres("metres", options.metres);
  return clean(metres) > longJump(ruleset, options);
}
