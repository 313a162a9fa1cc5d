/**
 * The first-run window ("Which game do you play here?"): the five games and "another game", each with what Aventure
 * does for it (docs/rules.md §0) and the Foundry system it expects, the running system's matches marked: the
 * template's context (pure: tested and screenshotted without Foundry; the games' data is in welcome/welcome.ts).
 */
import type { RulesetId } from "../rules/rulesets.js";
import { choiceMatches, GAME_CHOICES, GAME_SYSTEMS, type GameChoice } from "./welcome.js";

export { choiceMatches, GAME_CHOICES, GAME_SYSTEMS, type GameChoice };

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
  const title =
    input.systemTitle && input.systemTitle !== input.systemId
      ? `${input.systemTitle} (${input.systemId})`
      : input.systemId;
  return {
    system: localize("AVENTURE.Welcome.running", { system: title }),
    choices,
    anyMatch: choices.some((c) => c.matches),
  };
}
