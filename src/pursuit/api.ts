/** What the pursuit feature offers the other features and the composition root (CONTRIBUTING.md). */
export { type DialogToken, type PursuitDialog, type PursuitDialogOptions, openPursuit } from "./PursuitDialog.js";
export { type PursuitSide } from "./groups.js";
export { type PursuitPlace, type SurpriseChoice } from "./pursuit-context.js";

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { pursuitSettings } from "./settings.js";
