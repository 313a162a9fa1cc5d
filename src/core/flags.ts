/** What the module stores under flags.aventure on documents. */
export interface AventureActorFlags {
  /** Status ids that Aventure itself turned on (so it only ever removes its own). */
  applied?: Record<string, boolean>;
  /** Travel counters (docs/rules.md §4.3-4.4). */
  fastingDays?: number;
  thirstDays?: number;
}

/**
 * What the module stores under flags.aventure on the chat messages and requests it posts: requests and receipts, and
 * the cards posted before their kind became a sub-type (card-model.ts), read through that kind's data model.
 */
export interface AventureMessageFlags {
  [key: string]: unknown;
}

/**
 * What the module stores under flags.aventure on scenes. The entries with a data model (core/flag-model.ts) are read
 * only through it: a hiding state (light/hide-state.ts), a held breath (breath/state.ts).
 */
export interface AventureSceneFlags {
  /**
   * Ambient detection: the judged pairs that had an effect, by hider then observer, each the conditions it was judged
   * in (light/detection.ts, read entry by entry through its model; a key is deleted in an update with compat.ts
   * `deletion`, whose value is null on v13 and an operator on v14).
   */
  detection?: { pairs?: Record<string, Record<string, unknown> | null> };
  /**
   * Suffocation: the held breaths of the scene's tokens, by token id (breath/state.ts; deleted with compat.ts
   * `deletion`).
   */
  breath?: Record<string, unknown>;
  /**
   * The tokens a GM marked as searching, by token id (light/searching.ts): GM-written only, as players may not update a
   * scene (deleted with compat.ts `deletion`).
   */
  searching?: Record<string, unknown>;
  /**
   * The hiding state of the scene's hidden tokens, by token id (light/hide-state.ts `HideFlag`): GM-written only, as
   * players may not update a scene (deleted with compat.ts `deletion`).
   */
  hides?: Record<string, unknown>;
}

/**
 * What the module stores under flags.aventure on tokens (hiding, searching, suffocation...), combats (sides, the
 * encounter, Polaris) and combatants (side, Polaris): each feature checks its own key when it reads it, through its
 * data model where it has one (combat/flags.ts: the side round and its operation, the encounter state, the started
 * turns, the Polaris confusion and round options; encounter/encounter.ts: an encounter's start operation).
 */
export interface AventureTokenFlags {
  [key: string]: unknown;
}
export interface AventureCombatFlags {
  [key: string]: unknown;
}
export interface AventureCombatantFlags {
  [key: string]: unknown;
}
