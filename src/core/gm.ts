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
