/**
 * Chat cards as ChatMessage sub-types of the module (docs/security.md "Trusted chat cards"): each kind of card is
 * declared once in module.json (`documentTypes.ChatMessage.<kind>`, giving the type `aventure.<kind>`) with a data
 * model
 * registered in CONFIG.ChatMessage.dataModels, whose schema gives its state's shape, defaults and validation, and whose
 * `migrateData` brings older states up to date. Foundry: https://foundryvtt.com/article/module-sub-types/ and
 * foundry.abstract.TypeDataModel (v13 API).
 *
 * Reading stays defensive: any user may create a message of any of the module's types with any `system`, so a card's
 * state is read only from a message a GM wrote (cards.ts authoredByGM), and rebuilt strictly through its model (a
 * state that fails the schema is no state). A card posted before its kind had a sub-type (a "base" message holding its
 * state in `flags.aventure.<flag>`) is read through the same model (migrateData, then the schema), and written back
 * where it is (its type cannot change): an old card in an existing world still shows and works.
 */
import { MODULE_ID } from "./constants.js";
import { authoredByGM } from "./cards.js";
import { deletion } from "./compat.js";
import { isRecord } from "./values.js";
import { docIdField, nullableDocIdField, problemsListField, type Fields, type ModelData } from "./flag-model.js";
import { executorSchema } from "./operations.js";

export type { Fields } from "./flag-model.js";

/** What a card model is to the card layer: built from a source (migrated, cleaned, validated), read back as one. */
export interface CardModelClass {
  new (data: object, options?: { parent?: unknown; strict?: boolean }): { toObject(): object };
}

/** A kind of card: its sub-type (module.json documentTypes.ChatMessage) and the flag its state had before. */
export interface CardKind {
  /** The sub-type's name in module.json (the message's type is `aventure.<kind>`). */
  kind: string;
  /** The key under flags.aventure of the cards posted before the sub-type. */
  legacyFlag: string;
}

/** The message type of a card kind: the module's id, a dot, the sub-type. */
export const cardType = (kind: CardKind | string): string =>
  `${MODULE_ID}.${typeof kind === "string" ? kind : kind.kind}`;

/** Whether a message type is one of the module's sub-types (`aventure.<kind>`). */
export const isModuleType = (type: unknown): boolean => typeof type === "string" && type.startsWith(`${MODULE_ID}.`);

/**
 * The base of every card model (foundry.abstract.TypeDataModel; it exists only inside Foundry, hence a function called
 * when the models are built, in `init`).
 */
function cardModelBase(): new (...args: never[]) => object {
  // cast: the v13 TypeDataModel base as a plain constructor (its pinned generics need the schema's type)
  return foundry.abstract.TypeDataModel as never;
}

/** The base's own migrateData (TypeDataModel.migrateData), which an override calls first. */
function migrateBase(Base: unknown, source: Record<string, unknown>): Record<string, unknown> {
  const base = Base as { migrateData?: (s: Record<string, unknown>) => Record<string, unknown> };
  return typeof base.migrateData === "function" ? base.migrateData(source) : source;
}

/** The data fields of foundry.data.fields (inside Foundry only). */
export const cardFields = (): Fields => foundry.data.fields;

/**
 * The state of a card whose schema is declared by `schema` (a top-level `(f: Fields) => ({...})`, called by the
 * model's defineSchema): what cardState returns, every field as the schema keeps it (its source data). Declared once:
 * a field added to the schema is in the type.
 */
export type CardData<S extends (f: Fields) => foundry.data.fields.DataSchema> = ModelData<ReturnType<S>>;

/** Registers a card kind's data model (init, once per kind) in CONFIG.ChatMessage.dataModels. */
function registerCardModel(kind: CardKind, model: unknown): void {
  // cast: registering a module sub-type: the pinned dataModels record has only the configured types
  const config: { dataModels?: Record<string, unknown> } = CONFIG.ChatMessage as never;
  config.dataModels ??= {};
  config.dataModels[cardType(kind)] = model;
}

/** A card kind's data model, declared once. */
export interface CardModelSpec<S extends (f: Fields) => foundry.data.fields.DataSchema> {
  /** The model's class name (in validation errors), e.g. "FallCardModel". */
  name: string;
  /** The card's schema (a top-level schema function: the card's type is `CardData<typeof schema>`). */
  schema: S;
  /** Rewrites a source an earlier version wrote (after the base's migrateData), returning the source to use. */
  migrate?(source: Record<string, unknown>): Record<string, unknown>;
  /** The values older cards lack, filled where the source has none (after `migrate`). */
  defaults?: Record<string, unknown>;
  /** Rules across fields (TypeDataModel.validateJoint): throws an Error when the state breaks one. */
  joint?(data: CardData<S>): void;
}

/**
 * Builds a card kind's data model (a foundry.abstract.TypeDataModel, inside Foundry only: in init) from its spec and
 * registers it (registerCardModel): its schema, the migration of older cards, its joint rules.
 */
export function registerCard<S extends (f: Fields) => foundry.data.fields.DataSchema>(
  kind: CardKind,
  spec: CardModelSpec<S>,
): void {
  const Base = cardModelBase();
  const baseJoint = (Base as { validateJoint?: (d: object) => void }).validateJoint;
  const named = {
    [spec.name]: class extends Base {
      static defineSchema() {
        return spec.schema(cardFields());
      }
      static migrateData(source: Record<string, unknown>): Record<string, unknown> {
        let s = migrateBase(Base, source);
        if (spec.migrate) s = spec.migrate(s);
        return spec.defaults ? withDefaults(s, spec.defaults) : s;
      }
      static validateJoint(data: CardData<S>): void {
        spec.joint?.(data);
        baseJoint?.call(this, data);
      }
    },
  };
  registerCardModel(kind, named[spec.name]);
}

/** The data model registered for a kind (CONFIG.ChatMessage.dataModels), or undefined. */
function modelOf(kind: CardKind): CardModelClass | undefined {
  // cast: the module's sub-types are not in the pinned dataModels record
  const config: { dataModels?: Record<string, CardModelClass | undefined> } = CONFIG.ChatMessage as never;
  return config.dataModels?.[cardType(kind)];
}

interface CardMessage {
  author?: unknown;
  type?: unknown;
  system?: unknown;
  flags?: unknown;
}

/**
 * The source a message holds for a kind: its system (a card of the sub-type), else its old flag; undefined otherwise.
 */
function sourceOf(message: CardMessage, kind: CardKind): unknown {
  if (message.type === cardType(kind)) {
    const system = message.system as { toObject?: () => unknown } | undefined;
    return typeof system?.toObject === "function" ? system.toObject() : system;
  }
  if (isModuleType(message.type)) return undefined; // a card of another kind
  const flags = isRecord(message.flags) ? message.flags[MODULE_ID] : undefined;
  return isRecord(flags) ? flags[kind.legacyFlag] : undefined;
}

/**
 * The state of a card of `kind` a GM wrote, rebuilt through its data model (migrated, cleaned, every field and the
 * joint rules checked); null for anything else: a message a player wrote, a card of another kind, a state the schema
 * refuses. The result is a plain copy (the caller may change it and write it back with `cardUpdate`).
 */
export function cardState<T>(message: CardMessage | null | undefined, kind: CardKind): T | null {
  if (!message || !authoredByGM(message)) return null;
  const Model = modelOf(kind);
  const source = Model ? sourceOf(message, kind) : undefined;
  if (!Model || !isRecord(source)) return null;
  try {
    const model = new Model(source, { strict: true });
    // A model kept despite a failure (DataModel#invalid) is no state either.
    return (model as { invalid?: boolean }).invalid === true ? null : (model.toObject() as T);
  } catch {
    return null;
  }
}

/** Whether a message is a card of `kind`: of its sub-type, or an older card holding its flag (not checked). */
export function isCardOf(message: CardMessage | null | undefined, kind: CardKind): boolean {
  return !!message && sourceOf(message, kind) !== undefined;
}

/**
 * The update that writes a card's state (whole or a part of it): its system for a card of the sub-type, its old flag
 * for a card posted before it (whose type stays "base").
 */
export function cardUpdate(message: CardMessage, kind: CardKind, state: object): Record<string, unknown> {
  return message.type === cardType(kind) ? { system: state } : { flags: { [MODULE_ID]: { [kind.legacyFlag]: state } } };
}

/**
 * The update that deletes a key of a card's state (`path`: dotted, from the state's root, its last part the key, e.g.
 * `claims.<id>` of a TypedObjectField), in the running generation's form (compat.ts deletion): under its system for a
 * card of the sub-type, under its old flag for a card posted before it.
 */
export function cardDeletion(message: CardMessage, kind: CardKind, path: string): Record<string, unknown> {
  return deletion(message.type === cardType(kind) ? `system.${path}` : `flags.${MODULE_ID}.${kind.legacyFlag}.${path}`);
}

/** The data of a new card of `kind` (spread into ChatMessage.create's data): its type and state. */
export function cardData(kind: CardKind, state: object): { type: never; system: never } {
  // cast: the pinned create data knows only the configured sub-types; a module's card is checked by its model
  return { type: cardType(kind) as never, system: state as never };
}

// ------------------------------------------------------------------------------------------------ shared fields

/** A required whole or real number in bounds (foundry.data.fields.NumberField, not nullable). */
export function numberField(options: { min?: number; max?: number; integer?: boolean; initial?: number } = {}) {
  const { NumberField } = cardFields();
  return new NumberField({ required: true, nullable: false, ...options });
}

/**
 * A state's version: a whole number that is `v` and nothing else (`v` by default), typed as that very number (a
 * NumberField derives `number`; its bounds make it `v`).
 */
export function versionField<const V extends number>(v: V) {
  const { NumberField } = cardFields();
  type Options = { required: true; nullable: false; integer: true; min: V; max: V; initial: V };
  return new NumberField<Options, V, V, V>({
    required: true,
    nullable: false,
    integer: true,
    min: v,
    max: v,
    initial: v,
  });
}

/** A required string, one of `choices` (StringField, not blank), typed as their union. */
export function choiceField<const C extends readonly string[]>(choices: C) {
  const { StringField } = cardFields();
  return new StringField({ required: true, blank: false, choices: [...choices] });
}

/** A required string of at most `max` characters (a name shown on the card; may be empty). */
export function textField(max = 200, initial = "") {
  const { StringField } = cardFields();
  return new StringField({
    required: true,
    blank: true,
    trim: false,
    initial,
    validate: (v: unknown) => typeof v === "string" && v.length <= max,
  });
}

/** A document id (flag-model.ts docIdField), nullable when asked. */
export function idField(nullable?: false): ReturnType<typeof docIdField>;
export function idField(nullable: true): ReturnType<typeof nullableDocIdField>;
export function idField(nullable = false) {
  return nullable ? nullableDocIdField(cardFields()) : docIdField(cardFields());
}

/** T as a plain object type (an interface's properties, as a type alias has them): what an ObjectField may hold. */
type Plain<T> = { [K in keyof T]: T[K] };

/**
 * An object of type T, required (`initial`: its default, none when absent), checked by `validate` when given.
 * fvtt-types derives only a plain object from an ObjectField: T is stated here, beside the check (or the reason) that
 * makes it hold; the caller gives it next to its schema.
 */
export function objectField<T extends object>(
  options: { validate?: (v: unknown) => boolean; initial?: Plain<T> } = {},
) {
  const { ObjectField } = cardFields();
  type Options = { required: true; validate?: (v: unknown) => boolean; initial?: Plain<T> };
  return new ObjectField<Options, Plain<T>, Plain<T>, Plain<T>>({ required: true, ...options });
}

/** An object of type T or null (null by default), checked by `validate` (null passes it too): see objectField. */
export function nullableObjectField<T extends object>(validate: (v: unknown) => boolean) {
  const { ObjectField } = cardFields();
  type Options = { required: true; nullable: true; initial: null; validate: (v: unknown) => boolean };
  return new ObjectField<Options, Plain<T> | null, Plain<T> | null, Plain<T> | null>({
    required: true,
    nullable: true,
    initial: null,
    validate,
  });
}

/** A boolean, false unless set. */
export function flagField() {
  const { BooleanField } = cardFields();
  return new BooleanField({ required: true, initial: false });
}

/** The GM (user and page load) executing the card's operation (operations.ts Executor, its one schema), or null. */
export function executorField() {
  const f = cardFields();
  return new f.SchemaField(executorSchema(f), { required: true, nullable: true, initial: null });
}

/** A problem's data: the values of its lang key's placeholders (flag-model.ts MessageData). */
export type { MessageData as ProblemData } from "./flag-model.js";

/** What could not be done, as lang keys (AVENTURE.*) with their data (flag-model.ts problemsListField). */
export function problemsField() {
  return problemsListField(cardFields());
}

/** A copy of `source` with each of `defaults` set where the source has no value (undefined): for migrateData. */
export function withDefaults(
  source: Record<string, unknown>,
  defaults: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...source };
  for (const [k, v] of Object.entries(defaults)) if (out[k] === undefined) out[k] = v;
  return out;
}
