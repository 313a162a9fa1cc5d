/**
 * Aventure — entry point. Registers settings, keybindings, hooks, Handlebars helpers and partials, queries,
 * region behaviour types and the Polaris actor type, and exposes `game.modules.get("aventure").api`.
 */
import { MODULE_ID } from "./core/constants.js";
import { buildApi } from "./api.js";
import { registerHooks } from "./hooks.js";
import { registerSettings } from "./settings.js";
import { registerStatusEffects } from "./status-effects.js";
import { registerHandlebars } from "./core/handlebars.js";
import { ActorDataMenu } from "./actors/ActorDataMenu.js";
import { openWelcome, openWelcomeOnFirstRun, WelcomeDialog } from "./welcome/WelcomeDialog.js";
import { registerKeybindings } from "./keybindings.js";
import { onceHook } from "./core/hooks-typed.js";
import { registerPolarisActor } from "./polaris/api.js";
import { PolarisActorSheet } from "./polaris/PolarisActorSheet.js";

onceHook("init", () => {
  registerSettings();
  game.settings.registerMenu(MODULE_ID, "actorDataMenu", {
    name: "AVENTURE.ActorData.menuName",
    label: "AVENTURE.ActorData.menuLabel",
    hint: "AVENTURE.ActorData.menuHint",
    icon: "fa-solid fa-database",
    type: ActorDataMenu as never, // cast: the pinned settings-menu type wants a legacy FormApplication constructor; v13 accepts an ApplicationV2
    restricted: true,
  });
  game.settings.registerMenu(MODULE_ID, "welcomeMenu", {
    name: "AVENTURE.Welcome.menuName",
    label: "AVENTURE.Welcome.menuLabel",
    hint: "AVENTURE.Welcome.menuHint",
    icon: "fa-solid fa-dice-d20",
    type: WelcomeDialog as never, // cast: as above
    restricted: true,
  });
  registerKeybindings(() => game.modules.get(MODULE_ID)?.api);
  registerStatusEffects();
  void registerHandlebars();
  registerHooks();
  registerPolarisActor(PolarisActorSheet); // the Actor sub-type aventure.polaris: its data model and default sheet
  onceHook("ready", openWelcomeOnFirstRun); // the first-run window "Which game do you play here?", on the active GM while no game was chosen
  const mod = game.modules.get(MODULE_ID);
  if (mod) mod.api = buildApi({ openWelcome });
});
