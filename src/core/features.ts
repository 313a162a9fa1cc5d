/**
 * The world's features (docs/rules.md §0): the ruleset setting and the borrow settings, read through the rules'
 * features table. Every window, card, HUD palette entry, scene control and automation asks here whether it applies.
 */
import {
  features,
  isRuleset,
  type FeatureBorrowings,
  type FeatureId,
  type FeatureState,
  type RulesetId,
} from "../rules/index.js";
import { featureNote, type FeatureNote } from "./feature-context.js";
import { getSetting } from "./settings.js";
import { BORROWABLE_FEATURES, borrowSettingKey } from "./core-settings.js";
import { notify, t, UserError } from "./i18n.js";

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

/**
 * Throws the plain "the game's book has no such rule" line (a UserError: `guarded` shows it) when a feature is off in
 * this world; every opener of a window and every action of an off feature calls it first, so nothing shows or applies.
 */
export function assertFeature(feature: FeatureId): void {
  if (featureActive(feature)) return;
  const ruleset = getSetting("ruleset");
  throw new UserError("AVENTURE.Feature.noRule", {
    game: t(`AVENTURE.Ruleset.${ruleset}`),
    feature: t(`AVENTURE.Feature.name.${feature}`),
  });
}

/**
 * The game whose rule applies for a feature (the world's ruleset, or the game it is borrowed from); the world's ruleset
 * when it is off.
 */
export function featureRuleset(feature: FeatureId): RulesetId {
  const ruleset = getSetting("ruleset");
  return worldFeatures(ruleset)[feature].from ?? ruleset;
}

/** The "no such rule" line shown where a GM would look for an off feature (a notification): returns true when off. */
export function tellFeatureOff(feature: FeatureId): boolean {
  if (featureActive(feature)) return false;
  const ruleset = getSetting("ruleset");
  notify(
    "info",
    t("AVENTURE.Feature.noRule", {
      game: t(`AVENTURE.Ruleset.${ruleset}`),
      feature: t(`AVENTURE.Feature.name.${feature}`),
    }),
  );
  return true;
}

/**
 * `fn` for an API entry or a keybinding: when the feature is off, the line above and undefined; otherwise `fn`'s
 * result.
 */
export function gated<A extends unknown[], R>(
  feature: FeatureId,
  fn: (...args: A) => R,
): (...args: A) => R | undefined {
  return (...args: A) => (tellFeatureOff(feature) ? undefined : fn(...args));
}

/** A request handler that refuses (nothing written) while the feature is off on the executing GM's world. */
export function featureHandler<A extends unknown[], R>(
  feature: FeatureId,
  handle: (...args: A) => R,
): (...args: A) => R {
  return (...args: A) => {
    assertFeature(feature);
    return handle(...args);
  };
}

/** `gated` for an asynchronous entry: always a promise, of undefined when the feature is off. */
export function gatedAsync<A extends unknown[], R>(
  feature: FeatureId,
  fn: (...args: A) => R | Promise<R>,
): (...args: A) => Promise<R | undefined> {
  return async (...args: A) => (tellFeatureOff(feature) ? undefined : await fn(...args));
}

/**
 * The jumps panel is worth opening when the world has jumps (its own or borrowed) or encounter movement and running
 * (Portes, Monstres & Trésors, Old-School Essentials: the panel recalls them).
 */
export function jumpsPanelUseful(): boolean {
  const f = worldFeatures();
  return f.jumps.on || f.movementCosts.from === "pmt" || f.movementCosts.from === "ose";
}

/**
 * The ruler's terrain costs (difficult terrain, climbing, swimming, crawling: docs/rules.md §3.1) are Rôle'n Play's and
 * D&D 5e's: they apply when the world's movement rule comes from one of them (its own or borrowed). Portes, Monstres &
 * Trésors and Old-School Essentials count encounter movement instead (§2.8); Polaris has no movement rule.
 */
export function terrainCostsApply(): boolean {
  const from = worldFeatures().movementCosts.from;
  return from === "rnp" || from === "dnd5e";
}
