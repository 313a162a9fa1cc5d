import { show } from "./text.js";
import { RulesError } from "./errors.js";

/** The five rulesets the module knows (docs/rules.md, "The rulesets"). */
export const RULESETS = Object.freeze(["rnp", "dnd5e", "pmt", "ose", "polaris"] as const);
export type RulesetId = (typeof RULESETS)[number];

export function isRuleset(value: unknown): value is RulesetId {
  return (RULESETS as readonly unknown[]).includes(value);
}

/** Returns the ruleset id, or throws AVENTURE.Error.UnknownRuleset. */
export function ruleset(value: unknown): RulesetId {
  if (!isRuleset(value)) throw new RulesError("AVENTURE.Error.UnknownRuleset", { value: show(value) });
  return value;
}
