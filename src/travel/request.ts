/**
 * The Travel dialog's request: what the dialog (or a macro) sends to the active GM, and how the GM turns it
 * into the rules' TravelInput with the actors' own data. The payload is declared once as a data model (built on first
 * use, inside Foundry); the rest is pure.
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
import { isRecord } from "../core/values.js";
import { flagModel, type Fields, docIdField } from "../core/flag-model.js";
import { wordRefusal, type Bounded } from "../core/refusal.js";
import { MAX_ROUTE_POINTS } from "./route/measure.js";

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
 * A journey along a route drawn on a scene (docs/rules.md §11): the route's points in scene pixels, the party's tokens
 * in
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
 * The ranges a request's numbers must fall in, declared by its model and checked on the GM before anything else (a
 * forged request from the console is refused with the field's name and the range its model declares). The rules check
 * their own bounds again (1000 days at most).
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

/** Most tokens moved along a route (its most points: route/measure.ts MAX_ROUTE_POINTS, where a route is measured). */
export const MAX_ROUTE_TOKENS = 50;
/** Coordinates of a route's points: far beyond any scene (Foundry scenes are at most 50,000 px wide). */
const MAX_COORDINATE = 1e7;

// ------------------------------------------------------------------------------------------------ the payload

const choice = <T extends string>(f: Fields, choices: readonly T[], initial?: T) =>
  new f.StringField({ required: true, blank: false, choices: [...choices], initial });
const flag = (f: Fields) => new f.BooleanField({ required: true, nullable: false, initial: false });
/**
 * A number in [min, max] (an integer, or above 0, when said); `initial` null: optional (null), undefined: required. A
 * refusal quotes these bounds (core/refusal.ts).
 */
const number = (
  f: Fields,
  c: { min: number; max: number; integer?: boolean; positive?: boolean },
  initial: number | null | undefined,
) =>
  new f.NumberField({
    required: true,
    nullable: initial === null,
    integer: c.integer ?? false,
    min: c.min,
    max: c.max,
    positive: c.positive ?? false,
    initial,
  });

/** A member of the party: the actor, what it eats and drinks, where it marches, what it does. */
const memberSchema = (f: Fields) => ({
  actorId: docIdField(f),
  food: choice(f, RATION_LEVELS),
  water: choice(f, RATION_LEVELS),
  position: choice(f, MARCHING_POSITIONS),
  activity: choice(f, TRAVEL_ACTIVITIES),
  conMod: number(f, { ...SURVIVAL_CON_MOD_RANGE, integer: true }, null),
  passivePerception: number(f, { min: 0, max: TRAVEL_REQUEST_LIMITS.passivePerception, integer: true }, null),
});
/** A route: the scene, its points in scene pixels, the party's tokens, the days to walk (null: all of it). */
const routeSchema = (f: Fields) => ({
  sceneId: docIdField(f),
  points: new f.ArrayField(
    new f.SchemaField({
      x: number(f, { min: -MAX_COORDINATE, max: MAX_COORDINATE }, undefined),
      y: number(f, { min: -MAX_COORDINATE, max: MAX_COORDINATE }, undefined),
    }),
    { required: true, nullable: false, max: MAX_ROUTE_POINTS, initial: undefined },
  ),
  tokenIds: new f.ArrayField(docIdField(f), { max: MAX_ROUTE_TOKENS }),
  days: number(f, { min: 1, max: TRAVEL_RULES.maxDays, integer: true }, null),
});
/** The Old-School Essentials part (docs/rules.md §12). */
const oseSchema = (f: Fields) => ({
  openTerrain: choice(f, OSE_TERRAINS, "clear"),
  baseMetres: number(f, { min: 0, max: OSE_REQUEST_LIMITS.baseMetres, positive: true }, null),
  forcedMarch: flag(f),
  flying: flag(f),
  guide: flag(f),
  river: flag(f),
  forage: flag(f),
  restWhenDue: flag(f),
  animals: number(f, { min: 0, max: OSE_REQUEST_LIMITS.animals, integer: true }, 0),
  rations: number(f, { min: 0, max: OSE_REQUEST_LIMITS.rations, integer: true }, null),
  daysSinceRest: number(f, { min: 0, max: OSE_REQUEST_LIMITS.daysSinceRest, integer: true }, 0),
  restFirst: flag(f),
});
/** The payload of "travelApply" (TRAVEL_REQUEST_LIMITS, the CON modifier range of the rules, MAX_TRAVEL_MEMBERS). */
const travelSchema = (f: Fields) => ({
  pace: choice(f, TRAVEL_PACES),
  terrain: choice(f, TRAVEL_TERRAINS),
  mode: choice(f, TRAVEL_MODES),
  speedKmh: number(f, { min: 0, max: TRAVEL_REQUEST_LIMITS.speedKmh, positive: true }, null),
  distance: number(f, { min: 0, max: TRAVEL_REQUEST_LIMITS.distance, positive: true }, null),
  duration: number(f, { min: 0, max: TRAVEL_REQUEST_LIMITS.duration, positive: true }, null),
  hoursPerDay: number(f, { min: 0, max: TRAVEL_REQUEST_LIMITS.hoursPerDay, positive: true }, undefined),
  hot: flag(f),
  stealth: flag(f),
  lostChance: number(f, { min: 0, max: TRAVEL_REQUEST_LIMITS.lostChance }, 0),
  survivalDC: number(
    f,
    { min: TRAVEL_SURVIVAL_DC.min, max: TRAVEL_SURVIVAL_DC.max, integer: true },
    TRAVEL_SURVIVAL_DC.default,
  ),
  route: new f.SchemaField(routeSchema(f), { required: true, nullable: true, initial: null }),
  members: new f.ArrayField(new f.SchemaField(memberSchema(f)), {
    required: true,
    nullable: false,
    min: 1,
    max: MAX_TRAVEL_MEMBERS,
    initial: undefined,
  }),
  ose: new f.SchemaField(oseSchema(f), { required: true, nullable: true, initial: null }),
});

const TravelRequestModel = flagModel({ name: "AventureTravelRequest", schema: travelSchema, exact: true });
const MemberModel = flagModel({ name: "AventureTravelMember", schema: memberSchema, exact: true });
const RouteModel = flagModel({ name: "AventureTravelRoute", schema: routeSchema, exact: true });
const OseModel = flagModel({ name: "AventureOseTravel", schema: oseSchema, exact: true });

type Failures = { failures(raw: unknown): string[] };

/** The first of `order` the model refused in `v`. */
const firstFailure = (model: Failures, v: unknown, order: readonly string[]): string | undefined => {
  const failed = model.failures(v);
  return order.find((k) => failed.includes(k)) ?? failed[0];
};

/** An array's length beyond the most its field declares: refused with that range (fewest: `min`, or the field's). */
function refuseLength(model: Bounded, path: string, name: string, list: readonly unknown[], min?: number): void {
  const b = model.bounds(path);
  if (b?.max !== undefined && list.length > b.max)
    throw new RulesError("AVENTURE.Error.OutOfRange", { name, value: list.length, min: min ?? b.min ?? 0, max: b.max });
}

const MEMBER_ORDER = ["actorId", "food", "water", "position", "activity", "conMod", "passivePerception"] as const;

/** The refusal of a member's field, worded from its model. */
function refuseMember(i: number, m: unknown): never {
  if (!isRecord(m)) throw new RulesError("AVENTURE.Error.Missing", { name: `party[${i}]` });
  const field = firstFailure(MemberModel, m, MEMBER_ORDER) ?? "actorId";
  const name = `party[${i}].${field === "actorId" ? "id" : field}`;
  wordRefusal(MemberModel, field, name, m[field]);
  throw new RulesError("AVENTURE.Error.Missing", { name });
}

/** The refusal of a route's field, worded from its model (a route has 2 points at least: the journey's ends). */
function refuseRoute(r: unknown): never {
  if (!isRecord(r)) throw new RulesError("AVENTURE.Error.Missing", { name: "route" });
  const field = firstFailure(RouteModel, r, ["sceneId", "points", "tokenIds", "days"]) ?? "points";
  if (field === "points" && Array.isArray(r.points)) {
    refuseLength(RouteModel, "points", "route.points", r.points, 2);
    (r.points as unknown[]).forEach((p, i) => {
      if (!isRecord(p)) throw new RulesError("AVENTURE.Error.Missing", { name: `route.points[${i}]` });
      for (const k of ["x", "y"] as const)
        wordRefusal(RouteModel, `points.element.${k}`, `route.points[${i}].${k}`, p[k]);
    });
  }
  wordRefusal(RouteModel, field, `route.${field}`, r[field]);
  throw new RulesError("AVENTURE.Error.Missing", { name: `route.${field}` });
}

/** The refusal of the Old-School Essentials part's field, worded from its model. */
function refuseOse(o: unknown): never {
  if (!isRecord(o)) throw new RulesError("AVENTURE.Error.Missing", { name: "ose" });
  const field = firstFailure(OseModel, o, Object.keys(o)) ?? "ose";
  const name = `ose.${field}`;
  wordRefusal(OseModel, field, name, o[field]);
  throw new RulesError("AVENTURE.Error.Missing", { name });
}

/** The order the fields of a request are named in when several are wrong. */
const FIELD_ORDER = [
  "route",
  "distance",
  "duration",
  "members",
  "pace",
  "terrain",
  "mode",
  "speedKmh",
  "hoursPerDay",
  "hot",
  "stealth",
  "lostChance",
  "survivalDC",
  "ose",
] as const;

/** The refusal of a request's field (the model decided; the rules' validators word it, with the field's bounds). */
function refuse(r: Record<string, unknown>): never {
  const field = firstFailure(TravelRequestModel, r, FIELD_ORDER) ?? "request";
  const v = r[field];
  if (field === "route") return refuseRoute(v);
  if (field === "ose") return refuseOse(v);
  if (field === "members") {
    if (!Array.isArray(v)) throw new RulesError("AVENTURE.Error.Missing", { name: "party" });
    if (v.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", {});
    refuseLength(TravelRequestModel, "members", "party", v);
    (v as unknown[]).forEach((m, i) => {
      if (!MemberModel.read(m)) refuseMember(i, m);
    });
  } else wordRefusal(TravelRequestModel, field, field, v);
  throw new RulesError("AVENTURE.Error.Missing", { name: field });
}

/**
 * Reads a request received from anyone (a player's request included) through its model: shapes, types, enumerations
 * and ranges; then the rules across fields (a route, or a distance or a duration; members with distinct ids). Throws
 * a RulesError naming the faulty field. Unknown keys are dropped. The rules check ranges again.
 */
export function parseRequest(raw: unknown): TravelRequest {
  if (!isRecord(raw)) throw new RulesError("AVENTURE.Error.Missing", { name: "request" });
  const r = TravelRequestModel.read(raw);
  if (!r) return refuse(raw);
  if (r.route && (r.distance !== null || r.duration !== null)) {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "route",
      value: r.distance !== null ? "distance" : "duration",
      allowed: "a route, or a distance or a duration",
    });
  }
  if (!r.route && (r.distance === null) === (r.duration === null)) {
    throw new RulesError("AVENTURE.Error.Missing", { name: "distance" });
  }
  const seen = new Set<string>();
  r.members.forEach((m, i) => {
    if (seen.has(m.actorId))
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `party[${i}].id`,
        value: m.actorId,
        allowed: "unique ids",
      });
    seen.add(m.actorId);
  });
  const { ose, route, ...rest } = r;
  return {
    ...rest,
    route: route ? { ...route, tokenIds: [...new Set(route.tokenIds)] } : null,
    ...(ose ? { ose } : {}),
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
