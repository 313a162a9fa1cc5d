/**
 * Checks shared by every reader of stored state and requests (cards, flags, settings, request payloads): the module's
 * own check on top of what Foundry validates, written once.
 */

/** A document id as Aventure accepts one: 1 to 64 letters and digits (Foundry's own ids are 16). */
export const DOCUMENT_ID = /^[A-Za-z0-9]{1,64}$/;

/** Whether `v` is a document id (DOCUMENT_ID). */
export const isDocumentId = (v: unknown): v is string => typeof v === "string" && DOCUMENT_ID.test(v);

/** Whether `v` is a plain record (an object, not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
