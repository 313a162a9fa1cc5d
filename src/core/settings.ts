/**
 * The module's settings: how a feature declares its own (`declareSettings`, in its `settings.ts`), and the typed
 * accessors. Each setting is declared once, with one of Foundry's field types (v13 `game.settings.register(ns, key,
 * { type: new foundry.data.fields.NumberField(…) })`, public API ClientSettings#register and SettingConfig); the
 * composition root (src/settings.ts) registers every feature's declarations in one loop, and the value type of each
 * setting (`SettingConfig`, src/declarations.d.ts) is derived from its field type.
 */
import { MODULE_ID } from "./constants.js";

export type SettingScope = "world" | "client" | "user";

/** One setting as a feature declares it: its name and hint come from `AVENTURE.Settings.<key>`. */
export interface SettingDeclaration {
  scope: SettingScope;
  /** Shown in the module settings form (the rows of features that are off are hidden, settings-form.ts). */
  config: boolean;
  /**
   * A Foundry field (foundry.data.fields): its cleaning and validation apply to every `game.settings.set`. Typed
   * `object` here so that the field's own options, not this declaration, give its type (fvtt-types derives the
   * value's type from them; registration checks it against Foundry's own SettingConfig).
   */
  type: object;
  default: unknown;
  requiresReload?: boolean;
}

/** What a declaration is built with: Foundry's field classes (they exist only inside Foundry) and the game system. */
export interface SettingsContext {
  fields: typeof foundry.data.fields;
  systemId: string;
}

/** A feature's settings, built in `init` with Foundry's fields (typed, so that their values can be derived). */
export function declareSettings<T extends Record<string, SettingDeclaration>>(
  build: (ctx: SettingsContext) => T,
): (ctx: SettingsContext) => T {
  return build;
}

/** `{ value: "<prefix>.value" }`: the choices of a select, each labelled by its localization key. */
export function choicesOf<T extends string>(values: readonly T[], prefix: string): Record<T, string> {
  const out = {} as Record<T, string>;
  for (const v of values) out[v] = `${prefix}.${v}`;
  return out;
}

/** Every key of a setting of the module (from SettingConfig, src/declarations.d.ts). */
export type SettingKey = {
  [K in keyof SettingConfig]: K extends `${typeof MODULE_ID}.${infer S}` ? S : never;
}[keyof SettingConfig];

const onChangeHandlers = new Map<string, Array<(value: unknown) => void>>();

/** Runs `fn` whenever the setting changes (registered before the settings are). */
export function onSettingChange(key: SettingKey, fn: (value: unknown) => void): void {
  const list = onChangeHandlers.get(key) ?? [];
  list.push(fn);
  onChangeHandlers.set(key, list);
}

/** The `onChange` of every registered setting: runs what `onSettingChange` asked for. */
export function settingChanged(key: string, value: unknown): void {
  for (const fn of onChangeHandlers.get(key) ?? []) fn(value);
}

/** Reads a declared setting (its type is derived from the setting's field, SettingConfig). */
export function getSetting<K extends SettingKey>(key: K) {
  return game.settings.get(MODULE_ID, key);
}

/** The value of a declared setting, as read. */
export type SettingValue<K extends SettingKey> = ReturnType<typeof getSetting<K>>;

/** Writes a declared setting (world settings: GM only, Foundry enforces it; a value its field refuses throws). */
export async function setSetting<K extends SettingKey>(
  key: K,
  value: Parameters<typeof game.settings.set<typeof MODULE_ID, K>>[2],
): Promise<void> {
  await game.settings.set(MODULE_ID, key, value);
}

/** A StringField whose value is one of `choices`' keys (its select's options, each labelled by a localization key). */
export function choiceField<T extends string>(fields: SettingsContext["fields"], choices: Record<T, string>) {
  return new fields.StringField<{ required: true; blank: false; choices: Record<T, string> }, T, T, T>({
    required: true,
    blank: false,
    choices,
  });
}
