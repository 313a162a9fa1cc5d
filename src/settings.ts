/**
 * Every setting of the module, registered in one loop (in `init`, by module.ts): core's and each feature's own
 * declarations (`<feature>/settings.ts`, core/settings.ts `declareSettings`), in the order of the settings form. The
 * value type of each setting (`SettingConfig`, src/declarations.d.ts) is derived from here.
 */
import { MODULE_ID } from "./core/constants.js";
import { coreSettings, ruleChoiceSettings } from "./core/core-settings.js";
import { settingChanged, type SettingsContext } from "./core/settings.js";
import { movementSettings } from "./movement/api.js";
import { lightSettings } from "./light/api.js";
import { travelSettings } from "./travel/api.js";
import { pursuitSettings } from "./pursuit/api.js";
import { combatSettings } from "./combat/api.js";
import { encounterSettings } from "./encounter/api.js";
import { explorationSettings } from "./exploration/api.js";
import { welcomeSettings } from "./welcome/api.js";

/** Every declaration, keyed by setting (the order of registration is the order of the form's rows). */
export function moduleSettings(ctx: SettingsContext) {
  return {
    ...coreSettings(ctx),
    ...movementSettings(ctx),
    ...lightSettings(ctx),
    ...travelSettings(ctx),
    ...pursuitSettings(ctx),
    ...combatSettings(ctx),
    ...encounterSettings(ctx),
    ...explorationSettings(ctx),
    ...welcomeSettings(ctx),
    ...ruleChoiceSettings(ctx),
  };
}

type ModuleSettings = ReturnType<typeof moduleSettings>;
type ModuleSettingKey = keyof ModuleSettings;

/** `SettingConfig` of fvtt-types: each setting's field type, from which its value type is derived. */
export type AventureSettingConfig = {
  [K in ModuleSettingKey as `${typeof MODULE_ID}.${K}`]: ModuleSettings[K]["type"];
};

/** Registers every setting: its localized name and hint (AVENTURE.Settings.<key>), and the onChange of settings.ts. */
export function registerSettings(): void {
  const all = moduleSettings({ fields: foundry.data.fields, systemId: game.system.id });
  const declared = (key: string): key is ModuleSettingKey => key in all;
  for (const key of Object.keys(all)) {
    if (!declared(key)) continue;
    game.settings.register(MODULE_ID, key, {
      name: `AVENTURE.Settings.${key}.name`,
      hint: `AVENTURE.Settings.${key}.hint`,
      requiresReload: false,
      ...all[key],
      onChange: (value: unknown) => settingChanged(key, value),
    });
  }
}
