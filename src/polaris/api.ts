/** What the Polaris feature offers the other features and the composition root: its test dialog and actor readers. */
import type { PolarisTestDialog, PolarisTestDialogOptions } from "./PolarisTestDialog.js";
import { guarded } from "../core/i18n.js";
import { onDemand } from "../core/on-demand.js";

/** The window's file (dist/aventure-PolarisTestDialog.js), loaded when it is first opened. */
const dialogFile = onDemand(() => import("./PolarisTestDialog.js"));

/**
 * api.openPolarisTest({actor}?): the Polaris test dialog (anyone; the secret difficulty and the countdown are GM only).
 */
export async function openPolarisTest(options: PolarisTestDialogOptions = {}): Promise<PolarisTestDialog | undefined> {
  return guarded(async () => {
    // The window is loaded when it is first opened: the combat feature reads Polaris actors through this file.
    const { PolarisTestDialog } = await dialogFile();
    const app = new PolarisTestDialog(options);
    await app.render({ force: true });
    return app;
  });
}
export { actorAdaptation, actorPolarisScores } from "./actor.js";
export { registerPolarisActor } from "./model.js";
export { parseChance, parseWhole, polarisCardContext } from "./polaris-context.js";
export { rollPolarisTest } from "./test.js";
