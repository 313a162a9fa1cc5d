/**
 * The exploration's options from the world settings (one per default of EXPLORATION_DEFAULTS, so a pmt or
 * house-rules GM changes them). Each value is checked through the rules' own `startExploration` options: a bad one
 * (a turn of 0 s, a chance above the die...) is reported in the GM's language and the default is used instead.
 */
import { featureActive, featureRuleset } from "../core/features.js";
import { EXPLORATION_DEFAULTS, startExploration, type ExplorationOptions, type RulesetId } from "../rules/index.js";
import { errorMessage } from "../core/i18n.js";
import { getSetting } from "../core/settings.js";
import type { SettingKey } from "../core/settings.js";

/** Each option and its world setting, in the order they are checked (the die before the chance on it). */
export const OPTION_SETTINGS = [
  ["turnSeconds", "explorationTurnSeconds"],
  ["wanderingEvery", "explorationWanderingEvery"],
  ["wanderingDie", "explorationWanderingDie"],
  ["wanderingChance", "explorationWanderingChance"],
  ["restEvery", "explorationRestEvery"],
  ["restPenalty", "explorationRestPenalty"],
  ["torchTurns", "explorationTorchTurns"],
  ["lanternTurns", "explorationLanternTurns"],
] as const satisfies readonly (readonly [keyof ExplorationOptions, SettingKey])[];

export type OptionSettingKey = (typeof OPTION_SETTINGS)[number][1];

/** A setting whose value the rules refuse: its key, the value, why (localized), and the default used instead. */
export interface BadOption {
  setting: OptionSettingKey;
  value: unknown;
  error: string;
  fallback: number;
}

/**
 * The options to play with: each setting's value when the rules accept it (checked one by one, on top of those
 * accepted before it), else the default, reported in `bad`.
 */
export function checkOptions(
  ruleset: RulesetId,
  values: Readonly<Record<OptionSettingKey, number>>,
  wandering?: boolean,
): { options: ExplorationOptions; bad: BadOption[] } {
  const accepted: Partial<ExplorationOptions> = wandering === undefined ? {} : { wandering };
  const bad: BadOption[] = [];
  for (const [option, setting] of OPTION_SETTINGS) {
    const value = values[setting];
    try {
      startExploration(ruleset, { ...accepted, [option]: value });
      accepted[option] = value;
    } catch (e) {
      bad.push({ setting, value, error: errorMessage(e), fallback: EXPLORATION_DEFAULTS[option] });
    }
  }
  return { options: startExploration(ruleset, accepted).options, bad };
}

/**
 * The world's exploration options, read from the settings and checked (see checkOptions). Wandering checks are rolled
 * only when the world has them (docs/rules.md §0: Portes, Monstres & Trésors' and Old-School Essentials' own rule, or
 * borrowed from one of them); Rôle'n Play's dungeon minutes count turns, rests and lights without them.
 */
export function explorationOptions(): { options: ExplorationOptions; bad: BadOption[] } {
  const values = Object.fromEntries(OPTION_SETTINGS.map(([, key]) => [key, getSetting(key)])) as Record<
    OptionSettingKey,
    number
  >;
  return checkOptions(featureRuleset("exploration"), values, featureActive("wandering"));
}
