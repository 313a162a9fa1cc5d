/**
 * What the movement glue reads of a token: its actor's speeds and Strength (through the system adapter),
 * its scene's grid unit, whether it flies, whether it is the combatant whose turn it is.
 */
import { adapterFor } from "../actors/api.js";
import type { ActorLike } from "../actors/api.js";
import type { Speeds } from "../actors/api.js";
import { statusEffects } from "../core/compat.js";
import { getSetting } from "../core/settings.js";
import { parseUnit, toMetres, type Unit } from "../rules/units.js";

export interface MovementStats {
  /** Speeds in metres per round; null when the system gives no walking speed. */
  speeds: Speeds | null;
  strScore: number | null;
  strMod: number | null;
}

/** Speeds and Strength of an actor, in metres, through the running system's adapter. */
export function movementStats(actor: unknown): MovementStats {
  const stats = adapterFor().read(actor as ActorLike);
  return { speeds: stats.speeds, strScore: stats.strScore, strMod: stats.strMod };
}

export interface SceneLike {
  id?: string | null;
  grid: { units: string; distance: number };
}

/** The scene's grid unit as a rules Unit, or null when it is none Aventure can convert ("", "sq"...). */
export function sceneUnit(scene: SceneLike | null | undefined): Unit | null {
  const raw = scene?.grid?.units;
  if (typeof raw !== "string" || raw.trim() === "") return null;
  try {
    return parseUnit(raw);
  } catch {
    return null;
  }
}

/** `value` in the scene's grid units, in metres (null when the unit is unknown). */
export function sceneToMetres(value: number, scene: SceneLike | null | undefined): number | null {
  const unit = sceneUnit(scene);
  return unit === null ? null : toMetres(value, unit, unit === "ft" ? getSetting("feetFactor") : undefined);
}

export interface TokenLikeForMovement {
  id: string | null;
  name: string;
  actor: unknown;
  parent: unknown;
  movementAction?: string | null;
}

/** Waypoints of a movement, whichever of its sections holds them. */
export interface MovementLike {
  passed?: { waypoints?: readonly { action?: string }[] };
  pending?: { waypoints?: readonly { action?: string }[] };
}

/** The status ids meaning "flying" or "hovering" in this world (core's special status effects). */
function flyingStatusIds(): string[] {
  const special = CONFIG.specialStatusEffects ?? {};
  const ids = [special.FLY, special.HOVER].filter((x): x is string => typeof x === "string");
  const known = new Set(statusEffects().map((e) => e.id));
  return ids.filter((id) => known.has(id));
}

/**
 * A token flies when its movement used the fly action, its current action is fly, or its actor has the
 * fly or hover status.
 */
export function isFlying(token: TokenLikeForMovement, movement?: MovementLike | null): boolean {
  if (token.movementAction === "fly") return true;
  const waypoints = [...(movement?.passed?.waypoints ?? []), ...(movement?.pending?.waypoints ?? [])];
  if (waypoints.some((w) => w.action === "fly")) return true;
  const statuses = (token.actor as { statuses?: Set<string> } | null)?.statuses;
  return !!statuses && flyingStatusIds().some((id) => statuses.has(id));
}

/**
 * True when `action` teleports the token (core's `blink` and `displace` have `teleport: true` in
 * CONFIG.Token.movement.actions): such a move is no fall. `displace` counts even where the flag is missing.
 */
export function isTeleportAction(action: string | undefined): boolean {
  if (!action) return false;
  if (action === "displace") return true;
  const actions: Record<string, { teleport?: boolean } | undefined> | undefined = CONFIG.Token?.movement?.actions;
  return actions?.[action]?.teleport === true;
}

/** The action of the last segment the token moved (the one that brought it where it is), if known. */
export function lastAction(movement?: MovementLike | null): string | undefined {
  return movement?.passed?.waypoints?.at(-1)?.action;
}

/** True when the token is the combatant whose turn it is in the started combat. */
export function isCurrentCombatant(token: TokenLikeForMovement): boolean {
  const combat = game.combat;
  const c = combat?.started ? combat.combatant : null;
  if (!c || !token.id) return false;
  const sceneId = (token.parent as { id?: string | null } | null)?.id;
  return c.tokenId === token.id && (!c.sceneId || !sceneId || c.sceneId === sceneId);
}
