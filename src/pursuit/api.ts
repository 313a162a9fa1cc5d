/** What the pursuit feature offers the other features and the composition root (CONTRIBUTING.md). */
export { type DialogToken, type PursuitDialog, type PursuitDialogOptions, openPursuit } from "./PursuitDialog.js";
export { type PursuitSide } from "./groups.js";
export { type PursuitPlace, type SurpriseChoice } from "./pursuit-context.js";
