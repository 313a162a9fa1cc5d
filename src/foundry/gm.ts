/**
 * Who acts: automation runs on the active GM only (every hook fires on every client). Players' requests reach that GM
 * through the trusted request channel (requests.ts), never through queries (a query handler does not know its sender).
 */

/** True on exactly one connected client: the active GM's. */
export function isActiveGM(): boolean {
  return game.users.activeGM?.isSelf ?? false;
}

/** Whether `user` may act on `doc` (owner level). GMs always may. */
export function canControl(user: User, doc: { testUserPermission: (u: User, level: "OWNER") => boolean }): boolean {
  return user.isGM || doc.testUserPermission(user, "OWNER");
}

// ------------------------------------------------------------------------------------------------------------------
// Transitional: the older query-shaped calls of the features not moved yet, routed through the trusted request
// channel (the sender comes from the server, never from the payload). Removed once every feature calls
// registerRequest / sendRequest itself.
// ------------------------------------------------------------------------------------------------------------------
import { registerRequest, sendRequest } from "./requests.js";

export type QueryHandler<D, R> = (data: D, sender: User) => Promise<R> | R;

/** @deprecated use registerRequest (requests.ts). */
export function registerQuery<D, R>(name: string, handler: QueryHandler<D, R>): void {
  registerRequest<R>({ name, handle: (data, { sender }) => handler(data as D, sender) });
}

/** @deprecated use sendRequest (requests.ts). */
export function askGM<D extends object, R>(name: string, data: D, timeout = 30_000): Promise<R> {
  return sendRequest<R>(name, data, { timeout });
}
