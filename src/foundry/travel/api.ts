/** The travel entries of the public API that are not the dialog. */
import { askGM } from "../gm.js";
import { reportError, UserError } from "../i18n.js";
import { t } from "../i18n.js";
import type { TravelApplyResult, TravelUndoResult } from "./apply.js";
import type { TravelRequest } from "./request.js";

/** A long journey rolls hundreds of saves on the GM: a player's client waits up to 5 minutes for the answer. */
export const TRAVEL_QUERY_TIMEOUT = 300_000;

/**
 * api.applyTravel(request): sends a journey to the active GM, who validates and applies it (as the dialog's
 * Apply). Reports an error to the user and resolves to the result.
 */
export async function requestTravel(request: TravelRequest): Promise<TravelApplyResult> {
  try {
    const result = await askGM<TravelRequest, TravelApplyResult>("travelApply", request, TRAVEL_QUERY_TIMEOUT);
    if (!result.ok) reportError(new UserError(result.key, result.data));
    return result;
  } catch (e) {
    reportError(e);
    const err = e instanceof UserError ? e : new UserError("AVENTURE.Travel.Error.Failed", { error: String(e) });
    return { ok: false, key: err.key, data: err.data };
  }
}

/** The card's Undo button (GM): the active GM undoes the journey; this client says how it went. */
export async function requestUndo(messageId: string): Promise<TravelUndoResult> {
  try {
    const result = await askGM<{ messageId: string }, TravelUndoResult>("travelUndo", { messageId });
    if (!result.ok) {
      reportError(new UserError(result.key, result.data));
      return result;
    }
    ui.notifications?.info(t("AVENTURE.Travel.undone"));
    if (result.changedSince.length) ui.notifications?.warn(t("AVENTURE.Travel.undoDrift", { names: result.changedSince.join(", ") }));
    return result;
  } catch (e) {
    reportError(e);
    const err = e instanceof UserError ? e : new UserError("AVENTURE.Travel.Error.Failed", { error: String(e) });
    return { ok: false, key: err.key, data: err.data };
  }
}
