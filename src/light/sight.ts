/**
 * Who sees whom on the viewed scene, by the §6 prerequisite (docs/rules.md §6, `canTryToHide`): line of sight through
 * walls,
 * the light at the one seen as the other's senses perceive it at that distance, heavy obscurity, invisibility.
 *
 * Two uses, both on the active GM: the hide prerequisite (hide.ts: no creature that may notice the hider sees it), and
 * what a player may know of a token (`knownTo`): a refused hide, a hide's reply, a proposal's answer name only the
 * tokens that player can see.
 *
 * *Decision* (docs/security.md): a player knows a token when they own it, or when it is not hidden by the GM
 * (TokenDocument#hidden, "only GMs see it") and one of the player's tokens on the scene that can see (not blinded by
 * anything but Aventure's own light effect) sees it by the same prerequisite; a token Aventure keeps hidden is known
 * only to the player's tokens that know where it is (its `seenBy`). Foundry's own token visibility (vision polygons,
 * fog of war, a scene without token vision) is not consulted: a token this test calls unknown stays unnamed, even where
 * Foundry would draw it for the player.
 */
import { canTryToHide, type HideObserver } from "../rules/index.js";
import { adapterFor, isOwnStatus, type ActorLike } from "../actors/api.js";
import { getSetting } from "../core/settings.js";
import { hideFlagOf } from "./hide-state.js";
import { metresBetween, tokenCenter, tokensInSight, type CanvasLike, type TokenObjLike } from "./scene.js";
import { tokenLevel } from "../core/compat.js";
import { tokenSenses } from "./senses.js";
import { lightTracker, placeable } from "./tracker.js";

export function invisible(actor: ActorLike): boolean {
  return adapterFor().hasCondition(actor, "invisible");
}

/** Able to see at all: not blinded, or blinded only by Aventure's own light effect (darkness, thick fog). */
export function ableToSee(actor: ActorLike): boolean {
  const blinded = adapterFor().statusId("blinded");
  return !blinded || !actor.statuses.has(blinded) || isOwnStatus(actor, blinded);
}

/** Observer `o` looking at `target`: line of sight, its senses, the distance (the rules' HideObserver). */
export function observerInput(c: CanvasLike, target: TokenObjLike, o: TokenObjLike): HideObserver {
  const a = { ...tokenCenter(c, target), elevation: target.document.elevation, level: tokenLevel(target.document) };
  const b = { ...tokenCenter(c, o), elevation: o.document.elevation, level: tokenLevel(o.document) };
  return {
    id: o.id,
    hasLineOfSight: tokensInSight(c, b, a),
    senses: tokenSenses(c, o.document).senses,
    distance: metresBetween(c, a, b),
  };
}

/**
 * Whether any of `watchers` sees `target` now (the light at the target as each perceives it, obscurity, invisibility).
 */
function seenByAny(c: CanvasLike, target: TokenObjLike, watchers: readonly TokenObjLike[]): boolean {
  if (!watchers.length) return false;
  const state = lightTracker.stateOf(target.id);
  if (!state) return false;
  const actor = target.document.actor as ActorLike | null;
  const attempt = canTryToHide({
    ruleset: getSetting("ruleset"),
    hiderLight: state.light.level,
    hiderObscurity: state.obscurity,
    invisible: actor ? invisible(actor) : false,
    observers: watchers.map((w) => observerInput(c, target, w)),
  });
  return attempt.seenBy.length > 0;
}

/**
 * What `user` may know of the tokens of the viewed scene: a test by token id (memoised for one answer). A GM knows
 * every token. See the decision at the top of this file.
 */
export function knownTo(c: CanvasLike, user: User): (tokenId: string) => boolean {
  if (user.isGM) return () => true;
  const owns = (t: TokenObjLike) => t.document.testUserPermission(user, "OWNER");
  const eyes = c.tokens.placeables.filter(
    (t) => owns(t) && (!t.document.actor || ableToSee(t.document.actor as ActorLike)),
  );
  const memo = new Map<string, boolean>();
  const known = (id: string): boolean => {
    const tok = placeable(c, id);
    if (!tok) return false;
    if (owns(tok)) return true;
    if (tok.document.hidden) return false;
    const hidden = hideFlagOf(tok.document);
    const watchers = hidden ? eyes.filter((e) => hidden.seenBy?.includes(e.id)) : eyes;
    return seenByAny(c, tok, watchers);
  };
  return (id) => {
    let v = memo.get(id);
    if (v === undefined) memo.set(id, (v = known(id)));
    return v;
  };
}

/** The ids of the users who are players (not GMs) and own this token. */
export function playerOwners(doc: { testUserPermission(user: User, level: "OWNER"): boolean }): string[] {
  return game.users.filter((u) => !u.isGM && doc.testUserPermission(u, "OWNER")).map((u) => u.id!);
}
