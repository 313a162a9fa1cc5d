/**
 * The encounter procedure (docs/rules.md §7.1): surprise for the sides that are not aware, the encounter
 * distance for the ruleset and the place, and the monsters' reaction (2d6, + the speaker's Charisma
 * modifier with the ose rules, `reactionRoll`). pmt rolls the distance before surprise; ose after (surprise changes
 * it).
 * Pure apart from the Dice (Foundry rolls in play, fixed dice in tests).
 */
import type { Dice } from "../rules/dice.js";
import {
  encounterDistance,
  encounterRules,
  reactionRoll,
  rollEncounterDistance,
  type EncounterPlace,
  type EncounterRules,
  type MonsterReaction,
} from "../rules/encounter.js";
import type { RulesetId } from "../rules/rulesets.js";
import { rollSurprise, type SurpriseInput, type SurpriseRolls } from "../core/sides.js";

export interface EncounterInput {
  ruleset: RulesetId;
  where: EncounterPlace;
  /** Sides taking part (at least one to roll surprise; none skips surprise). */
  sides: SurpriseInput[];
  /** Roll the reaction; `chaMod` = the speaker's Charisma modifier (used with the ose rules only). */
  reaction: { roll: boolean; chaMod: number | null } | null;
}

export interface EncounterResult {
  ruleset: RulesetId;
  rules: EncounterRules;
  where: EncounterPlace;
  surprise: SurpriseRolls | null;
  distance: { metres: number; dice: number[]; formula: string; multiplier: number };
  reaction: { dice: number[]; modifier: number; total: number; result: MonsterReaction } | null;
}

export async function runEncounter(input: EncounterInput, dice: Dice): Promise<EncounterResult> {
  const rules = encounterRules(input.ruleset);
  const rollDistance = async (surprised: boolean) => {
    const d = encounterDistance(input.ruleset, { where: input.where, surprised });
    const r = await rollEncounterDistance(input.ruleset, { where: input.where, surprised }, dice);
    return { metres: r.metres, dice: r.dice, formula: d.formula, multiplier: d.multiplier };
  };
  let surprise: SurpriseRolls | null = null;
  let distance: EncounterResult["distance"];
  if (rules === "pmt") {
    distance = await rollDistance(false);
    if (input.sides.length) surprise = await rollSurprise(input.sides, input.ruleset, dice);
  } else {
    if (input.sides.length) surprise = await rollSurprise(input.sides, input.ruleset, dice);
    distance = await rollDistance((surprise?.outcome.surprised.length ?? 0) > 0);
  }
  let react: EncounterResult["reaction"] = null;
  if (input.reaction?.roll) {
    const r = reactionRoll(input.ruleset, await dice.roll(2, 6, "reaction"), input.reaction.chaMod);
    react = { dice: r.dice, modifier: r.modifier, total: r.total, result: r.result };
  }
  return { ruleset: input.ruleset, rules, where: input.where, surprise, distance, reaction: react };
}
