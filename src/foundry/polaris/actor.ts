/**
 * What a Polaris test reads of an actor through the Actor data menu's keyed paths (settings-schema.ts): the levels and
 * masteries of its skills ("Skill level (Polaris)", "Skill mastery (Polaris)", e.g. system.skills.*.value) and the
 * levels of its attributes ("Attribute level (Polaris)"). The Adaptation test of a change of intention reads the
 * skill whose key or label is "adaptation". Nothing is read where the paths are not set: the user types the values.
 */
import { adapterFor } from "../adapters/adapter.js";
import { keyedNumbers, readKeyed } from "../adapters/read.js";
import type { PolarisAttributeOption, PolarisSkillOption } from "../../apps/polaris-context.js";

/** The skills of `actor` with their level (and mastery where the path is set), in the actor's order. */
export function actorSkills(actor: unknown): PolarisSkillOption[] {
  if (!actor) return [];
  const paths = adapterFor().paths;
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
  const path = adapterFor().paths.polarisAttributeLevel;
  return path ? keyedNumbers(actor, path).map((a) => ({ key: a.key, label: a.label, level: a.value })) : [];
}

/** *Decision:* the Adaptation skill is the one whose key or label reads "adaptation" (any case, accents ignored). */
const ADAPTATION = /^adaptation$/i;
const plain = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").trim();

/** The actor's Adaptation (level and mastery), or nulls when the paths do not give it. */
export function actorAdaptation(actor: unknown): { level: number | null; mastery: number | null } {
  const skill = actorSkills(actor).find((s) => ADAPTATION.test(plain(s.key)) || ADAPTATION.test(plain(s.label)));
  return { level: skill?.level ?? null, mastery: skill?.mastery ?? null };
}
