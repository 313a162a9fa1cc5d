/**
 * Confusion (docs/rules.md §9.2, changing intention): a combatant whose Adaptation test was a catastrophe does nothing at
 * all for the rest of the round. The state is the combat's flag `flags.aventure.polarisConfused = { round, ids }`,
 * written by the active GM only (players cannot update a combat's flags), read on every client, checked field by
 * field; it counts only in its round (the next round clears it).
 */
import { MODULE_ID } from "../core/constants.js";
import type { CombatLike, CombatantLike } from "./types.js";
import { DOCUMENT_ID } from "../core/values.js";

export interface PolarisConfusion {
  round: number;
  ids: string[];
}

/** The combat's confusion state, or null when absent or malformed. */
export function confusionState(combat: Pick<CombatLike, "getFlag">): PolarisConfusion | null {
  const raw = combat.getFlag(MODULE_ID, "polarisConfused") as { round?: unknown; ids?: unknown } | undefined;
  if (!raw || typeof raw !== "object") return null;
  const { round, ids } = raw;
  if (typeof round !== "number" || !Number.isInteger(round) || round < 0 || round > 100_000) return null;
  if (!Array.isArray(ids) || ids.length > 1000 || !ids.every((x) => typeof x === "string" && DOCUMENT_ID.test(x)))
    return null;
  return { round, ids: [...new Set(ids as string[])] };
}

/** The ids of the combatants confused in `round` (default: the combat's current round). */
export function confusedIds(combat: Pick<CombatLike, "getFlag" | "round">, round: number = combat.round): string[] {
  const s = confusionState(combat);
  return s && s.round === round ? s.ids : [];
}

export function isConfused(
  combat: Pick<CombatLike, "getFlag" | "round">,
  c: Pick<CombatantLike, "id">,
  round: number = combat.round,
): boolean {
  return !!c.id && confusedIds(combat, round).includes(c.id);
}
