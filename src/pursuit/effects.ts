/**
 * The running exhaustion of a dungeon chase as an Active Effect, created through the actor's adapter id
 * and written in the shape of the running Foundry version (docs/compat.md, the v14 column):
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
 * - ose (vttred/ose), characters: `system.thac0.mod.melee` and `.missile` (added to melee and missile attack
 *   rolls) and `system.ac.mod` and `system.aac.mod` (the miscellaneous AC modifier, a bonus in both AC
 *   schemes: ascending base + mod, descending base − mod, so both get the penalty); OSE has no actor-level
 *   damage modifier: the description asks for it on the damage rolls. OSE monsters store their AC as a
 *   plain value (no modifier): a descriptive effect;
 * - every other system: no change; a visible effect whose description states the penalty, for the
 *   referee to apply.
 * The effect carries `flags.aventure.runExhaustion` so an actor never gets it twice, and `flags.aventure.chase`
 * ("<chase id>.<step>"), the step that gave it: a step interrupted by a reload reads it back to know whether its
 * effect was already created (chase.ts, exactly once).
 *
 * Expiry: v13 core never expires an effect (it would keep its −2 for ever), so on v13 the active GM deletes
 * Aventure's running exhaustion once world time reaches the end of its rest (`updateWorldTime`, see
 * expireRunExhaustion). v14 core only marks it expired (`duration.expired`, CONFIG.ActiveEffect.expiryAction
 * "update" by default) and leaves it on the actor: an expired effect is ignored when read (`isExpired`), and the
 * active GM deletes Aventure's own expired effects (docs/compat.md).
 */
import { MODULE_ID } from "../core/constants.js";
import { isExpired, isV14 } from "../core/compat.js";
import { flagModel, type Fields } from "../core/flag-model.js";
import type { AdapterId } from "../actors/api.js";
import { signedText } from "./pursuit-context.js";

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

/** What the changes cover: everything, attacks and AC only (ose: no damage modifier), or nothing. */
export type ExhaustionCoverage = "all" | "attacksAndAc" | "none";

/**
 * The changes for a penalty to attacks, damage and AC on a system and actor type (empty: a descriptive
 * effect), with what they cover.
 */
export function runExhaustionChanges(
  adapter: AdapterId,
  penalty: number,
  actorType?: string,
): { changes: EffectChange[]; coverage: ExhaustionCoverage } {
  const value = String(penalty);
  if (adapter === "dnd5e") {
    const attacks = ["mwak", "rwak", "msak", "rsak"].flatMap((k) => [
      { key: `system.bonuses.${k}.attack`, value },
      { key: `system.bonuses.${k}.damage`, value },
    ]);
    return { changes: [...attacks, { key: "system.attributes.ac.bonus", value }], coverage: "all" };
  }
  if (adapter === "ose" && actorType === "character") {
    const keys = ["system.thac0.mod.melee", "system.thac0.mod.missile", "system.ac.mod", "system.aac.mod"];
    return { changes: keys.map((key) => ({ key, value })), coverage: "attacksAndAc" };
  }
  return { changes: [], coverage: "none" };
}

const DESCRIPTION_KEY: Record<ExhaustionCoverage, string> = {
  all: "AVENTURE.Pursuit.effect.applied",
  attacksAndAc: "AVENTURE.Pursuit.effect.partial",
  none: "AVENTURE.Pursuit.effect.describe",
};

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
      system: {
        changes: spec.changes.map((c) => ({
          key: c.key,
          type: "add",
          value: c.value,
          phase: V14_PHASE,
          priority: PRIORITY,
        })),
      },
    };
  }
  return {
    ...base,
    ...(spec.seconds === null
      ? {}
      : { duration: { seconds: spec.seconds, ...(worldTime === undefined ? {} : { startTime: worldTime }) } }),
    changes: spec.changes.map((c) => ({ key: c.key, mode: V13_MODE_ADD, value: c.value, priority: PRIORITY })),
  };
}

/** The actor surface this needs (a real Actor satisfies it). */
export interface EffectActor {
  name: string;
  /** The actor type (ose: "character" or "monster"). */
  type?: string;
  effects: Iterable<{ flags?: Record<string, Record<string, unknown> | undefined>; duration?: unknown }>;
  createEmbeddedDocuments(type: "ActiveEffect", data: Record<string, unknown>[]): Promise<unknown>;
}

/**
 * The mark Aventure puts on its running exhaustion (an ActiveEffect's flags.aventure): that it is one, and the chase
 * step that gave it ("<chase id>.<step>"), read through this model (anything else: not Aventure's).
 */
const RunExhaustionMark = flagModel({
  name: "AventureRunExhaustion",
  schema: (f: Fields) => ({
    runExhaustion: new f.BooleanField({ required: true, nullable: false, initial: false }),
    chase: new f.StringField({ required: true, nullable: true, blank: false, initial: null }),
  }),
});

/** The mark of Aventure's running exhaustion on an effect, or null when the effect is not one. */
function runExhaustionMark(e: { flags?: Record<string, Record<string, unknown> | undefined> }) {
  const mark = RunExhaustionMark.read(e.flags?.[MODULE_ID]);
  return mark?.runExhaustion ? mark : null;
}

/** Whether the actor already carries Aventure's running exhaustion (an expired one does not count). */
export function hasRunExhaustion(actor: EffectActor): boolean {
  for (const e of actor.effects) if (runExhaustionMark(e) && !isExpired(e)) return true;
  return false;
}

/**
 * The state of a chase step's running exhaustion on an actor: "done" when the effect of that step (`key`) is
 * there, "drifted" when another running exhaustion is (given meanwhile: not added twice), "pending" otherwise.
 */
export function runExhaustionState(actor: EffectActor, key: string): "done" | "drifted" | "pending" {
  let other = false;
  for (const e of actor.effects) {
    const mark = runExhaustionMark(e);
    if (!mark) continue;
    if (mark.chase === key) return "done";
    if (isExpired(e)) continue; // a former chase's, over
    other = true;
  }
  return other ? "drifted" : "pending";
}

/**
 * Adds the running exhaustion effect unless the actor already has one. Returns true when it was added.
 * `text(key, data)` localizes the name and description; `opts.key` names the chase step that gives it.
 */
export async function applyRunExhaustion(
  actor: EffectActor,
  adapter: AdapterId,
  opts: { penalty: number; restSeconds: number | null; restTurns: number | null; worldTime?: number; key?: string },
  text: (key: string, data?: Record<string, string | number>) => string,
): Promise<boolean> {
  if (hasRunExhaustion(actor)) return false;
  const { changes, coverage } = runExhaustionChanges(adapter, opts.penalty, actor.type);
  const description = text(DESCRIPTION_KEY[coverage], {
    penalty: signedText(opts.penalty),
    turns: opts.restTurns ?? "—",
  });
  const data = effectData(
    {
      name: text("AVENTURE.Pursuit.effect.name"),
      img: "icons/svg/downgrade.svg",
      description,
      seconds: opts.restSeconds,
      changes,
      flags: { runExhaustion: true, ...(opts.key ? { chase: opts.key } : {}) },
    },
    isV14(),
    opts.worldTime,
  );
  await actor.createEmbeddedDocuments("ActiveEffect", [data]);
  return true;
}

/** An effect as the v13 expiry check reads it (a real ActiveEffect satisfies it). */
export interface ExpiringEffect {
  id: string | null;
  flags?: Record<string, Record<string, unknown> | undefined>;
  duration?: { startTime?: number | null; seconds?: number | null; expired?: boolean } | null;
}

/**
 * The ids of Aventure's running-exhaustion effects that are over: v13, whose duration has run out at `worldTime`;
 * v14, that core marked expired.
 */
export function expiredRunExhaustion(
  effects: Iterable<ExpiringEffect>,
  worldTime: number,
  v14: boolean = isV14(),
): string[] {
  const ids: string[] = [];
  for (const e of effects) {
    if (!e.id || !runExhaustionMark(e)) continue;
    if (v14) {
      if (isExpired(e)) ids.push(e.id);
      continue;
    }
    const start = e.duration?.startTime;
    const seconds = e.duration?.seconds;
    if (typeof start !== "number" || typeof seconds !== "number") continue;
    if (start + seconds <= worldTime) ids.push(e.id);
  }
  return ids;
}

/** The actor surface the expiry needs. */
export interface ExpiringActor {
  effects: Iterable<ExpiringEffect>;
  deleteEmbeddedDocuments(type: "ActiveEffect", ids: string[]): Promise<unknown>;
}

/**
 * Every actor that may carry the effect: the world's actors and the synthetic actors of unlinked tokens
 * on every scene (a monster's running exhaustion sits on its token's actor).
 */
function effectActors(): ExpiringActor[] {
  const out = new Set<ExpiringActor>(game.actors?.contents ?? []);
  for (const scene of game.scenes?.contents ?? []) {
    for (const tok of scene.tokens?.contents ?? []) if (!tok.actorLink && tok.actor) out.add(tok.actor);
  }
  return [...out];
}

/**
 * On the active GM (called from the `updateWorldTime` and `updateActiveEffect` hooks and on ready): deletes the
 * running exhaustion whose rest is over (v13: by world time; v14: marked expired by core). Returns the number of
 * effects deleted.
 */
export async function expireRunExhaustion(worldTime: number, v14: boolean = isV14()): Promise<number> {
  if (!Number.isFinite(worldTime)) return 0;
  let n = 0;
  for (const actor of effectActors()) {
    const ids = expiredRunExhaustion(actor.effects, worldTime, v14);
    if (!ids.length) continue;
    await actor.deleteEmbeddedDocuments("ActiveEffect", ids);
    n += ids.length;
  }
  return n;
}

/** The expiries queued on this client: one at a time, each reading the effects left by the previous one. */
let expiring: Promise<unknown> = Promise.resolve();

/**
 * Queues an expiry (v13): two world time updates in quick succession never delete the same effect twice (the
 * second runs after the first and finds it gone).
 */
export function queueExpiry(worldTime: number): Promise<number> {
  const run = expiring.then(() => expireRunExhaustion(worldTime));
  expiring = run.catch(() => 0);
  return run;
}
