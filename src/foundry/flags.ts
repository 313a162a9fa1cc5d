/** What the module stores under flags.aventure on documents. */
export interface AventureActorFlags {
  /** Status ids that Aventure itself turned on (so it only ever removes its own). */
  applied?: Record<string, boolean>;
  /** Travel counters (RULES.md §4.3-4.4). */
  fastingDays?: number;
  thirstDays?: number;
}
