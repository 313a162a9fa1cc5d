/**
 * The side-initiative round card (docs/rules.md §7): a ChatMessage of the module's sub-type `aventure.sideRound`
 * (module.json documentTypes.ChatMessage.sideRound), whose state — which combat, round and operation it reports,
 * public or for the GMs — is declared once by its data model below (core/card-model.ts). Cards posted before the
 * sub-type kept the same state in `flags.aventure.sideRound`.
 */
import {
  cardFields,
  cardModelBase,
  cardState,
  choiceField,
  numberField,
  registerCardModel,
  type CardKind,
} from "../core/card-model.js";

/** Which copy of a round's card: the public one, or the GMs' one showing the hidden sides. */
export type SideRoundAudience = "public" | "gm";

/** The card's state, written by the active GM only. */
export interface SideRoundCardFlag {
  v: 2;
  combat: string;
  round: number;
  op: string;
  kind: SideRoundAudience;
}

export const SIDE_ROUND_CARD: CardKind = { kind: "sideRound", legacyFlag: "sideRound" };

/** Builds the data model (inside Foundry only: in init). */
function sideRoundCardModel(): unknown {
  const { StringField } = cardFields();
  const Base = cardModelBase();
  const text = () =>
    new StringField({ required: true, blank: true, validate: (v: unknown) => typeof v === "string" && v.length <= 64 });
  return class SideRoundCardModel extends Base {
    static defineSchema() {
      return {
        v: numberField({ integer: true, min: 2, max: 2, initial: 2 }),
        combat: text(),
        round: numberField({ integer: true }),
        op: text(),
        kind: choiceField(["public", "gm"]),
      };
    }
  };
}

/** Registers the side-round card's sub-type (init). */
export function registerSideRoundCard(): void {
  registerCardModel(SIDE_ROUND_CARD, sideRoundCardModel());
}

/** The side-round card of an operation, read only from a message a GM wrote, through its data model. */
export function sideRoundCardFlag(message: unknown): SideRoundCardFlag | null {
  return cardState<SideRoundCardFlag>(message as Parameters<typeof cardState>[0], SIDE_ROUND_CARD);
}
