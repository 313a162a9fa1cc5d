import { show } from "./text.js";
import { RulesError } from "./errors.js";
import { num, oneOf } from "./validate.js";
import { deepFreeze } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";

/**
 * docs/rules.md §4.2–4.4 (rnp): suffocation, food and water. Every number of those sections lives here once.
 * Exhaustion levels follow the 5e convention: 0 to 6 (6 = death); the seeds do not restate the scale.
 */
export const SURVIVAL_TABLE = deepFreeze({
  /** §4.2: hold breath for 1 + CON modifier minutes… */
  holdBreathBaseMinutes: 1,
  /** …minimum 30 seconds. */
  holdBreathMinSeconds: 30,
  /** §4.2: out of air, survives CON modifier rounds, minimum 1. */
  suffocationMinRounds: 1,
  /** §4.3: can fast 3 + CON modifier days… */
  fastingBaseDays: 3,
  /** …minimum 1. */
  fastingMinDays: 1,
  /** §4.3: 500 g of food a day. */
  foodGramsPerDay: 500,
  /** §4.3: half rations (250 g) count as half a day of fasting. */
  halfRationGrams: 250,
  /** Fasting counter increase per day, by ration level (full rations reset the counter instead). */
  fastingPerDay: { full: 0, half: 0.5, none: 1 },
  /** §4.4: 3 L of water a day… */
  waterLitresPerDay: 3,
  /** …6 L in hot weather. */
  hotWaterLitresPerDay: 6,
  /** §4.4: nothing to drink for a day = this many levels, automatically, at the end of the day. */
  noWaterLevels: 1,
  /** §4.4: half the need = Constitution save at this DC, failure = 1 level. */
  halfWaterSaveDC: 15,
  /** §4.4: a character already exhausted who gains a level from dehydration gains this many more. */
  dehydrationExtraLevels: 1,
  /** 5e convention: exhaustion runs from 0 to 6 (death). */
  exhaustionMax: 6,
} as const);

/**
 * How much of the day's need a character gets (food or water). Relative to the need: in hot weather "full" water is 6
 * L.
 */
export const RATION_LEVELS = deepFreeze(["full", "half", "none"] as const);
export type RationLevel = (typeof RATION_LEVELS)[number];

/** The accepted Constitution modifiers (ability scores 1–30). */
export const SURVIVAL_CON_MOD_RANGE = deepFreeze({ min: -5, max: 10 } as const);

function conModifier(name: string, conMod: unknown): number {
  return num(name, conMod, { integer: true, min: SURVIVAL_CON_MOD_RANGE.min, max: SURVIVAL_CON_MOD_RANGE.max });
}

/** docs/rules.md §4.2: how long a creature holds its breath, in seconds: 1 + CON modifier minutes, minimum 30 s. */
export function holdBreath(conMod: number): number {
  const c = conModifier("conMod", conMod);
  return Math.max(SURVIVAL_TABLE.holdBreathMinSeconds, (SURVIVAL_TABLE.holdBreathBaseMinutes + c) * 60);
}

/**
 * docs/rules.md §4.2: once out of air, the number of rounds a creature survives (CON modifier, minimum 1). At the
 * start of the next round it drops to 0 HP and is dying; it cannot be stabilised nor regain HP while it cannot breathe.
 */
export function suffocationRounds(conMod: number): number {
  const c = conModifier("conMod", conMod);
  return Math.max(SURVIVAL_TABLE.suffocationMinRounds, c);
}

/** docs/rules.md §4.3: the days a character can go without food before exhaustion (3 + CON modifier, minimum 1). */
export function fastingDays(conMod: number): number {
  const c = conModifier("conMod", conMod);
  return Math.max(SURVIVAL_TABLE.fastingMinDays, SURVIVAL_TABLE.fastingBaseDays + c);
}

/** Litres of water a character needs per day (docs/rules.md §4.4): 3 L, 6 L in hot weather. */
export function waterNeedLitres(hot: boolean): number {
  if (typeof hot !== "boolean") {
    throw new RulesError("AVENTURE.Error.UnknownValue", { name: "hot", value: show(hot), allowed: "true, false" });
  }
  return hot ? SURVIVAL_TABLE.hotWaterLitresPerDay : SURVIVAL_TABLE.waterLitresPerDay;
}

/** One day of eating and drinking, resolved at the end of the day. */
export interface SurvivalDayInput {
  /** Constitution modifier (integer, −5..10). */
  conMod: number;
  /** Fasting counter before this day (days without food; half rations count 0.5). */
  fasting: number;
  /** Exhaustion level before the end-of-day effects (0..6), including levels gained earlier the same day. */
  exhaustion: number;
  food: RationLevel;
  /** Relative to the need (3 L, or 6 L in hot weather). */
  water: RationLevel;
  /**
   * Only when water is "half": the Constitution save against DC 15, either its success (boolean) or its total
   * (number; success when total ≥ 15). Required then; ignored otherwise.
   */
  dehydrationSave?: boolean | number;
}

export interface SurvivalDayResult {
  fastingAfter: number;
  /** The fasting days allowed by CON (fastingDays). */
  fastingAllowed: number;
  /** Levels from hunger this day (automatic). */
  hungerLevels: number;
  /** Levels from thirst this day, including the extra level (0, 1 or 2). */
  thirstLevels: number;
  /** Whether the extra dehydration level applied (the character was already exhausted). */
  dehydrationExtra: boolean;
  /** The save DC the character had to roll for water (15 on half water), or null. */
  dehydrationSaveDC: number | null;
  exhaustionAfter: number;
  /** Fasting counter beyond the allowed days: exhaustion from hunger or thirst cannot be recovered. */
  starving: boolean;
  /** No water, or half water with a failed save. */
  dehydrated: boolean;
}

/** Whether a save given as a boolean (success) or a total (compared with dc) succeeds. */
export function survivalSaveSucceeds(name: string, result: unknown, dc: number): boolean {
  if (typeof result === "boolean") return result;
  const d = num("dc", dc, { min: -RULES_LIMITS.maxScore, max: RULES_LIMITS.maxScore });
  if (result === undefined) throw new RulesError("AVENTURE.Error.Missing", { name: show(name) });
  return num(show(name), result) >= d;
}

/**
 * docs/rules.md §4.3–4.4: the end of one day of eating and drinking.
 * - Food: full rations reset the fasting counter to 0; half rations add 0.5; none adds 1. Each whole day of the
 *   counter beyond fastingDays(conMod) is one level (so half rations beyond the limit give a level every other day).
 * - Water (relative to the need): none = 1 level automatically; half = CON save DC 15 or 1 level.
 * - A character that already has exhaustion (before this end-of-day resolution, i.e. including levels gained
 *   earlier the same day, e.g. from a forced march, but not the hunger level of the same moment) and gains a
 *   level from dehydration gains one more.
 * Exhaustion is capped at 6.
 */
export function survivalDay(input: SurvivalDayInput): SurvivalDayResult {
  if (typeof input !== "object" || input === null) throw new RulesError("AVENTURE.Error.Missing", { name: "input" });
  const fastingAllowed = fastingDays(input.conMod);
  const fasting = num("fasting", input.fasting, { min: 0, max: RULES_LIMITS.maxCounterDays });
  const exhaustion = num("exhaustion", input.exhaustion, { integer: true, min: 0, max: SURVIVAL_TABLE.exhaustionMax });
  const food = oneOf("food", input.food, RATION_LEVELS);
  const water = oneOf("water", input.water, RATION_LEVELS);

  const fastingAfter = food === "full" ? 0 : fasting + SURVIVAL_TABLE.fastingPerDay[food];
  const over = (c: number) => Math.floor(Math.max(0, c - fastingAllowed));
  const hungerLevels = food === "full" ? 0 : over(fastingAfter) - over(fasting);

  let thirstBase = 0;
  let dehydrationSaveDC: number | null = null;
  if (water === "none") thirstBase = SURVIVAL_TABLE.noWaterLevels;
  if (water === "half") {
    dehydrationSaveDC = SURVIVAL_TABLE.halfWaterSaveDC;
    if (!survivalSaveSucceeds("dehydrationSave", input.dehydrationSave, dehydrationSaveDC)) thirstBase = 1;
  }
  const dehydrationExtra = thirstBase > 0 && exhaustion > 0;
  const thirstLevels = thirstBase + (dehydrationExtra ? SURVIVAL_TABLE.dehydrationExtraLevels : 0);
  const exhaustionAfter = Math.min(SURVIVAL_TABLE.exhaustionMax, exhaustion + hungerLevels + thirstLevels);
  return {
    fastingAfter,
    fastingAllowed,
    hungerLevels,
    thirstLevels,
    dehydrationExtra,
    dehydrationSaveDC,
    exhaustionAfter,
    starving: fastingAfter > fastingAllowed,
    dehydrated: thirstBase > 0,
  };
}
