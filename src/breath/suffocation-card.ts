/**
 * The suffocation drop card (docs/rules.md §4.2): a ChatMessage of the module's sub-type `aventure.suffocation`
 * (module.json documentTypes.ChatMessage.suffocation), whose state is declared once by its data model below
 * (core/card-model.ts). Cards posted before the sub-type kept the same state in `flags.aventure.suffocation`.
 */
import {
  choiceField,
  executorField,
  flagField,
  idField,
  numberField,
  problemsField,
  registerCard,
  textField,
  versionField,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";
import { BREATH_ID } from "./state.js";

/** A hit point path (`system.…`), or null. */
const path = (f: Fields) =>
  new f.StringField({
    required: true,
    blank: false,
    nullable: true,
    initial: null,
    validate: (v: unknown) => v === null || (typeof v === "string" && /^system\.[\w.]+$/.test(v)),
  });
const count = () => numberField({ integer: true, min: 0, max: 100_000 });

/** The drop's card state, written only by the active GM. */
export const suffocationSchema = (f: Fields) => ({
  v: versionField(1),
  status: choiceField(["applying", "applied"]),
  breathId: new f.StringField({
    required: true,
    blank: false,
    validate: (v: unknown) => typeof v === "string" && BREATH_ID.test(v),
  }),
  sceneId: idField(),
  tokenId: idField(),
  name: textField(),
  holdSeconds: count(),
  rounds: count(),
  /** The hit point path written (the first alternative the actor has), or null when there is none. */
  hpPath: path(f),
  hpBefore: new f.NumberField({ required: true, nullable: true, initial: null }),
  /** dnd5e's temporary hit points go too (they are hit points). */
  tempPath: path(f),
  unconscious: flagField(),
  resumed: flagField(),
  problems: problemsField(),
  /** The GM (user and page load) that executes the drop, recorded with "applying" (operations.ts). */
  executor: executorField(),
});
export type SuffocationCard = CardData<typeof suffocationSchema>;

export const SUFFOCATION_CARD: CardKind = { kind: "suffocation", legacyFlag: "suffocation" };

/** Registers the suffocation card's sub-type (init). */
export function registerSuffocationCard(): void {
  registerCard(SUFFOCATION_CARD, {
    name: "SuffocationCardModel",
    schema: suffocationSchema,
    // The optional values, absent from cards that did not need them.
    defaults: { hpPath: null, hpBefore: null, tempPath: null, resumed: false, problems: [], executor: null },
  });
}
