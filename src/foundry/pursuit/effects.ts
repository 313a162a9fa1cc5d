/**
 * The running exhaustion of a dungeon chase as an Active Effect, created through the actor's adapter id
 * and written in the shape of the running Foundry version (NOTES.md, "v14"):
 * - v13: `changes: [{ key, mode, value, priority }]` with the numeric mode ADD (2) and `duration.seconds`;
 * - v14 (Active Effects V2): `system.changes: [{ key, type: "add", value, phase: "initial", priority }]` and
 *   `duration: { value, units, expiry }` (foundryvtt.com/api/v14: ActiveEffectChangeData, EffectDurationData,
 *   CONST.ACTIVE_EFFECT_CHANGE_TYPES, CONST.ACTIVE_EFFECT_CHANGE_PHASES). The "initial" phase applies the
 *   changes where v13 applied them (after the base data, before the derived data), which is when dnd5e
 *   resets `attributes.ac.bonus` and reads the attack bonuses.
 *
 * Keys per system:
 * - dnd5e: `system.bonuses.{mwak,rwak,msak,rsak}.attack` and `.damage` (attack and damage rolls of
 *   weapons and spells) and `system.attributes.ac.bonus`, each ADD the penalty (e.g. "-2");
 * - ose and every other system: no change (their data paths differ between versions); a visible effect
 *   whose description states the penalty, for the referee to apply.
 * The effect carries `flags.aventure.runExhaustion` so an actor never gets it twice.
 */
import { MODULE_ID } from "../../constants.js";
import { isV14 } from "../compat.js";
import type { AdapterId } from "../adapters/adapter.js";

/** CONST.ACTIVE_EFFECT_MODES.ADD in v13 (stable since v9). */
const V13_MODE_ADD = 2;
/** The default priority of an ADD change (v13 mode ADD × 10; v14 CONST.ACTIVE_EFFECT_CHANGE_TYPES.add). */
const PRIORITY = 20;
/** v14: the core phase applied between the base and the derived data (CONST.ACTIVE_EFFECT_CHANGE_PHASES). */
const V14_PHASE = "initial";

export interface EffectChange {
  key: string;
  value: string;
}

/** The changes for a penalty to attacks, damage and AC on a system (empty: a descriptive effect). */
export function runExhaustionChanges(adapter: AdapterId, penalty: number): EffectChange[] {
  if (adapter !== "dnd5e") return [];
  const value = String(penalty);
  const attacks = ["mwak", "rwak", "msak", "rsak"].flatMap((k) => [
    { key: `system.bonuses.${k}.attack`, value },
    { key: `system.bonuses.${k}.damage`, value },
  ]);
  return [...attacks, { key: "system.attributes.ac.bonus", value }];
}

export interface EffectSpec {
  name: string;
  img: string;
  description: string;
  /** Duration in seconds (world time), or null for none. */
  seconds: number | null;
  changes: EffectChange[];
  /** Stored under flags.aventure. */
  flags: Record<string, unknown>;
}

/** The ActiveEffect creation data for the running version. */
export function effectData(spec: EffectSpec, v14: boolean = isV14(), worldTime?: number): Record<string, unknown> {
  const base = { name: spec.name, img: spec.img, description: spec.description, flags: { [MODULE_ID]: spec.flags } };
  if (v14) {
    return {
      ...base,
      ...(spec.seconds === null ? {} : { duration: { value: spec.seconds / 60, units: "minutes", expiry: null } }),
      system: { changes: spec.changes.map((c) => ({ key: c.key, type: "add", value: c.value, phase: V14_PHASE, priority: PRIORITY })) },
    };
  }
  return {
    ...base,
    ...(spec.seconds === null ? {} : { duration: { seconds: spec.seconds, ...(worldTime === undefined ? {} : { startTime: worldTime }) } }),
    changes: spec.changes.map((c) => ({ key: c.key, mode: V13_MODE_ADD, value: c.value, priority: PRIORITY })),
  };
}

/** The actor surface this needs (a real Actor satisfies it). */
export interface EffectActor {
  name: string;
  effects: Iterable<{ flags?: Record<string, Record<string, unknown> | undefined> }>;
  createEmbeddedDocuments(type: "ActiveEffect", data: Record<string, unknown>[]): Promise<unknown>;
}

/** Whether the actor already carries an Aventure effect with `flag` set. */
export function hasAventureEffect(actor: EffectActor, flag: string): boolean {
  for (const e of actor.effects) if (e.flags?.[MODULE_ID]?.[flag]) return true;
  return false;
}

/**
 * Adds the running exhaustion effect unless the actor already has one. Returns true when it was added.
 * `text(key, data)` localizes the name and description.
 */
export async function applyRunExhaustion(
  actor: EffectActor,
  adapter: AdapterId,
  opts: { penalty: number; restSeconds: number | null; restTurns: number | null; worldTime?: number },
  text: (key: string, data?: Record<string, string | number>) => string,
): Promise<boolean> {
  if (hasAventureEffect(actor, "runExhaustion")) return false;
  const changes = runExhaustionChanges(adapter, opts.penalty);
  const description = text(changes.length ? "AVENTURE.Pursuit.effect.applied" : "AVENTURE.Pursuit.effect.describe", {
    penalty: opts.penalty,
    turns: opts.restTurns ?? "—",
  });
  const data = effectData(
    {
      name: text("AVENTURE.Pursuit.effect.name"),
      img: "icons/svg/downgrade.svg",
      description,
      seconds: opts.restSeconds,
      changes,
      flags: { runExhaustion: true },
    },
    isV14(),
    opts.worldTime,
  );
  await actor.createEmbeddedDocuments("ActiveEffect", [data]);
  return true;
}
