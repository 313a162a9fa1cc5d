/** What the pursuit feature offers the other features and the composition root (CONTRIBUTING.md). */
import type { PursuitDialog, PursuitDialogOptions } from "./PursuitDialog.js";
import { onDemand } from "../core/on-demand.js";

export { type DialogToken, type PursuitDialog, type PursuitDialogOptions } from "./PursuitDialog.js";
export { type PursuitSide } from "./groups.js";
export { type PursuitPlace, type SurpriseChoice } from "./pursuit-context.js";

/** The dialog's file (dist/aventure-PursuitDialog.js), loaded when it is first opened. */
const dialogFile = onDemand(() => import("./PursuitDialog.js"));

/** api.openPursuit(options?): the Pursuit dialog, once its file is loaded (docs/api/encounter.md). */
export async function openPursuit(options: PursuitDialogOptions = {}): Promise<PursuitDialog> {
  return (await dialogFile()).openPursuit(options);
}

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { pursuitSettings } from "./settings.js";
