/**
 * Who acts: automation runs on the active GM only (every hook fires on every client), and players' requests
 * go to that GM as queries, which validate what they receive.
 */
import { MODULE_ID } from "../constants.js";
import { UserError } from "./i18n.js";

/** True on exactly one connected client: the active GM's. */
export function isActiveGM(): boolean {
  return game.users.activeGM?.isSelf ?? false;
}

export type QueryHandler<D, R> = (data: D, sender: User) => Promise<R> | R;

const handlers = new Map<string, QueryHandler<never, unknown>>();

/**
 * Registers `handler` for `aventure.<name>` in CONFIG.queries (call in `init`). The handler receives the
 * sending user; it must validate the data and the user's permissions itself.
 */
export function registerQuery<D, R>(name: string, handler: QueryHandler<D, R>): void {
  const full = `${MODULE_ID}.${name}`;
  handlers.set(full, handler as QueryHandler<never, unknown>);
  const queries = CONFIG.queries as unknown as Record<string, unknown>;
  queries[full] = async (data: D & { userId?: string }, options?: { user?: User }) => {
    if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
    // Foundry tells the handler who sent the query where it can; otherwise the id the client put in the data.
    const sender = options?.user ?? (data?.userId ? game.users.get(data.userId) : undefined);
    if (!sender) throw new UserError("AVENTURE.Error.UnknownUser");
    return handler(data, sender);
  };
}

/**
 * Runs a registered query on the active GM: directly when this client is that GM, otherwise through
 * `User#query`. Throws a UserError when no GM is connected.
 */
export async function askGM<D extends object, R>(name: string, data: D, timeout = 30_000): Promise<R> {
  const full = `${MODULE_ID}.${name}`;
  const gm = game.users.activeGM;
  if (!gm) throw new UserError("AVENTURE.Error.NoActiveGM");
  const payload = { ...data, userId: game.user.id };
  if (gm.isSelf) {
    const handler = handlers.get(full) as QueryHandler<D, R> | undefined;
    if (!handler) throw new Error(`aventure | no query handler ${full}`);
    return handler(payload, game.user);
  }
  const query = (gm as unknown as { query: (n: string, d: unknown, o: { timeout: number }) => Promise<R> }).query;
  return query.call(gm, full, payload, { timeout });
}

/** Whether `user` may act on `doc` (owner level). GMs always may. */
export function canControl(user: User, doc: { testUserPermission: (u: User, level: "OWNER") => boolean }): boolean {
  return user.isGM || doc.testUserPermission(user, "OWNER");
}
