/**
 * Built-in data paths for the systems Aventure knows. Sources: docs/research/systems.md.
 * Alternatives ("a|b") cover several versions of a system's data model.
 */
import { EMPTY_PATHS, type ActorDataPaths } from "../core/core-settings.js";

export const DND5E_PATHS: ActorDataPaths = {
  ...EMPTY_PATHS,
  strScore: "system.abilities.str.value",
  strMod: "system.abilities.str.mod",
  dexMod: "system.abilities.dex.mod",
  conMod: "system.abilities.con.mod",
  chaMod: "system.abilities.cha.mod",
  passivePerception: "system.skills.prc.passive",
  survival: "system.skills.sur.total",
  darkvision: "system.attributes.senses.ranges.darkvision|system.attributes.senses.darkvision",
  blindsight: "system.attributes.senses.ranges.blindsight|system.attributes.senses.blindsight",
  truesight: "system.attributes.senses.ranges.truesight|system.attributes.senses.truesight",
  sensesUnit: "system.attributes.senses.units",
  walk: "system.attributes.movement.speeds.walk|system.attributes.movement.walk",
  climb: "system.attributes.movement.speeds.climb|system.attributes.movement.climb",
  swim: "system.attributes.movement.speeds.swim|system.attributes.movement.swim",
  fly: "system.attributes.movement.speeds.fly|system.attributes.movement.fly",
  speedUnit: "system.attributes.movement.units",
  hp: "system.attributes.hp.value",
  hpMax: "system.attributes.hp.max",
  exhaustion: "system.attributes.exhaustion",
};

export const OSE_PATHS: ActorDataPaths = {
  ...EMPTY_PATHS,
  strScore: "system.scores.str.value",
  strMod: "system.scores.str.mod",
  dexMod: "system.scores.dex.mod",
  conMod: "system.scores.con.mod",
  // OSE: the reaction adjustment of Charisma is scores.cha.npc; the plain modifier otherwise.
  chaMod: "system.scores.cha.npc|system.scores.cha.mod",
  // OSE has no infravision field (text only): set it per actor by hand if needed.
  sensesUnit: "ft",
  // Encounter movement per round (base / 3); OseAdapter computes it from base when absent.
  walk: "system.movement.encounter",
  speedUnit: "ft",
  hp: "system.hp.value",
  hpMax: "system.hp.max",
};

/**
 * Aventure's own Polaris character type (`aventure.polaris`, polaris/model.ts; docs/rules.md §9): its initiative score,
 * Réaction, skills (level and mastery, keyed by the skill's key) and attributes (level). An actor of that type is
 * always
 * read through these paths, whatever the world's preset (polaris/actor.ts); the preset serves the generic adapter.
 */
export const POLARIS_PATHS: ActorDataPaths = {
  ...EMPTY_PATHS,
  polarisInitiative: "system.initiative",
  polarisReaction: "system.reaction",
  polarisSkillLevel: "system.skills.*.level",
  polarisSkillMastery: "system.skills.*.mastery",
  polarisAttributeLevel: "system.attributes.*.value",
};

export const PRESETS = { dnd5e: DND5E_PATHS, ose: OSE_PATHS, polaris: POLARIS_PATHS } as const;
export type PresetId = keyof typeof PRESETS;
