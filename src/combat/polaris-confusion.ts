/**
 * Confusion (docs/rules.md §9.2, changing intention): a combatant whose Adaptation test was a catastrophe does nothing
 * at
 * all for the rest of the round. The state is the combat's flag `flags.aventure.polarisConfused = { round, ids }`,
 * written by the active GM only (players cannot update a combat's flags), read on every client through its model
 * (flags.ts); it counts only in its round (the next round clears it).
 */
import { MODULE_ID } from "../core/constants.js";
import type { CombatLike, CombatantLike } from "./types.js";
import { ConfusionModel, type PolarisConfusion } from "./flags.js";

export type { PolarisConfusion } from "./flags.js";

/** The combat's confusion state (read through its model), or null when absent or malformed. */
export function confusionState(combat: Pick<CombatLike, "getFlag">): PolarisConfusion | null {
  const s = ConfusionModel.read(combat.getFlag(MODULE_ID, "polarisConfused"));
  return s ? { ...s, ids: [...new Set(s.ids)] } : null;
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
