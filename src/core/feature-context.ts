/**
 * What each game gets, as the windows say it (docs/rules.md §0; pure: tested without Foundry). A feature that is off
 * shows one plain line where a GM would look for it; a borrowed one is labelled with the game it comes from.
 */
import type { FeatureId, FeatureState, RulesetId } from "../rules/index.js";

type Localize = (key: string, data?: Record<string, string | number>) => string;

/** "Rôle'n Play's rule" for a borrowed feature, null for the game's own or an off feature. */
export function borrowedLabel(state: FeatureState, l: Localize): string | null {
  return state.on && state.borrowed && state.from ? l(`AVENTURE.Feature.from.${state.from}`) : null;
}

/** The plain line for an off feature: "Portes, Monstres & Trésors has no rule for falls." (null when it is on). */
export function noRuleLine(ruleset: RulesetId, feature: FeatureId, state: FeatureState, l: Localize): string | null {
  if (state.on) return null;
  return l("AVENTURE.Feature.noRule", {
    game: l(`AVENTURE.Ruleset.${ruleset}`),
    feature: l(`AVENTURE.Feature.name.${feature}`),
  });
}

/** What a window shows about a feature: whether it is on, its borrowed label, or the "no such rule" line. */
export interface FeatureNote {
  on: boolean;
  borrowedLabel: string | null;
  noRule: string | null;
}
export function featureNote(ruleset: RulesetId, feature: FeatureId, state: FeatureState, l: Localize): FeatureNote {
  return { on: state.on, borrowedLabel: borrowedLabel(state, l), noRule: noRuleLine(ruleset, feature, state, l) };
}
