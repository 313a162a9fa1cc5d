/**
 * Exploration time: the request "exploration" (GMs only), the recovery of an interrupted operation, world time
 * (updateWorldTime: the active GM counts the turns it moved by; every GM's panel re-renders), the scene controls'
 * button (getSceneControlButtons), the card's "Open the Encounter dialog" (a card part) and the panel kept
 * up to date with the settings. Called once from registerHooks() (in init).
 */
import { featureActive } from "../core/features.js";
import { openExploration, refreshExplorationPanel } from "./api.js";
import { openEncounter } from "../encounter/api.js";
import { notify, t } from "../core/i18n.js";
import { registerRecovery } from "../core/operations.js";
import { registerRequest } from "../core/requests.js";
import { onSettingChange } from "../core/settings.js";
import {
  EXPLORATION_REQUEST,
  explorationCardFlag,
  handleExplorationRequest,
  onUpdateWorldTime,
  recoverExploration,
} from "./exploration.js";
import { explorationOptions, OPTION_SETTINGS, type OptionSettingKey } from "./options.js";
import { signed } from "./exploration-context.js";
import { onHook } from "../core/hooks-typed.js";
import { wireButtons, registerCardPart } from "../core/cards.js";
import { EXPLORATION_CARD, registerExplorationCard } from "./card.js";

/** The scene controls' tool (in the token controls). */
export const EXPLORATION_TOOL = "aventureExploration";
const ENCOUNTER_ACTION = "aventure-exploration-encounter";

/**
 * getSceneControlButtons (v13 and v14: the controls are a record keyed by name, each control's tools a record keyed
 * by name; v14 makes `tools` optional): a button in the token controls that opens the Exploration panel, for GMs.
 * https://foundryvtt.com/api/v13/functions/hookEvents.getSceneControlButtons.html (and its v14 page).
 */
export function onGetSceneControlButtons(controls: unknown): void {
  if (!controls || typeof controls !== "object" || Array.isArray(controls) || !("tokens" in controls)) return;
  const tokens = controls.tokens;
  if (!tokens || typeof tokens !== "object") return;
  if (!("tools" in tokens) || !tokens.tools) Object.assign(tokens, { tools: {} });
  const tools: unknown = "tools" in tokens ? tokens.tools : null;
  if (!tools || typeof tools !== "object") return;
  Object.assign(tools, {
    [EXPLORATION_TOOL]: {
      name: EXPLORATION_TOOL,
      // docs/rules.md §0: no wandering monsters named where the game has none (Rôle'n Play's dungeon minutes).
      title: featureActive("wandering") ? "AVENTURE.Exploration.control" : "AVENTURE.Exploration.controlNoWandering",
      icon: "fa-solid fa-dungeon",
      order: Object.keys(tools).length,
      button: true,
      visible: game.user.isGM && featureActive("exploration"), // docs/rules.md §0
      onChange: () => void openExploration(),
    },
  });
}

/**
 * Card part (the renderChatMessageHTML listener of cards.ts): "Open the Encounter dialog" on an exploration card a GM
 * wrote that found wandering monsters,
 * for GMs (the encounter dialog prefilled for the dungeon). Removed from any other message and for players.
 */
export function onRenderExplorationCard(message: ChatMessage, html: HTMLElement): void {
  const usable = !!explorationCardFlag(message)?.encounter && game.user.isGM;
  wireButtons(html, ENCOUNTER_ACTION, { allowed: () => usable, run: () => openEncounter({ where: "dungeon" }) });
}

/** A GM is told when an exploration setting holds a value the rules refuse (its default is used). */
function warnBadSetting(key: OptionSettingKey): void {
  if (!game.user.isGM) return;
  const bad = explorationOptions().bad.find((b) => b.setting === key);
  if (bad)
    notify(
      "warn",
      t("AVENTURE.Exploration.badSetting", {
        setting: t(`AVENTURE.Settings.${key}.name`),
        error: bad.error,
        value: signed(bad.fallback),
      }),
    );
}

export function registerExplorationHooks(): void {
  registerRequest({ name: EXPLORATION_REQUEST, gmOnly: true, handle: (data) => handleExplorationRequest(data) });
  registerRecovery("exploration", recoverExploration);
  onHook("updateWorldTime", () => {
    refreshExplorationPanel();
    return onUpdateWorldTime();
  });
  onHook("getSceneControlButtons", onGetSceneControlButtons);
  registerExplorationCard();
  registerCardPart({
    kind: "exploration",
    type: EXPLORATION_CARD.kind,
    selector: `[data-action="${ENCOUNTER_ACTION}"]`,
    render: onRenderExplorationCard,
  });
  onSettingChange("explorationState", refreshExplorationPanel);
  onSettingChange("ruleset", refreshExplorationPanel);
  for (const [, key] of OPTION_SETTINGS) {
    onSettingChange(key, () => {
      refreshExplorationPanel();
      warnBadSetting(key);
    });
  }
}
