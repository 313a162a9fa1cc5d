/** Opening the encounter and Polaris test dialogs (public API, compendium macros, tracker button). */
import { EncounterDialog } from "../../apps/EncounterDialog.js";
import { PolarisTestDialog, type PolarisTestDialogOptions } from "../../apps/PolarisTestDialog.js";
import { assertGM } from "../tokens.js";
import { guarded } from "../i18n.js";

/** api.openEncounter(): the encounter dialog, GM only (sides from the selected tokens). */
export async function openEncounter(): Promise<EncounterDialog | undefined> {
  return guarded(async () => {
    assertGM();
    const app = new EncounterDialog();
    await app.render({ force: true });
    return app;
  });
}

/** api.openPolarisTest({actor}?): the Polaris test dialog (anyone; the secret difficulty and the countdown are GM only). */
export async function openPolarisTest(options: PolarisTestDialogOptions = {}): Promise<PolarisTestDialog | undefined> {
  return guarded(async () => {
    const app = new PolarisTestDialog(options);
    await app.render({ force: true });
    return app;
  });
}
