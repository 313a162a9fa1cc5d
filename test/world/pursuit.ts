/**
 * What the pursuit tests add to the fake world (installed per client with bootWorld's `extend`, before the module
 * loads, so a reloaded client gets it too): every ActiveEffect a client creates is recorded with its raw creation
 * data, and refused (a hook error that fails `world.settle()`) when its shape does not fit the world's Foundry
 * generation.
 *
 * Sources:
 * - v13 ActiveEffect data: `changes: [{key, value, mode, priority}]` with a numeric mode (CONST.ACTIVE_EFFECT_MODES)
 *   and `duration: {startTime, seconds, ...}`; a base ActiveEffect has no `system` data
 *   (https://foundryvtt.com/api/v13/classes/foundry.documents.ActiveEffect.html, EffectChangeData, EffectDurationData).
 * - v14 Active Effects V2: changes live in `system.changes: [{key, type, value, phase, priority}]` (`type` a string
 *   from CONST.ACTIVE_EFFECT_CHANGE_TYPES, `phase` one of CONST.ACTIVE_EFFECT_CHANGE_PHASES "initial" / "final"
 *   unless a package registers another), top-level `changes` deprecated; `duration: {value, units, expiry}`
 *   (https://foundryvtt.com/api/v14: ActiveEffectChangeData, EffectDurationData; NOTES.md "v14").
 * - preCreate<Document> fires on the initiating client only, with the creation data
 *   (https://foundryvtt.com/api/v13/functions/hookEvents.preCreateDocument.html).
 */
import { clone, type Plain } from "./data.js";
import type { FakeClient, FakeWorld } from "./world.js";

export interface CreatedEffect {
  user: string;
  /** The actor's id (an unlinked token's synthetic actor has its base actor's id). */
  actorId: string;
  /** The raw creation data the module sent. */
  data: Plain;
}

const created = new WeakMap<FakeWorld, CreatedEffect[]>();

/** The effects created so far in this world, in order, with their creation data. */
export function createdEffects(world: FakeWorld): CreatedEffect[] {
  return created.get(world) ?? [];
}

function checkShape(data: Plain, v14: boolean): void {
  if (typeof data.name !== "string" || !data.name) throw new Error("ActiveEffect: a name is required");
  const changes = v14 ? (data.system as Plain | undefined)?.changes : data.changes;
  if (v14 && "changes" in data)
    throw new Error("ActiveEffect (v14): top-level changes are deprecated, use system.changes");
  if (!v14 && "system" in data) throw new Error("ActiveEffect (v13): a base ActiveEffect has no system data");
  if (changes === undefined) return;
  if (!Array.isArray(changes)) throw new Error("ActiveEffect: changes must be an array");
  for (const c of changes as Plain[]) {
    if (typeof c.key !== "string" || typeof c.value !== "string")
      throw new Error("ActiveEffect: change key and value must be strings");
    if (v14 && typeof c.type !== "string") throw new Error("ActiveEffect (v14): change type must be a string");
    if (v14 && c.phase !== undefined && c.phase !== "initial" && c.phase !== "final")
      throw new Error(`ActiveEffect (v14): unknown phase ${String(c.phase)}`);
    if (!v14 && ("type" in c || "phase" in c))
      throw new Error("ActiveEffect (v13): type and phase are v14 change fields");
    if (!v14 && typeof c.mode !== "number") throw new Error("ActiveEffect (v13): change mode must be a number");
  }
  const d = data.duration as Plain | undefined;
  if (d && v14 && ("seconds" in d || "startTime" in d))
    throw new Error("ActiveEffect (v14): duration is {value, units, expiry}");
  if (d && !v14 && ("units" in d || "value" in d))
    throw new Error("ActiveEffect (v13): duration is {startTime, seconds, ...}");
}

/** bootWorld `extend`: records and checks every ActiveEffect creation on this client. */
export function watchEffects(client: FakeClient): void {
  const world = client.world;
  if (!created.has(world)) created.set(world, []);
  client.hooks.on("preCreateActiveEffect", ((doc: { parent?: { id?: string } | null }, data: Plain) => {
    checkShape(data, world.generation >= 14);
    created.get(world)!.push({ user: client.user.id, actorId: doc.parent?.id ?? "", data: clone(data) });
  }) as never);
}
