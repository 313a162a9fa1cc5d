/**
 * The encounter's request ("encounterStart": the active GM creates and starts the combat) and its recovery, registered
 * at init. What the active GM runs (encounter.ts, with the dialog's side of it) is loaded on demand: when a GM first
 * runs the request, or when a GM's recovery finds a start left "applying" (CONTRIBUTING.md "How a window is loaded").
 */
import { featureHandler } from "../core/features.js";
import { MODULE_ID } from "../core/constants.js";
import { onDemand } from "../core/on-demand.js";
import { registerRecovery } from "../core/operations.js";
import { registerRequest } from "../core/requests.js";
import { registerEncounterCard } from "./card.js";

const executor = onDemand(() => import("./encounter.js"));

/**
 * Whether a combat carries an encounter start marked "applying": a cheap look at the raw flag, before the executor
 * (which reads it field by field and finishes only what is valid) is loaded.
 */
function startLeftApplying(): boolean {
  return (game.combats?.contents ?? []).some(
    (c) => foundry.utils.getProperty(c, `flags.${MODULE_ID}.encounterStart.status`) === "applying",
  );
}

export function registerEncounterRequests(): void {
  registerEncounterCard();
  registerRequest({
    name: "encounterStart",
    gmOnly: true,
    handle: featureHandler("encounter", async (data: unknown) => (await executor()).onEncounterStartRequest(data)),
  });
  registerRecovery("encounterStart", async () => {
    if (startLeftApplying()) await (await executor()).recoverEncounterStarts();
  });
}
