/**
 * The fall card (docs/rules.md §4.1): a ChatMessage of the module's sub-type `aventure.fall` (module.json
 * documentTypes.ChatMessage.fall), whose state is declared once by its data model below (core/card-model.ts). Cards
 * posted before the sub-type kept the same state in `flags.aventure.fall`; those of version 1
 * (`{pending, damage, name, <the reference>}`) are brought up to date by migrateData, read as pending or applied.
 */
import {
  choiceField,
  executorField,
  flagField,
  numberField,
  problemsField,
  registerCard,
  objectField,
  textField,
  versionField,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";
import { isDocumentId, isRecord } from "../core/values.js";
import type { FallSource } from "./movement-context.js";

/** A token (scene + token ids) or an actor, as a request or a card names it. */
export type FallRef = { sceneId: string; tokenId: string } | { actorId: string };

export const FALL_CARD: CardKind = { kind: "fall", legacyFlag: "fall" };

const SOURCES: readonly FallSource[] = ["api", "region", "drop", "hud"];
const STATUSES = ["applying", "applied", "pending"] as const;

/** A token reference (a scene and a token id) or an actor reference, nothing else. */
export function isFallRef(v: unknown): v is FallRef {
  if (!isRecord(v)) return false;
  const keys = Object.keys(v).sort().join(",");
  if (keys === "sceneId,tokenId") return isDocumentId(v.sceneId) && isDocumentId(v.tokenId);
  return keys === "actorId" && isDocumentId(v.actorId);
}

const finite = (o: { min?: number; max?: number; integer?: boolean } = {}) => numberField(o);

/**
 * The fall card's state, written only by the active GM. `status`: "applying" (set before the first write of the
 * damage), "applied", "pending" (no damage API: a GM applies it with the card's button).
 */
export const fallSchema = (f: Fields) => ({
  v: versionField(2),
  status: choiceField(STATUSES),
  // Checked by isFallRef: a FallRef, nothing else (fvtt-types derives only an object from an ObjectField).
  ref: objectField<FallRef>({ validate: isFallRef }),
  name: textField(),
  metres: finite({ min: 0 }),
  dice: finite({ integer: true, min: 0 }),
  damage: finite({ integer: true, min: 0, max: 120 }),
  source: choiceField(SOURCES),
  /** Hit points before the damage (value and temporary), when readable. */
  hpBefore: new f.SchemaField({ value: finite(), temp: finite() }, { required: true, nullable: true, initial: null }),
  /** Applying by hand: the hit point path and the value to write there (absolute, so writing twice is harmless). */
  manual: new f.SchemaField(
    {
      path: new f.StringField({
        required: true,
        blank: false,
        validate: (v: unknown) => typeof v === "string" && /^system\.[\w.]+$/.test(v),
      }),
      after: new f.NumberField({ required: true, nullable: false }),
    },
    { required: true, nullable: true, initial: null },
  ),
  applied: flagField(),
  prone: flagField(),
  /** Set when the active GM finished an interrupted fall on ready. */
  resumed: flagField(),
  /** The GM (user and page load) that executes it, recorded with "applying" (operations.ts). */
  executor: executorField(),
  /** What could not be done (the token is gone, the hit points changed meanwhile...), as lang keys with data. */
  problems: problemsField(),
});
export type FallCardFlag = CardData<typeof fallSchema>;

/** The reference of a version 1 card, whose ids sat beside its other values. */
function legacyRef(f: Record<string, unknown>): FallRef | null {
  if (isDocumentId(f.sceneId) && isDocumentId(f.tokenId)) return { sceneId: f.sceneId, tokenId: f.tokenId };
  if (isDocumentId(f.actorId) && f.sceneId === undefined && f.tokenId === undefined) return { actorId: f.actorId };
  return null;
}

/** Version 1 cards (`{pending, damage, name, ids}`) as pending or applied. */
function fromVersion1(s: Record<string, unknown>): Record<string, unknown> {
  if (s.v !== undefined || typeof s.pending !== "boolean" || typeof s.damage !== "number") return s;
  return {
    v: 2,
    status: s.pending ? "pending" : "applied",
    ref: legacyRef(s),
    name: s.name,
    metres: 0,
    dice: Math.ceil(s.damage / 6),
    damage: s.damage,
    source: "api",
    hpBefore: null,
    manual: null,
    applied: !s.pending,
    prone: false,
  };
}

/** Registers the fall card's sub-type (init). */
export function registerFallCard(): void {
  registerCard(FALL_CARD, {
    name: "FallCardModel",
    schema: fallSchema,
    migrate: fromVersion1,
    // The optional values, absent from older cards.
    defaults: { hpBefore: null, manual: null, executor: null, problems: [], resumed: false },
  });
}
