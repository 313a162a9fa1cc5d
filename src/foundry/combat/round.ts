/**
 * Side initiative for a round about to start, from whichever client advances the combat: the active GM
 * rolls directly; another GM or a player (ending the last turn) asks the active GM through the
 * "sideRound" query, which checks the request. So the dice are rolled exactly once.
 */
import { askGM, isActiveGM } from "../gm.js";
import { UserError } from "../i18n.js";
import { rollRound, sideInitiativeActive } from "./side-initiative.js";
import type { CombatLike } from "./types.js";

export async function prepareSideRound(combat: CombatLike, round: number): Promise<{ nobodyActs: boolean }> {
  if (!sideInitiativeActive() || combat.combatants.contents.length === 0) return { nobodyActs: false };
  if (isActiveGM()) return rollRound(combat, round);
  return askGM<{ combatId: string | null; round: number }, { nobodyActs: boolean }>("sideRound", { combatId: combat.id, round });
}

/** The "sideRound" query (active GM): the next round of an existing combat, asked by a GM or the current combatant's owner. */
export async function sideRoundQuery(combat: CombatLike | undefined, data: { round?: unknown }, sender: User): Promise<{ nobodyActs: boolean }> {
  if (!combat) throw new UserError("AVENTURE.Combat.noCombat");
  if (typeof data.round !== "number" || data.round !== Math.max(combat.round, 0) + 1) throw new UserError("AVENTURE.Combat.badRequest");
  const current = combat.turn === null ? undefined : combat.turns[combat.turn];
  if (!sender.isGM && !(current && current.testUserPermission(sender, "OWNER"))) throw new UserError("AVENTURE.Combat.badRequest");
  return rollRound(combat, data.round);
}
