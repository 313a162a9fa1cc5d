/** What the encounter feature offers: its dialog (public API, compendium macros, tracker button) and its requests. */
import type { EncounterDialog } from "./EncounterDialog.js";
import { onDemand } from "../core/on-demand.js";
import { assertGM } from "../light/api.js";
import { guarded } from "../core/i18n.js";
import { ENCOUNTER_PLACES, type EncounterPlace } from "../rules/encounter.js";

/** The dialog's file (dist/aventure-EncounterDialog.js), loaded when it is first opened. */
const dialogFile = onDemand(() => import("./EncounterDialog.js"));

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
    const { EncounterDialog } = await dialogFile();
    const app = new EncounterDialog(where ? { where } : {});
    await app.render({ force: true });
    return app;
  });
}
export { registerEncounterRequests } from "./requests.js";

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { encounterSettings } from "./settings.js";
