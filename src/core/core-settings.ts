/**
 * The declared settings of the module, as data. Every key used anywhere goes through this table; the
 * test fake refuses any other key. Each feature adds its entries here.
 * This file has no Foundry globals: the registration is in settings.ts.
 */
import { RULESETS, type RulesetId } from "../rules/rulesets.js";
import { SIDE_TIES, type SideTies } from "../rules/encounter.js";
import { EXPLORATION_DEFAULTS } from "../rules/exploration.js";
import { EMPTY_RECORD, type ExplorationRecord } from "../exploration/record.js";
import { FEATURES, featureLenders, type FeatureId } from "../rules/features.js";

export type SettingScope = "world" | "client" | "user";

interface BaseSetting<T> {
  scope: SettingScope;
  /** Shown in the module settings form. */
  config: boolean;
  default: T;
  requiresReload?: boolean;
}
export interface StringSetting<T extends string = string> extends BaseSetting<T> {
  type: "string";
  choices?: Readonly<Record<T, string>>;
}
export interface NumberSetting extends BaseSetting<number> {
  type: "number";
  range?: { min: number; max: number; step: number };
}
export interface BooleanSetting extends BaseSetting<boolean> {
  type: "boolean";
}
export interface ObjectSetting<T extends object> extends BaseSetting<T> {
  type: "object";
}

export const DISTANCE_DISPLAYS = ["metres", "grid"] as const;
export type DistanceDisplay = (typeof DISTANCE_DISPLAYS)[number];
/** Falls on an elevation drop of 3 m or more. */
export const FALL_ON_DROP = ["off", "ask", "automatic"] as const;
export type FallOnDrop = (typeof FALL_ON_DROP)[number];
/** Ambient detection: what happens when an observer's passive Perception notices a hidden creature. */
export const DETECTION_MODES = ["prompt", "auto", "off"] as const;
export type DetectionMode = (typeof DETECTION_MODES)[number];
/** Which tokens may notice a hidden creature besides those it hid from: friendly ↔ hostile only, or any other disposition. */
export const DETECTION_OBSERVERS = ["hostile", "all"] as const;
export type DetectionObservers = (typeof DETECTION_OBSERVERS)[number];

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

/** Data paths for the generic actor adapter (see the Actor data menu). Empty string = not available. */
export interface ActorDataPaths {
  strScore: string;
  strMod: string;
  dexMod: string;
  conMod: string;
  chaMod: string;
  passivePerception: string;
  /** The Wisdom (Survival) bonus, for the checks of members who navigate, track or forage while travelling. */
  survival: string;
  darkvision: string;
  blindsight: string;
  truesight: string;
  sensesUnit: string;
  walk: string;
  climb: string;
  swim: string;
  fly: string;
  speedUnit: string;
  hp: string;
  hpMax: string;
  exhaustion: string;
  polarisInitiative: string;
  polarisReaction: string;
  /** Keyed paths: `*` stands for a skill's (or attribute's) key, e.g. system.skills.*.value (read.ts readKeyed). */
  polarisSkillLevel: string;
  polarisSkillMastery: string;
  polarisAttributeLevel: string;
}
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
] as const satisfies readonly (keyof ActorDataPaths)[];

export const EMPTY_PATHS: ActorDataPaths = Object.fromEntries(ACTOR_DATA_FIELDS.map((k) => [k, ""])) as Record<
  keyof ActorDataPaths,
  string
>;

function choices<T extends string>(values: readonly T[], prefix: string): Record<T, string> {
  return Object.fromEntries(values.map((v) => [v, `${prefix}.${v}`])) as Record<T, string>;
}

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

/** One world setting per dnd5e overlap, "aventure" or "dnd5e", in the settings form of a dnd5e world only. */
function ownerSettings(systemId: string): {
  [K in Dnd5eOverlap as `dnd5eOwner${Capitalize<K>}`]: StringSetting<RuleOwner>;
} {
  const out = {} as Record<string, StringSetting<RuleOwner>>;
  for (const o of DND5E_OVERLAPS) {
    out[ownerSettingKey(o)] = {
      type: "string",
      scope: "world",
      config: systemId === "dnd5e",
      default: DND5E_OWNER_DEFAULTS[o],
      choices: choices(RULE_OWNERS, "AVENTURE.Owner"),
    };
  }
  return out as { [K in Dnd5eOverlap as `dnd5eOwner${Capitalize<K>}`]: StringSetting<RuleOwner> };
}

/**
 * docs/rules.md §0: one world setting per borrowable feature, "none" or a game whose own rule it is (the choices are
 * the feature's lenders). A borrowing counts only when the world's game does not have the feature itself.
 */
function borrowSettings(): Record<BorrowSettingKey, StringSetting<BorrowChoice>> {
  const out = {} as Record<BorrowSettingKey, StringSetting<BorrowChoice>>;
  for (const f of BORROWABLE_FEATURES) {
    const choices = { none: "AVENTURE.Feature.borrowNone" } as Record<BorrowChoice, string>;
    for (const r of featureLenders(f)) choices[r] = `AVENTURE.Feature.from.${r}`;
    out[borrowSettingKey(f)] = { type: "string", scope: "world", config: true, default: "none", choices };
  }
  return out;
}

/** Builds the settings table; the ruleset default depends on the game system. */
export function settingsSchema(systemId: string) {
  return {
    ruleset: {
      type: "string",
      scope: "world",
      config: true,
      default: defaultRulesetFor(systemId),
      choices: choices(RULESETS, "AVENTURE.Ruleset"),
    } satisfies StringSetting<RulesetId>,
    distanceDisplay: {
      type: "string",
      scope: "world",
      config: true,
      default: "metres" as DistanceDisplay,
      choices: choices(DISTANCE_DISPLAYS, "AVENTURE.Settings.distanceDisplay.choices"),
    } satisfies StringSetting<DistanceDisplay>,
    feetFactor: {
      type: "number",
      scope: "world",
      config: true,
      default: 0.3,
      range: { min: 0.25, max: 0.35, step: 0.0001 },
    } satisfies NumberSetting,
    actorData: {
      type: "object",
      scope: "world",
      config: false,
      default: { ...EMPTY_PATHS },
    } satisfies ObjectSetting<ActorDataPaths>,
    // Feature settings (one block per feature; keep the key names stable):
    // Movement costs, jumps and falls
    movementCosts: { type: "boolean", scope: "world", config: true, default: true } satisfies BooleanSetting,
    movementRefuse: { type: "boolean", scope: "world", config: true, default: false } satisfies BooleanSetting,
    jumpWarning: { type: "boolean", scope: "world", config: true, default: true } satisfies BooleanSetting,
    // docs/rules.md §3.1: remind Strength (Athletics) at the GM's call when a path climbs or swims.
    athleticsReminder: { type: "boolean", scope: "world", config: true, default: true } satisfies BooleanSetting,
    fallRegions: { type: "boolean", scope: "world", config: true, default: true } satisfies BooleanSetting,
    fallOnDrop: {
      type: "string",
      scope: "world",
      config: true,
      default: "ask" as FallOnDrop,
      choices: choices(FALL_ON_DROP, "AVENTURE.Settings.fallOnDrop.choices"),
    } satisfies StringSetting<FallOnDrop>,
    // Light and hiding
    lightEffects: { type: "boolean", scope: "world", config: true, default: false } satisfies BooleanSetting,
    lightIcons: { type: "boolean", scope: "client", config: true, default: true } satisfies BooleanSetting,
    lightThresholdBright: {
      type: "number",
      scope: "world",
      config: true,
      default: 0.25,
      range: { min: 0, max: 1, step: 0.05 },
    } satisfies NumberSetting,
    lightThresholdDim: {
      type: "number",
      scope: "world",
      config: true,
      default: 0.75,
      range: { min: 0, max: 1, step: 0.05 },
    } satisfies NumberSetting,
    // Ambient detection
    detectionMode: {
      type: "string",
      scope: "world",
      config: true,
      default: "prompt" as DetectionMode,
      choices: choices(DETECTION_MODES, "AVENTURE.Settings.detectionMode.choices"),
    } satisfies StringSetting<DetectionMode>,
    detectionObservers: {
      type: "string",
      scope: "world",
      config: true,
      default: "hostile" as DetectionObservers,
      choices: choices(DETECTION_OBSERVERS, "AVENTURE.Settings.detectionObservers.choices"),
    } satisfies StringSetting<DetectionObservers>,
    // The 0.1.0 searching marks and hide flags on tokens were listed for the GMs and removed (light/searching.ts), once per world.
    searchingMarksMigrated: { type: "boolean", scope: "world", config: false, default: false } satisfies BooleanSetting,
    // Travel
    travelHoursPerDay: {
      type: "number",
      scope: "world",
      config: true,
      default: 8,
      range: { min: 1, max: 24, step: 0.5 },
    } satisfies NumberSetting,
    travelTrackFood: { type: "boolean", scope: "world", config: true, default: true } satisfies BooleanSetting,
    travelAdvanceTime: { type: "boolean", scope: "world", config: true, default: true } satisfies BooleanSetting,
    // Players propose, GMs dispose: off, a player's journey is a proposal for the GMs.
    travelPlayersApply: { type: "boolean", scope: "world", config: true, default: false } satisfies BooleanSetting,
    // pmt borrowing Old-School Essentials' journeys (docs/rules.md §12): its own d100 getting-lost roll (§2.7) instead of the terrain's chance.
    travelPmtLostRoll: { type: "boolean", scope: "world", config: true, default: false } satisfies BooleanSetting,
    // Journeys along a route: a scene unit of the GM's own and the metres it stands for (0: none).
    travelCustomUnit: { type: "string", scope: "world", config: true, default: "" } satisfies StringSetting,
    travelCustomUnitMetres: { type: "number", scope: "world", config: true, default: 0 } satisfies NumberSetting,
    // Pursuit: each further day of an outdoor chase advances world time by one day.
    pursuitAdvanceTime: { type: "boolean", scope: "world", config: true, default: true } satisfies BooleanSetting,
    // Encounters, side initiative and Polaris phases
    sideInitiative: { type: "boolean", scope: "world", config: true, default: false } satisfies BooleanSetting,
    sideTies: {
      type: "string",
      scope: "world",
      config: true,
      default: "simultaneous",
      choices: choices(SIDE_TIES, "AVENTURE.Settings.sideTies.choices"),
    } satisfies StringSetting<SideTies>,
    encounterTurn: { type: "boolean", scope: "world", config: true, default: true } satisfies BooleanSetting,
    // The 0.1.x combatant sides were moved to their combats (combat/side-ops.ts migrateCombatSides), once per world.
    combatSidesMigrated: { type: "boolean", scope: "world", config: false, default: false } satisfies BooleanSetting,
    // Exploration time: every default of the rules is a world setting (checked by the rules when used:
    // a bad value is reported and the default used); the exploration itself is a record only GMs write.
    explorationTurnSeconds: {
      type: "number",
      scope: "world",
      config: true,
      default: EXPLORATION_DEFAULTS.turnSeconds,
    } satisfies NumberSetting,
    explorationWanderingEvery: {
      type: "number",
      scope: "world",
      config: true,
      default: EXPLORATION_DEFAULTS.wanderingEvery,
    } satisfies NumberSetting,
    explorationWanderingDie: {
      type: "number",
      scope: "world",
      config: true,
      default: EXPLORATION_DEFAULTS.wanderingDie,
    } satisfies NumberSetting,
    explorationWanderingChance: {
      type: "number",
      scope: "world",
      config: true,
      default: EXPLORATION_DEFAULTS.wanderingChance,
    } satisfies NumberSetting,
    explorationRestEvery: {
      type: "number",
      scope: "world",
      config: true,
      default: EXPLORATION_DEFAULTS.restEvery,
    } satisfies NumberSetting,
    explorationRestPenalty: {
      type: "number",
      scope: "world",
      config: true,
      default: EXPLORATION_DEFAULTS.restPenalty,
    } satisfies NumberSetting,
    explorationTorchTurns: {
      type: "number",
      scope: "world",
      config: true,
      default: EXPLORATION_DEFAULTS.torchTurns,
    } satisfies NumberSetting,
    explorationLanternTurns: {
      type: "number",
      scope: "world",
      config: true,
      default: EXPLORATION_DEFAULTS.lanternTurns,
    } satisfies NumberSetting,
    explorationState: {
      type: "object",
      scope: "world",
      config: false,
      default: EMPTY_RECORD,
    } satisfies ObjectSetting<ExplorationRecord>,
    // The first-run window ("Which game do you play here?"): set once a GM chose the world's game (welcome/WelcomeDialog.ts).
    welcomeDone: { type: "boolean", scope: "world", config: false, default: false } satisfies BooleanSetting,
    // Who acts where dnd5e automates the same rule (dnd5e-owners.ts): shown in a dnd5e world only.
    ...ownerSettings(systemId),
    // Borrowed rules (docs/rules.md §0): a feature the world's game has no rule for, from another game's book.
    ...borrowSettings(),
  } as const;
}

export type SettingsSchema = ReturnType<typeof settingsSchema>;
export type SettingKey = keyof SettingsSchema;
export type SettingValue<K extends SettingKey> = SettingsSchema[K]["default"] extends infer D
  ? D extends string
    ? SettingsSchema[K] extends StringSetting<infer T>
      ? T
      : string
    : D extends number
      ? number
      : D extends boolean
        ? boolean
        : D
  : never;
