/**
 * The exploration card (docs/rules.md §10): a ChatMessage of the module's sub-type `aventure.exploration`
 * (module.json documentTypes.ChatMessage.exploration), whose state — the advance it reports and whether it met
 * wandering monsters — is declared once by its data model below (core/card-model.ts). Cards posted before the
 * sub-type kept the same state in `flags.aventure.exploration`.
 */
import {
  cardState,
  flagField,
  idField,
  registerCard,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";

/** The card's state: the id of the advance (operation) it reports; whether a wandering check met monsters. */
export const explorationSchema = (_f: Fields) => ({ op: idField(), encounter: flagField() });
export type ExplorationCard = CardData<typeof explorationSchema>;

export const EXPLORATION_CARD: CardKind = { kind: "exploration", legacyFlag: "exploration" };

/** Registers the exploration card's sub-type (init). */
export function registerExplorationCard(): void {
  registerCard(EXPLORATION_CARD, { name: "ExplorationCardModel", schema: explorationSchema });
}

/** The state of an exploration card a GM wrote, through its data model; null for any other message. */
export function explorationCardFlag(message: Parameters<typeof cardState>[0]): ExplorationCard | null {
  return cardState<ExplorationCard>(message, EXPLORATION_CARD);
}
