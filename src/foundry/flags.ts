/** What the module stores under flags.aventure on documents. */
export interface AventureActorFlags {
  /** Status ids that Aventure itself turned on (so it only ever removes its own). */
  applied?: Record<string, boolean>;
  /** Travel counters (RULES.md §4.3-4.4). */
  fastingDays?: number;
  thirstDays?: number;
}

/**
 * What the module stores under flags.aventure on the chat cards and requests it posts (a fall, a journey, a
 * suffocation...): each feature checks its own key field by field when it reads a card (`gmCardFlag`, cards.ts); the
 * keys that typed code writes directly are named.
 */
export interface AventureMessageFlags {
  /** An ambient-detection card (src/foundry/light/detection.ts). */
  detect?: import("./light/detection.js").DetectCard;
  [key: string]: unknown;
}

/** What the module stores under flags.aventure on scenes. */
export interface AventureSceneFlags {
  /**
   * Ambient detection: the judged pairs that had an effect, by hider then observer, as "inView,light,passive,searching,dc"
   * (null only in an update, with the "-=" deletion key).
   */
  detection?: { pairs?: Record<string, Record<string, string | null> | null> };
  /** Suffocation: the held breaths of the scene's tokens, by token id (breath/state.ts; null only with "-=" in an update). */
  breath?: Record<string, unknown>;
  /**
   * The tokens a GM marked as searching, by token id (light/searching.ts): GM-written only, as players may not update a
   * scene (null only in an update, with the "-=" deletion key).
   */
  searching?: Record<string, boolean | null>;
  /**
   * The hiding state of the scene's hidden tokens, by token id (light/hide-state.ts `HideFlag`): GM-written only, as
   * players may not update a scene (null only in an update, with the "-=" deletion key).
   */
  hides?: Record<string, import("./light/hide-state.js").HideFlag | null>;
}

/**
 * What the module stores under flags.aventure on tokens (hiding, searching, suffocation...), combats (sides, the
 * encounter, Polaris) and combatants (side, Polaris): each feature checks its own key when it reads it.
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
