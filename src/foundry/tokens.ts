/** Finding the token and actor a command acts on, with clear localized messages when there is none. */
import { UserError } from "./i18n.js";

export interface TokenLike {
  id: string | null;
  name: string;
  actor: Actor | null;
  testUserPermission(user: User, level: "OWNER"): boolean;
}

/** The controlled tokens' documents, or a UserError asking to select one. */
export function controlledTokens(): TokenDocument[] {
  const tokens = canvas?.tokens?.controlled ?? [];
  if (!tokens.length) throw new UserError("AVENTURE.Error.NoToken");
  return tokens.map((t) => t.document);
}

/** The actor of a token, or a UserError naming the token. */
export function actorOf(token: { name: string; actor: Actor | null }): Actor {
  if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
  return token.actor;
}

/** Throws unless `user` owns `doc` (GMs own everything). */
export function assertOwner(user: User, doc: { name: string; testUserPermission(user: User, level: "OWNER"): boolean }): void {
  if (!user.isGM && !doc.testUserPermission(user, "OWNER")) throw new UserError("AVENTURE.Error.NotOwner", { name: doc.name });
}

/** Throws unless the current user is a GM. */
export function assertGM(): void {
  if (!game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
}
