/**
 * The small surface of Foundry's Combat and Combatant documents that the combat glue uses (real documents
 * satisfy it; the test fake implements exactly this). Kept narrow so the glue stays easy to check.
 */
import type { SideId } from "../encounter/sides.js";

export interface TokenLike {
  id: string | null;
  name: string;
  disposition: number;
  actor: Actor | null;
}

export interface CombatantLike {
  id: string | null;
  name: string;
  initiative: number | null;
  token: TokenLike | null;
  actor: Actor | null;
  isOwner: boolean;
  hidden?: boolean;
  defeated?: boolean;
  getFlag(scope: "aventure", key: string): unknown;
  testUserPermission(user: User, level: "OWNER"): boolean;
}

export interface CombatLike {
  id: string | null;
  round: number;
  turn: number | null;
  started: boolean;
  turns: CombatantLike[];
  combatants: { contents: CombatantLike[]; get(id: string): CombatantLike | undefined };
  getFlag(scope: "aventure", key: string): unknown;
  update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
  updateEmbeddedDocuments(type: "Combatant", updates: Record<string, unknown>[], options?: Record<string, unknown>): Promise<unknown>;
  nextRound(): Promise<unknown>;
}

/** What an encounter leaves on the combat it starts (flags.aventure.encounter). */
export interface EncounterCombatState {
  /** Sides surprised: their combatants are skipped in round 1. */
  surprised: SideId[];
  /** Sides that act in round 1 (RULES.md §7.2; [] when nobody acts). */
  firstRound: SideId[];
  /** Whether the surprised marker was put on the surprised combatants' actors (removed in round 2). */
  marked: boolean;
}

/** The side initiative of the current round (flags.aventure.sides). Arrays, so Foundry's merge replaces them. */
export interface SideRoundState {
  round: number;
  /** Side → value written on its combatants. */
  values: [SideId, number][];
  /** The acting order: groups of sides acting together. */
  groups: SideId[][];
}

/** Per-round Polaris options of a combatant (flags.aventure.polaris); ignored once `round` is past. */
export interface PolarisRoundFlags {
  round: number;
  hasten?: boolean;
  delayTo?: number | null;
}
