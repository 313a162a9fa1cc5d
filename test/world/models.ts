/**
 * Data models and module sub-types in the fake world: what Foundry does with the `system` of a document whose type a
 * module defines.
 *
 * Sources (public documentation):
 * - Module sub-types: https://foundryvtt.com/article/module-sub-types/ — a module declares its sub-types in module.json
 *   `documentTypes` ("This makes the server aware of these custom sub-types so that they are not discarded as invalid
 *   Documents"); they are named `<module id>.<sub-type>` and get their data model from `CONFIG.<Document>.dataModels`
 *   (https://foundryvtt.com/api/v13/classes/foundry.abstract.TypeDataModel.html, the "my-module.sidekick" example).
 *   A document of a namespaced type no active module declares is refused ("… is not a valid type for the Actor Document
 *   class"); the types a game system declares are not modelled (any un-namespaced type is taken).
 * - Cleaning and validation: foundry.abstract.DataModel#validate and .cleanData, foundry.data.fields.DataField#clean
 *   ("Coerce source data to ensure that it conforms to the correct data type for the field"),
 *   https://foundryvtt.com/api/v13/classes/foundry.abstract.DataModel.html, …/foundry.data.fields.DataField.html.
 *   The fields modelled and their options: NumberField (nullable, integer, min, max, positive ("Must the number be
 *   positive?", …/foundry.data.types.NumberFieldOptions.html), initial; a numeric string is cast to a number), StringField (blank, nullable, trim, choices, initial), BooleanField, SchemaField (keys the schema
 *   does not have are dropped), TypedObjectField (an object of entries of one field; `validateKey`), SetField (inert),
 *   https://foundryvtt.com/api/v13/classes/foundry.data.fields.NumberField.html (…StringField, …SchemaField,
 *   …TypedObjectField). A create or update whose `system` fails validation throws and changes nothing (an invalid
 *   document is never written: Document#update validates the changes before they are sent). The exact wording of
 *   Foundry's DataModelValidationError is not modelled: the fake names each failing field path.
 * - Sheets: foundry.applications.apps.DocumentSheetConfig.registerSheet(documentClass, scope, sheetClass, {types,
 *   makeDefault, label}) (https://foundryvtt.com/api/v13/interfaces/foundry.SheetRegistrationDescriptor.html) records
 *   the sheet in CONFIG.Actor.sheetClasses[type]; Actor#sheet is the default sheet of the actor's type;
 *   foundry.applications.sheets.ActorSheetV2 (https://foundryvtt.com/api/v13/classes/foundry.applications.sheets.ActorSheetV2.html):
 *   `options.document`, `document`, `actor`, `isEditable` (the user owns the document), the title is the document's name.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyMerge, clone, ForcedDeletion, isPlainObject, type Plain } from "./data.js";

// ------------------------------------------------------------------------------------------------ fields

type Errors = string[];

export class FakeDataField {
  constructor(readonly options: Plain = {}) {}
  get initial(): unknown {
    const i = this.options.initial;
    return typeof i === "function" ? (i as () => unknown)() : clone(i);
  }
  /** DataField#clean: undefined takes the initial value; then the field's own cast. */
  clean(value: unknown): unknown {
    if (value === undefined) return this.initial ?? (this.options.nullable ? null : undefined);
    return this.cast(value);
  }
  cast(value: unknown): unknown {
    return value;
  }
  /**
   * Pushes "path: reason" for each failure; called as Foundry's DataField#validate(value) (no list given), returns
   * the failure (a DataModelValidationFailure, here its messages) or nothing.
   */
  validate(value: unknown, path = "", errors?: Errors): FakeValidationFailure | undefined {
    const list = errors ?? [];
    if (value === null || value === undefined) {
      if (!this.options.nullable && this.options.required !== false) list.push(`${path}: may not be null`);
    } else {
      this.check(value, path, list);
      const v = this.options.validate as ((x: unknown) => boolean) | undefined;
      if (v && v(value) === false) list.push(`${path}: is not a valid value`);
    }
    return !errors && list.length ? new FakeValidationFailure(list) : undefined;
  }
  check(_value: unknown, _path: string, _errors: Errors): void {}
}

export class FakeNumberField extends FakeDataField {
  override cast(value: unknown): unknown {
    if (value === null) return null;
    if (typeof value === "string")
      return value.trim() === "" ? (this.options.nullable ? null : Number.NaN) : Number(value);
    return value;
  }
  override check(value: unknown, path: string, errors: Errors): void {
    if (typeof value !== "number" || !Number.isFinite(value))
      return void errors.push(`${path}: must be a finite number`);
    if (this.options.integer && !Number.isInteger(value)) errors.push(`${path}: must be an integer`);
    if (typeof this.options.min === "number" && value < this.options.min)
      errors.push(`${path}: must be at least ${this.options.min}`);
    if (typeof this.options.max === "number" && value > this.options.max)
      errors.push(`${path}: must be at most ${this.options.max}`);
    if (this.options.positive === true && value <= 0) errors.push(`${path}: must be a positive number`);
  }
}

export class FakeStringField extends FakeDataField {
  override clean(value: unknown): unknown {
    if (value === undefined)
      return this.initial ?? (this.options.nullable ? null : this.options.blank === false ? undefined : "");
    return this.cast(value);
  }
  override cast(value: unknown): unknown {
    if (value === null) return null;
    const s = String(value);
    return this.options.trim === false ? s : s.trim();
  }
  override check(value: unknown, path: string, errors: Errors): void {
    if (typeof value !== "string") return void errors.push(`${path}: must be a string`);
    if (value === "" && this.options.blank === false) return void errors.push(`${path}: may not be a blank string`);
    const choices = this.options.choices;
    const list = Array.isArray(choices) ? choices : isPlainObject(choices) ? Object.keys(choices) : null;
    if (list && !list.includes(value)) errors.push(`${path}: ${value} is not a valid choice`);
  }
}

export class FakeBooleanField extends FakeDataField {
  override cast(value: unknown): unknown {
    return typeof value === "string" ? value === "true" : Boolean(value);
  }
}

export class FakeSetField extends FakeDataField {}

export class FakeSchemaField extends FakeDataField {
  constructor(
    readonly fields: Record<string, FakeDataField>,
    options: Plain = {},
  ) {
    super(options);
  }
  /** Its `initial` option when given (DataFieldOptions.initial, e.g. null for a nullable schema), else each field's. */
  override get initial(): unknown {
    if (this.options.initial !== undefined) return super.initial;
    return Object.fromEntries(Object.entries(this.fields).map(([k, f]) => [k, f.clean(undefined)]));
  }
  /**
   * SchemaField#getField(fieldName): the field at a dot-separated path (or an array of its parts), undefined when there
   * is none (https://foundryvtt.com/api/v13/classes/foundry.data.fields.SchemaField.html); an ArrayField's element is
   * named "element" (the module dnd-easy-reference's damage dialog reads `schema.getField("parts.element.formula")`).
   */
  getField(fieldName: string | string[]): FakeDataField | undefined {
    const [key, ...rest] = typeof fieldName === "string" ? fieldName.split(".") : fieldName;
    const field = key === undefined ? undefined : this.fields[key];
    return rest.length ? fieldAt(field, rest) : field;
  }
  /** Cleans each field; keys the schema does not have are dropped. */
  override cast(value: unknown): unknown {
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(Object.entries(this.fields).map(([k, f]) => [k, f.clean(value[k])]));
  }
  /** Cleans only the keys given (an update's changes); deletion keys ("-=k") pass. */
  cleanPartial(value: Plain): Plain {
    const out: Plain = {};
    for (const [k, v] of Object.entries(value)) {
      const f = this.fields[k];
      if (!f) continue;
      out[k] = partial(f, v);
    }
    return out;
  }
  override check(value: unknown, path: string, errors: Errors): void {
    if (!isPlainObject(value)) return void errors.push(`${path}: must be an object`);
    for (const [k, f] of Object.entries(this.fields)) f.validate(value[k], path ? `${path}.${k}` : k, errors);
  }
}

export class FakeTypedObjectField extends FakeDataField {
  constructor(
    readonly element: FakeDataField,
    options: Plain = {},
  ) {
    super(options);
  }
  override get initial(): unknown {
    return this.options.initial === undefined ? {} : clone(this.options.initial);
  }
  override cast(value: unknown): unknown {
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.element.clean(v)]));
  }
  /**
   * Cleans only the entries given; a deletion passes: a "-=k" key (v13), or the v14 `_del` operator as the value
   * (dnd5e 5.3.3 deletes an entry of its system's activities mapping with `{ [`system.activities.${id}`]: _del }`,
   * data.ts).
   */
  cleanPartial(value: Plain): Plain {
    const out: Plain = {};
    for (const [k, v] of Object.entries(value))
      out[k] = k.startsWith("-=") || v instanceof ForcedDeletion ? v : partial(this.element, v);
    return out;
  }
  override check(value: unknown, path: string, errors: Errors): void {
    if (!isPlainObject(value)) return void errors.push(`${path}: must be an object`);
    const validKey = this.options.validateKey as ((k: string) => boolean) | undefined;
    for (const [k, v] of Object.entries(value)) {
      if (validKey && !validKey(k)) errors.push(`${path}.${k}: is not a valid key`);
      this.element.validate(v, `${path}.${k}`, errors);
    }
  }
}

/** The field at `path` inside `field` (a schema's own field, an array's "element"). */
function fieldAt(field: FakeDataField | undefined, path: string[]): FakeDataField | undefined {
  if (!path.length) return field;
  if (field instanceof FakeSchemaField) return field.getField(path);
  if (field instanceof FakeArrayField && path[0] === "element") return fieldAt(field.element, path.slice(1));
  return undefined;
}

/** An update's value for `f`: a nested object is cleaned key by key (only what it changes), a plain value cast. */
function partial(f: FakeDataField, v: unknown): unknown {
  if (isPlainObject(v) && (f instanceof FakeSchemaField || f instanceof FakeTypedObjectField)) return f.cleanPartial(v);
  return v === undefined ? v : f.cast(v);
}

export const FAKE_FIELDS = {
  DataField: FakeDataField,
  NumberField: FakeNumberField,
  StringField: FakeStringField,
  BooleanField: FakeBooleanField,
  SetField: FakeSetField,
  SchemaField: FakeSchemaField,
  TypedObjectField: FakeTypedObjectField,
};

// ------------------------------------------------------------------------------------------------ TypeDataModel

/** foundry.abstract.TypeDataModel: a schema from the static `defineSchema()`; the instance holds the cleaned data. */
export class FakeTypeDataModel {
  static LOCALIZATION_PREFIXES: string[] = [];
  static defineSchema(): Record<string, FakeDataField> {
    return {};
  }
  static schemaField(): FakeSchemaField {
    return new FakeSchemaField(this.defineSchema());
  }
  parent: unknown = null;
  constructor(data: Plain = {}, options: { parent?: unknown } = {}) {
    const schema = (this.constructor as typeof FakeTypeDataModel).schemaField();
    Object.assign(this, schema.clean(data) as Plain);
    this.parent = options.parent ?? null;
  }
}

export class DataModelValidationError extends Error {
  constructor(documentName: string, type: string, errors: string[]) {
    super(`${documentName} [${type}] validation errors:\n${errors.map((e) => `  system.${e}`).join("\n")}`);
    this.name = "DataModelValidationError";
  }
}

// ------------------------------------------------------------------------------------------------ sub-types

/** The sub-types the project's module.json declares, per document name (what the server is told). */
export function moduleDocumentTypes(moduleId = "aventure"): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "module.json"), "utf8")) as {
    id: string;
    documentTypes?: Record<string, Record<string, unknown>>;
  };
  if (manifest.id !== moduleId) return {};
  return Object.fromEntries(
    Object.entries(manifest.documentTypes ?? {}).map(([doc, types]) => [
      doc,
      Object.keys(types).map((t) => `${moduleId}.${t}`),
    ]),
  );
}

interface ModelConfig {
  dataModels?: Record<string, unknown>;
}

/**
 * Checks a document's type and cleans and validates its `system` (creation): a namespaced type must be declared by an
 * active module; a type with a data model gets its `system` cleaned (defaults filled, unknown keys dropped) and
 * validated. Returns the cleaned system; throws on an invalid type or system.
 */
export function cleanSystemForCreate(
  documentName: string,
  type: string,
  system: Plain,
  config: ModelConfig | undefined,
  activeModules: (id: string) => boolean,
): Plain {
  if (type.includes(".")) {
    const [moduleId] = type.split(".");
    const declared = activeModules(moduleId!) ? (moduleDocumentTypes(moduleId)[documentName] ?? []) : [];
    if (!declared.includes(type))
      throw new Error(
        `${documentName} validation: "${type}" is not a valid type for the ${documentName} Document class`,
      );
  }
  const Model = config?.dataModels?.[type] as typeof FakeTypeDataModel | undefined;
  if (!Model) return system;
  const schema = Model.schemaField();
  const cleaned = schema.clean(system) as Plain;
  const errors: string[] = [];
  schema.validate(cleaned, "", errors);
  if (errors.length) throw new DataModelValidationError(documentName, type, errors);
  return cleaned;
}

/**
 * An update's `system` changes for a type with a data model: cleaned key by key, then the document's system with the
 * changes applied is validated as a whole. Returns the cleaned changes; throws (nothing written) when invalid.
 */
export function cleanSystemUpdate(
  documentName: string,
  type: string,
  current: Plain,
  changes: Plain,
  config: ModelConfig | undefined,
): Plain {
  const Model = config?.dataModels?.[type] as typeof FakeTypeDataModel | undefined;
  if (!Model) return changes;
  const schema = Model.schemaField();
  const cleaned = schema.cleanPartial(changes);
  const merged = clone(current);
  applyMerge(merged, cleaned);
  const errors: string[] = [];
  schema.validate(merged, "", errors);
  if (errors.length) throw new DataModelValidationError(documentName, type, errors);
  return cleaned;
}

// ------------------------------------------------------------------------------------------------ sheets

export interface SheetRegistration {
  id: string;
  cls: (new (options: Plain) => { render(o?: Plain | boolean): Promise<unknown> }) & { name: string };
  default: boolean;
  label: string;
}

/** DocumentSheetConfig.registerSheet for the client whose CONFIG is given. */
export function registerSheet(
  config: Plain,
  documentName: string,
  scope: string,
  cls: SheetRegistration["cls"],
  options: { types?: string[]; makeDefault?: boolean; label?: string } = {},
): void {
  const doc = (config[documentName] ??= {}) as { sheetClasses?: Record<string, Record<string, SheetRegistration>> };
  doc.sheetClasses ??= {};
  for (const type of options.types ?? []) {
    const list = (doc.sheetClasses[type] ??= {});
    const id = `${scope}.${cls.name}`;
    if (options.makeDefault) for (const r of Object.values(list)) r.default = false;
    list[id] = { id, cls, default: options.makeDefault === true, label: options.label ?? id };
  }
}

/** The default sheet class of a type (the one registered with makeDefault, else the first), or null. */
export function defaultSheet(config: Plain, documentName: string, type: string): SheetRegistration | null {
  const list = (
    config[documentName] as { sheetClasses?: Record<string, Record<string, SheetRegistration>> } | undefined
  )?.sheetClasses?.[type];
  if (!list) return null;
  const all = Object.values(list);
  return all.find((r) => r.default) ?? all[0] ?? null;
}

/** What DataField#validate returns on a failure (foundry.data.validation.DataModelValidationFailure): its messages. */
export class FakeValidationFailure {
  constructor(readonly errors: string[]) {}
  get message(): string {
    return this.errors.join("; ");
  }
}

// ------------------------------------------------------------------------------------------------ DataModel (flags)

/*
 * foundry.abstract.DataModel as the module uses it for the state it stores in flags and sends in requests: a model
 * built from raw data validates it on construction.
 *
 * Sources (public documentation, v13):
 * - https://foundryvtt.com/api/v13/classes/foundry.abstract.DataModel.html — `new DataModel(data, {strict, parent})`
 *   ("options.strict: control the strictness of validation for initially provided data", default true); the static
 *   `migrateData(source)` ("migrate candidate source data for this DataModel which may require initial cleaning or
 *   transformations", applied before cleaning), `cleanData(source)` ("clean a data source object to conform to a
 *   specific provided schema"), `validateJoint(data)` ("evaluate joint validation rules which apply validation
 *   conditions across multiple fields of the model", throws on failure), `#toObject()` (a copy of the source data) and
 *   `_source`; an invalid model under `strict` throws a DataModelValidationError.
 * - https://foundryvtt.com/api/v13/classes/foundry.data.fields.ArrayField.html — an array of one element field
 *   (`min`/`max` length options); a lone value is cast to a one-element array.
 * - https://foundryvtt.com/api/v13/classes/foundry.data.fields.ObjectField.html — a free-form object.
 * - https://foundryvtt.com/api/v13/classes/foundry.data.fields.AnyField.html — a value of any type ("a special class
 *   of DataField which can contain any value of any type"), checked only by its `validate` option.
 * - The model's fields are its properties (DataModel#_initialize), read-only here.
 * Not modelled: the non-strict "fallback" mode (invalid values replaced by defaults), `updateSource`, and the exact
 * error wording.
 */

// Cards: the module's ChatMessage sub-types (TypeDataModel) use the same fields, and migrate and validate as below.
/*
 * More of the data model, for the module's ChatMessage sub-types (cards):
 * - ArrayField (`element`, options `min`/`max`: the fewest and most elements; initial []), ObjectField (any plain
 *   object; initial {}): https://foundryvtt.com/api/v13/classes/foundry.data.fields.ArrayField.html,
 *   https://foundryvtt.com/api/v13/interfaces/foundry.data.types._ArrayFieldOptions.html,
 *   https://foundryvtt.com/api/v13/classes/foundry.data.fields.ObjectField.html.
 * - DataModel.migrateData(source) ("Migrate candidate source data for this DataModel which may require initial
 *   cleaning or transformations", run before cleaning when a model is built from source) and
 *   DataModel.validateJoint(data) ("Evaluate joint validation rules which apply validation conditions across multiple
 *   fields of the model", throws when they fail), the constructor's `strict` option (default true: invalid data
 *   throws) and DataModel#toObject (the source, a copy): https://foundryvtt.com/api/v13/classes/foundry.abstract.DataModel.html.
 */
export class FakeArrayField extends FakeDataField {
  constructor(
    readonly element: FakeDataField,
    options: Plain = {},
  ) {
    super(options);
  }
  override get initial(): unknown {
    return this.options.initial === undefined ? [] : clone(this.options.initial);
  }
  override cast(value: unknown): unknown {
    if (value === null) return null;
    const list = Array.isArray(value) ? value : [value];
    return list.map((v) => this.element.clean(v));
  }
  override check(value: unknown, path: string, errors: Errors): void {
    if (!Array.isArray(value)) return void errors.push(`${path}: must be an array`);
    if (typeof this.options.min === "number" && value.length < this.options.min)
      errors.push(`${path}: must have at least ${this.options.min} elements`);
    if (typeof this.options.max === "number" && value.length > this.options.max)
      errors.push(`${path}: must have at most ${this.options.max} elements`);
    value.forEach((v, i) => this.element.validate(v, `${path}.${i}`, errors));
  }
}

export class FakeObjectField extends FakeDataField {
  override get initial(): unknown {
    return this.options.initial === undefined ? {} : clone(this.options.initial);
  }
  override check(value: unknown, path: string, errors: Errors): void {
    if (!isPlainObject(value)) errors.push(`${path}: must be an object`);
  }
}

export class FakeAnyField extends FakeDataField {
  override validate(value: unknown, path = "", errors?: Errors): FakeValidationFailure | undefined {
    const list = errors ?? [];
    if (value === undefined && this.options.required === true) list.push(`${path}: may not be undefined`);
    const v = this.options.validate as ((x: unknown) => boolean) | undefined;
    if (value !== undefined && v && v(value) === false) list.push(`${path}: is not a valid value`);
    return !errors && list.length ? new FakeValidationFailure(list) : undefined;
  }
}

export const FAKE_MODEL_FIELDS = {
  ArrayField: FakeArrayField,
  ObjectField: FakeObjectField,
  AnyField: FakeAnyField,
};

/** foundry.abstract.DataModel: migrateData, then cleanData, then field and joint validation (strict: throws). */
export class FakeDataModel {
  static defineSchema(): Record<string, FakeDataField> {
    return {};
  }
  static get schema(): FakeSchemaField {
    return new FakeSchemaField(this.defineSchema());
  }
  /** The schema as one field (what a setting typed by this model is cleaned and validated with). */
  static schemaField(): FakeSchemaField {
    return this.schema;
  }
  static migrateData(source: Plain): Plain {
    return source;
  }
  static cleanData(source: Plain = {}): Plain {
    return this.schema.clean(source) as Plain;
  }
  static validateJoint(_data: Plain): void {}
  _source: Plain;
  parent: unknown;
  constructor(data: Plain = {}, options: { strict?: boolean; parent?: unknown } = {}) {
    const Model = this.constructor as typeof FakeDataModel;
    const migrated = Model.migrateData(isPlainObject(data) ? clone(data) : {});
    this._source = Model.cleanData(migrated);
    this.parent = options.parent ?? null;
    const errors: string[] = [];
    Model.schema.validate(this._source, "", errors);
    if (!errors.length) {
      try {
        Model.validateJoint(this._source);
      } catch (e) {
        errors.push(`joint: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (errors.length && options.strict !== false) throw new FakeModelValidationError(Model.name, errors);
    // DataModel#_initialize: each field of the schema is a property of the model (read-only here), unless the class
    // itself defines that name.
    for (const key of Object.keys(Model.schema.fields))
      if (!(key in this)) Object.defineProperty(this, key, { get: () => this._source[key], enumerable: true });
  }
  toObject(): Plain {
    return clone(this._source);
  }
}

/** The model's source as a document keeps it: migrated, cleaned, validated field by field and jointly. */
function modelSource(Model: typeof FakeTypeDataModel, data: unknown): { source: Plain; errors: string[] } {
  const M = Model as typeof FakeTypeDataModel & {
    migrateData?(d: Plain): Plain;
    validateJoint?(d: Plain): void;
  };
  const migrated = M.migrateData ? M.migrateData(clone(isPlainObject(data) ? data : {})) : clone(data as Plain);
  const schema = Model.schemaField();
  const source = schema.clean(migrated) as Plain;
  const errors: string[] = [];
  schema.validate(source, "", errors);
  if (!errors.length && M.validateJoint)
    try {
      M.validateJoint(source);
    } catch (e) {
      errors.push(`(joint): ${(e as Error).message}`);
    }
  return { source, errors };
}

/**
 * foundry.abstract.TypeDataModel with migration and validation on construction (a model built from source is
 * migrated, cleaned and validated; `strict: false` keeps an invalid one, marked `invalid`).
 */
export class FakeValidatingTypeDataModel extends FakeTypeDataModel {
  static migrateData(source: Plain): Plain {
    return source;
  }
  static validateJoint(_data: Plain): void {}
  readonly #source: Plain;
  readonly #invalid: boolean;
  constructor(data: Plain = {}, options: { parent?: unknown; strict?: boolean } = {}) {
    const { source, errors } = modelSource(new.target as typeof FakeTypeDataModel, data);
    super(source, options);
    if (errors.length && options.strict !== false)
      throw new DataModelValidationError("DataModel", new.target.name, errors);
    this.#source = source;
    this.#invalid = errors.length > 0;
  }
  get invalid(): boolean {
    return this.#invalid;
  }
  toObject(): Plain {
    return clone(this.#source);
  }
}

/**
 * The error a strict DataModel construction throws: DataModelValidationError#getAllFailures ("retrieve a flattened
 * object of all the properties that failed validation as part of this error", keyed by property path:
 * https://foundryvtt.com/api/v13/classes/foundry.data.validation.DataModelValidationError.html). A joint rule's
 * failure names no property.
 */
export class FakeModelValidationError extends DataModelValidationError {
  constructor(
    name: string,
    readonly errors: string[],
  ) {
    super(name, "model", errors);
  }
  getAllFailures(): Record<string, { message: string }> {
    const out: Record<string, { message: string }> = {};
    for (const e of this.errors) {
      const at = e.indexOf(": ");
      const path = e.slice(0, at);
      if (path !== "joint") out[path] = { message: e.slice(at + 2) };
    }
    return out;
  }
}

/**
 * cleanSystemForCreate for a type whose model migrates and validates jointly (the module's ChatMessage sub-types):
 * the type checked as there, then the system migrated, cleaned and validated. Throws on an invalid type or system.
 */
export function modelSystemForCreate(
  documentName: string,
  type: string,
  system: Plain,
  config: ModelConfig | undefined,
  activeModules: (id: string) => boolean,
): Plain {
  cleanSystemForCreate(documentName, type, {}, { dataModels: {} }, activeModules);
  const Model = config?.dataModels?.[type] as typeof FakeTypeDataModel | undefined;
  if (!Model) return system;
  const { source, errors } = modelSource(Model, system);
  if (errors.length) throw new DataModelValidationError(documentName, type, errors);
  return source;
}

/** cleanSystemUpdate, with the joint validation of the model on the system the changes make. */
export function modelSystemUpdate(
  documentName: string,
  type: string,
  current: Plain,
  changes: Plain,
  config: ModelConfig | undefined,
): Plain {
  const cleaned = cleanSystemUpdate(documentName, type, current, changes, config);
  const Model = config?.dataModels?.[type] as { validateJoint?(d: Plain): void } | undefined;
  if (!Model?.validateJoint) return cleaned;
  const merged = clone(current);
  applyMerge(merged, cleaned);
  try {
    Model.validateJoint(merged);
  } catch (e) {
    throw new DataModelValidationError(documentName, type, [`(joint): ${(e as Error).message}`]);
  }
  return cleaned;
}
