/**
 * Encounters: surprise, encounter distance, monster reactions and side initiative
 * (docs/rules.md §7, pmt and ose).
 *
 * Rulesets without encounter rules of their own (rnp, dnd5e, polaris) use the **ose** rules
 * (`ENCOUNTER_BASE_RULESET`). *Decision (module):* ose rather than pmt because its reaction table
 * takes a Charisma modifier (which rnp and dnd5e characters have) and accepts any total, and its
 * distance table covers water and surprise. Results that depend on the ruleset say which rules they
 * used (`rules: "pmt" | "ose"`) so the dialog can show it.
 */
import { show } from "./text.js";
import { RulesError } from "./errors.js";
import type { Dice } from "./dice.js";
import { ruleset, type RulesetId } from "./rulesets.js";
import { turnSeconds } from "./time.js";
import { bool, num, oneOf } from "./validate.js";
import { deepFreeze, list, record, rollChecked } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";

// ---------------------------------------------------------------------------------------------
// Rulesets
// ---------------------------------------------------------------------------------------------

/** The two rule sources of §7 and §8. */
export type EncounterRules = "pmt" | "ose";

/**
 * Which encounter rules each ruleset uses: pmt and ose their own, every other ruleset falls back to
 * ose (see the module comment). Used by every function of encounter.ts and pursuit.ts.
 */
export const ENCOUNTER_BASE_RULESET: Readonly<Record<RulesetId, EncounterRules>> = deepFreeze({
  rnp: "ose",
  dnd5e: "ose",
  pmt: "pmt",
  ose: "ose",
  polaris: "ose",
});

/** The encounter rules, as data. */
export const ENCOUNTER_RULES = deepFreeze(["pmt", "ose"] as const);

/** The encounter rules (pmt or ose) used by `rs`. Throws UnknownRuleset. */
export function encounterRules(rs: RulesetId): EncounterRules {
  return ENCOUNTER_BASE_RULESET[ruleset(rs)];
}

/** A boolean that must be given (no default). */
function requiredBool(name: string, value: unknown): boolean {
  if (value === undefined) throw new RulesError("AVENTURE.Error.Missing", { name });
  // Stryker disable next-line BooleanLiteral: equivalent (undefined was refused above: the fallback is never used).
  return bool(name, value, false);
}

function sideId(name: string, value: unknown): string {
  if (typeof value !== "string" || value === "") {
    throw new RulesError("AVENTURE.Error.UnknownValue", { name, value: show(value), allowed: "a non-empty string" });
  }
  return value;
}

function uniqueIds(name: string, ids: readonly string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id))
      throw new RulesError("AVENTURE.Error.UnknownValue", { name, value: id, allowed: "unique side ids" });
    seen.add(id);
  }
}

// ---------------------------------------------------------------------------------------------
// §7.2 Surprise
// ---------------------------------------------------------------------------------------------

/** The surprise roll: 1d6, **1–2 = surprised** (pmt and ose). Throws unless `d6` is an integer 1..6. */
export function isSurprised(d6: number): boolean {
  return num("d6", d6, { min: 1, max: 6, integer: true }) <= 2;
}

/** Who acts in round 1 between two sides a and b. */
export type SurpriseActs = "a" | "b" | "none" | "both";
/** Which surprise case applies (two sides). */
export type SurpriseNote = "oneSurprised" | "bothSurprised" | "neither";

export interface SurpriseOutcome {
  /** Who acts in round 1: the side that is not surprised, nobody, or both (initiative decides the order). */
  firstRoundActs: SurpriseActs;
  note: SurpriseNote;
  /**
   * The first round whose order side initiative decides: 1 when nobody is surprised (and ose, both
   * surprised); 2 when one side is surprised (the other acts alone in round 1) or in pmt when both are.
   */
  initiativeRound: 1 | 2;
  /** The rules used (see ENCOUNTER_BASE_RULESET). */
  rules: EncounterRules;
}

/**
 * docs/rules.md §7.2 for two sides: who loses round 1.
 * - one side surprised: it cannot act in round 1; the other acts (ose: "one free round");
 * - both surprised: pmt → nobody acts in round 1 (`"none"`), initiative is rolled normally in round 2;
 *   ose → "a moment of confusion, no advantage": both act, initiative as usual (`"both"`);
 * - neither: initiative at once (`"both"`).
 * A side that was already aware of the other does not roll (ose: a monster waiting silently) — pass
 * `false` for it.
 */
export function surpriseOutcome(rs: RulesetId, opts: { aSurprised: boolean; bSurprised: boolean }): SurpriseOutcome {
  const rules = encounterRules(rs);
  if (opts === null || typeof opts !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "opts" });
  const a = requiredBool("aSurprised", opts.aSurprised);
  const b = requiredBool("bSurprised", opts.bSurprised);
  if (a && b) {
    return rules === "pmt"
      ? { firstRoundActs: "none", note: "bothSurprised", initiativeRound: 2, rules }
      : { firstRoundActs: "both", note: "bothSurprised", initiativeRound: 1, rules };
  }
  if (a) return { firstRoundActs: "b", note: "oneSurprised", initiativeRound: 2, rules };
  if (b) return { firstRoundActs: "a", note: "oneSurprised", initiativeRound: 2, rules };
  return { firstRoundActs: "both", note: "neither", initiativeRound: 1, rules };
}

/** One side for `surprisedSides`. */
export interface SurpriseSide {
  id: string;
  surprised: boolean;
}

/** Which surprise case applies (any number of sides). */
export type SidesSurpriseNote = "neither" | "someSurprised" | "allSurprised";

export interface SidesSurpriseOutcome {
  /** Ids of the surprised sides, in input order. */
  surprised: string[];
  /** Ids of the sides that are not surprised, in input order. */
  alert: string[];
  note: SidesSurpriseNote;
  /**
   * Ids of the sides that act in round 1. Some surprised: the alert sides (they then roll side
   * initiative among themselves if there are several). All surprised: pmt → none, ose → all.
   * `null` when all are surprised and no ruleset was given (the two rules disagree).
   */
  firstRound: string[] | null;
  /** The first round with normal side initiative for every side; null together with firstRound. */
  initiativeRound: 1 | 2 | null;
  /** The rules used, or null when no ruleset was given. */
  rules: EncounterRules | null;
}

/**
 * §7.2 generalised to N sides: the surprised sides lose round 1, the others act (with side initiative
 * among themselves). With `rs` the all-surprised case follows pmt (nobody acts in round 1) or ose
 * (moment of confusion, everyone acts); without it that case gives `firstRound: null`.
 * Throws EmptyParty for no sides, UnknownValue for a bad or duplicate id, Missing for a missing flag.
 */
export function surprisedSides(sides: readonly SurpriseSide[], rs?: RulesetId): SidesSurpriseOutcome {
  const rules = rs === undefined ? null : encounterRules(rs);
  const given = list("sides", sides, RULES_LIMITS.maxParty) as readonly SurpriseSide[];
  if (given.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", { name: "sides" });
  const surprised: string[] = [];
  const alert: string[] = [];
  given.forEach((s, i) => {
    if (s === null || typeof s !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: `sides[${i}]` });
    const id = sideId(`sides[${i}].id`, s.id);
    (requiredBool(`sides[${i}].surprised`, s.surprised) ? surprised : alert).push(id);
  });
  uniqueIds("sides", [...surprised, ...alert]);
  if (surprised.length === 0)
    return { surprised, alert, note: "neither", firstRound: [...alert], initiativeRound: 1, rules };
  if (alert.length > 0)
    return { surprised, alert, note: "someSurprised", firstRound: [...alert], initiativeRound: 2, rules };
  if (rules === null) return { surprised, alert, note: "allSurprised", firstRound: null, initiativeRound: null, rules };
  return rules === "pmt"
    ? { surprised, alert, note: "allSurprised", firstRound: [], initiativeRound: 2, rules }
    : { surprised, alert, note: "allSurprised", firstRound: [...surprised], initiativeRound: 1, rules };
}

// ---------------------------------------------------------------------------------------------
// §7.1 Encounter distance
// ---------------------------------------------------------------------------------------------

export const ENCOUNTER_PLACES = deepFreeze(["dungeon", "wilderness", "water"] as const);
export type EncounterPlace = (typeof ENCOUNTER_PLACES)[number];

/** A distance roll: `count`d`faces` × `multiplier` metres. */
export interface DistanceDice {
  count: number;
  faces: number;
  multiplier: number;
}

/**
 * docs/rules.md §7.1, in metres. `surprised` is used when either side is surprised (only ose outdoors
 * differs). pmt has no water entry: "outdoors" covers wilderness and water.
 */
export const ENCOUNTER_DISTANCE: Readonly<
  Record<EncounterRules, Readonly<Record<EncounterPlace, Readonly<{ normal: DistanceDice; surprised: DistanceDice }>>>>
> = deepFreeze({
  pmt: {
    dungeon: { normal: { count: 1, faces: 6, multiplier: 5 }, surprised: { count: 1, faces: 6, multiplier: 5 } },
    wilderness: { normal: { count: 4, faces: 6, multiplier: 10 }, surprised: { count: 4, faces: 6, multiplier: 10 } },
    water: { normal: { count: 4, faces: 6, multiplier: 10 }, surprised: { count: 4, faces: 6, multiplier: 10 } },
  },
  ose: {
    dungeon: { normal: { count: 2, faces: 6, multiplier: 3 }, surprised: { count: 2, faces: 6, multiplier: 3 } },
    wilderness: { normal: { count: 4, faces: 6, multiplier: 10 }, surprised: { count: 1, faces: 4, multiplier: 10 } },
    water: { normal: { count: 4, faces: 6, multiplier: 10 }, surprised: { count: 1, faces: 4, multiplier: 10 } },
  },
});

export interface EncounterDistance extends DistanceDice {
  /** e.g. "2d6*3" (metres). */
  formula: string;
  /** Smallest and largest distance in metres. */
  min: number;
  max: number;
  rules: EncounterRules;
}

export interface EncounterDistanceOptions {
  where: EncounterPlace;
  /**
   * Whether either side is surprised. Required only where it matters (ose wilderness and water);
   * elsewhere it may be omitted (pmt rolls the distance before surprise).
   */
  surprised?: boolean;
}

/**
 * The encounter distance dice (docs/rules.md §7.1): pmt dungeon 1d6 × 5 m, outdoors 4d6 × 10 m; ose
 * dungeon 2d6 × 3 m, wilderness and water 4d6 × 10 m or 1d4 × 10 m if either side is surprised.
 * Throws UnknownRuleset, UnknownValue (place), Missing (ose outdoors without `surprised`).
 */
export function encounterDistance(rs: RulesetId, opts: EncounterDistanceOptions): EncounterDistance {
  const rules = encounterRules(rs);
  if (opts === null || typeof opts !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "opts" });
  const where = oneOf("where", opts.where, ENCOUNTER_PLACES);
  const entry = ENCOUNTER_DISTANCE[rules][where];
  const formula = (x: DistanceDice) => `${x.count}d${x.faces}*${x.multiplier}`;
  const differs = formula(entry.normal) !== formula(entry.surprised);
  // Stryker disable next-line BooleanLiteral: equivalent (where surprise does not change the dice, either answer gives
  // the same).
  const surprised = differs ? requiredBool("surprised", opts.surprised) : bool("surprised", opts.surprised, false);
  const d = surprised ? entry.surprised : entry.normal;
  return {
    count: d.count,
    faces: d.faces,
    multiplier: d.multiplier,
    formula: formula(d),
    min: d.count * d.multiplier,
    max: d.count * d.faces * d.multiplier,
    rules,
  };
}

/** Rolls the encounter distance: `metres` and the individual `dice`. Same errors as encounterDistance. */
export async function rollEncounterDistance(
  rs: RulesetId,
  opts: EncounterDistanceOptions,
  dice: Dice,
): Promise<{ metres: number; dice: number[] }> {
  const d = encounterDistance(rs, opts);
  const results = await rollChecked(dice, d.count, d.faces, "encounterDistance");
  return { metres: results.reduce((a, b) => a + b, 0) * d.multiplier, dice: results };
}

// ---------------------------------------------------------------------------------------------
// §7.4 Monster reactions
// ---------------------------------------------------------------------------------------------

export type PmtReaction = "friendly" | "indifferent" | "neutral" | "aggressive" | "hostile";
export type OseReaction = "hostile" | "unfriendly" | "neutral" | "indifferent" | "friendly";
export type MonsterReaction = PmtReaction | OseReaction;

/** One row of a reaction table: totals `min..max` inclusive; `null` = open-ended. */
export interface ReactionRow<R extends string> {
  min: number | null;
  max: number | null;
  reaction: R;
}

/**
 * docs/rules.md §7.4. pmt: plain 2d6 (2..12). ose: 2d6 + the Charisma modifier of the character who
 * speaks, so totals below 2 and above 12 exist (open-ended first and last rows).
 */
export const REACTION_TABLES: Readonly<{
  pmt: readonly ReactionRow<PmtReaction>[];
  ose: readonly ReactionRow<OseReaction>[];
}> = deepFreeze({
  pmt: [
    { min: 2, max: 2, reaction: "friendly" },
    { min: 3, max: 5, reaction: "indifferent" },
    { min: 6, max: 8, reaction: "neutral" },
    { min: 9, max: 11, reaction: "aggressive" },
    { min: 12, max: 12, reaction: "hostile" },
  ],
  ose: [
    { min: null, max: 2, reaction: "hostile" },
    { min: 3, max: 5, reaction: "unfriendly" },
    { min: 6, max: 8, reaction: "neutral" },
    { min: 9, max: 11, reaction: "indifferent" },
    { min: 12, max: null, reaction: "friendly" },
  ],
});

/**
 * Checks a reaction total for `rules` ("pmt" or "ose"): pmt an integer 2..12, ose any integer (2d6 + CHA modifier)
 * within
 * ±1000. Throws UnknownValue (rules), NotANumber, NotAnInteger, OutOfRange.
 */
export function reactionTotal(rules: EncounterRules, total: unknown): number {
  const r = oneOf("rules", rules, ENCOUNTER_RULES);
  return r === "pmt"
    ? num("total", total, { min: 2, max: 12, integer: true })
    : num("total", total, { min: -RULES_LIMITS.maxScore, max: RULES_LIMITS.maxScore, integer: true });
}

/**
 * The monster reaction for a 2d6 total (docs/rules.md §7.4). pmt: the total must be an integer 2..12;
 * ose (and the rulesets that fall back to it): 2d6 + CHA modifier, any integer.
 * Throws UnknownRuleset, NotANumber, NotAnInteger, OutOfRange.
 */
export function reaction(rs: RulesetId, total: number): MonsterReaction {
  const rules = encounterRules(rs);
  const t = reactionTotal(rules, total);
  const rows: readonly ReactionRow<MonsterReaction>[] = REACTION_TABLES[rules];
  // The rows are in increasing order: the first whose max is not below the total.
  const row = rows.find((r) => r.max === null || t <= r.max);
  // Stryker disable next-line all: unreachable guard (the rows cover every total reactionTotal lets through).
  if (!row) throw new RulesError("AVENTURE.Error.OutOfRange", { name: "total", value: t, min: 2, max: 12 });
  return row.reaction;
}

/** A rolled reaction: the 2d6, the modifier the rules add, the total and the reaction. */
export interface ReactionRoll {
  rules: EncounterRules;
  dice: [number, number];
  modifier: number;
  total: number;
  result: MonsterReaction;
}

/**
 * A monster reaction from its 2d6 (docs/rules.md §7.4): ose (and the rulesets that fall back to it) adds the
 * Charisma modifier of the character who speaks (`chaMod`; null = nobody speaks or unknown → +0); pmt
 * adds nothing. Throws UnknownRuleset, NotANumber, NotAnInteger, OutOfRange.
 */
export function reactionRoll(rs: RulesetId, dice: readonly number[], chaMod: number | null): ReactionRoll {
  const rules = encounterRules(rs);
  const rolled = list("dice", dice, 2);
  if (rolled.length !== 2)
    throw new RulesError("AVENTURE.Error.OutOfRange", { name: "dice", value: rolled.length, min: 2, max: 2 });
  const d = rolled.map((x) => num("d6", x, { min: 1, max: 6, integer: true })) as [number, number];
  const cha =
    chaMod === null || chaMod === undefined
      ? null
      : num("chaMod", chaMod, { integer: true, min: -RULES_LIMITS.maxScore, max: RULES_LIMITS.maxScore });
  const modifier = rules === "ose" && cha !== null ? cha : 0;
  const total = d[0] + d[1] + modifier;
  return { rules, dice: d, modifier, total, result: reaction(rs, total) };
}

// ---------------------------------------------------------------------------------------------
// §7.3 Side initiative
// ---------------------------------------------------------------------------------------------

export const SIDE_TIES = deepFreeze(["simultaneous", "reroll"] as const);
/** How ties are broken: act simultaneously (pmt always; ose option) or reroll (ose option only). */
export type SideTies = (typeof SIDE_TIES)[number];

/**
 * docs/rules.md §7.3: the tie rules each source allows. pmt: tied sides always act simultaneously (seed 002 gives no
 * reroll); ose: simultaneous or reroll, an option (the rulesets that use the ose encounter rules too).
 */
export const SIDE_TIES_BY_RULES: Readonly<Record<EncounterRules, readonly SideTies[]>> = deepFreeze({
  pmt: ["simultaneous"],
  ose: ["simultaneous", "reroll"],
});

/**
 * The tie rule a world with ruleset `rs` uses when its option (the "Tied sides" setting) is `preferred`: pmt ties are
 * always simultaneous, whatever the option; ose (and the rulesets that fall back to it) follow the option.
 * Throws UnknownRuleset, UnknownValue.
 */
export function sideTiesFor(rs: RulesetId, preferred: SideTies): SideTies {
  const allowed = SIDE_TIES_BY_RULES[encounterRules(rs)];
  const p = oneOf("ties", preferred, SIDE_TIES);
  return allowed.includes(p) ? p : allowed[0]!;
}

/** The order of the sides for one round. */
export interface SideOrder {
  /** The sides in acting order, highest roll first; the sides of one group tied (act together). */
  groups: string[][];
  /**
   * With `ties: "reroll"`: the groups of two or more tied sides that must reroll to settle their order
   * (they keep their place relative to the other groups). Always empty with `"simultaneous"`.
   */
  reroll: string[][];
}

function checkRolls(rolls: Readonly<Record<string, number>>): [string, number][] {
  const entries = Object.entries(record("rolls", rolls));
  if (entries.length > RULES_LIMITS.maxParty) {
    throw new RulesError("AVENTURE.Error.OutOfRange", {
      name: "rolls",
      value: entries.length,
      min: 1,
      max: RULES_LIMITS.maxParty,
    });
  }
  if (entries.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", { name: "rolls" });
  return entries.map(([id, r]) => [sideId("side", id), num(`rolls.${id}`, r, { min: 1, max: 6, integer: true })]);
}

/**
 * docs/rules.md §7.3: orders the sides by their 1d6 (`rolls`: side id → result 1..6), highest first, the
 * others in decreasing order. Tied sides share a group; with `ties: "reroll"` the tied groups are also
 * listed in `reroll`. Within a group the sides keep the order of `rolls`.
 * Throws EmptyParty (no side), OutOfRange / NotAnInteger (not a d6), UnknownValue (ties).
 */
export function sideOrder(rolls: Readonly<Record<string, number>>, ties: SideTies): SideOrder {
  const mode = oneOf("ties", ties, SIDE_TIES);
  const entries = checkRolls(rolls);
  const byValue = new Map<number, string[]>();
  for (const [id, r] of entries) {
    const g = byValue.get(r);
    if (g) g.push(id);
    else byValue.set(r, [id]);
  }
  const groups = [...byValue.entries()].sort((x, y) => y[0] - x[0]).map(([, ids]) => ids);
  return { groups, reroll: mode === "reroll" ? groups.filter((g) => g.length > 1).map((g) => [...g]) : [] };
}

/** The most reroll passes `rollSideInitiative` makes before leaving the remaining ties simultaneous. */
export const SIDE_INITIATIVE_MAX_REROLLS = 20;

/** One set of dice rolled by `rollSideInitiative`: pass 0 is the first roll, then rerolls. */
export interface SideInitiativeRoll {
  pass: number;
  /** Side id → 1d6. */
  rolls: Record<string, number>;
}

export interface SideInitiativeResult {
  /** Every roll made, in order (pass 0 = all sides; later passes = one entry per tied group rerolled). */
  rolls: SideInitiativeRoll[];
  /** The final acting order; a group of several sides acts simultaneously. */
  groups: string[][];
  /** True when ties remained after SIDE_INITIATIVE_MAX_REROLLS passes and were left simultaneous. */
  fellBack: boolean;
  /** Initiative value per side for the combat tracker (see sideInitiativeValues). */
  values: Record<string, number>;
}

/**
 * Rolls side initiative for one round: 1d6 per side (one roll of N d6, in the order of `sideIds`).
 * With `ties: "reroll"`, each group of tied sides rerolls among itself (one roll per tied group per
 * pass) until every tie is settled, at most SIDE_INITIATIVE_MAX_REROLLS passes; ties left after that
 * act simultaneously (`fellBack: true`). Throws EmptyParty, UnknownValue (bad / duplicate id, ties).
 */
export async function rollSideInitiative(
  sideIds: readonly string[],
  ties: SideTies,
  dice: Dice,
): Promise<SideInitiativeResult> {
  const mode = oneOf("ties", ties, SIDE_TIES);
  const given = list("sideIds", sideIds, RULES_LIMITS.maxParty);
  if (given.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", { name: "sideIds" });
  const ids = given.map((id, i) => sideId(`sideIds[${i}]`, id));
  uniqueIds("sideIds", ids);

  const toRecord = (who: readonly string[], results: readonly number[]) =>
    Object.fromEntries(who.map((id, i) => [id, results[i]!])) as Record<string, number>;

  const first = toRecord(ids, await rollChecked(dice, ids.length, 6, "sideInitiative"));
  const rolls: SideInitiativeRoll[] = [{ pass: 0, rolls: first }];
  let groups = sideOrder(first, mode).groups;
  const tied = () => mode === "reroll" && groups.some((g) => g.length > 1);
  let pass = 0;
  while (tied() && pass < SIDE_INITIATIVE_MAX_REROLLS) {
    pass++;
    const next: string[][] = [];
    for (const g of groups) {
      if (g.length === 1) {
        next.push(g);
        continue;
      }
      const r = toRecord(g, await rollChecked(dice, g.length, 6, "sideInitiativeReroll"));
      rolls.push({ pass, rolls: r });
      next.push(...sideOrder(r, "simultaneous").groups);
    }
    groups = next;
  }
  const fellBack = tied();
  return { rolls, groups, fellBack, values: sideInitiativeValues(groups, first) };
}

/**
 * Initiative values for the combat tracker (which sorts highest first): every side of a group gets the
 * same value, and earlier groups get strictly higher values.
 * - With `rolls` (the first 1d6 of each side): the value is the side's roll, plus a tie-break fraction
 *   when rerolls split sides that rolled the same (e.g. 5.1 before 5), so the tracker still shows the
 *   roll. The groups must agree with the rolls (same roll within a group, rolls not increasing).
 * - Without `rolls`: the value is the rank counted from the end (last group 1, the one before 2, …).
 * Throws EmptyParty (no group or an empty group), UnknownValue (duplicate side, groups contradicting
 * the rolls), Missing (a side without a roll or a rolled side missing from the groups).
 */
export function sideInitiativeValues(
  input: readonly (readonly string[])[],
  rolls?: Readonly<Record<string, number>>,
): Record<string, number> {
  const outer = list("groups", input, RULES_LIMITS.maxParty);
  if (outer.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", { name: "groups" });
  let sides = 0;
  const groups = outer.map((raw, i) => {
    const g = list(`groups[${i}]`, raw, RULES_LIMITS.maxParty) as readonly string[];
    if (g.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", { name: `groups[${i}]` });
    sides += g.length;
    if (sides > RULES_LIMITS.maxParty)
      throw new RulesError("AVENTURE.Error.OutOfRange", {
        name: "groups",
        value: sides,
        min: 1,
        max: RULES_LIMITS.maxParty,
      });
    return g.map((id, k) => sideId(`groups[${i}][${k}]`, id));
  });
  uniqueIds("groups", groups.flat());
  const out: Record<string, number> = {};
  if (rolls === undefined) {
    groups.forEach((g, i) => g.forEach((id) => (out[id] = groups.length - i)));
    return out;
  }
  const entries = new Map(checkRolls(rolls));
  const all = groups.flat();
  for (const id of all) if (!entries.has(id)) throw new RulesError("AVENTURE.Error.Missing", { name: `rolls.${id}` });
  for (const id of entries.keys())
    if (!all.includes(id)) throw new RulesError("AVENTURE.Error.Missing", { name: `groups: ${id}` });
  const groupRoll = groups.map((g, i) => {
    const r = entries.get(g[0]!)!;
    if (g.some((id) => entries.get(id) !== r)) {
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `groups[${i}]`,
        value: g.join(", "),
        allowed: "sides with the same roll",
      });
    }
    if (i > 0 && r > entries.get(groups[i - 1]![0]!)!) {
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: "groups",
        value: show(i),
        allowed: "groups in decreasing roll order",
      });
    }
    return r;
  });
  // Tie-break fractions among consecutive groups that share a roll.
  let i = 0;
  while (i < groups.length) {
    let j = i;
    // Beyond the last group groupRoll is undefined, never a roll: the run stops there.
    while (groupRoll[j + 1] === groupRoll[i]) j++;
    const m = j - i + 1;
    // One group alone gets its roll: (j − k) × step is 0 for it.
    const step = 10 ** -Math.max(1, Math.ceil(Math.log10(m)));
    for (let k = i; k <= j; k++) {
      const v = Math.round((groupRoll[k]! + (j - k) * step) * 1e6) / 1e6;
      for (const id of groups[k]!) out[id] = v;
    }
    i = j + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// §7.1 (ose) / §1: an encounter takes one turn
// ---------------------------------------------------------------------------------------------

/**
 * The seconds to add to the world clock when an encounter's combat ends so that the encounter has taken
 * one whole turn (docs/rules.md §1: "an encounter always consumes at least one turn"; §7.1 ose "(5)
 * conclusion: one turn has passed"): `turn − elapsed`, never negative. `elapsedSeconds` is the time the
 * combat rounds already took. Rulesets without turns (rnp, dnd5e, polaris) → 0.
 * Throws UnknownRuleset, NotANumber, Negative.
 */
export function encounterEndAdvance(rs: RulesetId, elapsedSeconds: number): number {
  const turn = turnSeconds(rs);
  const elapsed = num("elapsedSeconds", elapsedSeconds, { min: 0, max: RULES_LIMITS.maxSeconds });
  // Stryker disable next-line ConditionalExpression: equivalent (without a turn, max(0, null − elapsed) is 0 too).
  if (turn === null) return 0;
  return Math.max(0, turn - elapsed);
}
