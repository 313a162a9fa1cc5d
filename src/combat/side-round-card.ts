/**
 * The side-initiative round card (docs/rules.md §7): a ChatMessage of the module's sub-type `aventure.sideRound`
 * (module.json documentTypes.ChatMessage.sideRound), whose state — which combat, round and operation it reports,
 * public or for the GMs — is declared once by its data model below (core/card-model.ts). Cards posted before the
 * sub-type kept the same state in `flags.aventure.sideRound`.
 */
import {
  cardState,
  choiceField,
  numberField,
  registerCard,
  versionField,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";

/** A short text of the card (an id, as the combat tracker gives it). */
const text = (f: Fields) =>
  new f.StringField({ required: true, blank: true, validate: (v: unknown) => typeof v === "string" && v.length <= 64 });

/**
 * The card's state, written by the active GM only: the combat, round and operation it reports; `kind`: which copy of
 * the round's card, the public one or the GMs' one showing the hidden sides.
 */
export const sideRoundSchema = (f: Fields) => ({
  v: versionField(2),
  combat: text(f),
  round: numberField({ integer: true }),
  op: text(f),
  kind: choiceField(["public", "gm"]),
});
export type SideRoundCardFlag = CardData<typeof sideRoundSchema>;

/** Which copy of a round's card: the public one, or the GMs' one showing the hidden sides. */
export type SideRoundAudience = SideRoundCardFlag["kind"];

export const SIDE_ROUND_CARD: CardKind = { kind: "sideRound", legacyFlag: "sideRound" };

/** Registers the side-round card's sub-type (init). */
export function registerSideRoundCard(): void {
  registerCard(SIDE_ROUND_CARD, { name: "SideRoundCardModel", schema: sideRoundSchema });
}

/** The side-round card of an operation, read only from a message a GM wrote, through its data model. */
export function sideRoundCardFlag(message: unknown): SideRoundCardFlag | null {
  return cardState<SideRoundCardFlag>(message as Parameters<typeof cardState>[0], SIDE_ROUND_CARD);
}
