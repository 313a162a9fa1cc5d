/**
 * The hiding cards (docs/rules.md §6): a hide, an end of hiding, a search and an ambient detection, each a ChatMessage
 * of one of the module's sub-types (`aventure.hide`, `aventure.hideEnd`, `aventure.search`, `aventure.detect`;
 * module.json documentTypes.ChatMessage), whose state is declared once by its data model below (core/card-model.ts).
 * Each carries the hiding operation it records before its writes (hide-state.ts HideOp). Cards posted before the
 * sub-types kept the same state in `flags.aventure.<hide|hideEnd|search|detect>`.
 */
import {
  cardFields,
  cardModelBase,
  choiceField,
  executorField,
  flagField,
  idField,
  migrateBase,
  numberField,
  problemsField,
  registerCardModel,
  textField,
  withDefaults,
} from "../core/card-model.js";
import { HIDE_END_EVENTS } from "../rules/stealth.js";
import { isRecord } from "../core/values.js";
import { DETECT_REASONS, DETECT_ROW_STATUSES, DETECT_SKIPS } from "./hide-card-context.js";
import { HIDE_CARD_KINDS, HIDE_CARDS, parseHideFlag, type HideCard } from "./hide-state.js";

/** At most this many token ids in one list (observers, searchers, an operation's changes). */
const MAX_IDS = 200;
const MAX_ROWS = 200;

/** A hiding state in an operation: null (not hidden) or a hide entry as the scene keeps it. */
const isHideState = (v: unknown): boolean => v === null || parseHideFlag(v) !== null;

/** The operation a card records (hide-state.ts HideOp). */
function hideOpField(nullable: boolean) {
  const { SchemaField, ArrayField, ObjectField } = cardFields();
  const state = () => new ObjectField({ required: true, nullable: true, initial: null, validate: isHideState });
  return new SchemaField(
    {
      v: numberField({ integer: true, min: 1, max: 1, initial: 1 }),
      status: choiceField(["applying", "applied"]),
      sceneId: idField(),
      changes: new ArrayField(
        new SchemaField({ tokenId: idField(), name: textField(), before: state(), after: state() }),
        { required: true, max: MAX_IDS },
      ),
      mark: idField(true),
      resumed: flagField(),
      problems: problemsField(),
      executor: executorField(),
    },
    { required: true, nullable, ...(nullable ? { initial: null } : {}) },
  );
}

/** An operation as older cards wrote it: its optional values absent. */
function migrateOp(op: unknown): unknown {
  return isRecord(op) ? withDefaults(op, { mark: null, resumed: false, problems: [], executor: null }) : op;
}

/** The fields each card adds to its operation. */
function fieldsOf(card: HideCard): Record<string, unknown> {
  const { ArrayField, SchemaField, NumberField } = cardFields();
  const int = (nullable: boolean) =>
    new NumberField({
      required: true,
      nullable,
      integer: true,
      min: -200,
      max: 200,
      ...(nullable ? { initial: null } : {}),
    });
  switch (card) {
    case "hide":
      return { tokenId: idField(), dc: numberField(), op: hideOpField(false) };
    case "hideEnd":
      return { tokenId: idField(), event: choiceField(HIDE_END_EVENTS), op: hideOpField(false) };
    case "search":
      return { tokenId: idField(), roll: numberField(), op: hideOpField(false) };
    case "detect":
      return {
        v: numberField({ integer: true, min: 1, max: 1, initial: 1 }),
        sceneId: idField(),
        rows: new ArrayField(
          new SchemaField({
            observerId: idField(),
            hiderId: idField(),
            observer: textField(),
            hider: textField(),
            passive: int(true),
            roll: int(true),
            dc: int(false),
            reason: choiceField(DETECT_REASONS),
            status: choiceField(DETECT_ROW_STATUSES),
            ended: flagField(),
          }),
          { required: true, max: MAX_ROWS },
        ),
        skipped: new ArrayField(new SchemaField({ name: textField(), reason: choiceField(DETECT_SKIPS) }), {
          required: true,
          max: MAX_IDS,
        }),
        op: hideOpField(true),
      };
  }
}

/** Builds a hiding card's data model (inside Foundry only: in init). */
function hideCardModel(card: HideCard): unknown {
  const Base = cardModelBase();
  return class HideCardModel extends Base {
    static defineSchema() {
      return fieldsOf(card);
    }

    /** The optional values, absent from older cards (an operation's, a detection's operation and rows' `ended`). */
    static migrateData(source: Record<string, unknown>): Record<string, unknown> {
      const s = migrateBase(Base, source);
      if (card !== "detect") return { ...s, op: migrateOp(s.op) };
      const rows = Array.isArray(s.rows)
        ? s.rows.map((r: unknown) => (isRecord(r) ? withDefaults(r, { ended: false }) : r))
        : s.rows;
      return { ...withDefaults(s, { op: null }), rows, op: migrateOp(s.op ?? null) };
    }
  };
}

/** Registers the hiding cards' sub-types (init). */
export function registerHideCards(): void {
  for (const card of HIDE_CARDS) registerCardModel(HIDE_CARD_KINDS[card], hideCardModel(card));
}
