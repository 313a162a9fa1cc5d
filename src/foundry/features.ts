/**
 * The world's features (docs/rules.md §0): the ruleset setting and the borrow settings, read through the rules'
 * features table. Every window, card, HUD palette entry, scene control and automation asks here whether it applies.
 */
import { features, isRuleset, type FeatureBorrowings, type FeatureId, type FeatureState, type RulesetId } from "../rules/index.js";
import { featureNote, type FeatureNote } from "../apps/feature-context.js";
import { getSetting } from "./settings.js";
import { BORROWABLE_FEATURES, borrowSettingKey } from "./settings-schema.js";
import { t } from "./i18n.js";

/** What the GMs borrowed (the borrow settings; "none" is nothing). */
export function worldBorrowings(): FeatureBorrowings {
  const out: FeatureBorrowings = {};
  for (const f of BORROWABLE_FEATURES) {
    const v: unknown = getSetting(borrowSettingKey(f));
    if (isRuleset(v)) out[f] = v;
  }
  return out;
}

/** The features of `ruleset` (default: the world's) with the world's borrowings. Throws UnknownRuleset. */
export function worldFeatures(ruleset: RulesetId = getSetting("ruleset")): Record<FeatureId, FeatureState> {
  return features(ruleset, worldBorrowings());
}

/** Whether a feature shows and applies in this world. */
export function featureActive(feature: FeatureId): boolean {
  return worldFeatures()[feature].on;
}

/** The world's note about a feature, localized (borrowed label, or the "no such rule" line). */
export function worldFeatureNote(feature: FeatureId): FeatureNote {
  const ruleset = getSetting("ruleset");
  return featureNote(ruleset, feature, worldFeatures(ruleset)[feature], (k, d) => t(k, d));
}
