/**
 * The Polaris change-of-intention card (docs/rules.md §9.2): a ChatMessage of the module's sub-type
 * `aventure.polarisIntention` (module.json documentTypes.ChatMessage.polarisIntention), whose state is declared once
 * by its data model below (core/card-model.ts). Cards posted before the sub-type kept the same state in
 * `flags.aventure.polarisIntention`.
 */
import {
  cardState,
  choiceField,
  executorField,
  flagField,
  idField,
  numberField,
  registerCard,
  versionField,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";

/**
 * The card's state, written by the active GM only. `executor`: the GM (user and page load) that executes the
 * catastrophe's writes, recorded with "applying".
 */
export const intentionSchema = (_f: Fields) => ({
  v: versionField(1),
  combat: idField(),
  combatant: idField(),
  round: numberField({ integer: true, min: 1 }),
  success: flagField(),
  confused: flagField(),
  status: choiceField(["applying", "done"]),
  executor: executorField(),
});
export type IntentionCardFlag = CardData<typeof intentionSchema>;

export const INTENTION_CARD: CardKind = { kind: "polarisIntention", legacyFlag: "polarisIntention" };

/** Registers the intention card's sub-type (init). */
export function registerIntentionCard(): void {
  // A card without a catastrophe to apply has no executor.
  registerCard(INTENTION_CARD, { name: "IntentionCardModel", schema: intentionSchema, defaults: { executor: null } });
}

/** The card state of a message a GM wrote, through its data model (null for anything else). */
export function intentionCardFlag(message: unknown): IntentionCardFlag | null {
  return cardState<IntentionCardFlag>(message as Parameters<typeof cardState>[0], INTENTION_CARD);
}
