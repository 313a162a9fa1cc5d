/**
 * One owner for each rule that Aventure and the dnd5e system (5.x, 6.x) both automate (docs/compat.md, "Who acts under
 * dnd5e"): a world setting per overlap, "Aventure" or "dnd5e", shown in the module settings only in a dnd5e world and
 * effective only when the running dnd5e has its own piece of that rule (feature detection, below). Everywhere else
 * Aventure acts as before. Never both: where dnd5e owns a rule, Aventure's automation of it stays out.
 *
 * - `movementCosts`: the cost functions of the movement actions (docs/rules.md §3.1). dnd5e 5.1+ has its own (crawling
 *   +1, climbing and swimming +1 without a speed, its Difficult Terrain region behaviour, occupied spaces) unless its
 *   own "Movement automation" setting is "none". Default dnd5e: the same 5e rule, with the creature's traits it knows.
 * - `falls`: docs/rules.md §4.1. dnd5e has a "Falling" condition (a marker, `pseudo`) and no fall damage: by default
 *   Aventure deals the damage and prone (once, through dnd5e's applyDamage and its Prone condition); dnd5e's Falling
 *   marker is the GM's (set by hand, never touched). Handed to dnd5e, Aventure's falls (drop, region, HUD) stay out.
 * - `suffocation`: docs/rules.md §4.2. dnd5e has a "Suffocation" condition (a marker) and no count: by default
 *   Aventure counts the held breath and drops the creature with dnd5e's Unconscious condition, adding no status of
 *   its own. Handed to dnd5e, no new held breath starts and none drops (one already held may still end).
 */
import { getSetting } from "./settings.js";
import { DND5E_OVERLAPS, ownerSettingKey, type Dnd5eOverlap, type RuleOwner } from "./core-settings.js";

export {
  DND5E_OVERLAPS,
  DND5E_OWNER_DEFAULTS,
  RULE_OWNERS,
  ownerSettingKey,
  type Dnd5eOverlap,
  type RuleOwner,
} from "./core-settings.js";

/** A dnd5e world setting, or undefined when dnd5e did not register it (an older version). */
function dnd5eSetting(key: string): unknown {
  try {
    return (game.settings.get as (ns: string, key: string) => unknown)("dnd5e", key);
  } catch {
    return undefined;
  }
}

interface Dnd5eConfig {
  conditionTypes?: Record<string, unknown>;
}
function dnd5eConfig(): Dnd5eConfig | null {
  const c: unknown = Reflect.get(CONFIG, "DND5E");
  return typeof c === "object" && c !== null ? (c as Dnd5eConfig) : null;
}

/**
 * Whether the running dnd5e has its own piece of `overlap` (false in any other system). Sources (dnd5e 5.3.3):
 * movement: `module/data/region-behavior/difficult-terrain.mjs` registered as `dnd5e.difficultTerrain` (5.1+), the
 * setting `movementAutomation` (`module/settings.mjs`, 5.2+; "none" turns dnd5e's costs off); falls and suffocation:
 * `module/config.mjs` conditionTypes `falling`, `suffocation`.
 */
export function dnd5eHas(overlap: Dnd5eOverlap): boolean {
  if (game.system.id !== "dnd5e") return false;
  const config = dnd5eConfig();
  switch (overlap) {
    case "movementCosts": {
      const models: unknown = Reflect.get(CONFIG.RegionBehavior, "dataModels");
      const has = typeof models === "object" && models !== null && "dnd5e.difficultTerrain" in models;
      return has && dnd5eSetting("movementAutomation") !== "none";
    }
    case "falls":
      return !!config?.conditionTypes && "falling" in config.conditionTypes;
    case "suffocation":
      return !!config?.conditionTypes && "suffocation" in config.conditionTypes;
  }
}

/**
 * Whether dnd5e's own Surprised condition gives disadvantage on initiative: the 2024 ("modern") rules, dnd5e 5.x
 * `module/config.mjs` conditionEffects.initiativeDisadvantage holds "surprised"; `module/settings.mjs`
 * applyLegacyRules takes it out under the 2014 rules. Aventure's surprise (a rule borrowed from Portes, Monstres &
 * Trésors or Old-School Essentials, docs/rules.md §7.2) already takes the surprised side's first round: it then marks
 * them with its own marker, never with dnd5e's, so that the two never both act (docs/compat.md).
 */
export function dnd5eSurprisedHasEffect(): boolean {
  if (game.system.id !== "dnd5e") return false;
  const effects: unknown = Reflect.get(dnd5eConfig() ?? {}, "conditionEffects");
  const set: unknown =
    typeof effects === "object" && effects !== null ? Reflect.get(effects, "initiativeDisadvantage") : undefined;
  return set instanceof Set && set.has("surprised");
}

/** Who acts for `overlap` in this world: the setting where dnd5e has the rule, else Aventure. */
export function ruleOwner(overlap: Dnd5eOverlap): RuleOwner {
  if (!dnd5eHas(overlap)) return "aventure";
  const v: unknown = getSetting(ownerSettingKey(overlap));
  return v === "dnd5e" ? "dnd5e" : "aventure";
}

/** Whether Aventure acts for `overlap` (not handed to dnd5e). */
export function aventureActs(overlap: Dnd5eOverlap): boolean {
  return ruleOwner(overlap) === "aventure";
}

/** The owner of each overlap and whether the running dnd5e has it (api.dnd5eOwners()). */
export function dnd5eOwners(): Record<Dnd5eOverlap, { owner: RuleOwner; dnd5eHas: boolean }> {
  return Object.fromEntries(DND5E_OVERLAPS.map((o) => [o, { owner: ruleOwner(o), dnd5eHas: dnd5eHas(o) }])) as Record<
    Dnd5eOverlap,
    { owner: RuleOwner; dnd5eHas: boolean }
  >;
}
