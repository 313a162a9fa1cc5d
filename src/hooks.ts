/**
 * Every hook Aventure registers, in one place. Each line delegates to the feature that owns it; the
 * handlers stay thin (read Foundry state, call the rules, write documents).
 */
import { onRulesetChange } from "./core/windows.js";
import { onSettingChange } from "./core/settings.js";
import { warnUnsupportedSystem } from "./core/system-check.js";
import { onRenderTokenHUD } from "./core/token-hud.js";
import { registerCombatHooks } from "./combat/hooks.js";
import { openEncounter } from "./encounter/api.js";
import { registerTravelHooks } from "./travel/hooks.js";
import { registerLightHooks } from "./light/hooks.js";
import { registerMovementHooks } from "./movement/hooks.js";
import { registerBreathHooks } from "./breath/hooks.js";
import { registerPursuitHooks } from "./pursuit/hooks.js";
import { registerExplorationHooks } from "./exploration/hooks.js";
import { registerPolarisHooks } from "./polaris/hooks.js";
import { registerRequestHooks } from "./core/requests.js";
import { registerCardLayer } from "./core/cards.js";
import { registerProposals } from "./core/proposals.js";
import { onPreCreateOwnStatus } from "./actors/api.js";
import { registerQuenchBatches } from "./quench/register.js";
import { onHook, onceHook } from "./core/hooks-typed.js";
import { BORROWABLE_FEATURES, borrowSettingKey } from "./core/core-settings.js";
import { onRenderSettingsConfig } from "./core/settings-form.js";

export function registerHooks(): void {
  registerCardLayer(); // the one renderChatMessageHTML listener: each feature's card part (registered below), in order
  registerRequestHooks(); // the trusted request channel: createChatMessage, updateChatMessage, deleteChatMessage, card part (hides requests), ready and userConnected (recovery)
  registerProposals(); // players propose, GMs dispose: request "proposalDecide" (GMs only), card part (Apply / Decline), recovery
  onHook("preCreateActiveEffect", onPreCreateOwnStatus); // a status Aventure adds is flagged as its own in the same write
  registerQuenchBatches(); // init + quenchReady: the in-world test batches, a chunk loaded only when Quench is active
  onSettingChange("ruleset", onRulesetChange);
  for (const f of BORROWABLE_FEATURES) onSettingChange(borrowSettingKey(f), onRulesetChange); // a borrowed rule shows or goes (docs/rules.md §0)
  onceHook("ready", warnUnsupportedSystem);
  onHook("renderTokenHUD", onRenderTokenHUD);
  onHook("renderSettingsConfig", onRenderSettingsConfig); // the module settings form shows the world's game's settings only (docs/rules.md §0)
  // Feature hooks (one block per feature):
  registerCombatHooks(openEncounter); // encounter/combat: CONFIG.Combat.documentClass; requests "sideRound", "rollSides", "encounterStart" (GMs only), recovery of interrupted side rounds; createCombatant, updateCombatant, deleteCombat, renderCombatTracker, getCombatTrackerContextOptions, combatStart, combatTurn, dnd5e.preRollInitiativeDialogV2
  registerTravelHooks(); // travel: requests "travelApply" and "travelUndo" (GMs only), proposal kind "travel", recovery of interrupted journeys, HUD button "travel", card parts (the card's footer, Undo and Continue; the OSE card's Encounter)
  registerLightHooks(); // light: canvasReady, lightingRefresh, updateToken, createToken, deleteToken, create/update/deleteAmbientLight, create/update/deleteRegion and RegionBehavior, create/update/deleteWall, create/deleteActiveEffect, updateScene, updateActor, drawToken, dnd5e.postRollAttack, createChatMessage (OSE attacks), card part (the detection card's Reveal / Ignore); requests "hide", "endHide", "setSearching", "detectionDecide", "checkDetection" (the last three GMs only), proposal kind "hide", recovery of interrupted hiding changes; region behaviour aventure.obscurity; HUD panel + buttons "hide", "end-hide", "search", "stop-search"
  registerMovementHooks(); // movement: setup (movement action cost functions, ruler class), preMoveToken, moveToken, card part (Apply damage); requests "fall" and "fallApply" (the card's Apply damage, GMs only), recovery of interrupted falls; region behaviour aventure.fall; HUD buttons "jumps", "fall"
  registerBreathHooks(); // suffocation: request "breath", recovery of interrupted drops; updateWorldTime, updateScene, updateToken, deleteToken, renderCombatTracker (badges); HUD buttons "hold-breath", "breathe-again" and panel
  registerPursuitHooks(); // pursuit: query aventure.pursuit, HUD button "pursuit", card part (Continue)
  registerExplorationHooks(); // exploration: request "exploration" (GMs only), recovery of an interrupted advance, updateWorldTime (turns counted on the active GM; panels re-rendered), getSceneControlButtons (the panel's button), card part (Open the Encounter dialog), settings' onChange
  registerPolarisHooks(); // polaris: HUD button "polaris-test"; request "polarisIntention" (changing intention), recovery of an interrupted one
}
