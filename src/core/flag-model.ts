/**
 * State the module stores under flags.aventure, and the requests and receipts of the trusted request channel, declared
 * once as a Foundry data model (foundry.abstract.DataModel, v13 API): its schema gives the state's type (its source
 * data), its defaults, its validation and the migration of the shapes earlier versions wrote (`migrateData`).
 *
 * Reading stays defensive: stored flags and sent payloads are written by clients, so `read` returns null for anything
 * the schema refuses (an invalid flag reads as absent, as before; never a crash). Who wrote it (a GM, the sender) is
 * checked by the caller, on top of the schema (docs/security.md).
 *
 * foundry.data.fields exists only inside Foundry: the model class is built on first use (this module is also imported
 * where Foundry's globals do not exist, e.g. by the view models' samples).
 */
import { isDocumentId, isRecord } from "./values.js";

/**
 * Foundry's field classes, handed to a schema function. Declare the schema as a function with this parameter type
 * (not inline in `flagModel`), so that its fields keep their precise types.
 */
export type Fields = typeof foundry.data.fields;
type Schema = foundry.data.fields.DataSchema;

/** The data a model of this schema holds, as stored (foundry.data.fields.SchemaField source data). */
export type ModelData<S extends Schema> = foundry.data.fields.SchemaField.SourceData<S>;

/** The data of a declared model (`DataOf<typeof SomeModel>`). */
export type DataOf<M extends { read(raw: unknown): unknown }> = NonNullable<ReturnType<M["read"]>>;

/** A document id (values.ts isDocumentId), required: the one declaration of an id field for every model. */
export function docIdField(f: Fields) {
  return new f.StringField({ required: true, blank: false, validate: (v: unknown) => isDocumentId(v) });
}

/** A document id that may be left out (undefined by default). */
export function optionalDocIdField(f: Fields) {
  return new f.StringField({
    required: false,
    blank: false,
    initial: undefined,
    validate: (v: unknown) => isDocumentId(v),
  });
}

/** A document id or null (null by default). */
export function nullableDocIdField(f: Fields) {
  return new f.StringField({
    required: true,
    blank: false,
    nullable: true,
    initial: null,
    validate: (v: unknown) => v === null || isDocumentId(v),
  });
}

/** A lang key of this module: what a stored message (a refusal, a problem, an error) names. */
export const LANG_KEY = /^AVENTURE\.[\w.]+$/;

/** The data of a localized message (its i18n format data): text and finite numbers by name. */
export type MessageData = Record<string, string | number>;

/** Whether `v` is a message's data: an object whose every value is text or a finite number. */
const isMessageData = (v: unknown): boolean =>
  isRecord(v) && Object.values(v).every((x) => typeof x === "string" || (typeof x === "number" && Number.isFinite(x)));

/**
 * The data of a localized message, `{}` by default. An ObjectField checked by isMessageData (fvtt-types derives only a
 * plain object from an ObjectField: its type, MessageData, is stated here beside the check that makes it hold).
 */
export function messageDataField(f: Fields) {
  type Options = { required: true; initial: MessageData; validate: (v: unknown) => boolean };
  return new f.ObjectField<Options, MessageData, MessageData, MessageData>({
    required: true,
    initial: {},
    validate: isMessageData,
  });
}

/** A localized message as stored (a problem, an error): its lang key and its data. */
export function messageFields(f: Fields) {
  return {
    key: new f.StringField({ required: true, blank: false, validate: (v: unknown) => LANG_KEY.test(String(v)) }),
    data: messageDataField(f),
  };
}

/** What could not be done, as localized messages (at most 1000): the one declaration for every record's problems. */
export function problemsListField(f: Fields) {
  return new f.ArrayField(new f.SchemaField(messageFields(f)), { required: true, initial: [], max: 1000 });
}

export interface FlagModelSpec<S extends Schema> {
  /** The model's name (the class name, in validation errors), e.g. "AventureRequest". */
  name: string;
  /** The schema, built with Foundry's field classes. */
  schema(fields: Fields): S;
  /** Rewrites, in place, a shape an earlier version wrote into the current one (DataModel.migrateData). */
  migrate?(source: Record<string, unknown>): void;
  /** Rules across fields (DataModel.validateJoint): throws an Error when the data breaks one. */
  joint?(data: ModelData<S>): void;
  /**
   * A request's payload is taken as sent: a value Foundry's cleaning would change (a number sent as text, text with
   * spaces around it) is refused, not cast. Keys the schema does not have are ignored; missing ones take defaults.
   */
  exact?: boolean;
}

export interface FlagModel<S extends Schema> {
  /** The stored or sent value, migrated, cleaned and validated; null when it is absent or the schema refuses it. */
  read(raw: unknown): ModelData<S> | null;
  /** The value to write, cleaned and validated with its defaults filled; throws when invalid (a bug of the caller). */
  make(data: Partial<ModelData<S>> | Record<string, unknown>): ModelData<S>;
  /**
   * The top-level fields of a value `read` refuses, for a refusal that names what is wrong: those that failed
   * validation (DataModelValidationError#getAllFailures) and, for an exact model, those cleaning would change.
   * [] when it reads, or when only a joint rule refused it.
   */
  failures(raw: unknown): string[];
  /** The DataModel class (built on first use, inside Foundry). */
  model(): unknown;
  /**
   * What the model's field at `path` declares (dot-separated, an array's element named "element", as
   * SchemaField#getField takes it: "points.element.x"), for a refusal worded from the schema itself; null when the
   * schema has no such field.
   */
  bounds(path: string): FieldBounds | null;
}

interface ModelInstance {
  toObject(): object;
}
interface ModelClass {
  new (data: object, options: { strict: boolean }): ModelInstance;
  migrateData(source: object): object;
  validateJoint(data: object): void;
  readonly schema: foundry.data.fields.SchemaField.Any;
}

/** Declares a data model for one flag (or request). */
export function flagModel<S extends Schema>(spec: FlagModelSpec<S>): FlagModel<S> {
  let built: ModelClass | null = null;
  const model = (): ModelClass => {
    if (built) return built;
    // cast: the v13 DataModel base as a plain constructor (its pinned generics need the schema's type)
    const Base: ModelClass = foundry.abstract.DataModel as never;
    const named = {
      [spec.name]: class extends Base {
        static defineSchema(): S {
          return spec.schema(foundry.data.fields);
        }
        static override migrateData(source: object): object {
          if (spec.migrate && isRecord(source)) spec.migrate(source);
          return super.migrateData(source);
        }
        static override validateJoint(data: object): void {
          super.validateJoint(data);
          spec.joint?.(data as ModelData<S>);
        }
      },
    };
    built = named[spec.name]!;
    return built;
  };
  const construct = (raw: Record<string, unknown>): ModelData<S> =>
    new (model())(foundry.utils.deepClone(raw), { strict: true }).toObject() as ModelData<S>;
  return {
    read(raw) {
      if (!isRecord(raw)) return null;
      try {
        const data = construct(raw);
        return !spec.exact || sameAsSent(raw, data) ? data : null;
      } catch {
        return null;
      }
    },
    make: (data) => construct(data as Record<string, unknown>),
    failures(raw) {
      if (!isRecord(raw)) return [];
      const top = (path: string) => path.split(".")[0]!;
      try {
        const data = construct(raw) as Record<string, unknown>;
        if (!spec.exact) return [];
        return Object.keys(raw).filter((k) => Object.hasOwn(data, k) && !sameAsSent(raw[k], data[k]));
      } catch (e) {
        const all = (e as { getAllFailures?(): Record<string, unknown> | undefined }).getAllFailures?.() ?? {};
        return [...new Set(Object.keys(all).map(top))];
      }
    },
    model,
    bounds: (path) => fieldBounds(model().schema.getField(path)),
  };
}

/**
 * Whether every value sent is the one the model kept (objects: each key sent that the model has; arrays: each element).
 */
function sameAsSent(sent: unknown, kept: unknown): boolean {
  if (Array.isArray(sent))
    return Array.isArray(kept) && sent.length === kept.length && sent.every((v, i) => sameAsSent(v, kept[i]));
  if (isRecord(sent))
    return isRecord(kept) && Object.keys(sent).every((k) => !Object.hasOwn(kept, k) || sameAsSent(sent[k], kept[k]));
  return Object.is(sent, kept);
}

// ------------------------------------------------------------------------------------------------ maps of entries

/** The value a field holds, as stored (the source data of a one-field schema). */
export type FieldData<F extends foundry.data.fields.DataField.Any> = ModelData<{ value: F }>["value"];

export interface EntryMapSpec<S extends Schema> extends FlagModelSpec<S> {
  /** Which keys an entry may have: a document id (values.ts isDocumentId) unless given. */
  key?(key: string): boolean;
  /**
   * An entry an earlier version kept as a single value (not an object), as the object it stands for (a migration);
   * null when it stands for nothing.
   */
  fromValue?(value: unknown): Record<string, unknown> | null;
}

/**
 * A flag holding a map of entries (key → entry), each entry declared once as a model and read on its own: one bad
 * entry (a bad key, a value its model refuses) is left out, the others are kept.
 */
export interface EntryMap<T> {
  /** Every entry that reads, by key. */
  read(raw: unknown): Map<string, T>;
  /** The entry under `key`, or null (absent, or refused). */
  get(raw: unknown, key: string | null | undefined): T | null;
  /** The value to write for one entry, cleaned and validated; throws when invalid (a bug of the caller). */
  make(entry: T): unknown;
}

/** Declares a map of object entries, each read through a flag model (`spec`). */
export function entryMap<S extends Schema>(spec: EntryMapSpec<S>): EntryMap<ModelData<S>> {
  return entriesOf(flagModel(spec), spec);
}

/**
 * A map of entries each read through `entry`, a model declared on its own (its type then is `DataOf<typeof entry>`).
 */
export function entriesOf<S extends Schema>(
  entry: FlagModel<S>,
  options: Pick<EntryMapSpec<S>, "key" | "fromValue"> = {},
): EntryMap<ModelData<S>> {
  const keyOk = (k: string) => (options.key ? options.key(k) : isDocumentId(k));
  const one = (v: unknown) => entry.read(isRecord(v) || !options.fromValue ? v : options.fromValue(v));
  return mapOf(keyOk, one, (e) => entry.make(e));
}

/**
 * Declares a map of single values (key → value), each checked by the field `value` declares (through a one-field
 * model, exact: a value Foundry's cleaning would change is refused, e.g. the text "true" for a boolean).
 */
export function valueMap<F extends foundry.data.fields.DataField.Any>(spec: {
  name: string;
  value(fields: Fields): F;
  key?(key: string): boolean;
}): EntryMap<FieldData<F>> {
  const value = flagValue(spec);
  const keyOk = (k: string) => (spec.key ? spec.key(k) : isDocumentId(k));
  return mapOf(
    keyOk,
    (v) => value.read(v),
    (v) => value.make(v),
  );
}

/** A flag holding a single value (not an object), declared by its field. */
export interface FlagValue<T> {
  /** The stored value, checked by its field (exact); null when absent or refused. */
  read(raw: unknown): T | null;
  /** The value to write, checked; throws when invalid (a bug of the caller). */
  make(value: T): T;
}

/**
 * Declares a flag holding a single value, checked by the field `value` declares (through a one-field model, exact: a
 * value Foundry's cleaning would change is refused, e.g. the text "12" for a number).
 */
export function flagValue<F extends foundry.data.fields.DataField.Any>(spec: {
  name: string;
  value(fields: Fields): F;
}): FlagValue<FieldData<F>> {
  const model = flagModel({ name: spec.name, schema: (f) => ({ value: spec.value(f) }), exact: true });
  return {
    read(raw) {
      if (raw === undefined) return null;
      const data = model.read({ value: raw });
      return data === null || data.value === undefined ? null : data.value;
    },
    make: (v) => model.make({ value: v }).value,
  };
}

function mapOf<T>(keyOk: (k: string) => boolean, one: (v: unknown) => T | null, make: (e: T) => unknown): EntryMap<T> {
  return {
    read(raw) {
      const out = new Map<string, T>();
      if (!isRecord(raw)) return out;
      for (const [k, v] of Object.entries(raw)) {
        const e = keyOk(k) ? one(v) : null;
        if (e !== null) out.set(k, e);
      }
      return out;
    },
    get(raw, key) {
      if (!key || !keyOk(key) || !isRecord(raw) || !Object.hasOwn(raw, key)) return null;
      return one(raw[key]);
    },
    make,
  };
}

/**
 * The options a field was declared with (DataField#options, "the initially provided options which configure the data
 * field", v13 API): its kind, its range (an array's: its length), whether it takes only integers or only positive
 * numbers (NumberField `integer`, `positive`), its choices (StringField `choices`: a list, or the keys of an object).
 */
export interface FieldBounds {
  kind: "number" | "string" | "boolean" | "array" | "other";
  min: number | undefined;
  max: number | undefined;
  integer: boolean;
  positive: boolean;
  choices?: readonly string[];
}

function fieldBounds(field: unknown): FieldBounds | null {
  const f = foundry.data.fields;
  if (!(field instanceof f.DataField)) return null;
  const options: Record<string, unknown> = { ...field.options };
  const bound = (v: unknown) => (typeof v === "number" ? v : undefined);
  const c = options.choices;
  const choices = Array.isArray(c)
    ? c.filter((x): x is string => typeof x === "string")
    : isRecord(c)
      ? Object.keys(c)
      : null;
  return {
    kind:
      field instanceof f.NumberField
        ? "number"
        : field instanceof f.StringField
          ? "string"
          : field instanceof f.BooleanField
            ? "boolean"
            : field instanceof f.ArrayField
              ? "array"
              : "other",
    min: bound(options.min),
    max: bound(options.max),
    integer: options.integer === true,
    positive: options.positive === true,
    ...(choices ? { choices } : {}),
  };
}
