/**
 * The small surface of Foundry's Combat and Combatant documents that the combat glue uses (real documents
 * satisfy it; the test world implements exactly this). Kept narrow so the glue stays easy to check.
 */

export interface TokenLike {
  id: string | null;
  name: string;
  disposition: number;
  actor: Actor | null;
}

export interface CombatantLike {
  id: string | null;
  name: string | undefined;
  initiative: number | null;
  token: TokenLike | null;
  actor: Actor | null;
  isOwner: boolean;
  hidden?: boolean;
  defeated?: boolean;
  /** Core: defeated, or the actor has the DEFEATED special status. */
  isDefeated?: boolean;
  getFlag(scope: "aventure", key: string): unknown;
  unsetFlag?(scope: "aventure", key: string): Promise<unknown>;
  testUserPermission(user: User, level: "OWNER"): boolean;
  /** The combat (core calls the sort comparator unbound: the combatant knows its combat). */
  parent?: CombatLike | null;
}

export interface CombatLike {
  id: string | null;
  round: number;
  turn: number | null;
  started: boolean;
  turns: CombatantLike[];
  combatants: { contents: CombatantLike[]; get(id: string): CombatantLike | undefined };
  /** Core's combat tracker settings (core.combatTrackerConfig): skipDefeated. */
  settings?: { skipDefeated?: boolean };
  getFlag(scope: "aventure", key: string): unknown;
  update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
  updateEmbeddedDocuments(
    type: "Combatant",
    updates: Record<string, unknown>[],
    options?: Record<string, unknown>,
  ): Promise<unknown>;
  nextRound(): Promise<unknown>;
}

/** What Aventure's Combat subclass adds: the system's own round start and advance, without Aventure's overrides. */
export interface AventureCombatLike extends CombatLike {
  /** The system's startCombat (core's, or dnd5e's with its use recovery). */
  aventureBaseStart(): Promise<unknown>;
  /** The system's nextRound (core's options: v13 advanceTime, v14 worldTime; skip defeated). */
  aventureBaseNextRound(): Promise<unknown>;
  /** dnd5e's Combat5e#_recoverUses (undefined elsewhere). */
  _recoverUses?(types: Record<string, unknown>): Promise<unknown>;
}

export type { EncounterCombatState, PolarisRoundFlags, SideOp, SideRoundState } from "./flags.js";
