/**
 * The encounter card (docs/rules.md §7): a ChatMessage of the module's sub-type `aventure.encounter` (module.json
 * documentTypes.ChatMessage.encounter), whose state — where the encounter happens and at what distance — is declared
 * once by its data model below (core/card-model.ts). Aventure does not read it back: it is there for macros and
 * other modules (read it only from a card a GM wrote). Cards posted before the sub-type kept it in
 * `flags.aventure.encounter`.
 */
import {
  choiceField,
  numberField,
  registerCard,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";
import { ENCOUNTER_PLACES } from "../rules/encounter.js";

export const ENCOUNTER_CARD: CardKind = { kind: "encounter", legacyFlag: "encounter" };

/** The card's state: where the encounter happens and at what distance (metres). */
export const encounterSchema = (_f: Fields) => ({
  where: choiceField(ENCOUNTER_PLACES),
  distance: numberField({ min: 0 }),
});
export type EncounterCard = CardData<typeof encounterSchema>;

/** Registers the encounter card's sub-type (init). */
export function registerEncounterCard(): void {
  registerCard(ENCOUNTER_CARD, { name: "EncounterCardModel", schema: encounterSchema });
}
