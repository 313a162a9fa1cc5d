/**
 * The values of the ambient-detection card (docs/rules.md §6), shared by its schema (hide-cards.ts) and its template
 * context (hide-card-context.ts) without either importing the other.
 */

/** What became of one notice of the ambient-detection card. */
export const DETECT_ROW_STATUSES = ["pending", "revealed", "ignored", "gone"] as const;
export type DetectRowStatus = (typeof DETECT_ROW_STATUSES)[number];
/** Why the notice came with a penalty: the hider was seen in dim light, or through light fog or foliage. */
export const DETECT_REASONS = ["none", "dim", "obscured"] as const;
export type DetectReason = (typeof DETECT_REASONS)[number];
/** Why a token was left out of ambient detection (the card's footnote). */
export const DETECT_SKIPS = ["noActor", "noPassive", "noStealth"] as const;
export type DetectSkipReason = (typeof DETECT_SKIPS)[number];
