/**
 * The small surface of Foundry's Combat and Combatant documents that the combat glue uses (real documents
 * satisfy it; the test world implements exactly this). Kept narrow so the glue stays easy to check.
 */
import type { Executor } from "../core/operations.js";
import type { SideId } from "../core/sides.js";

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

export type { EncounterCombatState, PolarisRoundFlags, SideRoundState } from "./flags.js";

/**
 * An operation on a combat's side initiative (flags.aventure.sides.op), recorded BEFORE its first write so that it
 * happens exactly once (operations.ts): "round" starts round `round` (the dice for every side that may act, their
 * initiatives, the card, then the round itself); "sides" rolls some sides from the tracker's buttons. Every list is
 * an array (Foundry's merge of a flag object replaces arrays), and every key is always present.
 */
export interface SideOp {
  id: string;
  kind: "round" | "sides";
  status: "applying" | "done";
  round: number;
  /** combat.round when recorded: a "round" operation moves the combat from it to `round`. */
  fromRound: number;
  /** The combatant who had the turn ("sides": keeps it). */
  currentId: string | null;
  /** Combatant id → initiative before and after (absolute values: writing twice is harmless). */
  before: [string, number | null][];
  after: [string, number | null][];
  /** Combatants that got their first initiative (dnd5e recovers "initiative" uses for them). */
  first: string[];
  /** What the card shows: each pass of dice (side → d6), the acting order, the sides that cannot act. */
  rolls: [SideId, number][][];
  groups: SideId[][];
  skipped: SideId[];
  fellBack: boolean;
  nobodyActs: boolean;
  /** Whether the operation posts a card (not when round 1 only repeats what the tracker's buttons rolled). */
  card: boolean;
  /** Sides left out of the public card (every combatant hidden): a second card goes to the GMs. */
  hide: SideId[];
  /** Finished by the active GM after an interruption. */
  resumed: boolean;
  /** What could not be done, as lang keys with data. */
  problems: { key: string; data: Record<string, string | number> }[];
  /** The GM (user and page load) that executes it, recorded with "applying" (operations.ts). */
  executor?: Executor | null;
}
