/** The travel entries of the public API that are not the dialog. */
import { askGM } from "../gm.js";
import { reportError, UserError } from "../i18n.js";
import type { TravelApplyResult } from "./apply.js";
import type { TravelRequest } from "./request.js";

/**
 * api.applyTravel(request): sends a journey to the active GM, who validates and applies it (as the dialog's
 * Apply). Reports an error to the user and resolves to the result.
 */
export async function requestTravel(request: TravelRequest): Promise<TravelApplyResult> {
  try {
    const result = await askGM<TravelRequest, TravelApplyResult>("travelApply", request);
    if (!result.ok) reportError(new UserError(result.key, result.data));
    return result;
  } catch (e) {
    reportError(e);
    const err = e instanceof UserError ? e : new UserError("AVENTURE.Travel.Error.Failed", { error: String(e) });
    return { ok: false, key: err.key, data: err.data };
  }
}
