/**
 * The hiding cards (docs/rules.md §6): a hide, an end of hiding, a search and an ambient detection, each a ChatMessage
 * of one of the module's sub-types (`aventure.hide`, `aventure.hideEnd`, `aventure.search`, `aventure.detect`;
 * module.json documentTypes.ChatMessage), whose state is declared once by its data model below (core/card-model.ts).
 * Each carries the hiding operation it records before its writes (hide-state.ts HideOp). Cards posted before the
 * sub-types kept the same state in `flags.aventure.<hide|hideEnd|search|detect>`.
 */
import {
  choiceField,
  flagField,
  idField,
  numberField,
  registerCard,
  textField,
  versionField,
  withDefaults,
  type CardData,
  type Fields,
} from "../core/card-model.js";
import { HIDE_END_EVENTS } from "../rules/stealth.js";
import { isRecord } from "../core/values.js";
import { DETECT_REASONS, DETECT_ROW_STATUSES, DETECT_SKIPS } from "./detect-values.js";
import { HIDE_CARD_KINDS, HIDE_CARDS, hideOpSchema, type HideCard } from "./hide-state.js";

/** At most this many token ids in one list (observers, searchers, an operation's changes). */
const MAX_IDS = 200;
const MAX_ROWS = 200;

/** The operation a card records (hide-state.ts HideOp); a detection's may be none yet. */
const hideOp = (f: Fields) => new f.SchemaField(hideOpSchema(f), { required: true, nullable: false });
const nullableHideOp = (f: Fields) =>
  new f.SchemaField(hideOpSchema(f), { required: true, nullable: true, initial: null });

/** An operation as older cards wrote it: its optional values absent. */
function migrateOp(op: unknown): unknown {
  return isRecord(op) ? withDefaults(op, { mark: null, resumed: false, problems: [], executor: null }) : op;
}

/** A hide card's state: the hider's token, its Stealth total, the operation. */
export const hideCardSchema = (f: Fields) => ({ tokenId: idField(), dc: numberField(), op: hideOp(f) });
export type HideCardState = CardData<typeof hideCardSchema>;

/** An end of hiding card's state: the token, what ended its hiding, the operation. */
export const hideEndCardSchema = (f: Fields) => ({
  tokenId: idField(),
  event: choiceField(HIDE_END_EVENTS),
  op: hideOp(f),
});
export type HideEndCardState = CardData<typeof hideEndCardSchema>;

/** A search card's state: the observer's token, its roll, the operation. */
export const searchCardSchema = (f: Fields) => ({ tokenId: idField(), roll: numberField(), op: hideOp(f) });
export type SearchCardState = CardData<typeof searchCardSchema>;

/** A whole number of a detection row (a Perception or Stealth result), or null for the nullable one. */
const detectInt = (f: Fields) =>
  new f.NumberField({ required: true, nullable: false, integer: true, min: -200, max: 200 });
const nullableDetectInt = (f: Fields) =>
  new f.NumberField({ required: true, nullable: true, integer: true, min: -200, max: 200, initial: null });

/**
 * An ambient detection card's state: a row per observer–hider pair noticed, the tokens left out, and the last reveal
 * (recorded before its writes; null when none).
 */
export const detectCardSchema = (f: Fields) => ({
  v: versionField(1),
  sceneId: idField(),
  rows: new f.ArrayField(
    new f.SchemaField({
      observerId: idField(),
      hiderId: idField(),
      observer: textField(),
      hider: textField(),
      /** The passive Perception that noticed it (null when a searching observer rolled). */
      passive: nullableDetectInt(f),
      /** The Wisdom (Perception) total of a searching observer (null otherwise). */
      roll: nullableDetectInt(f),
      /** The hider's Stealth result. */
      dc: detectInt(f),
      reason: choiceField(DETECT_REASONS),
      status: choiceField(DETECT_ROW_STATUSES),
      /** Revealed, and hidden from nobody any more: the hiding ended. */
      ended: flagField(),
    }),
    { required: true, max: MAX_ROWS },
  ),
  skipped: new f.ArrayField(new f.SchemaField({ name: textField(), reason: choiceField(DETECT_SKIPS) }), {
    required: true,
    max: MAX_IDS,
  }),
  op: nullableHideOp(f),
});
export type DetectCardState = CardData<typeof detectCardSchema>;

/** Each card's schema. */
const SCHEMAS = {
  hide: hideCardSchema,
  hideEnd: hideEndCardSchema,
  search: searchCardSchema,
  detect: detectCardSchema,
} satisfies Record<HideCard, (f: Fields) => object>;

/** The optional values, absent from older cards (an operation's, a detection's operation and rows' `ended`). */
function migrateHideCard(card: HideCard, s: Record<string, unknown>): Record<string, unknown> {
  if (card !== "detect") return { ...s, op: migrateOp(s.op) };
  const rows = Array.isArray(s.rows)
    ? s.rows.map((r: unknown) => (isRecord(r) ? withDefaults(r, { ended: false }) : r))
    : s.rows;
  return { ...withDefaults(s, { op: null }), rows, op: migrateOp(s.op ?? null) };
}

/** Registers the hiding cards' sub-types (init). */
export function registerHideCards(): void {
  for (const card of HIDE_CARDS)
    registerCard(HIDE_CARD_KINDS[card], {
      name: "HideCardModel",
      schema: SCHEMAS[card],
      migrate: (s) => migrateHideCard(card, s),
    });
}
