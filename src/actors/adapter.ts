/**
 * System adapters: one interface for what Aventure reads of an actor and does to it, with built-in
 * adapters for dnd5e and OSE and a generic one driven by the "Actor data" paths setting.
 */
import { MODULE_ID } from "../core/constants.js";
import { statusEffects } from "../core/compat.js";
import { getSetting } from "../core/settings.js";
import { UserError } from "../core/i18n.js";
import type { ActorDataPaths } from "../core/core-settings.js";
import { DND5E_PATHS, OSE_PATHS } from "./presets.js";
import { readNumber, readStats, resolvePath, type ActorStats } from "./read.js";
import { oseMoves } from "./ose-movement.js";
import { clean, toMetres } from "../rules/units.js";
import { encounterMovement } from "../rules/travel.js";
import { speakerOf } from "../core/chat.js";
import { dnd5eSurprisedHasEffect } from "../core/dnd5e-owners.js";
import { valueMap } from "../core/flag-model.js";

export type AdapterId = "dnd5e" | "ose" | "generic";
export type Ability = "str" | "dex" | "con" | "int" | "wis" | "cha";
export type Skill = "stealth" | "perception" | "athletics" | "acrobatics" | "survival";
/** Conditions by rule meaning; each adapter maps them to its system's status ids. */
export type Condition = "prone" | "blinded" | "hidden" | "surprised" | "dimLight" | "invisible" | "unconscious";

/** Status ids Aventure registers itself where a system lacks one. */
export const OWN_STATUS = {
  hidden: "aventure-hidden",
  surprised: "aventure-surprised",
  dimLight: "aventure-dim",
} as const;

const CANDIDATES: Record<Condition, string[]> = {
  prone: ["prone"],
  blinded: ["blinded", "blind"],
  hidden: ["hiding", "hidden", OWN_STATUS.hidden],
  surprised: ["surprised", OWN_STATUS.surprised],
  dimLight: [OWN_STATUS.dimLight],
  invisible: ["invisible"],
  // Core and dnd5e both call it "unconscious" (dnd5e 5.3.3 module/config.mjs conditionTypes).
  unconscious: ["unconscious"],
};

/** The minimal actor surface the adapters use (a real Actor satisfies it). */
export interface ActorLike {
  id: string | null;
  name: string;
  system: unknown;
  statuses: Set<string>;
  update(data: Record<string, unknown>): Promise<unknown>;
  toggleStatusEffect(id: string, options?: { active?: boolean; overlay?: boolean }): Promise<unknown>;
  getFlag(scope: "aventure", key: string): unknown;
  setFlag(scope: "aventure", key: string, value: unknown): Promise<unknown>;
  unsetFlag?(scope: "aventure", key: string): Promise<unknown>;
  uuid?: string | null;
  /** The actor's ActiveEffects (Aventure's own statuses carry flags.aventure.applied). */
  effects?: Iterable<EffectLike>;
}

export interface RollOutcome {
  total: number;
  /** Success against the DC when one was given, else null. */
  success: boolean | null;
  /** The d20's natural result, when known. */
  natural: number | null;
  /** The evaluated roll, when one was made (to attach to a card when no message of its own was posted). */
  roll?: Roll;
}

/**
 * Options of a save or skill roll. `message: false` asks the system not to post the roll's own chat message
 * (dnd5e: message config `{ create: false }`; older dnd5e: `chatMessage: false`; generic: no `toMessage`), so
 * the caller can show the returned `roll` on its own card. Default true.
 */
export interface RollOptions {
  dc?: number;
  flavor?: string;
  message?: boolean;
  /** Roll two d20 and keep the lowest (dnd5e: the roll config's `disadvantage`; generic: `2d20kl`). */
  disadvantage?: boolean;
}

export interface ActorAdapter {
  readonly id: AdapterId;
  readonly paths: ActorDataPaths;
  read(actor: ActorLike): ActorStats;
  /** Applies damage with the system's API; false when the system has none (the glue then posts a card). */
  applyDamage(actor: ActorLike, amount: number, type: string): Promise<boolean>;
  /** Whether applyDamage can apply damage to this actor (the system has a damage API). */
  canApplyDamage(actor: ActorLike): boolean;
  /** Adds (or removes, when negative) exhaustion levels; returns the levels before and after. */
  addExhaustion(actor: ActorLike, levels: number): Promise<{ before: number; after: number } | null>;
  setExhaustion(actor: ActorLike, level: number): Promise<void>;
  statusId(condition: Condition): string | null;
  hasCondition(actor: ActorLike, condition: Condition): boolean;
  setCondition(actor: ActorLike, condition: Condition, active: boolean): Promise<void>;
  rollSave(actor: ActorLike, ability: Ability, options: RollOptions): Promise<RollOutcome>;
  rollSkill(actor: ActorLike, skill: Skill, options: RollOptions): Promise<RollOutcome>;
}

const ABILITY_MOD_FIELD: Partial<Record<Ability, keyof ActorStats>> = {
  str: "strMod",
  dex: "dexMod",
  con: "conMod",
  cha: "chaMod",
};
const SKILL_ABILITY: Record<Skill, Ability> = {
  stealth: "dex",
  perception: "wis",
  athletics: "str",
  acrobatics: "dex",
  survival: "wis",
};

function firstD20(roll: Roll | undefined): number | null {
  const d = roll?.dice?.[0];
  const r = d?.results?.find((x) => x.active !== false);
  return r ? r.result : null;
}

/** The generic adapter: data paths from settings, Foundry rolls, core status effects. */
export class GenericAdapter implements ActorAdapter {
  readonly id: AdapterId = "generic";
  constructor(readonly paths: ActorDataPaths) {}

  read(actor: ActorLike): ActorStats {
    return readStats(actor, this.paths, getSetting("feetFactor"));
  }

  async applyDamage(_actor: ActorLike, _amount: number, _type: string): Promise<boolean> {
    return false;
  }

  canApplyDamage(_actor: ActorLike): boolean {
    return false;
  }

  async addExhaustion(actor: ActorLike, levels: number) {
    const before = this.read(actor).exhaustion;
    if (before === null || !this.paths.exhaustion) return null;
    const after = Math.max(0, Math.min(this.maxExhaustion, before + levels));
    await actor.update({ [this.paths.exhaustion.split("|")[0]!]: after });
    return { before, after };
  }

  async setExhaustion(actor: ActorLike, level: number): Promise<void> {
    if (!this.paths.exhaustion) return;
    await actor.update({ [this.paths.exhaustion.split("|")[0]!]: Math.max(0, Math.min(this.maxExhaustion, level)) });
  }

  protected readonly maxExhaustion: number = 6;

  statusId(condition: Condition): string | null {
    const known = new Set(statusEffects().map((e) => e.id));
    // dnd5e's Surprised (2024 rules) would add disadvantage on initiative to the lost first round: Aventure's own
    // marker.
    if (condition === "surprised" && known.has(OWN_STATUS.surprised) && dnd5eSurprisedHasEffect())
      return OWN_STATUS.surprised;
    return CANDIDATES[condition].find((id) => known.has(id)) ?? null;
  }

  hasCondition(actor: ActorLike, condition: Condition): boolean {
    const id = this.statusId(condition);
    return id !== null && actor.statuses.has(id);
  }

  async setCondition(actor: ActorLike, condition: Condition, active: boolean): Promise<void> {
    const id = this.statusId(condition);
    if (!id) return;
    if (actor.statuses.has(id) === active) return;
    await actor.toggleStatusEffect(id, { active });
  }

  protected modFor(actor: ActorLike, ability: Ability): number {
    const field = ABILITY_MOD_FIELD[ability];
    const v = field ? this.read(actor)[field] : null;
    return typeof v === "number" ? v : 0;
  }

  protected async d20(actor: ActorLike, mod: number, options: RollOptions): Promise<RollOutcome> {
    const roll = new Roll(`${options.disadvantage ? "2d20kl" : "1d20"} + ${mod}`);
    await roll.evaluate();
    if (options.message !== false) {
      await roll.toMessage({
        speaker: speakerOf(actor),
        flavor: options.flavor ?? "",
      });
    }
    const total = roll.total ?? 0;
    return { total, success: options.dc === undefined ? null : total >= options.dc, natural: firstD20(roll), roll };
  }

  rollSave(actor: ActorLike, ability: Ability, options: RollOptions) {
    return this.d20(actor, this.modFor(actor, ability), options);
  }

  rollSkill(actor: ActorLike, skill: Skill, options: RollOptions) {
    // Wisdom (Survival) has its own data path (the skill's bonus); the other skills add their ability's modifier.
    const survival = skill === "survival" && this.paths.survival ? readNumber(actor, this.paths.survival) : null;
    return this.d20(actor, survival ?? this.modFor(actor, SKILL_ABILITY[skill]), options);
  }
}

const DND5E_SKILL: Record<Skill, string> = {
  stealth: "ste",
  perception: "prc",
  athletics: "ath",
  acrobatics: "acr",
  survival: "sur",
};

type D20Result = Roll | Roll[] | null | undefined;
function normaliseRolls(r: D20Result): Roll | undefined {
  return Array.isArray(r) ? r[0] : (r ?? undefined);
}

/**
 * dnd5e 4.1 changed rollSavingThrow/rollSkill to (config, dialog, message); 4.0 and earlier took
 * (id, options). Unknown versions are taken as current.
 */
function dnd5eModernRolls(): boolean {
  const version = (game.system as { version?: string }).version;
  if (!version) return true;
  const [major = 0, minor = 0] = version.split(".").map((n) => Number.parseInt(n, 10));
  return major > 4 || (major === 4 && minor >= 1);
}

/** dnd5e 4.x-6.x: its own damage, save, skill and exhaustion APIs, so its dialogs and hooks run as usual. */
export class Dnd5eAdapter extends GenericAdapter {
  override readonly id: AdapterId = "dnd5e";
  constructor() {
    super(DND5E_PATHS);
  }

  override canApplyDamage(actor: ActorLike): boolean {
    return typeof Reflect.get(actor, "applyDamage") === "function"; // the system's method (dnd5e, OSE)
  }

  override async applyDamage(actor: ActorLike, amount: number, type: string): Promise<boolean> {
    const fn: unknown = Reflect.get(actor, "applyDamage"); // dnd5e Actor5e#applyDamage(damages, options)
    if (typeof fn !== "function") return false;
    await fn.call(actor, [{ value: amount, type }], {});
    return true;
  }

  private async system(
    actor: ActorLike,
    modern: string,
    legacy: string,
    modernArg: Record<string, unknown>,
    legacyArg: string,
    options: RollOptions,
  ): Promise<RollOutcome> {
    // dnd5e's roll methods, by name (the pinned types know no system's actor).
    const modernFn: unknown = Reflect.get(actor, modern);
    const legacyFn: unknown = Reflect.get(actor, legacy);
    let roll: Roll | undefined;
    if (typeof modernFn === "function" && dnd5eModernRolls()) {
      // dnd5e 4.1+: rollX(config, dialog, message)
      const config = {
        ...modernArg,
        ...(options.dc !== undefined ? { target: options.dc } : {}),
        ...(options.disadvantage ? { disadvantage: true } : {}),
      };
      const message = { create: options.message !== false, data: { flavor: options.flavor } };
      roll = normaliseRolls(await modernFn.call(actor, config, { configure: false }, message));
    } else if (typeof legacyFn === "function") {
      roll = normaliseRolls(
        await legacyFn.call(actor, legacyArg, {
          targetValue: options.dc,
          flavor: options.flavor,
          chatMessage: options.message !== false,
          ...(options.disadvantage ? { disadvantage: true } : {}),
        }),
      );
    }
    // No roll: the system (or a module through its hooks) cancelled it. Never a NaN total.
    if (!roll) throw new UserError("AVENTURE.Error.RollCancelled", { name: actor.name });
    const total = roll.total ?? 0;
    return { total, success: options.dc === undefined ? null : total >= options.dc, natural: firstD20(roll), roll };
  }

  override rollSave(actor: ActorLike, ability: Ability, options: RollOptions) {
    return this.system(actor, "rollSavingThrow", "rollAbilitySave", { ability }, ability, options);
  }

  override rollSkill(actor: ActorLike, skill: Skill, options: RollOptions) {
    const id = DND5E_SKILL[skill];
    return this.system(actor, "rollSkill", "rollSkill", { skill: id }, id, options);
  }
}

/** Old-School Essentials (vttred/ose). */
export class OseAdapter extends GenericAdapter {
  override readonly id: AdapterId = "ose";
  constructor() {
    super(OSE_PATHS);
  }

  override read(actor: ActorLike): ActorStats {
    const stats = super.read(actor);
    const base = readNumber(actor, "system.movement.base");
    if (base === null || base < 0) return stats;
    // Base movement is in feet per turn, encounter movement a third of it per round (docs/rules.md §2.8); older
    // OSE builds store no encounter movement. Flying and swimming rates come from the movement details text.
    const moves = oseMoves(base, resolvePath(actor, "system.details.movement|system.movement.value"));
    const feetFactor = getSetting("feetFactor");
    const perRound = (feet: number) => clean(toMetres(encounterMovement(feet), "ft", feetFactor));
    const walk = moves.walk === base && stats.speeds !== null ? stats.speeds.walk : perRound(moves.walk);
    stats.speeds = { walk, climb: 0, swim: perRound(moves.swim), fly: perRound(moves.fly) };
    return stats;
  }

  override canApplyDamage(actor: ActorLike): boolean {
    return typeof Reflect.get(actor, "applyDamage") === "function"; // the system's method (dnd5e, OSE)
  }

  override async applyDamage(actor: ActorLike, amount: number, _type: string): Promise<boolean> {
    const fn: unknown = Reflect.get(actor, "applyDamage"); // OSE applyDamage(amount, multiplier)
    if (typeof fn !== "function") return false;
    await fn.call(actor, amount, 1);
    return true;
  }
}

/** The adapter for the running game system (generic paths from the "Actor data" menu otherwise). */
export function adapterFor(systemId: string = game.system.id): ActorAdapter {
  if (systemId === "dnd5e") return new Dnd5eAdapter();
  if (systemId === "ose" || systemId === "ose-dev") return new OseAdapter();
  return new GenericAdapter(getSetting("actorData"));
}

/** Status effects being added by Aventure on this client right now ("actor uuid|status id"). */
const addingOwn = new Set<string>();

function actorKey(actor: ActorLike): string {
  return `${actor.uuid ?? actor.id}|`;
}

export interface EffectLike {
  statuses?: Set<string>;
  getFlag?(scope: string, key: string): unknown;
  parent?: unknown;
  updateSource?(changes: Record<string, unknown>): void;
}

/**
 * preCreateActiveEffect (the creating client only): a status effect Aventure is adding carries
 * `flags.aventure.applied` in the same creation, so that after a reload at any point Aventure still knows it is its
 * own (and never removes a status someone else set). Registered in init.
 */
export function onPreCreateOwnStatus(effect: EffectLike): void {
  const parent = effect.parent as ActorLike | undefined;
  if (!parent || !effect.statuses || typeof effect.updateSource !== "function") return;
  for (const id of effect.statuses) {
    if (addingOwn.has(actorKey(parent) + id)) {
      effect.updateSource({ [`flags.${MODULE_ID}.applied`]: true });
      return;
    }
  }
}

/**
 * The statuses Aventure added on an actor whose system could not carry the mark on the status's effect
 * (flags.aventure.applied: status id → true, false once Aventure removed it), each read on its own through its field.
 */
const AppliedStatuses = valueMap({
  name: "AventureAppliedStatus",
  value: (f) => new f.BooleanField({ required: true, nullable: false }),
  key: (k) => /^[\w.-]{1,64}$/.test(k),
});

/** Whether Aventure itself added the status `id` on the actor (its own effect, or the older actor flag). */
export function isOwnStatus(actor: ActorLike, id: string): boolean {
  const effects = actor.effects;
  for (const e of effects ?? []) if (e.statuses?.has(id) && e.getFlag?.(MODULE_ID, "applied") === true) return true;
  return AppliedStatuses.get(actor.getFlag(MODULE_ID, "applied"), id) === true;
}

/**
 * Turns a condition on or off, touching only what Aventure itself added: on, only when the actor does not already
 * have it (set by hand or by something else: left alone), flagged as Aventure's in the same write (see
 * onPreCreateOwnStatus); off, only when it is Aventure's own. A system whose statuses are not Active Effects (the
 * flag cannot ride on the creation) falls back to an actor flag written right after.
 */
export async function setOwnCondition(
  adapter: ActorAdapter,
  actor: ActorLike,
  condition: Condition,
  active: boolean,
): Promise<void> {
  const id = adapter.statusId(condition);
  if (!id) return;
  const legacy = Object.fromEntries(AppliedStatuses.read(actor.getFlag(MODULE_ID, "applied")));
  if (active) {
    if (actor.statuses.has(id)) return; // already there (set by hand or by us): leave it alone
    const key = actorKey(actor) + id;
    addingOwn.add(key);
    try {
      await adapter.setCondition(actor, condition, true);
    } finally {
      addingOwn.delete(key);
    }
    if (actor.statuses.has(id) && !isOwnStatus(actor, id))
      await actor.setFlag(MODULE_ID, "applied", { ...legacy, [id]: true });
  } else {
    if (!isOwnStatus(actor, id)) return; // not ours: never removed by Aventure
    await adapter.setCondition(actor, condition, false);
    // setFlag merges objects: a deleted key would survive, so the old flag is set to false.
    if (legacy[id]) await actor.setFlag(MODULE_ID, "applied", { ...legacy, [id]: false });
  }
}
