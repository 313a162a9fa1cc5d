/**
 * What a Polaris test reads of an actor through the Actor data menu's keyed paths (core-settings.ts): the levels and
 * masteries of its skills ("Skill level (Polaris)", "Skill mastery (Polaris)", e.g. system.skills.*.value) and the
 * levels of its attributes ("Attribute level (Polaris)"). The Adaptation test of a change of intention reads the
 * skill whose key or label is "adaptation". Nothing is read where the paths are not set: the user types the values.
 * An actor of Aventure's own Polaris type (`aventure.polaris`, actor-type.ts) is always read through the type's paths
 * (presets.ts POLARIS_PATHS), whatever the world's preset and game system.
 */
import { adapterFor } from "../actors/api.js";
import { POLARIS_PATHS } from "../actors/api.js";
import { keyedNumbers, readKeyed, readStats } from "../actors/api.js";
import type { ActorDataPaths } from "../core/core-settings.js";
import type { PolarisAttributeOption, PolarisSkillOption } from "./polaris-context.js";
import { isPolarisActor, POLARIS_ATTRIBUTES } from "./actor-type.js";
import { t } from "../core/i18n.js";

/** The paths `actor` is read through: its type's own for Aventure's Polaris type, else the world's adapter's. */
export function polarisPaths(actor: unknown): ActorDataPaths {
  return isPolarisActor(actor) ? POLARIS_PATHS : adapterFor().paths;
}

/** The actor's initiative score and Réaction (docs/rules.md §9.2), null where unknown. */
export function actorPolarisScores(actor: unknown): { initiative: number | null; reaction: number | null } {
  if (!actor) return { initiative: null, reaction: null };
  // cast: any other actor goes to the running system's adapter, which takes a Foundry Actor
  const s = isPolarisActor(actor) ? readStats(actor, POLARIS_PATHS) : adapterFor().read(actor as never);
  return { initiative: s.polarisInitiative, reaction: s.polarisReaction };
}

/** The skills of `actor` with their level (and mastery where the path is set), in the actor's order. */
export function actorSkills(actor: unknown): PolarisSkillOption[] {
  if (!actor) return [];
  const paths = polarisPaths(actor);
  if (!paths.polarisSkillLevel) return [];
  return keyedNumbers(actor, paths.polarisSkillLevel).map((s) => ({
    key: s.key,
    label: s.label,
    level: s.value,
    mastery: readKeyed(actor, paths.polarisSkillMastery, s.key),
  }));
}

/** The attributes of `actor` with their level, in the actor's order. */
export function actorAttributes(actor: unknown): PolarisAttributeOption[] {
  if (!actor) return [];
  const path = polarisPaths(actor).polarisAttributeLevel;
  if (!path) return [];
  const own = isPolarisActor(actor);
  // The type's attributes carry no label of their own: their names come from the language files.
  const label = (key: string, fallback: string) =>
    own && (POLARIS_ATTRIBUTES as readonly string[]).includes(key)
      ? t(`AVENTURE.PolarisActor.attribute.${key}`)
      : fallback;
  return keyedNumbers(actor, path).map((a) => ({ key: a.key, label: label(a.key, a.label), level: a.value }));
}

/** *Decision:* the Adaptation skill is the one whose key or label reads "adaptation" (any case, accents ignored). */
const ADAPTATION = /^adaptation$/i;
const plain = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").trim();

/** The actor's Adaptation (level and mastery), or nulls when the paths do not give it. */
export function actorAdaptation(actor: unknown): { level: number | null; mastery: number | null } {
  const skill = actorSkills(actor).find((s) => ADAPTATION.test(plain(s.key)) || ADAPTATION.test(plain(s.label)));
  return { level: skill?.level ?? null, mastery: skill?.mastery ?? null };
}
