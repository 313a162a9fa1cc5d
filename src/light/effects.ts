/**
 * The docs/rules.md §5 effects of the light a creature effectively experiences, applied by the active GM only (setting
 * "lightEffects"): darkness → the system's blinded condition; dim light → Aventure's "aventure-dim" status, which in
 * dnd5e carries disadvantage on Perception (an Active Effect change on system.skills.prc.roll.mode) and elsewhere is a
 * visible marker. Only what Aventure added is ever removed (setOwnCondition).
 */
import type { VisibilityEffect } from "../rules/light.js";
import { adapterFor, OWN_STATUS, setOwnCondition, type ActorLike } from "../actors/api.js";
import { isV14 } from "../core/compat.js";

/** The entry of CONFIG.statusEffects itself (not a copy), whether it is an array or an object keyed by id (v14). */
function configEntry(id: string): Record<string, unknown> | undefined {
  const raw = CONFIG.statusEffects as unknown;
  if (Array.isArray(raw)) return raw.find((e: { id?: string }) => e.id === id) as Record<string, unknown> | undefined;
  if (raw && typeof raw === "object") return (raw as Record<string, Record<string, unknown> | undefined>)[id];
  return undefined;
}

/**
 * dnd5e: the dim-light status gives disadvantage on Perception checks. dnd5e has no sight-only Perception mode
 * (docs/research/systems.md), so this applies to every Perception roll and lowers passive Perception by 5.
 * Called each time Aventure (re)adds its status effects (status-effects.ts: init, i18nInit, setup, ready).
 */
export function configureDimLightStatus(systemId: string): void {
  if (systemId !== "dnd5e") return;
  const entry = configEntry(OWN_STATUS.dimLight);
  if (!entry) return;
  const key = "system.skills.prc.roll.mode";
  if (isV14()) entry.system = { changes: [{ key, type: "add", value: "-1" }] };
  else entry.changes = [{ key, mode: 2 /* ADD */, value: "-1" }];
}

/** Sets the conditions for `effect` on the actor; removes the other ones Aventure had added. */
export async function applyLightEffect(actor: ActorLike, effect: VisibilityEffect): Promise<void> {
  const adapter = adapterFor();
  await setOwnCondition(adapter, actor, "blinded", effect === "blinded");
  await setOwnCondition(adapter, actor, "dimLight", effect === "disadvantage");
}

/** Removes the light conditions Aventure added (setting turned off). */
export async function removeLightEffects(actor: ActorLike): Promise<void> {
  await applyLightEffect(actor, "none");
}
