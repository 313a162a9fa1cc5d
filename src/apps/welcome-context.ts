/**
 * The first-run window ("Which game do you play here?"): the five games and "another game", each with what Aventure
 * does for it (docs/rules.md §0) and the Foundry system it expects, the running system's matches marked. Pure data
 * and the template's context (tested and screenshotted without Foundry).
 */
import { RULESETS, type RulesetId } from "../rules/rulesets.js";
import type { PresetId } from "../foundry/adapters/presets.js";

/** A choice of the window: one of the five games, or another game. */
export type GameChoice = RulesetId | "other";
export const GAME_CHOICES: readonly GameChoice[] = [...RULESETS, "other"];

export function isGameChoice(value: unknown): value is GameChoice {
  return typeof value === "string" && (GAME_CHOICES as readonly string[]).includes(value);
}

/**
 * The Foundry system each game expects: Rôle'n Play and D&D 5e the dnd5e system, Portes, Monstres & Trésors and
 * Old-School Essentials the OSE system (ose); no system exists for Polaris (null: the generic data paths).
 */
export const GAME_SYSTEMS: Readonly<Record<RulesetId, "dnd5e" | "ose" | null>> = Object.freeze({
  rnp: "dnd5e",
  dnd5e: "dnd5e",
  pmt: "ose",
  ose: "ose",
  polaris: null,
});

/** The actor-data preset a game starts with (that of the system it expects); null: the paths stay as they are. */
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
 * Whether a choice fits the running system: the games that expect it; on any other system, Polaris (which has none)
 * and another game (the generic data paths).
 */
export function choiceMatches(choice: GameChoice, systemId: string): boolean {
  const known = knownSystem(systemId);
  if (choice === "other") return known === null;
  return GAME_SYSTEMS[choice] === known;
}

export interface WelcomeChoice {
  id: GameChoice;
  name: string;
  does: string;
  expects: string;
  matches: boolean;
  current: boolean;
}

export interface WelcomeContext extends Record<string, unknown> {
  system: string;
  choices: WelcomeChoice[];
  anyMatch: boolean;
}

/** The template's context for the running system `systemId` (its title `systemTitle`) and the world's ruleset. */
export function welcomeContext(
  input: { systemId: string; systemTitle: string; ruleset: RulesetId | null },
  localize: (key: string, data?: Record<string, string>) => string,
): WelcomeContext {
  const choices = GAME_CHOICES.map((id): WelcomeChoice => {
    const system = id === "other" ? "any" : (GAME_SYSTEMS[id] ?? "none");
    return {
      id,
      name: localize(id === "other" ? "AVENTURE.Welcome.other" : `AVENTURE.Ruleset.${id}`),
      does: localize(`AVENTURE.Welcome.does.${id}`),
      expects: localize(`AVENTURE.Welcome.expects.${system}`),
      matches: choiceMatches(id, input.systemId),
      current: id === input.ruleset,
    };
  });
  const title = input.systemTitle && input.systemTitle !== input.systemId ? `${input.systemTitle} (${input.systemId})` : input.systemId;
  return { system: localize("AVENTURE.Welcome.running", { system: title }), choices, anyMatch: choices.some((c) => c.matches) };
}
