/** The travelling party: who is in it by default, and what is read of each actor. */
import { MODULE_ID } from "../../constants.js";
import type { ActorAdapter, ActorLike } from "../adapters/adapter.js";
import type { MemberSnapshot } from "./request.js";

/** A counter flag as a finite, non-negative number (anything else, e.g. a hand-edited flag, counts as 0). */
function counter(actor: ActorLike, key: "fastingDays" | "thirstDays", integer: boolean): number {
  const v = actor.getFlag(MODULE_ID, key);
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return 0;
  return integer ? Math.floor(v) : v;
}

/** What the rules need of one actor, read through the system adapter and the module's flags. */
export function readSnapshot(adapter: ActorAdapter, actor: ActorLike): MemberSnapshot {
  const stats = adapter.read(actor);
  return {
    actorId: actor.id!,
    name: actor.name,
    conMod: stats.conMod,
    passivePerception: stats.passivePerception,
    exhaustion: stats.exhaustion,
    fasting: counter(actor, "fastingDays", false),
    thirst: counter(actor, "thirstDays", true),
  };
}

export function actorById(id: string): Actor.Implementation | null {
  return game.actors.get(id) ?? null;
}

function unique(ids: (string | null | undefined)[]): string[] {
  return [...new Set(ids.filter((x): x is string => typeof x === "string" && x !== ""))];
}

/** Whether a player (not a GM) owns the actor. */
function playerOwned(actor: Actor): boolean {
  return game.users.some((u) => !u.isGM && actor.testUserPermission(u, "OWNER"));
}

/**
 * The default party: the selected tokens' actors; else the player-owned characters with a token on the
 * scene; else the characters assigned to the players.
 */
export function defaultPartyIds(): string[] {
  const actorOf = (t: { document: { actor: Actor | null } }) => t.document.actor;
  const selected = unique((canvas?.tokens?.controlled ?? []).map((t) => actorOf(t)?.id));
  if (selected.length) return selected;
  const onScene = unique(
    (canvas?.tokens?.placeables ?? [])
      .map((t) => actorOf(t))
      .filter((a): a is Actor => !!a && (a.type as string) === "character" && playerOwned(a))
      .map((a) => a.id),
  );
  if (onScene.length) return onScene;
  return unique(game.users.filter((u) => !u.isGM).map((u) => u.character?.id));
}

/** The actors this user may add to the party (those they can see), sorted by name. */
export function addableActors(): { id: string; name: string }[] {
  return game.actors.contents
    .filter((a) => a.testUserPermission(game.user, "LIMITED"))
    .map((a) => ({ id: a.id!, name: a.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
