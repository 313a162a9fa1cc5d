/** Finding the token and actor a command acts on, with clear localized messages when there is none. */
import { UserError } from "../core/i18n.js";
import { canvasLike } from "./scene.js";
import { hideFlagOf } from "./hide-state.js";
import { knownTo } from "./sight.js";

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

/** A document a refusal may be about: a token, an actor or a combatant (real documents satisfy it). */
export interface OwnedDoc {
  name?: string | null;
  documentName?: string;
  id?: string | null;
  /** A token's or a combatant's: hidden from the players by a GM. */
  hidden?: boolean;
  /** A token's scene (read as `{ id }`). */
  parent?: unknown;
  /** An unlinked token's actor, and its token; a combatant's token. */
  isToken?: boolean;
  token?: unknown;
  testUserPermission(user: User, level: "OWNER"): boolean;
}

/** What kind of document a refusal names, for its neutral wording. */
type Kind = "Token" | "Actor" | "Combatant";

function kindOf(doc: OwnedDoc): Kind {
  const name = doc.documentName;
  return name === "Actor" || name === "Combatant" ? name : "Token";
}

const isDoc = (v: unknown): v is OwnedDoc =>
  typeof v === "object" && v !== null && typeof (v as OwnedDoc).testUserPermission === "function";

/**
 * Whether `user` may be told the name of `doc` (docs/security.md, "What a player learns from a refusal"). A GM and an
 * owner may. A token: not hidden by the GM (TokenDocument#hidden); one Aventure keeps hidden (its hiding state on the
 * scene) only when the user knows where it is (sight.ts `knownTo`: one of their tokens that knows where it is sees it,
 * on the scene the GM views; elsewhere, never). A world actor: one the user may see in the Actors directory (at least
 * Limited); an unlinked token's actor as its token. A combatant: one the players see in the combat tracker (neither it
 * nor its token hidden).
 */
export function mayName(user: User, doc: OwnedDoc): boolean {
  if (user.isGM || doc.testUserPermission(user, "OWNER")) return true;
  const kind = kindOf(doc);
  if (kind === "Actor") {
    if (doc.isToken === true && isDoc(doc.token)) return mayName(user, doc.token);
    // Document#testUserPermission takes any ownership level; the narrow interface names the one most callers use.
    return (doc.testUserPermission as (user: User, level: "OWNER" | "LIMITED") => boolean).call(doc, user, "LIMITED");
  }
  if (kind === "Combatant") return doc.hidden !== true && !(isDoc(doc.token) && doc.token.hidden === true);
  if (doc.hidden === true || !doc.id) return false;
  if (!hideFlagOf({ id: doc.id, parent: doc.parent })) return true;
  const sceneId =
    typeof doc.parent === "object" && doc.parent !== null ? (doc.parent as { id?: unknown }).id : undefined;
  const c = canvasLike();
  if (!c?.scene?.id || c.scene.id !== sceneId) return false;
  return knownTo(c, user)(doc.id);
}

/**
 * The refusal for a document `user` does not own: it names the document only when `user` may know it (`mayName`), else
 * it says "that token" ("that actor", "that combatant"): a player learns nothing of what the GM hid from them.
 */
export function notOwned(user: User, doc: OwnedDoc): UserError {
  if (mayName(user, doc)) return new UserError("AVENTURE.Error.NotOwner", { name: doc.name ?? "" });
  return new UserError(`AVENTURE.Error.NotOwnerUnknown.${kindOf(doc)}`);
}

/** Throws unless `user` owns `doc` (GMs own everything); the refusal names `doc` only when `user` may know it. */
export function assertOwner(user: User, doc: OwnedDoc): void {
  if (!user.isGM && !doc.testUserPermission(user, "OWNER")) throw notOwned(user, doc);
}

/** Throws unless the current user is a GM. */
export function assertGM(): void {
  if (!game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
}
