/**
 * What choosing a game in the first-run window does (welcome/WelcomeDialog.ts): the world's ruleset, the actor-data
 * preset
 * of the system the game expects, every borrowed rule back to "none" (docs/rules.md §0: a game's own rules only), and
 * the mark that a game was chosen; then the game's First steps page of the guide. "Another game" changes no rule and
 * opens the settings page. GMs only (world settings).
 */
import { PRESETS, type PresetId } from "../actors/api.js";
import { BORROWABLE_FEATURES, borrowSettingKey } from "../core/core-settings.js";
import { getSetting, setSetting } from "../core/settings.js";
import { notify, t, UserError } from "../core/i18n.js";
import { openGuidePage, type GuidePageKey } from "../core/guide.js";
import { RULESETS, type RulesetId } from "../rules/rulesets.js";

/** A choice of the window: one of the five games, or another game. */
export type GameChoice = RulesetId | "other";
export const GAME_CHOICES: readonly GameChoice[] = [...RULESETS, "other"];

export function isGameChoice(value: unknown): value is GameChoice {
  return typeof value === "string" && (GAME_CHOICES as readonly string[]).includes(value);
}

/**
 * The Foundry system each game expects: Rôle'n Play and D&D 5e the dnd5e system, Portes, Monstres & Trésors and
 * Old-School Essentials the OSE system (ose); no system exists for Polaris (null: any system, its characters being
 * Aventure's own actor type, polaris/model.ts).
 */
export const GAME_SYSTEMS: Readonly<Record<RulesetId, "dnd5e" | "ose" | null>> = Object.freeze({
  rnp: "dnd5e",
  dnd5e: "dnd5e",
  pmt: "ose",
  ose: "ose",
  polaris: null,
});

/**
 * The actor-data preset a game starts with (that of the system it expects); null: the paths stay as they are. Polaris
 * keeps them: an actor of Aventure's Polaris type is read through its own paths whatever the preset (polaris/actor.ts),
 * and the world's paths still serve the actors of the running system.
 */
export const GAME_PRESETS: Readonly<Record<RulesetId, PresetId | null>> = Object.freeze({
  rnp: "dnd5e",
  dnd5e: "dnd5e",
  pmt: "ose",
  ose: "ose",
  polaris: null,
});

/** The system a running system id stands for ("ose-dev" is the OSE system's development build, read as ose). */
function knownSystem(systemId: string): "dnd5e" | "ose" | null {
  if (systemId === "dnd5e") return "dnd5e";
  if (systemId === "ose" || systemId === "ose-dev") return "ose";
  return null;
}

/**
 * Whether a choice fits the running system: the games that expect it; Polaris on every system (it needs none: its
 * characters are Aventure's own actor type); another game on any system Aventure has no adapter for.
 */
export function choiceMatches(choice: GameChoice, systemId: string): boolean {
  if (choice === "polaris") return true;
  const known = knownSystem(systemId);
  if (choice === "other") return known === null;
  return GAME_SYSTEMS[choice] === known;
}

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
  notify(
    "info",
    choice === "other"
      ? t("AVENTURE.Welcome.doneOther")
      : t("AVENTURE.Welcome.done", { game: t(`AVENTURE.Ruleset.${choice}`) }),
  );
  await openGuidePage(firstStepsPage(choice));
}
