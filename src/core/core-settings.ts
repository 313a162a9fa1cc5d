/**
 * The settings every feature shares (the world's game, distances, the actor data paths, who acts under dnd5e, the
 * borrowed rules), declared as a feature declares its own (core/settings.ts): each with its Foundry field type.
 * No Foundry globals here: the fields are handed in when the settings are registered (src/settings.ts, in `init`).
 */
import { RULESETS, type RulesetId } from "../rules/rulesets.js";
import { FEATURES, featureLenders, type FeatureId } from "../rules/features.js";
import { choiceField, choicesOf, declareSettings } from "./settings.js";

export const DISTANCE_DISPLAYS = ["metres", "grid"] as const;
export type DistanceDisplay = (typeof DISTANCE_DISPLAYS)[number];
/**
 * The rules Aventure and the dnd5e system both automate (dnd5e-owners.ts): a world setting each, who acts.
 */
export const DND5E_OVERLAPS = ["movementCosts", "falls", "suffocation"] as const;
export type Dnd5eOverlap = (typeof DND5E_OVERLAPS)[number];
export const RULE_OWNERS = ["aventure", "dnd5e"] as const;
export type RuleOwner = (typeof RULE_OWNERS)[number];

/** Who acts by default (docs/compat.md gives the reasons). */
export const DND5E_OWNER_DEFAULTS: Readonly<Record<Dnd5eOverlap, RuleOwner>> = Object.freeze({
  movementCosts: "dnd5e",
  falls: "aventure",
  suffocation: "aventure",
});

export type OwnerSettingKey = `dnd5eOwner${Capitalize<Dnd5eOverlap>}`;
export function ownerSettingKey<O extends Dnd5eOverlap>(overlap: O): `dnd5eOwner${Capitalize<O>}` {
  return `dnd5eOwner${overlap[0]!.toUpperCase()}${overlap.slice(1)}` as `dnd5eOwner${Capitalize<O>}`;
}

/**
 * The data paths of the generic actor adapter (the Actor data menu), one per field: empty = not available. `survival`:
 * the Wisdom (Survival) bonus, for the checks of members who navigate, track or forage while travelling. The Polaris
 * skill and attribute paths are keyed: `*` stands for a skill's (or attribute's) key, e.g. system.skills.*.value
 * (read.ts readKeyed).
 */
export const ACTOR_DATA_FIELDS = [
  "strScore",
  "strMod",
  "dexMod",
  "conMod",
  "chaMod",
  "passivePerception",
  "survival",
  "darkvision",
  "blindsight",
  "truesight",
  "sensesUnit",
  "walk",
  "climb",
  "swim",
  "fly",
  "speedUnit",
  "hp",
  "hpMax",
  "exhaustion",
  "polarisInitiative",
  "polarisReaction",
  "polarisSkillLevel",
  "polarisSkillMastery",
  "polarisAttributeLevel",
] as const;
export type ActorDataField = (typeof ACTOR_DATA_FIELDS)[number];
/** The value of the `actorData` setting (its SchemaField below). */
export type ActorDataPaths = Record<ActorDataField, string>;

/** One value per actor-data field. */
function perField<V>(value: (field: ActorDataField) => V): Record<ActorDataField, V> {
  const out = {} as Record<ActorDataField, V>;
  for (const k of ACTOR_DATA_FIELDS) out[k] = value(k);
  return out;
}

export const EMPTY_PATHS: ActorDataPaths = perField(() => "");

/** The default ruleset for a game system id (docs/rules.md: dnd5e → dnd5e, ose → ose, otherwise rnp). */
export function defaultRulesetFor(systemId: string): RulesetId {
  if (systemId === "dnd5e") return "dnd5e";
  if (systemId === "ose") return "ose";
  return "rnp";
}

/** The features a game may borrow from another (docs/rules.md §0): every feature that some game does not have. */
export type BorrowableFeature = Exclude<FeatureId, "lightLevel">;
export const BORROWABLE_FEATURES = FEATURES.filter((f): f is BorrowableFeature => f !== "lightLevel");
/** A borrow setting's value: "none", or the game the feature is borrowed from. */
export type BorrowChoice = "none" | RulesetId;
/** The world setting of each borrowable feature: `borrowFalls`, `borrowJumps`, … */
export type BorrowSettingKey = `borrow${Capitalize<BorrowableFeature>}`;
export function borrowSettingKey<F extends BorrowableFeature>(feature: F): `borrow${Capitalize<F>}` {
  return `borrow${feature[0]!.toUpperCase()}${feature.slice(1)}` as `borrow${Capitalize<F>}`;
}

/** The settings of the world's game, distances and actor data: the first rows of the settings form. */
export const coreSettings = declareSettings(({ fields: f, systemId }) => ({
  ruleset: {
    scope: "world",
    config: true,
    type: choiceField(f, choicesOf(RULESETS, "AVENTURE.Ruleset")),
    default: defaultRulesetFor(systemId),
  },
  distanceDisplay: {
    scope: "world",
    config: true,
    type: choiceField(f, choicesOf(DISTANCE_DISPLAYS, "AVENTURE.Settings.distanceDisplay.choices")),
    default: "metres",
  },
  feetFactor: {
    scope: "world",
    config: true,
    type: new f.NumberField({ required: true, nullable: false, min: 0.25, max: 0.35, step: 0.0001 }),
    default: 0.3,
  },
  // Edited in the Actor data menu (actors/ActorDataMenu.ts); a path missing from a stored value reads as "".
  actorData: {
    scope: "world",
    config: false,
    type: new f.SchemaField(
      perField(() => new f.StringField({ required: true, blank: true, initial: "" })),
      {
        required: true,
        nullable: false,
      },
    ),
    default: { ...EMPTY_PATHS },
  },
}));

/**
 * The last rows of the settings form: who acts where dnd5e automates the same rule (dnd5e-owners.ts: a world setting
 * per overlap, shown in a dnd5e world only), and the borrowed rules (docs/rules.md §0: one world setting per borrowable
 * feature, "none" or a game whose own rule it is — the feature's lenders; a borrowing counts only when the world's
 * game does not have the feature itself).
 */
export const ruleChoiceSettings = declareSettings(({ fields: f, systemId }) => {
  const owner = (o: Dnd5eOverlap) => ({
    scope: "world" as const,
    config: systemId === "dnd5e",
    type: choiceField(f, choicesOf(RULE_OWNERS, "AVENTURE.Owner")),
    default: DND5E_OWNER_DEFAULTS[o],
  });
  const borrow = (feature: BorrowableFeature) => {
    const choices = { none: "AVENTURE.Feature.borrowNone" } as Record<BorrowChoice, string>;
    for (const r of featureLenders(feature)) choices[r] = `AVENTURE.Feature.from.${r}`;
    return {
      scope: "world" as const,
      config: true,
      type: choiceField(f, choices),
      default: "none" as BorrowChoice,
    };
  };
  const borrows = {} as Record<BorrowSettingKey, ReturnType<typeof borrow>>;
  for (const feature of BORROWABLE_FEATURES) borrows[borrowSettingKey(feature)] = borrow(feature);
  return {
    dnd5eOwnerMovementCosts: owner("movementCosts"),
    dnd5eOwnerFalls: owner("falls"),
    dnd5eOwnerSuffocation: owner("suffocation"),
    ...borrows,
  };
});
