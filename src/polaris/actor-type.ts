/**
 * Aventure's own Polaris character type, `aventure.polaris` (module.json documentTypes.Actor.polaris; docs/rules.md
 * §9.3): what its data holds, as plain data shared by the data model (model.ts), the sheet's parser
 * (polaris/polaris-sheet-context.ts) and the templates of the compendium. No Foundry globals.
 */
import { MODULE_ID } from "../core/constants.js";
import { RULES_LIMITS } from "../rules/limits.js";

/** The sub-type as module.json declares it, and as Foundry names it (the module's id, a dot, the sub-type). */
export const POLARIS_SUBTYPE = "polaris";
export const POLARIS_ACTOR_TYPE = `${MODULE_ID}.${POLARIS_SUBTYPE}`;
/** The type's label key (Foundry reads it itself from TYPES.Actor.<type>, e.g. in the Create Actor dialog). */
export const POLARIS_ACTOR_LABEL = "TYPES.Actor.aventure.polaris";

/**
 * The eight attributes of a Polaris character, in the order of the rulebook's sheet (seed 003: FOR CON COO ADA PER INT
 * VOL PRE).
 */
export const POLARIS_ATTRIBUTES = ["for", "con", "coo", "ada", "per", "int", "vol", "pre"] as const;
export type PolarisAttribute = (typeof POLARIS_ATTRIBUTES)[number];

/**
 * The single values of the sheet: the secondary attributes Chance and Réaction, and the initiative score (docs/rules.md
 * §9.2).
 */
export const POLARIS_SCORES = ["chance", "reaction", "initiative"] as const;
export type PolarisScore = (typeof POLARIS_SCORES)[number];

/** The largest level, mastery or score the type holds: the rules' own bound (docs/rules.md §9.1). */
export const POLARIS_MAX = RULES_LIMITS.maxInitiative;
/** At most this many skills on one character (the Polaris test dialog lists them). */
export const POLARIS_MAX_SKILLS = 100;
/** A skill's name: at most this many characters. */
export const POLARIS_LABEL_MAX = 80;
/** A skill's key: what a keyed path accepts (actors/read.ts). */
export const POLARIS_SKILL_KEY = /^[\p{L}\p{N}_-]{1,64}$/u;

/**
 * The bounds of each kind of number. A level (of a skill or an attribute) and the scores are whole numbers from 0; a
 * skill's mastery may be negative (the rules take a mastery from −100). Empty = not typed yet (null).
 */
export const POLARIS_BOUNDS = {
  level: { min: 0, max: POLARIS_MAX },
  mastery: { min: -POLARIS_MAX, max: POLARIS_MAX },
} as const;

export interface PolarisSkillData {
  label: string;
  attribute: PolarisAttribute | null;
  level: number | null;
  mastery: number | null;
}

export interface PolarisActorSystem {
  attributes: Record<PolarisAttribute, { value: number | null }>;
  chance: number | null;
  reaction: number | null;
  initiative: number | null;
  skills: Record<string, PolarisSkillData>;
}

/** Whether `actor` is of Aventure's Polaris type. */
export function isPolarisActor(actor: unknown): boolean {
  return !!actor && typeof actor === "object" && (actor as { type?: unknown }).type === POLARIS_ACTOR_TYPE;
}
