/** The travelling party: who is in it by default, and what is read of each actor; dnd5e's group (party) actor. */
import { TRAVEL_PACES, type TravelMode, type TravelPace } from "../rules/travel.js";
import { clean, toMetres } from "../rules/units.js";
import { isDocumentId, isRecord } from "../core/values.js";
import type { ActorAdapter, ActorLike } from "../actors/api.js";
import type { MemberSnapshot } from "./request.js";
import { counterDays } from "./counters.js";

/** What the rules need of one actor, read through the system adapter and the module's flags. */
export function readSnapshot(adapter: ActorAdapter, actor: ActorLike): MemberSnapshot {
  const stats = adapter.read(actor);
  return {
    actorId: actor.id!,
    name: actor.name,
    conMod: stats.conMod,
    passivePerception: stats.passivePerception,
    exhaustion: stats.exhaustion,
    fasting: counterDays(actor, "fastingDays"),
    thirst: counterDays(actor, "thirstDays"),
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

// ------------------------------------------------------------------------------------------------ dnd5e's group actor

/**
 * A vehicle of a dnd5e party, as the Travel dialog offers it: the journey's mode and, for a boat or a flyer, its speed.
 */
export interface PartyVehicle {
  actorId: string;
  name: string;
  mode: TravelMode;
  /** km/h, for a boat or an air vehicle, from its travel speed; null when dnd5e gives none (typed in the dialog). */
  speedKmh: number | null;
  /** dnd5e's primary vehicle of the group (`system.primaryVehicle`). */
  primary: boolean;
}

/** A dnd5e group (party) actor read for a journey: its travellers, its pace and its vehicles. */
export interface Dnd5eParty {
  actorId: string;
  name: string;
  /** The creature members, in the group's order (vehicles and groups left out). */
  memberIds: string[];
  /** The group's travel pace as dnd5e sets it (slowed to "slow" by a slowed member), or null. */
  pace: TravelPace | null;
  vehicles: PartyVehicle[];
}

const get = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (isRecord(o) ? o[k] : undefined), v);

/**
 * The actor id a group member entry names. dnd5e 3.0–6.0 (module/data/actor/group.mjs): `system.members` is an array
 * of `{actor}`, the actor a ForeignDocumentField (prepared: the Actor; source: its id); before 3.0 the members were
 * the actors or their ids themselves. A uuid ("Actor.<id>") is read too.
 */
export function memberRef(entry: unknown): string | null {
  const ref = isRecord(entry) && "actor" in entry ? entry.actor : entry;
  if (typeof ref === "string") {
    const id = ref.startsWith("Actor.") ? ref.slice("Actor.".length) : ref;
    return isDocumentId(id) ? id : null;
  }
  const id = get(ref, "id");
  return typeof id === "string" && id !== "" ? id : null;
}

/** dnd5e's travel pace of a group: getTravelPace() (5.2+, slowed members make it slow), else the pace field. */
function groupPace(system: unknown): TravelPace | null {
  let pace: unknown;
  const fn = get(system, "getTravelPace");
  if (typeof fn === "function") {
    try {
      pace = get((fn as () => unknown).call(system), "pace", "value");
    } catch {
      pace = undefined;
    }
  }
  // 5.2+: system.attributes.travel.pace; 4.x–5.1: system.attributes.movement.pace.
  pace ??= get(system, "attributes", "travel", "pace") ?? get(system, "attributes", "movement", "pace");
  return typeof pace === "string" && (TRAVEL_PACES as readonly string[]).includes(pace) ? (pace as TravelPace) : null;
}

/**
 * A dnd5e vehicle as a journey mode (docs/rules.md §2.5): a land vehicle travels at normal pace ("vehicle"); a water
 * vehicle is a boat and an air vehicle a special mount, at their own speed: dnd5e 5.2+'s
 * `system.attributes.travel.speeds.<water|air>` in its travel unit (mph or kph), a mile being 1.5 km (module units).
 */
function partyVehicle(actor: Actor, primary: boolean): PartyVehicle {
  const sys: unknown = actor.system;
  const type = get(sys, "details", "type");
  const mode: TravelMode = type === "water" ? "boat" : type === "air" ? "custom" : "vehicle";
  let speedKmh: number | null = null;
  if (mode !== "vehicle") {
    const v = get(sys, "attributes", "travel", "speeds", type as string);
    const units = get(sys, "attributes", "travel", "units");
    if (typeof v === "number" && Number.isFinite(v) && v > 0 && v <= 1000)
      speedKmh = clean(toMetres(v, units === "kph" ? "km" : "mi") / 1000);
  }
  return { actorId: actor.id!, name: actor.name, mode, speedKmh, primary };
}

/** A dnd5e group (party) actor read for a journey, or null for any other actor or system. */
export function dnd5eParty(actor: unknown): Dnd5eParty | null {
  if (game.system.id !== "dnd5e" || !isRecord(actor) || actor.type !== "group" || typeof actor.id !== "string")
    return null;
  const system: unknown = actor.system;
  const entries = get(system, "members");
  const memberIds: string[] = [];
  const vehicles: PartyVehicle[] = [];
  const primaryId = memberRef(get(system, "primaryVehicle"));
  for (const entry of Array.isArray(entries) ? entries : []) {
    const id = memberRef(entry);
    const member = id ? game.actors.get(id) : undefined;
    if (!member || memberIds.includes(member.id!) || vehicles.some((v) => v.actorId === member.id)) continue;
    const type = member.type as string;
    if (type === "group") continue;
    if (type === "vehicle") vehicles.push(partyVehicle(member, member.id === primaryId));
    else memberIds.push(member.id!);
  }
  vehicles.sort((a, b) => Number(b.primary) - Number(a.primary));
  return {
    actorId: actor.id,
    name: typeof actor.name === "string" ? actor.name : actor.id,
    memberIds,
    pace: groupPace(system),
    vehicles,
  };
}
