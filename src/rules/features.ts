/**
 * What each game gets (docs/rules.md §0): one table, as data, says for every ruleset which features of the module
 * are on, and where each rule comes from (the game's own book, or the game's own published rules, named). A feature
 * that is off for a ruleset may be **borrowed** from a game whose own rule it is (a world setting per feature); a
 * borrowed feature is on, and is labelled with the game it comes from wherever it shows.
 *
 * This table drives every window, card, HUD palette entry, scene control, setting and automation of the module.
 */
import { deepFreeze, record } from "./guard.js";
import { RulesError } from "./errors.js";
import { show } from "./text.js";
import { RULESETS, ruleset as checkRuleset, type RulesetId } from "./rulesets.js";

/** The features of the module, in the order of docs/rules.md §0. */
export const FEATURES = deepFreeze([
  "lightLevel",
  "lightEffects",
  "hiding",
  "detection",
  "movementCosts",
  "jumps",
  "falls",
  "suffocation",
  "foodWater",
  "travel",
  "marchingOrder",
  "exploration",
  "wandering",
  "encounter",
  "sideInitiative",
  "pursuit",
  "polaris",
] as const);
export type FeatureId = (typeof FEATURES)[number];

export function isFeature(value: unknown): value is FeatureId {
  return (FEATURES as readonly unknown[]).includes(value);
}

/**
 * Old-School Essentials' wilderness travel (docs/rules.md §12) ships: travel is on under ose, and pmt may borrow it.
 * (While it was false, travel was off under ose: §0, "off until OSE wilderness travel exists".)
 */
export const OSE_WILDERNESS_TRAVEL: boolean = true;

/** The sources named in the table (each the game's own book or published rules). */
export const FEATURE_SOURCES = deepFreeze({
  rnp: "Rôle'n Play",
  dnd5e: "D&D 5e SRD",
  /** dnd5e's light, stealth, falls, suffocation, food and water: the 5e SRD, whose numbers are Rôle'n Play's. */
  dnd5eSrd: "D&D 5e SRD (the same numbers as Rôle'n Play)",
  /** Rôle'n Play is derived from 5e: its marching order and activities are the 5e SRD's. */
  rnpFromSrd: "D&D 5e SRD (Rôle'n Play is derived from 5e)",
  pmt: "Portes, Monstres & Trésors",
  pmtMovement: "Portes, Monstres & Trésors (encounter movement and running)",
  ose: "Old-School Essentials",
  oseMovement: "Old-School Essentials (encounter movement); OSE SRD, Movement (running)",
  oseExploration: "Old-School Essentials; OSE SRD, Dungeon Adventuring",
  oseFalls: "OSE SRD, Hazards and Challenges (Falling)",
  oseTravel: "OSE SRD, Wilderness Adventuring",
  polaris: "Polaris",
  /** Shown from the scene's lighting, with no rule effect. */
  sceneLight: "Scene lighting (shown, no rule effect)",
} as const);

const S = FEATURE_SOURCES;
type Row = Readonly<Record<RulesetId, string | null>>;

/**
 * docs/rules.md §0: for each feature and ruleset, the source of the rule when the feature is on, or null when it is
 * off. Read it as the §0 table, row by row.
 */
export const FEATURE_TABLE: Readonly<Record<FeatureId, Row>> = deepFreeze({
  lightLevel: { rnp: S.rnp, dnd5e: S.dnd5eSrd, pmt: S.sceneLight, ose: S.sceneLight, polaris: S.sceneLight },
  lightEffects: { rnp: S.rnp, dnd5e: S.dnd5eSrd, pmt: null, ose: null, polaris: null },
  hiding: { rnp: S.rnp, dnd5e: S.dnd5eSrd, pmt: null, ose: null, polaris: null },
  detection: { rnp: S.rnp, dnd5e: S.dnd5eSrd, pmt: null, ose: null, polaris: null },
  movementCosts: { rnp: S.rnp, dnd5e: S.dnd5e, pmt: S.pmtMovement, ose: S.oseMovement, polaris: null },
  jumps: { rnp: S.rnp, dnd5e: S.dnd5e, pmt: null, ose: null, polaris: null },
  // pmt: its book has no falling rule (docs/rules.md §0); ose: the OSE SRD has one (1d6 per 10′ fallen).
  falls: { rnp: S.rnp, dnd5e: S.dnd5eSrd, pmt: null, ose: S.oseFalls, polaris: null },
  suffocation: { rnp: S.rnp, dnd5e: S.dnd5eSrd, pmt: null, ose: null, polaris: null },
  foodWater: { rnp: S.rnp, dnd5e: S.dnd5eSrd, pmt: null, ose: null, polaris: null },
  travel: { rnp: S.rnp, dnd5e: S.dnd5e, pmt: null, ose: OSE_WILDERNESS_TRAVEL ? S.oseTravel : null, polaris: null },
  marchingOrder: { rnp: S.rnpFromSrd, dnd5e: S.dnd5e, pmt: null, ose: null, polaris: null },
  exploration: { rnp: S.rnp, dnd5e: null, pmt: S.pmt, ose: S.oseExploration, polaris: null },
  wandering: { rnp: null, dnd5e: null, pmt: S.pmt, ose: S.oseExploration, polaris: null },
  encounter: { rnp: null, dnd5e: null, pmt: S.pmt, ose: S.ose, polaris: null },
  sideInitiative: { rnp: null, dnd5e: null, pmt: S.pmt, ose: S.ose, polaris: null },
  pursuit: { rnp: null, dnd5e: null, pmt: S.pmt, ose: S.ose, polaris: null },
  polaris: { rnp: null, dnd5e: null, pmt: null, ose: null, polaris: S.polaris },
});

/** Returns the feature id, or throws UnknownValue. */
function checkFeature(value: unknown): FeatureId {
  if (!isFeature(value))
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "feature",
      value: show(value),
      allowed: FEATURES.join(", "),
    });
  return value;
}

/** The rulesets a feature may be borrowed from: those whose own rule it is (in the order of RULESETS). */
export function featureLenders(feature: FeatureId): RulesetId[] {
  checkFeature(feature);
  return RULESETS.filter((r) => FEATURE_TABLE[feature][r] !== null);
}

/** The features a ruleset may borrow (off for it, on for another game). */
export function borrowableFeatures(ruleset: RulesetId): FeatureId[] {
  const rs = checkRuleset(ruleset);
  // Every feature is on for at least one game (§0), so every feature off for `rs` has a lender.
  return FEATURES.filter((f) => FEATURE_TABLE[f][rs] === null);
}

/** What a GM borrowed: for a feature, the game it comes from (null or absent: nothing borrowed). */
export type FeatureBorrowings = Partial<Record<FeatureId, RulesetId | null>>;

export interface FeatureState {
  /** Whether the feature shows and applies. */
  on: boolean;
  /** Where its rule comes from (a book or published rules, named), or null when it is off. */
  source: string | null;
  /** Whether it is on because the GM borrowed it from another game. */
  borrowed: boolean;
  /** The game whose rule applies (the ruleset itself, or the game it is borrowed from), or null when it is off. */
  from: RulesetId | null;
}

/**
 * docs/rules.md §0: the features of `ruleset`, with what the GM borrowed. A borrowing counts only for a feature that is
 * off for the ruleset and from a game whose own rule it is; any other borrowing (a game that has no such rule, or a
 * feature the ruleset has itself) is ignored, so that a stale world setting never turns on a rule from nowhere.
 * Throws UnknownRuleset, or Missing when `borrowed` is not an object.
 */
export function features(ruleset: RulesetId, borrowed: FeatureBorrowings = {}): Record<FeatureId, FeatureState> {
  const rs = checkRuleset(ruleset);
  const b = record("borrowed", borrowed);
  const out = {} as Record<FeatureId, FeatureState>;
  for (const f of FEATURES) {
    const own = FEATURE_TABLE[f][rs];
    if (own !== null) {
      out[f] = { on: true, source: own, borrowed: false, from: rs };
      continue;
    }
    const lender = Object.prototype.hasOwnProperty.call(b, f) ? b[f] : null;
    const source = (RULESETS as readonly unknown[]).includes(lender) ? FEATURE_TABLE[f][lender as RulesetId] : null;
    out[f] =
      source !== null
        ? { on: true, source, borrowed: true, from: lender as RulesetId }
        : { on: false, source: null, borrowed: false, from: null };
  }
  return out;
}

/** Whether `feature` is on for `ruleset` with these borrowings (see `features`). */
export function featureOn(ruleset: RulesetId, feature: FeatureId, borrowed: FeatureBorrowings = {}): boolean {
  checkFeature(feature);
  return features(ruleset, borrowed)[feature].on;
}
