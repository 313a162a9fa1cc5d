/**
 * What choosing a game in the first-run window does (apps/WelcomeDialog.ts): the world's ruleset, the actor-data preset
 * of the system the game expects, every borrowed rule back to "none" (docs/rules.md §0: a game's own rules only), and
 * the mark that a game was chosen; then the game's First steps page of the guide. "Another game" changes no rule and
 * opens the settings page. GMs only (world settings).
 */
import { PRESETS } from "./adapters/presets.js";
import { BORROWABLE_FEATURES, borrowSettingKey } from "./settings-schema.js";
import { getSetting, setSetting } from "./settings.js";
import { notify, t, UserError } from "./i18n.js";
import { openGuidePage, type GuidePageKey } from "./guide.js";
import { GAME_PRESETS, isGameChoice, type GameChoice } from "../apps/welcome-context.js";

/** The guide page a choice opens: the game's First steps, or the settings page for another game. */
export function firstStepsPage(choice: GameChoice): GuidePageKey {
  return choice === "other" ? "settings" : `start-${choice}`;
}

/**
 * Sets the world up for `choice` (a GM): ruleset, actor-data preset, borrowed rules, then the mark `welcomeDone` last
 * (a write refused half-way leaves the world without a chosen game, and the window opens again). Throws a UserError
 * for a player or an unknown choice, with nothing written.
 */
export async function chooseGame(choice: unknown): Promise<void> {
  if (!game.user?.isGM) throw new UserError("AVENTURE.Welcome.gmOnly");
  if (!isGameChoice(choice)) throw new UserError("AVENTURE.Welcome.unknown");
  if (choice !== "other") {
    if (getSetting("ruleset") !== choice) await setSetting("ruleset", choice);
    const preset = GAME_PRESETS[choice];
    if (preset) await setSetting("actorData", { ...PRESETS[preset] });
    for (const f of BORROWABLE_FEATURES) {
      const key = borrowSettingKey(f);
      if (getSetting(key) !== "none") await setSetting(key, "none");
    }
  }
  await setSetting("welcomeDone", true);
  notify("info", choice === "other" ? t("AVENTURE.Welcome.doneOther") : t("AVENTURE.Welcome.done", { game: t(`AVENTURE.Ruleset.${choice}`) }));
  await openGuidePage(firstStepsPage(choice));
}
