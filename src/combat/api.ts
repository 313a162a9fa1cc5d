/** What the combat feature offers the other features and the composition root (CONTRIBUTING.md). */
export { changeIntention } from "./polaris-ask.js";
export { encounterState, sideInitiativeActive, sideRoundState } from "./side-initiative.js";
export { startSideRound } from "./side-ops.js";
export { type CombatLike, type EncounterCombatState } from "./types.js";

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { combatSettings } from "./settings.js";
