/** Registration of the settings declared in settings-schema.ts, and typed accessors. */
import { MODULE_ID } from "./constants.js";
import { settingsSchema, type SettingKey, type SettingValue } from "./settings-schema.js";

const onChangeHandlers = new Map<string, Array<(value: unknown) => void>>();

/** Runs `fn` whenever the setting changes (registered before `registerSettings`). */
export function onSettingChange(key: SettingKey, fn: (value: unknown) => void): void {
  const list = onChangeHandlers.get(key) ?? [];
  list.push(fn);
  onChangeHandlers.set(key, list);
}

export function registerSettings(): void {
  const schema = settingsSchema(game.system.id);
  for (const [key, def] of Object.entries(schema) as [SettingKey, (typeof schema)[SettingKey]][]) {
    const kind: string = def.type;
    const type = kind === "string" ? String : kind === "number" ? Number : kind === "boolean" ? Boolean : Object;
    const prefix = `AVENTURE.Settings.${key}`;
    const data: Record<string, unknown> = {
      name: `${prefix}.name`,
      hint: `${prefix}.hint`,
      scope: def.scope,
      config: def.config,
      type,
      default: def.default,
      requiresReload: "requiresReload" in def ? def.requiresReload : false,
      onChange: (value: unknown) => {
        for (const fn of onChangeHandlers.get(key) ?? []) fn(value);
      },
    };
    if ("choices" in def) data.choices = def.choices;
    if ("range" in def) data.range = def.range;
    // The schema is typed per key; Foundry's registration signature is checked against SettingConfig.
    (game.settings.register as (ns: string, key: string, data: unknown) => void)(MODULE_ID, key, data);
  }
}

/** Reads a declared setting. */
export function getSetting<K extends SettingKey>(key: K): SettingValue<K> {
  return (game.settings.get as (ns: string, key: string) => unknown)(MODULE_ID, key) as SettingValue<K>;
}

/** Writes a declared setting (world settings: GM only, Foundry enforces it). */
export async function setSetting<K extends SettingKey>(key: K, value: SettingValue<K>): Promise<void> {
  await (game.settings.set as (ns: string, key: string, value: unknown) => Promise<unknown>)(MODULE_ID, key, value);
}
