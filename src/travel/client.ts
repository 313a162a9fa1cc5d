/** The travel entries of the public API that are not the dialog, and the card's Undo. */
import { isRulesError } from "../rules/errors.js";
import { errorMessage, reportError, t, UserError, notify } from "../core/i18n.js";
import { sendRequest } from "../core/requests.js";
import type { TravelApplyAnswer, TravelApplyResult, TravelUndoAnswer, TravelUndoResult } from "./apply.js";
import { TRAVEL_REQUEST_TIMEOUT, type TravelRequest } from "./request.js";

/** An error as plain data (a lang key and its data) for the API's results. */
function failure(e: unknown): { ok: false; key: string; data: Record<string, string | number> } {
  if (e instanceof UserError || isRulesError(e)) return { ok: false, key: e.key, data: { ...e.data } };
  return { ok: false, key: "AVENTURE.Travel.Error.Failed", data: { error: errorMessage(e) } };
}

/**
 * api.applyTravel(request): sends a journey to the active GM (request "travelApply"), who validates it and applies
 * it, or posts it as a proposal for the GMs (a player's journey, see docs/api/travel.md). Tells the user how it went
 * (a proposal: "sent to the GM"; an error in their language) and resolves to the result.
 */
export async function requestTravel(request: TravelRequest): Promise<TravelApplyResult> {
  try {
    const answer = await sendRequest<TravelApplyAnswer>("travelApply", request, { timeout: TRAVEL_REQUEST_TIMEOUT });
    if (answer.proposed) notify("info", t("AVENTURE.Travel.proposed"));
    return { ok: true, messageId: answer.messageId, proposed: answer.proposed };
  } catch (e) {
    reportError(e);
    return failure(e);
  }
}

/**
 * The card's Undo button (GM): the active GM undoes the journey (request "travelUndo"); this client says how it went.
 */
export async function requestUndo(messageId: string): Promise<TravelUndoResult> {
  try {
    const answer = await sendRequest<TravelUndoAnswer>("travelUndo", { messageId });
    notify("info", t("AVENTURE.Travel.undone"));
    if (answer.changedSince.length)
      notify("warn", t("AVENTURE.Travel.undoDrift", { names: answer.changedSince.join(", ") }));
    if (answer.missing.length) notify("warn", t("AVENTURE.Travel.undoMissing", { names: answer.missing.join(", ") }));
    if (answer.timeLeft) notify("warn", t("AVENTURE.Travel.undoTimeLeft"));
    return { ok: true, ...answer };
  } catch (e) {
    reportError(e);
    return failure(e);
  }
}
