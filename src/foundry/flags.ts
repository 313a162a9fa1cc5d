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
 * suffocation...): each feature checks its own key field by field when it reads a card (cards.ts).
 */
export type AventureMessageFlags = Record<string, unknown>;
