/**
 * Game system profiles for the fake world: what core sets in CONFIG before any module runs, and what a system
 * adds or changes, registered BEFORE the module's handlers (the system's code runs first: NOTES.md "Lifecycle order
 * with a system").
 *
 * Sources:
 * - Core v13 status effects and special statuses: https://foundryvtt.com/api/v13/variables/CONFIG.statusEffects.html,
 *   CONFIG.specialStatusEffects (ids as listed in the v13 core CONFIG; names are core lang keys, unmodelled here).
 * - Core movement actions (walk, fly, swim, burrow, crawl, climb, jump, blink, displace; crawl, climb and jump cost ×2,
 *   multiplied by the terrain): NOTES.md "Movement (new in v13)", CONFIG.Token.movement.actions (v13 API).
 * - dnd5e 5.3.3 (github.com/foundryvtt/dnd5e, tag release-5.3.3):
 *   dnd5e.mjs `Hooks.once("i18nInit")` → `_configureStatusEffects()` REBUILDS CONFIG.statusEffects from
 *   CONFIG.DND5E.statusEffects, conditionTypes and encumbrance effects (each with `_id = staticID("dnd5e" + id)`),
 *   dropping what modules pushed during init; `Hooks.on("renderCombatTracker", (app, html) => app.renderGroups(html))`
 *   (module/applications/combat/combat-tracker.mjs) groups rows (combat.ts models it);
 *   module/documents/actor/actor.mjs: rollSkill / rollSavingThrow (config, dialog, message) → D20Roll[] | null,
 *   applyDamage(damages, options) takes temporary hit points first, toggleStatusEffect calls super.
 */
import { clone, type Plain } from "./data.js";
import type { FakeActor } from "./documents.js";
import type { FakeClient, FakeWorld, StatusEffectEntry, SystemProfile } from "./world.js";
import { FakeRoll } from "./statics.js";
import { FakeTokenRuler } from "./canvas.js";
import { installCombat, installDnd5eInitiative } from "./combat.js";

export const CORE_STATUS_IDS = [
  "dead",
  "unconscious",
  "sleep",
  "stun",
  "prone",
  "restrain",
  "paralysis",
  "fly",
  "blind",
  "deaf",
  "silence",
  "fear",
  "burning",
  "frozen",
  "shock",
  "corrode",
  "bleeding",
  "disease",
  "poison",
  "curse",
  "regen",
  "degen",
  "hover",
  "burrow",
  "upgrade",
  "downgrade",
  "invisible",
  "target",
  "eye",
  "bless",
  "fireShield",
  "coldShield",
  "magicShield",
  "holyShield",
];

/**
 * dnd5e 5.3.3 module/config.mjs `DND5E.conditionTypes`: the ids, and which are `pseudo` (markers that the system does
 * not automate: falling, suffocation, dehydration, malnutrition, surprised… carry no mechanics of their own).
 */
const DND5E_CONDITION_IDS = [
  "bleeding",
  "blinded",
  "burning",
  "charmed",
  "cursed",
  "dehydration",
  "deafened",
  "diseased",
  "exhaustion",
  "falling",
  "frightened",
  "grappled",
  "incapacitated",
  "invisible",
  "malnutrition",
  "paralyzed",
  "petrified",
  "poisoned",
  "prone",
  "restrained",
  "silenced",
  "stunned",
  "suffocation",
  "surprised",
  "transformed",
  "unconscious",
];

/** dnd5e 5.3.3 module/config.mjs: DND5E.statusEffects, then DND5E.conditionTypes, then encumbrance effects. */
export const DND5E_STATUS_IDS = [
  "burrowing",
  "concentrating",
  "coverHalf",
  "coverThreeQuarters",
  "coverTotal",
  "dead",
  "dodging",
  "ethereal",
  "flying",
  "hiding",
  "hovering",
  "marked",
  "sleeping",
  "stable",
  ...DND5E_CONDITION_IDS,
  "encumbered",
  "heavilyEncumbered",
  "exceedingCarryingCapacity",
];

/** dnd5e utils.mjs staticID: the id padded with zeros to 16 characters. */
export const staticID = (id: string): string => (id.length >= 16 ? id.slice(0, 16) : id.padEnd(16, "0"));

type CostFunction = (baseCost: number, from: unknown, to: unknown, distance: number, segment: unknown) => number;
export interface MovementActionConfig {
  label: string;
  teleport?: boolean;
  getCostFunction: (token: unknown, options?: unknown) => CostFunction;
}

/** Core's v13 movement actions as NOTES.md describes them (crawl, climb and jump ×2, teleports free). */
export function coreMovementActions(): Record<string, MovementActionConfig> {
  const times = (k: number) => () => (baseCost: number) => baseCost * k;
  return {
    walk: { label: "TOKEN.MOVEMENT.ACTIONS.walk.label", getCostFunction: times(1) },
    fly: { label: "TOKEN.MOVEMENT.ACTIONS.fly.label", getCostFunction: times(1) },
    swim: { label: "TOKEN.MOVEMENT.ACTIONS.swim.label", getCostFunction: times(1) },
    burrow: { label: "TOKEN.MOVEMENT.ACTIONS.burrow.label", getCostFunction: times(1) },
    crawl: { label: "TOKEN.MOVEMENT.ACTIONS.crawl.label", getCostFunction: times(2) },
    climb: { label: "TOKEN.MOVEMENT.ACTIONS.climb.label", getCostFunction: times(2) },
    jump: { label: "TOKEN.MOVEMENT.ACTIONS.jump.label", getCostFunction: times(2) },
    blink: { label: "TOKEN.MOVEMENT.ACTIONS.blink.label", teleport: true, getCostFunction: () => () => 0 },
    displace: { label: "TOKEN.MOVEMENT.ACTIONS.displace.label", teleport: true, getCostFunction: () => () => 0 },
  };
}

function coreConfig(client: FakeClient): void {
  client.CONFIG.statusEffects = CORE_STATUS_IDS.map((id) => ({
    id,
    name: `EFFECT.Status${id[0]!.toUpperCase()}${id.slice(1)}`,
    img: `icons/svg/${id}.svg`,
  }));
  client.CONFIG.specialStatusEffects = {
    DEFEATED: "dead",
    INVISIBLE: "invisible",
    BLIND: "blind",
    BURROW: "burrow",
    HOVER: "hover",
    FLY: "fly",
  };
  client.CONFIG.Token = { movement: { actions: coreMovementActions() }, rulerClass: FakeTokenRuler };
  client.CONFIG.RegionBehavior = { dataModels: {}, typeIcons: {} };
  // CONFIG.Actor (https://foundryvtt.com/api/v13/variables/CONFIG.Actor.html): dataModels, typeIcons; sheetClasses as
  // DocumentSheetConfig.registerSheet fills it (models.ts).
  client.CONFIG.Actor = { dataModels: {}, typeIcons: {}, sheetClasses: {} };
  // CONFIG.ChatMessage (https://foundryvtt.com/api/v13/variables/CONFIG.ChatMessage.html): dataModels of the sub-types.
  client.CONFIG.ChatMessage = { dataModels: {} };
  client.CONFIG.ActiveEffect = { documentClass: { name: "ActiveEffect" } };
  installCombat(client, false);
}

/** Core alone (a system without anything Aventure knows, e.g. a generic "worldbuilding" world). */
export function coreSystem(id = "worldbuilding"): SystemProfile {
  return { id, version: "1.0.0", install: coreConfig };
}

/** dnd5e 5.3.3 as far as Aventure meets it. */
export function dnd5eSystem(version = "5.3.3"): SystemProfile {
  return {
    id: "dnd5e",
    version,
    install(client) {
      coreConfig(client);
      installCombat(client, true);
      // conditionEffects: dnd5e 5.3.3 module/config.mjs (the 2024 rules, dnd5e's default `rulesVersion` "modern";
      // module/settings.mjs applyLegacyRules takes "surprised" out of initiativeDisadvantage under the 2014 rules).
      const conditionEffects = {
        initiativeDisadvantage: new Set(dnd5eAtLeast(version, 4, 0) ? ["incapacitated", "surprised"] : []),
      };
      client.CONFIG.DND5E = {
        statusEffects: {},
        conditionTypes: dnd5eConditionTypes(),
        movementTypes: clone(DND5E_MOVEMENT_TYPES),
        conditionEffects,
      };
      if (dnd5eAtLeast(version, 5, 1)) installDnd5eMovement(client, dnd5eAtLeast(version, 5, 2));
      // dnd5e.mjs (init): CONFIG.time.roundTime = 6.
      client.CONFIG.time = { ...(client.CONFIG.time ?? {}), roundTime: 6 };
      // dnd5e.mjs: the status list is rebuilt in i18nInit (after every module's init handler).
      client.hooks.once("i18nInit", () => {
        const list: StatusEffectEntry[] = DND5E_STATUS_IDS.map((id) => ({
          id,
          _id: staticID(`dnd5e${id}`),
          name: `DND5E.Status.${id}`,
          img: `systems/dnd5e/icons/svg/statuses/${id}.svg`,
        }));
        client.CONFIG.statusEffects = list;
        Object.assign(client.CONFIG.specialStatusEffects as Plain, {
          BLIND: "blinded",
          BURROW: "burrowing",
          CONCENTRATING: "concentrating",
          DEFEATED: "dead",
          FLY: "flying",
          HOVER: "hovering",
        });
      });
      client.hooks.on("renderCombatTracker", (app: unknown, html: unknown) => {
        const a = app as { renderGroups?: (h: unknown) => void };
        a.renderGroups?.(html);
      });
    },
    prepareActor(world, actor) {
      fillDnd5eDefaults(actor);
      installDnd5eMethods(world, actor);
    },
    actorMethods: installDnd5eMethods,
  };
}

const DND5E_PSEUDO = new Set([
  "bleeding",
  "burning",
  "cursed",
  "dehydration",
  "diseased",
  "falling",
  "malnutrition",
  "silenced",
  "suffocation",
  "surprised",
  "transformed",
]);
function dnd5eConditionTypes(): Plain {
  return Object.fromEntries(
    DND5E_CONDITION_IDS.map((id) => [
      id,
      {
        name: `DND5E.Con.${id}`,
        img: `systems/dnd5e/icons/svg/statuses/${id}.svg`,
        ...(DND5E_PSEUDO.has(id) ? { pseudo: true } : {}),
        ...(id === "exhaustion" ? { levels: 6, reduction: { rolls: 2, speed: 5 } } : {}),
      },
    ]),
  );
}

/** dnd5e 5.3.3 module/config.mjs `DND5E.movementTypes`: climbing and swimming fall back on walking (`walkFallback`). */
const DND5E_MOVEMENT_TYPES: Plain = {
  walk: {},
  burrow: {},
  climb: { walkFallback: true },
  fly: { travel: "air" },
  jump: {},
  swim: { travel: "water", walkFallback: true },
};

/** Whether a dnd5e version string is at least major.minor. */
export function dnd5eAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split(".").map(Number);
  return a > major || (a === major && b >= minor);
}

/**
 * dnd5e's movement automation (5.1+), as it runs in its `init` before any module's `setup` (dnd5e 5.3.3; 5.1.0 has the
 * same cost functions and region behaviour, without the setting):
 * - module/settings.mjs registers the world setting `dnd5e.movementAutomation` (5.2+; "full" by default;
 *   "noBlocking", "none"); "none" turns every cost below back to core's.
 * - dnd5e.mjs `Object.assign(CONFIG.RegionBehavior.dataModels, …)` registers `dnd5e.difficultTerrain`
 *   (module/data/region-behavior/difficult-terrain.mjs).
 * - module/documents/token.mjs `registerMovementActions`: every action of `DND5E.movementTypes` gets
 *   `getMovementActionCostFunction`: `cost + distance` for a creature without a speed of that type when the type has
 *   `walkFallback` (climb, swim), else `cost`; crawl is `cost + distance` for a creature; jump is `cost`.
 * The terrain part is `dnd5eTerrainCost` below.
 */
function installDnd5eMovement(client: FakeClient, setting: boolean): void {
  // dnd5e shows it in its own tab of the settings form (`config: true`); the stand-in form (FakeWorld#renderSettingsConfig)
  // is the module's tab, so the fake registers it unshown.
  if (setting)
    client.settingDefs.set("dnd5e.movementAutomation", {
      scope: "world",
      type: String,
      default: "full",
      config: false,
      choices: {
        full: "SETTINGS.DND5E.AUTOMATION.Movement.Full",
        noBlocking: "SETTINGS.DND5E.AUTOMATION.Movement.NoBlocking",
        none: "SETTINGS.DND5E.AUTOMATION.Movement.None",
      },
    });
  (client.CONFIG.RegionBehavior as { dataModels: Plain }).dataModels["dnd5e.difficultTerrain"] =
    class DifficultTerrainRegionBehaviorType {};
  const actions = (client.CONFIG.Token as { movement: { actions: Record<string, MovementActionConfig> } }).movement
    .actions;
  const automation = () => (setting ? client.game.settings.get("dnd5e", "movementAutomation") : "full");
  const movementOf = (token: unknown) =>
    (token as { actor?: { system?: { attributes?: { movement?: Record<string, unknown> } } } } | null)?.actor?.system
      ?.attributes?.movement;
  for (const [type, config] of Object.entries(DND5E_MOVEMENT_TYPES) as [string, { walkFallback?: boolean }][]) {
    const action = actions[type];
    if (!action) continue;
    action.getCostFunction = (token) => {
      const movement = movementOf(token);
      const speed = movement?.[type];
      return automation() === "none" || movement === undefined || speed || !config.walkFallback
        ? (cost) => cost
        : (cost, _f, _t, distance) => cost + distance;
    };
  }
  actions.crawl!.getCostFunction = (token) =>
    automation() === "none" || movementOf(token) === undefined
      ? (cost) => cost
      : (cost, _f, _t, distance) => cost + distance;
  actions.jump!.getCostFunction = () => (cost) => cost;
}

/**
 * The base cost core hands a movement action's cost function for one segment in a dnd5e world (dnd5e 5.3.3
 * module/data/terrain-data.mjs `TerrainData5e`): `resolveTerrainEffects` makes a segment in a dnd5e Difficult Terrain
 * region difficulty 2, or core's Modify Movement Cost difficulty + 1 when both apply (unless movement automation is
 * "none"); `getMovementCostFunction` returns distance × difficulty for a creature. Returns the base cost and the
 * segment's terrain as core passes it.
 */
export function dnd5eTerrainCost(
  client: FakeClient,
  distance: number,
  terrain: { coreDifficulty?: number; dnd5eDifficult?: boolean },
): { baseCost: number; segment: { terrain: { difficulty: number; difficultTerrain: boolean } | null } } {
  const core = terrain.coreDifficulty ?? 1;
  const automation = client.settingDefs.has("dnd5e.movementAutomation")
    ? client.game.settings.get("dnd5e", "movementAutomation")
    : "full";
  const on = terrain.dnd5eDifficult === true && automation !== "none";
  if (!on)
    return {
      baseCost: distance * core,
      segment: { terrain: core === 1 ? null : { difficulty: core, difficultTerrain: false } },
    };
  const difficulty = core === 1 ? 2 : core + 1;
  return { baseCost: distance * difficulty, segment: { terrain: { difficulty, difficultTerrain: true } } };
}

/** dnd5e's data model defaults for what Aventure reads (abilities 10, skills, hit points, senses, movement in feet). */
function fillDnd5eDefaults(actor: FakeActor): void {
  const sys = actor.system as Plain;
  const abilities = (sys.abilities ??= {}) as Record<string, Plain>;
  for (const k of ["str", "dex", "con", "int", "wis", "cha"]) {
    const a = (abilities[k] ??= {}) as Plain;
    const value = typeof a.value === "number" ? a.value : 10;
    a.value = value;
    a.mod = Math.floor((value - 10) / 2);
    a.save = { value: a.mod };
  }
  const skills = (sys.skills ??= {}) as Record<string, Plain>;
  const skillAbility: Record<string, string> = { prc: "wis", ste: "dex", sur: "wis", ath: "str", acr: "dex" };
  for (const [k, ab] of Object.entries(skillAbility)) {
    const sk = (skills[k] ??= {}) as Plain;
    const total = typeof sk.total === "number" ? sk.total : (abilities[ab]!.mod as number);
    sk.total = total;
    sk.passive ??= 10 + total;
  }
  const attributes = (sys.attributes ??= {}) as Plain;
  attributes.hp ??= { value: 10, max: 10, temp: null };
  attributes.exhaustion ??= 0;
  attributes.senses ??= { darkvision: 0, blindsight: 0, tremorsense: 0, truesight: 0, units: "ft" };
  attributes.movement ??= { walk: 30, swim: 0, climb: 0, fly: 0, burrow: 0, units: "ft" };
  sys.traits ??= { di: { value: [] } };
}

/** Old-School Essentials (vttred/ose): core statuses; its actors carry their own data shapes. */
export function oseSystem(): SystemProfile {
  return { id: "ose", version: "2.0.0", install: coreConfig };
}

export function systemFor(id: string): SystemProfile {
  if (id === "dnd5e") return dnd5eSystem();
  if (id === "ose") return oseSystem();
  return coreSystem(id);
}

// ------------------------------------------------------------------------------------------------ dnd5e actors

export interface Dnd5eActorSpec {
  id: string;
  name: string;
  owner?: string;
  ownership?: Record<string, number>;
  abilities?: Partial<Record<"str" | "dex" | "con" | "int" | "wis" | "cha", number>>;
  /** Skill totals (the modifier added to the d20) by dnd5e id: prc, ste, sur, ath, acr... */
  skills?: Record<string, number>;
  passive?: number;
  hp?: { value: number; max: number; temp?: number | null };
  exhaustion?: number;
  darkvision?: number;
  walk?: number;
  swim?: number;
  climb?: number;
  fly?: number;
  /** Damage types the actor is immune to (system.traits.di.value). */
  immune?: string[];
  type?: string;
}

const abilityMod = (score: number): number => Math.floor((score - 10) / 2);

/**
 * A dnd5e-shaped actor whose roll and damage methods follow dnd5e 5.3.3's signatures: rollSkill and rollSavingThrow
 * take (config, dialog, message), roll 1d20 + the modifier with Foundry's Roll, post the roll unless
 * `message.create === false`, show the roll dialog unless `dialog.configure === false` (the fake then takes the
 * user's answer from the dialog queue: null = closed, which cancels the roll and resolves to null), and resolve to
 * an array of rolls. applyDamage([{value, type}]) ignores immune types and takes temporary hit points first.
 */
export function addDnd5eActor(world: FakeWorld, spec: Dnd5eActorSpec): FakeActor {
  const scores = { str: 10, dex: 10, con: 10, int: 10, wis: 10, cha: 10, ...(spec.abilities ?? {}) };
  const abilities = Object.fromEntries(
    Object.entries(scores).map(([k, v]) => [k, { value: v, mod: abilityMod(v), save: { value: abilityMod(v) } }]),
  );
  const skills: Plain = {};
  for (const [k, total] of Object.entries({
    prc: abilityMod(scores.wis),
    ste: abilityMod(scores.dex),
    sur: abilityMod(scores.wis),
    ath: abilityMod(scores.str),
    acr: abilityMod(scores.dex),
    ...(spec.skills ?? {}),
  })) {
    skills[k] = { total, passive: k === "prc" && spec.passive !== undefined ? spec.passive : 10 + total };
  }
  const actor = world.addUserActor({
    _id: spec.id,
    name: spec.name,
    type: spec.type ?? "character",
    ownership: spec.ownership ?? (spec.owner ? { [spec.owner]: 3 } : {}),
    system: {
      abilities,
      skills,
      attributes: {
        hp: clone(spec.hp ?? { value: 20, max: 20, temp: null }),
        exhaustion: spec.exhaustion ?? 0,
        senses: { darkvision: spec.darkvision ?? 0, blindsight: 0, tremorsense: 0, truesight: 0, units: "ft" },
        movement: {
          walk: spec.walk ?? 30,
          swim: spec.swim ?? 0,
          climb: spec.climb ?? 0,
          fly: spec.fly ?? 0,
          burrow: 0,
          units: "ft",
        },
      },
      traits: { di: { value: [...(spec.immune ?? [])] } },
    },
  });
  installDnd5eMethods(world, actor);
  return actor;
}

/** The dnd5e methods Aventure calls, written with `this` so that an unlinked token's synthetic actor has them too. */
export function installDnd5eMethods(world: FakeWorld, actor: FakeActor): void {
  const a = actor as unknown as Plain;
  installDnd5eInitiative(world, actor); // rollInitiativeDialog, rollInitiative, getInitiativeRoll (combat.ts)
  a.rollCalls = [] as { kind: string; user: string; config: Plain; dialog: Plain; message: Plain }[];
  a.damageCalls = [] as unknown[];
  async function d20(self: FakeActor, kind: string, mod: number, config: Plain, dialog: Plain, message: Plain) {
    ((self as unknown as Plain).rollCalls as unknown[]).push({
      kind,
      user: world.currentClient().user.id,
      config: clone(config),
      dialog: clone(dialog),
      message: clone(message),
    });
    if (dialog?.configure !== false) {
      const answer = world.nextDialogAnswer("dnd5e-roll", kind, "");
      if (answer === null) return null;
    }
    // dnd5e d20-roll.mjs applyKeybindings: config.disadvantage (without advantage) rolls with disadvantage (2d20kl).
    const roll = new FakeRoll(
      config?.disadvantage === true && config?.advantage !== true ? "2d20kl + @mod" : "1d20 + @mod",
      { mod },
    );
    await roll.evaluate();
    if (message?.create !== false)
      await roll.toMessage({
        flavor: (message?.data as Plain | undefined)?.flavor ?? "",
        speaker: { actor: self.id, alias: self.name },
      });
    return [roll];
  }
  a.rollSkill = function (this: FakeActor, config: Plain = {}, dialog: Plain = {}, message: Plain = {}) {
    const skill = (this.system.skills as Record<string, { total: number }>)[String(config.skill)];
    if (!skill) throw new Error(`dnd5e: unknown skill ${String(config.skill)}`);
    return d20(this, "skill", skill.total, config, dialog, message);
  };
  a.rollSavingThrow = function (this: FakeActor, config: Plain = {}, dialog: Plain = {}, message: Plain = {}) {
    const ab = (this.system.abilities as Record<string, { save: { value: number } }>)[String(config.ability)];
    if (!ab) throw new Error(`dnd5e: unknown ability ${String(config.ability)}`);
    return d20(this, "save", ab.save.value, config, dialog, message);
  };
  a.applyDamage = async function (
    this: FakeActor,
    damages: { value: number; type?: string }[] | number,
    _options: Plain = {},
  ) {
    ((this as unknown as Plain).damageCalls as unknown[]).push(clone(damages));
    const list = typeof damages === "number" ? [{ value: damages }] : damages;
    const immune = (this.system.traits as { di: { value: string[] } } | undefined)?.di.value ?? [];
    const amount = list.filter((d) => !d.type || !immune.includes(d.type)).reduce((sum, d) => sum + d.value, 0);
    if (amount <= 0) return this;
    const hp = (this.system.attributes as { hp: { value: number; temp: number | null } }).hp;
    const fromTemp = Math.min(hp.temp ?? 0, amount);
    await this.update({
      "system.attributes.hp.temp": (hp.temp ?? 0) - fromTemp,
      "system.attributes.hp.value": Math.max(0, hp.value - (amount - fromTemp)),
    });
    return this;
  };
}

// ------------------------------------------------------------------------------------------------ dnd5e groups and vehicles

export interface Dnd5eGroupSpec {
  id: string;
  name: string;
  /** Member actor ids, as stored (`system.members[].actor` is the id in the source). */
  members: string[];
  /** The group's travel pace (`system.attributes.travel.pace`, 5.2+), "normal" by default. */
  pace?: string;
  primaryVehicle?: string | null;
  ownership?: Record<string, number>;
  /** dnd5e 4.x–5.1: the pace under `system.attributes.movement.pace`, no travel field, no getTravelPace, no primary vehicle. */
  legacy?: boolean;
}

/**
 * A dnd5e group (party) actor as dnd5e prepares it (dnd5e 5.3.3 module/data/actor/group.mjs; the same in the 6.0
 * development line, branch 6.0-deprecations):
 * - source `system.members: [{actor: id}]`; `prepareBaseData` turns each into `{actor: Actor}` (ForeignDocumentField)
 *   and drops missing actors, groups and duplicates; `primaryVehicle` is kept only when it is a vehicle member;
 * - `system.attributes.travel: {pace, paces, speeds, time: 8, units}` (module/data/actor/fields/travel-field.mjs;
 *   `CONFIG.DND5E.travelTimes.group` = 8); 4.x–5.1 kept the pace under `system.attributes.movement.pace`;
 * - `system.getTravelPace()` → `{pace: {value, slowed, …}, paces}`: "slow" when a creature member is slowed.
 * Modelled as getters over the stored ids (the group is not updated by the tests).
 */
export function addDnd5eGroup(world: FakeWorld, spec: Dnd5eGroupSpec): FakeActor {
  const travel = {
    pace: spec.pace ?? "normal",
    paces: { land: null, water: null, air: null },
    speeds: { land: null, water: null, air: null },
    time: 8,
    units: "mph",
  };
  const system: Plain = spec.legacy
    ? {
        members: spec.members.map((actor) => ({ actor })),
        attributes: { movement: { pace: spec.pace ?? "normal", land: null, water: null, air: null, units: "mi" } },
      }
    : {
        members: spec.members.map((actor) => ({ actor })),
        attributes: { travel },
        primaryVehicle: spec.primaryVehicle ?? null,
        details: { xp: { value: null } },
      };
  const group = world.addUserActor({
    _id: spec.id,
    name: spec.name,
    type: "group",
    ownership: spec.ownership ?? {},
    system,
  });
  const source = clone(system);
  const prepared = () => {
    const seen = new Set<string>();
    return (source.members as { actor: string }[]).flatMap(({ actor: id }) => {
      const a = world.actors.get(id);
      if (!a || a.type === "group" || seen.has(id)) return [];
      seen.add(id);
      return [{ actor: a }];
    });
  };
  Object.defineProperty(group.system, "members", { get: prepared, enumerable: true });
  if (!spec.legacy) {
    Object.defineProperty(group.system, "primaryVehicle", {
      get: () => {
        const v = source.primaryVehicle ? world.actors.get(source.primaryVehicle as string) : null;
        return v && v.type === "vehicle" && prepared().some((m) => m.actor === v) ? v : null;
      },
      enumerable: true,
    });
    Object.defineProperty(group.system, "getTravelPace", {
      value: () => {
        const slowed = prepared().some(
          ({ actor }) =>
            actor.type !== "vehicle" &&
            (actor.system.attributes as Plain | undefined)?.movement &&
            ((actor.system.attributes as Plain).movement as Plain).slowed === true,
        );
        const pace = (group.system.attributes as { travel: { pace: string } }).travel.pace;
        const order = ["slow", "normal", "fast"];
        return { pace: { slowed, value: slowed && order.indexOf(pace) > 0 ? "slow" : pace }, paces: {} };
      },
      enumerable: false,
    });
  }
  return group;
}

/**
 * A dnd5e vehicle (dnd5e 5.3.3 module/data/actor/vehicle.mjs): `system.details.type` "land", "water" or "air"; its
 * travel field with `speeds.<type>` in `units` (mph or kph), 24 hours a day (`CONFIG.DND5E.travelTimes.vehicle`).
 */
export function addDnd5eVehicle(
  world: FakeWorld,
  spec: { id: string; name: string; type: "land" | "water" | "air"; speed?: number; units?: "mph" | "kph" },
): FakeActor {
  const speeds: Plain = { land: null, water: null, air: null };
  if (spec.speed !== undefined) speeds[spec.type] = spec.speed;
  return world.addUserActor({
    _id: spec.id,
    name: spec.name,
    type: "vehicle",
    system: {
      details: { type: spec.type },
      attributes: {
        travel: { paces: { land: null, water: null, air: null }, speeds, time: 24, units: spec.units ?? "mph" },
      },
    },
  });
}
