/**
 * Every hook Aventure registers, in one place. Each line delegates to the feature that owns it; the
 * handlers stay thin (read Foundry state, call the rules, write documents).
 */
import { onRulesetChange } from "./windows.js";
import { onSettingChange } from "./settings.js";

export function registerHooks(): void {
  onSettingChange("ruleset", onRulesetChange);
  // Feature hooks (one block per feature):
}
