/**
 * The Polaris test card (docs/rules.md §9.1): a ChatMessage of the module's sub-type `aventure.polarisTest`
 * (module.json documentTypes.ChatMessage.polarisTest), whose state — success, margin, degree and the countdown after
 * it — is declared once by its data model below (core/card-model.ts). Aventure does not read it back: it is there for
 * macros and other modules (read it only from a card a GM wrote). Cards posted before the sub-type kept it in
 * `flags.aventure.polarisTest`.
 */
import {
  flagField,
  numberField,
  registerCard,
  textField,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";

export const POLARIS_TEST_CARD: CardKind = { kind: "polarisTest", legacyFlag: "polarisTest" };

/** The card's state: the test's success, margin and degree, and the countdown after it (null: none). */
export const polarisTestSchema = (f: Fields) => ({
  success: flagField(),
  margin: numberField({ integer: true }),
  degree: textField(40),
  countdown: new f.SchemaField(
    { left: numberField({ integer: true, min: 0 }), succeeded: flagField(), exhausted: flagField() },
    { required: true, nullable: true, initial: null },
  ),
});
export type PolarisTestCard = CardData<typeof polarisTestSchema>;

/** Registers the Polaris test card's sub-type (init). */
export function registerPolarisTestCard(): void {
  // A test without a countdown has none.
  registerCard(POLARIS_TEST_CARD, {
    name: "PolarisTestCardModel",
    schema: polarisTestSchema,
    defaults: { countdown: null },
  });
}
