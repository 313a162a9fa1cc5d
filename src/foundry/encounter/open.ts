/** Opening the encounter and Polaris test dialogs (public API, compendium macros, tracker button). */
import { EncounterDialog } from "../../apps/EncounterDialog.js";
import { PolarisTestDialog, type PolarisTestDialogOptions } from "../../apps/PolarisTestDialog.js";
import { assertGM } from "../tokens.js";
import { guarded } from "../i18n.js";
import { ENCOUNTER_PLACES, type EncounterPlace } from "../../rules/encounter.js";

/**
 * api.openEncounter(options?): the encounter dialog, GM only (sides from the selected tokens). `options.where`
 * prefills the place ("dungeon", "wilderness", "water"; an exploration card's encounter opens it for the dungeon).
 */
export async function openEncounter(options?: { where?: EncounterPlace }): Promise<EncounterDialog | undefined> {
  return guarded(async () => {
    assertGM();
    const where =
      options && typeof options === "object" && (ENCOUNTER_PLACES as readonly unknown[]).includes(options.where)
        ? options.where
        : undefined;
    const app = new EncounterDialog(where ? { where } : {});
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
