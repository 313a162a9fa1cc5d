/**
 * The Travel dialog's request: what the dialog (or a macro) sends to the active GM, and how the GM turns it
 * into the rules' TravelInput with the actors' own data. Pure: no Foundry globals (tested directly).
 *
 * A request names actors by id and says what each eats, drinks, where it marches and what it does; the
 * numbers that matter for the rules (exhaustion, fasting and thirst counters, CON modifier, passive
 * Perception) are read from the actors on the GM's side. The CON modifier and passive Perception sent in the
 * request are used only for an actor whose sheet does not provide them (systems without those fields).
 */
import {
  MARCHING_POSITIONS,
  RATION_LEVELS,
  SURVIVAL_CON_MOD_RANGE,
  TRAVEL_ACTIVITIES,
  TRAVEL_MODES,
  TRAVEL_PACES,
  TRAVEL_RULES,
  TRAVEL_SURVIVAL_DC,
  TRAVEL_TERRAINS,
  type MarchingPosition,
  type RationLevel,
  type TravelActivity,
  type TravelInput,
  type TravelLegInput,
  type TravelMode,
  type TravelPace,
  type TravelTerrain,
} from "../rules/travel.js";
import type { RulesetId } from "../rules/rulesets.js";
import { OSE_TERRAINS, type OseTerrain } from "../rules/ose-wilderness.js";
import { RulesError } from "../rules/errors.js";
import { bool, num, oneOf, type NumberConstraints } from "../rules/validate.js";
import { DOCUMENT_ID } from "../core/values.js";

/** A long journey rolls hundreds of saves on the GM: a client waits up to 5 minutes for the answer. */
export const TRAVEL_REQUEST_TIMEOUT = 300_000;

export interface TravelMemberRequest {
  actorId: string;
  food: RationLevel;
  water: RationLevel;
  position: MarchingPosition;
  activity: TravelActivity;
  /** Only used when the actor's sheet has no Constitution modifier. */
  conMod: number | null;
  /** Only used when the actor's sheet has no passive Perception. */
  passivePerception: number | null;
}

/**
 * A journey along a route drawn on a scene (docs/rules.md §11): the route's points in scene pixels, the party's tokens in
 * marching order (moved to the point reached on Apply), and the travel days to walk of it (null: the whole route).
 * The legs are measured again from the scene's grid and regions by the GM who applies it.
 */
export interface TravelRouteRequest {
  sceneId: string;
  points: { x: number; y: number }[];
  tokenIds: string[];
  days: number | null;
}

export interface TravelRequest {
  pace: TravelPace;
  /** The terrain of a journey given by distance or duration (a route's legs have their own). */
  terrain: TravelTerrain;
  mode: TravelMode;
  /** km/h, for boat and custom. */
  speedKmh: number | null;
  /** Metres, or null when a duration is given. */
  distance: number | null;
  /** Seconds, or null when a distance is given. */
  duration: number | null;
  hoursPerDay: number;
  hot: boolean;
  stealth: boolean;
  lostChance: number;
  /** The DC of the Wisdom (Survival) checks of members navigating, tracking or foraging (docs/rules.md §2.6). */
  survivalDC: number;
  /** A journey along a route instead of a distance or a duration. */
  route: TravelRouteRequest | null;
  members: TravelMemberRequest[];
  /**
   * An Old-School Essentials wilderness journey (docs/rules.md §12) instead of the pace, terrain, hours and saves of
   * §2: present only then (the request's pace, mode, hours, lost chance and Survival DC are ignored).
   */
  ose?: OseTravelRequest;
}

/** The Old-School Essentials part of a request (docs/rules.md §12). */
export interface OseTravelRequest {
  /** The terrain of a journey by distance, and of a route's open ground (outside regions with an OSE terrain). */
  openTerrain: OseTerrain;
  /** Base movement rate in metres; null: the slowest member's, read from the actors. */
  baseMetres: number | null;
  forcedMarch: boolean;
  flying: boolean;
  guide: boolean;
  river: boolean;
  forage: boolean;
  restWhenDue: boolean;
  /** Animals eating a ration a day. */
  animals: number;
  /** Rations carried (counted on the card), or null: not counted. */
  rations: number | null;
  /** Travel days since the party last rested, before the journey. */
  daysSinceRest: number;
  /** The day before was a forced march: the first day is a day of rest. */
  restFirst: boolean;
}

/** The most animals and rations a request may name (a sanity bound). */
export const OSE_REQUEST_LIMITS = { baseMetres: 1000, animals: 500, rations: 100_000, daysSinceRest: 1000 } as const;

/** Checks the Old-School Essentials part of a request received from anyone. */
export function parseOse(raw: unknown): OseTravelRequest {
  const o = record("ose", raw);
  const base =
    o.baseMetres === undefined || o.baseMetres === null
      ? null
      : positive("ose.baseMetres", o.baseMetres, OSE_REQUEST_LIMITS.baseMetres);
  return {
    openTerrain: oneOf("ose.openTerrain", o.openTerrain ?? "clear", OSE_TERRAINS),
    baseMetres: base,
    forcedMarch: bool("ose.forcedMarch", o.forcedMarch, false),
    flying: bool("ose.flying", o.flying, false),
    guide: bool("ose.guide", o.guide, false),
    river: bool("ose.river", o.river, false),
    forage: bool("ose.forage", o.forage, false),
    restWhenDue: bool("ose.restWhenDue", o.restWhenDue, false),
    animals:
      o.animals === undefined
        ? 0
        : num("ose.animals", o.animals, { integer: true, min: 0, max: OSE_REQUEST_LIMITS.animals }),
    rations:
      o.rations === undefined || o.rations === null
        ? null
        : num("ose.rations", o.rations, { integer: true, min: 0, max: OSE_REQUEST_LIMITS.rations }),
    daysSinceRest:
      o.daysSinceRest === undefined
        ? 0
        : num("ose.daysSinceRest", o.daysSinceRest, { integer: true, min: 0, max: OSE_REQUEST_LIMITS.daysSinceRest }),
    restFirst: bool("ose.restFirst", o.restFirst, false),
  };
}

/** What the GM reads of each actor before planning (see party.ts). */
export interface MemberSnapshot {
  actorId: string;
  name: string;
  conMod: number | null;
  passivePerception: number | null;
  /** null: the system has no exhaustion the adapter can read (exhaustion is then left alone). */
  exhaustion: number | null;
  fasting: number;
  thirst: number;
}

/** Most members a request may name (a sanity bound on what a player can make the GM roll). */
export const MAX_TRAVEL_MEMBERS = 50;

/**
 * The ranges a request's numbers must fall in, checked on the GM before anything else (a forged request from the
 * console is refused here, with the field's name). The rules check their own bounds again (1000 days at most).
 */
export const TRAVEL_REQUEST_LIMITS = {
  /** Metres: 1 000 000 km, far beyond what 1000 days of travel cover; the rules then refuse beyond 1000 days. */
  distance: 1e9,
  /** Seconds: 1000 days. */
  duration: TRAVEL_RULES.maxDays * 86400,
  hoursPerDay: TRAVEL_RULES.maxHoursPerDay,
  /** km/h, for boats and special mounts (the dialog's bound too). */
  speedKmh: 1000,
  lostChance: 100,
  passivePerception: 100,
} as const;

/** Actor ids: Foundry's ids are 16 letters and digits; anything else is not an id. */

/** Most points of a route, and most tokens moved along it. */
export const MAX_ROUTE_POINTS = 5000;
export const MAX_ROUTE_TOKENS = 50;
/** Coordinates of a route's points: far beyond any scene (Foundry scenes are at most 50,000 px wide). */
const MAX_COORDINATE = 1e7;

/** Checks a route received from anyone: a scene id, finite points, token ids, a number of days or null. */
export function parseRoute(raw: unknown): TravelRouteRequest {
  const r = record("route", raw);
  if (typeof r.sceneId !== "string" || !DOCUMENT_ID.test(r.sceneId))
    throw new RulesError("AVENTURE.Error.Missing", { name: "route.sceneId" });
  if (!Array.isArray(r.points)) throw new RulesError("AVENTURE.Error.Missing", { name: "route.points" });
  if (r.points.length > MAX_ROUTE_POINTS) {
    throw new RulesError("AVENTURE.Error.OutOfRange", {
      name: "route.points",
      value: r.points.length,
      min: 2,
      max: MAX_ROUTE_POINTS,
    });
  }
  const points = (r.points as unknown[]).map((p, i) => {
    const q = record(`route.points[${i}]`, p);
    return {
      x: num(`route.points[${i}].x`, q.x, { min: -MAX_COORDINATE, max: MAX_COORDINATE }),
      y: num(`route.points[${i}].y`, q.y, { min: -MAX_COORDINATE, max: MAX_COORDINATE }),
    };
  });
  const ids = r.tokenIds === undefined ? [] : r.tokenIds;
  if (
    !Array.isArray(ids) ||
    ids.length > MAX_ROUTE_TOKENS ||
    !ids.every((x) => typeof x === "string" && DOCUMENT_ID.test(x))
  ) {
    throw new RulesError("AVENTURE.Error.Missing", { name: "route.tokenIds" });
  }
  const days =
    r.days === undefined || r.days === null
      ? null
      : num("route.days", r.days, { integer: true, min: 1, max: TRAVEL_RULES.maxDays });
  return { sceneId: r.sceneId, points, tokenIds: [...new Set(ids as string[])], days };
}

function record(name: string, v: unknown): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new RulesError("AVENTURE.Error.Missing", { name });
  return v as Record<string, unknown>;
}

function optNumber(name: string, v: unknown, c: NumberConstraints = {}): number | null {
  return v === undefined || v === null ? null : num(name, v, c);
}

/** A number above 0 and at most `max` (0 is refused as out of range: a journey of nothing is no journey). */
function positive(name: string, v: unknown, max: number): number {
  const n = num(name, v, { min: 0, max });
  if (n <= 0) throw new RulesError("AVENTURE.Error.OutOfRange", { name, value: n, min: 0, max });
  return n;
}

/**
 * Validates a request received from anyone (a player's request included): shapes, types, enumerations and ranges
 * (TRAVEL_REQUEST_LIMITS, the CON modifier range of the rules, at most MAX_TRAVEL_MEMBERS members with distinct
 * ids). Throws a RulesError naming the faulty field. Unknown keys are dropped. The rules check ranges again.
 */
export function parseRequest(raw: unknown): TravelRequest {
  const r = record("request", raw);
  const route = r.route === undefined || r.route === null ? null : parseRoute(r.route);
  const distance =
    r.distance === undefined || r.distance === null
      ? null
      : positive("distance", r.distance, TRAVEL_REQUEST_LIMITS.distance);
  const duration =
    r.duration === undefined || r.duration === null
      ? null
      : positive("duration", r.duration, TRAVEL_REQUEST_LIMITS.duration);
  if (route && (distance !== null || duration !== null)) {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "route",
      value: distance !== null ? "distance" : "duration",
      allowed: "a route, or a distance or a duration",
    });
  }
  if (!route && (distance === null) === (duration === null)) {
    throw new RulesError("AVENTURE.Error.Missing", { name: "distance" });
  }
  if (!Array.isArray(r.members)) throw new RulesError("AVENTURE.Error.Missing", { name: "party" });
  if (r.members.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", {});
  if (r.members.length > MAX_TRAVEL_MEMBERS) {
    throw new RulesError("AVENTURE.Error.OutOfRange", {
      name: "party",
      value: r.members.length,
      min: 1,
      max: MAX_TRAVEL_MEMBERS,
    });
  }
  const seen = new Set<string>();
  const members = (r.members as unknown[]).map((raw, i): TravelMemberRequest => {
    const m = record(`party[${i}]`, raw);
    if (typeof m.actorId !== "string" || !DOCUMENT_ID.test(m.actorId))
      throw new RulesError("AVENTURE.Error.Missing", { name: `party[${i}].id` });
    if (seen.has(m.actorId)) {
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `party[${i}].id`,
        value: m.actorId,
        allowed: "unique ids",
      });
    }
    seen.add(m.actorId);
    return {
      actorId: m.actorId,
      food: oneOf(`party[${i}].food`, m.food, RATION_LEVELS),
      water: oneOf(`party[${i}].water`, m.water, RATION_LEVELS),
      position: oneOf(`party[${i}].position`, m.position, MARCHING_POSITIONS),
      activity: oneOf(`party[${i}].activity`, m.activity, TRAVEL_ACTIVITIES),
      conMod: optNumber(`party[${i}].conMod`, m.conMod, {
        integer: true,
        min: SURVIVAL_CON_MOD_RANGE.min,
        max: SURVIVAL_CON_MOD_RANGE.max,
      }),
      passivePerception: optNumber(`party[${i}].passivePerception`, m.passivePerception, {
        integer: true,
        min: 0,
        max: TRAVEL_REQUEST_LIMITS.passivePerception,
      }),
    };
  });
  return {
    pace: oneOf("pace", r.pace, TRAVEL_PACES),
    terrain: oneOf("terrain", r.terrain, TRAVEL_TERRAINS),
    mode: oneOf("mode", r.mode, TRAVEL_MODES),
    speedKmh:
      r.speedKmh === undefined || r.speedKmh === null
        ? null
        : positive("speedKmh", r.speedKmh, TRAVEL_REQUEST_LIMITS.speedKmh),
    distance,
    duration,
    hoursPerDay: positive("hoursPerDay", r.hoursPerDay, TRAVEL_REQUEST_LIMITS.hoursPerDay),
    hot: bool("hot", r.hot, false),
    stealth: bool("stealth", r.stealth, false),
    lostChance:
      r.lostChance === undefined
        ? 0
        : num("lostChance", r.lostChance, { min: 0, max: TRAVEL_REQUEST_LIMITS.lostChance }),
    survivalDC:
      r.survivalDC === undefined
        ? TRAVEL_SURVIVAL_DC.default
        : num("survivalDC", r.survivalDC, { integer: true, min: TRAVEL_SURVIVAL_DC.min, max: TRAVEL_SURVIVAL_DC.max }),
    route,
    members,
    ...(r.ose === undefined || r.ose === null ? {} : { ose: parseOse(r.ose) }),
  };
}

/**
 * The rules' input for a request and the actors' snapshots (in the request's order). With food and water
 * not tracked, everyone eats and drinks their fill and the counters start at 0 (no hunger, no thirst). `legs`: the
 * route's legs as measured on the scene (a route request), instead of the request's distance or duration.
 */
export function planInput(
  req: TravelRequest,
  snapshots: readonly MemberSnapshot[],
  ruleset: RulesetId,
  trackFood: boolean,
  legs?: readonly TravelLegInput[],
): TravelInput {
  const byId = new Map(snapshots.map((s) => [s.actorId, s]));
  return {
    ruleset,
    pace: req.pace,
    mode: req.mode,
    ...(req.mode === "boat" || req.mode === "custom" ? { speedKmh: req.speedKmh ?? undefined } : {}),
    ...(legs
      ? { legs: legs.map((l) => ({ metres: l.metres, terrain: l.terrain })) }
      : req.distance !== null
        ? { terrain: req.terrain, distance: req.distance }
        : { terrain: req.terrain, duration: req.duration ?? 0 }),
    hoursPerDay: req.hoursPerDay,
    hot: req.hot,
    stealth: req.stealth,
    lostChance: req.lostChance,
    party: req.members.map((m, i) => {
      const s = byId.get(m.actorId);
      if (!s) throw new RulesError("AVENTURE.Error.Missing", { name: `party[${i}].id` });
      return {
        id: m.actorId,
        name: s.name,
        conMod: (s.conMod ?? m.conMod) as number,
        passivePerception: (s.passivePerception ?? m.passivePerception) as number,
        exhaustion: s.exhaustion ?? 0,
        fasting: trackFood ? s.fasting : 0,
        thirst: trackFood ? s.thirst : 0,
        food: trackFood ? m.food : "full",
        water: trackFood ? m.water : "full",
        position: m.position,
        activity: m.activity,
      };
    }),
  };
}
