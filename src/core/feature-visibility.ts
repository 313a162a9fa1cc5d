/**
 * Which module settings and which actor-data fields a game shows (docs/rules.md §0; pure, no Foundry globals: tested
 * without Foundry, and read by the Actor data menu and the settings form).
 * A setting or a field belongs to the features that use it; it shows when one of them is on for the world's game
 * (its own rule or a borrowed one), and is labelled with the game it comes from when every feature that shows it is
 * borrowed. Settings and fields that belong to no feature (the ruleset, distances, light thresholds) always show.
 */
import { FEATURE_TABLE, isFeature, type FeatureId, type FeatureState, type RulesetId } from "../rules/index.js";
import type { ActorDataPaths } from "./core-settings.js";

/** A feature that uses a setting or field; `from`: only when the feature's rule comes from one of these games. */
interface Need {
  feature: FeatureId;
  from?: readonly RulesetId[];
}

/** Rôle'n Play's and D&D 5e's own versions of a feature (their travel reads 5e values: Survival, Constitution…). */
const FIVE_E: readonly RulesetId[] = ["rnp", "dnd5e"];
const need = (feature: FeatureId, from?: readonly RulesetId[]): Need => (from ? { feature, from } : { feature });

/** The features each module setting belongs to (a setting not listed belongs to none and always shows). */
export const SETTING_NEEDS: Readonly<Record<string, readonly Need[]>> = {
  // The ruler's terrain costs and the Athletics reminder are Rôle'n Play's and D&D 5e's (docs/rules.md §3.1).
  movementCosts: [need("movementCosts", FIVE_E)],
  athleticsReminder: [need("movementCosts", FIVE_E)],
  movementRefuse: [need("movementCosts")],
  jumpWarning: [need("jumps")],
  fallRegions: [need("falls")],
  fallOnDrop: [need("falls")],
  lightEffects: [need("lightEffects")],
  detectionMode: [need("detection")],
  detectionObservers: [need("detection"), need("hiding")],
  // The travel dialog of Rôle'n Play and D&D 5e (hours a day, food and water); the journey settings every travel has.
  travelHoursPerDay: [need("travel", FIVE_E)],
  travelTrackFood: [need("travel", FIVE_E)],
  travelAdvanceTime: [need("travel")],
  travelPlayersApply: [need("travel")],
  travelCustomUnit: [need("travel")],
  travelCustomUnitMetres: [need("travel")],
  pursuitAdvanceTime: [need("pursuit")],
  encounterTurn: [need("encounter")],
  explorationTurnSeconds: [need("exploration")],
  explorationRestEvery: [need("exploration")],
  explorationRestPenalty: [need("exploration")],
  explorationTorchTurns: [need("exploration")],
  explorationLanternTurns: [need("exploration")],
  explorationWanderingEvery: [need("wandering")],
  explorationWanderingDie: [need("wandering")],
  explorationWanderingChance: [need("wandering")],
  // Who acts under dnd5e (dnd5e-owners.ts): each with the rule it hands over (shown in a dnd5e world only).
  dnd5eOwnerMovementCosts: [need("movementCosts", FIVE_E)],
  dnd5eOwnerFalls: [need("falls")],
  dnd5eOwnerSuffocation: [need("suffocation")],
};

/** The features each actor-data field is read for (docs/rules.md §0: no passive Perception where nothing reads it). */
export const FIELD_NEEDS: Readonly<Record<keyof ActorDataPaths, readonly Need[]>> = {
  strScore: [need("jumps")],
  strMod: [need("jumps")],
  dexMod: [need("hiding")],
  conMod: [need("suffocation"), need("travel", FIVE_E)],
  // Old-School Essentials' reaction roll adds the speaker's Charisma modifier; Portes, Monstres & Trésors' does not.
  chaMod: [need("encounter", ["ose"])],
  passivePerception: [need("hiding"), need("detection"), need("travel", FIVE_E)],
  survival: [need("travel", FIVE_E)],
  darkvision: [need("lightEffects"), need("hiding"), need("detection")],
  blindsight: [need("lightEffects"), need("hiding"), need("detection")],
  truesight: [need("lightEffects"), need("hiding"), need("detection")],
  sensesUnit: [need("lightEffects"), need("hiding"), need("detection")],
  walk: [need("movementCosts"), need("travel")],
  climb: [need("movementCosts")],
  swim: [need("movementCosts")],
  fly: [need("movementCosts"), need("falls")],
  speedUnit: [need("movementCosts"), need("travel"), need("falls")],
  hp: [need("falls"), need("suffocation")],
  hpMax: [need("falls"), need("suffocation")],
  exhaustion: [need("travel", FIVE_E), need("foodWater")],
  polarisInitiative: [need("polaris")],
  polarisReaction: [need("polaris")],
  polarisSkillLevel: [need("polaris")],
  polarisSkillMastery: [need("polaris")],
  polarisAttributeLevel: [need("polaris")],
};

/** Whether something shows, and the game it is borrowed from when it shows only for borrowed features. */
export interface Visibility {
  show: boolean;
  borrowedFrom: RulesetId | null;
}

const ALWAYS: Visibility = Object.freeze({ show: true, borrowedFrom: null });

function fromNeeds(needs: readonly Need[], features: Readonly<Record<FeatureId, FeatureState>>): Visibility {
  const met = needs
    .map((n) => features[n.feature])
    .filter((s, i) => s.on && (!needs[i]!.from || needs[i]!.from!.includes(s.from!)));
  if (!met.length) return { show: false, borrowedFrom: null };
  return { show: true, borrowedFrom: met.every((s) => s.borrowed) ? met[0]!.from : null };
}

/** The borrow setting's feature (`borrowFalls` → falls), or null for any other key. */
export function borrowedFeatureOf(key: string): FeatureId | null {
  const m = /^borrow([A-Z]\w*)$/.exec(key);
  const f = m ? `${m[1]![0]!.toLowerCase()}${m[1]!.slice(1)}` : null;
  return f && isFeature(f) ? f : null;
}

/**
 * Whether a module setting shows in the settings form for `ruleset` with these features (docs/rules.md §0).
 * - A borrow setting shows only for a feature the game does not have itself (borrowing its own rule does nothing).
 * - `travelPmtLostRoll` is Portes, Monstres & Trésors' own roll on a borrowed Old-School Essentials journey.
 * - `sideInitiative` ("side initiative with any ruleset") predates the borrow settings: it shows only where the game
 *   has no side initiative of its own and it is already on (so a GM can turn it off; a new world borrows instead).
 * - `sideTies` shows wherever sides roll with ties to settle (never under Portes, Monstres & Trésors: always
 * simultaneous).
 */
export function settingVisibility(
  key: string,
  ruleset: RulesetId,
  features: Readonly<Record<FeatureId, FeatureState>>,
  values: { sideInitiative?: boolean } = {},
): Visibility {
  const borrowed = borrowedFeatureOf(key);
  if (borrowed) return { show: FEATURE_TABLE[borrowed][ruleset] === null, borrowedFrom: null };
  switch (key) {
    case "travelPmtLostRoll":
      return ruleset === "pmt" && features.travel.on && features.travel.from === "ose"
        ? { show: true, borrowedFrom: "ose" }
        : { show: false, borrowedFrom: null };
    case "sideInitiative":
      return {
        show: FEATURE_TABLE.sideInitiative[ruleset] === null && values.sideInitiative === true,
        borrowedFrom: null,
      };
    case "sideTies": {
      const sides = features.sideInitiative.on || values.sideInitiative === true;
      return {
        show: sides && ruleset !== "pmt",
        borrowedFrom: features.sideInitiative.borrowed ? features.sideInitiative.from : null,
      };
    }
  }
  const needs = SETTING_NEEDS[key];
  return needs ? fromNeeds(needs, features) : ALWAYS;
}

/** Whether an actor-data field shows in the Actor data menu (docs/rules.md §0). */
export function fieldVisibility(
  field: keyof ActorDataPaths,
  features: Readonly<Record<FeatureId, FeatureState>>,
): Visibility {
  return fromNeeds(FIELD_NEEDS[field], features);
}
