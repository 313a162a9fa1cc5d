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
  "dead", "unconscious", "sleep", "stun", "prone", "restrain", "paralysis", "fly", "blind", "deaf", "silence",
  "fear", "burning", "frozen", "shock", "corrode", "bleeding", "disease", "poison", "curse", "regen", "degen",
  "hover", "burrow", "upgrade", "downgrade", "invisible", "target", "eye", "bless", "fireShield", "coldShield",
  "magicShield", "holyShield",
];

/** dnd5e 5.3.3 module/config.mjs: DND5E.statusEffects, then DND5E.conditionTypes, then encumbrance effects. */
export const DND5E_STATUS_IDS = [
  "burrowing", "concentrating", "coverHalf", "coverThreeQuarters", "coverTotal", "dead", "dodging", "ethereal",
  "flying", "hiding", "hovering", "marked", "sleeping", "stable",
  "bleeding", "blinded", "burning", "charmed", "cursed", "dehydration", "deafened", "diseased", "exhaustion", "falling",
  "frightened", "grappled", "incapacitated", "invisible", "malnutrition", "paralyzed", "petrified", "poisoned", "prone",
  "restrained", "silenced", "stunned", "suffocation", "surprised", "transformed", "unconscious",
  "encumbered", "heavilyEncumbered", "exceedingCarryingCapacity",
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
  client.CONFIG.statusEffects = CORE_STATUS_IDS.map((id) => ({ id, name: `EFFECT.Status${id[0]!.toUpperCase()}${id.slice(1)}`, img: `icons/svg/${id}.svg` }));
  client.CONFIG.specialStatusEffects = { DEFEATED: "dead", INVISIBLE: "invisible", BLIND: "blind", BURROW: "burrow", HOVER: "hover", FLY: "fly" };
  client.CONFIG.Token = { movement: { actions: coreMovementActions() }, rulerClass: FakeTokenRuler };
  client.CONFIG.RegionBehavior = { dataModels: {}, typeIcons: {} };
  // CONFIG.Actor (https://foundryvtt.com/api/v13/variables/CONFIG.Actor.html): dataModels, typeIcons; sheetClasses as
  // DocumentSheetConfig.registerSheet fills it (models.ts).
  client.CONFIG.Actor = { dataModels: {}, typeIcons: {}, sheetClasses: {} };
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
      client.CONFIG.DND5E = { statusEffects: {}, conditionTypes: {} };
      // dnd5e.mjs (init): CONFIG.time.roundTime = 6.
      client.CONFIG.time = { ...(client.CONFIG.time ?? {}), roundTime: 6 };
      // dnd5e.mjs: the status list is rebuilt in i18nInit (after every module's init handler).
      client.hooks.once("i18nInit", () => {
        const list: StatusEffectEntry[] = DND5E_STATUS_IDS.map((id) => ({ id, _id: staticID(`dnd5e${id}`), name: `DND5E.Status.${id}`, img: `systems/dnd5e/icons/svg/statuses/${id}.svg` }));
        client.CONFIG.statusEffects = list;
        Object.assign(client.CONFIG.specialStatusEffects as Plain, { BLIND: "blinded", BURROW: "burrowing", CONCENTRATING: "concentrating", DEFEATED: "dead", FLY: "flying", HOVER: "hovering" });
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
  const abilities = Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, { value: v, mod: abilityMod(v), save: { value: abilityMod(v) } }]));
  const skills: Plain = {};
  for (const [k, total] of Object.entries({ prc: abilityMod(scores.wis), ste: abilityMod(scores.dex), sur: abilityMod(scores.wis), ath: abilityMod(scores.str), acr: abilityMod(scores.dex), ...(spec.skills ?? {}) })) {
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
        movement: { walk: spec.walk ?? 30, swim: spec.swim ?? 0, climb: spec.climb ?? 0, fly: spec.fly ?? 0, burrow: 0, units: "ft" },
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
    ((self as unknown as Plain).rollCalls as unknown[]).push({ kind, user: world.currentClient().user.id, config: clone(config), dialog: clone(dialog), message: clone(message) });
    if (dialog?.configure !== false) {
      const answer = world.nextDialogAnswer("dnd5e-roll", kind, "");
      if (answer === null) return null;
    }
    // dnd5e d20-roll.mjs applyKeybindings: config.disadvantage (without advantage) rolls with disadvantage (2d20kl).
    const roll = new FakeRoll(config?.disadvantage === true && config?.advantage !== true ? "2d20kl + @mod" : "1d20 + @mod", { mod });
    await roll.evaluate();
    if (message?.create !== false) await roll.toMessage({ flavor: (message?.data as Plain | undefined)?.flavor ?? "", speaker: { actor: self.id, alias: self.name } });
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
  a.applyDamage = async function (this: FakeActor, damages: { value: number; type?: string }[] | number, _options: Plain = {}) {
    ((this as unknown as Plain).damageCalls as unknown[]).push(clone(damages));
    const list = typeof damages === "number" ? [{ value: damages }] : damages;
    const immune = (this.system.traits as { di: { value: string[] } } | undefined)?.di.value ?? [];
    const amount = list.filter((d) => !d.type || !immune.includes(d.type)).reduce((sum, d) => sum + d.value, 0);
    if (amount <= 0) return this;
    const hp = (this.system.attributes as { hp: { value: number; temp: number | null } }).hp;
    const fromTemp = Math.min(hp.temp ?? 0, amount);
    await this.update({ "system.attributes.hp.temp": (hp.temp ?? 0) - fromTemp, "system.attributes.hp.value": Math.max(0, hp.value - (amount - fromTemp)) });
    return this;
  };
}
