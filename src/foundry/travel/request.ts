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
  TRAVEL_TERRAINS,
  type MarchingPosition,
  type RationLevel,
  type TravelActivity,
  type TravelInput,
  type TravelMode,
  type TravelPace,
  type TravelTerrain,
} from "../../rules/travel.js";
import type { RulesetId } from "../../rules/rulesets.js";
import { RulesError } from "../../rules/errors.js";
import { bool, num, oneOf, type NumberConstraints } from "../../rules/validate.js";

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

export interface TravelRequest {
  pace: TravelPace;
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
  members: TravelMemberRequest[];
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
const ACTOR_ID = /^[A-Za-z0-9]{1,64}$/;

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
  const distance = r.distance === undefined || r.distance === null ? null : positive("distance", r.distance, TRAVEL_REQUEST_LIMITS.distance);
  const duration = r.duration === undefined || r.duration === null ? null : positive("duration", r.duration, TRAVEL_REQUEST_LIMITS.duration);
  if ((distance === null) === (duration === null)) {
    throw new RulesError("AVENTURE.Error.Missing", { name: "distance" });
  }
  if (!Array.isArray(r.members)) throw new RulesError("AVENTURE.Error.Missing", { name: "party" });
  if (r.members.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", {});
  if (r.members.length > MAX_TRAVEL_MEMBERS) {
    throw new RulesError("AVENTURE.Error.OutOfRange", { name: "party", value: r.members.length, min: 1, max: MAX_TRAVEL_MEMBERS });
  }
  const seen = new Set<string>();
  const members = (r.members as unknown[]).map((raw, i): TravelMemberRequest => {
    const m = record(`party[${i}]`, raw);
    if (typeof m.actorId !== "string" || !ACTOR_ID.test(m.actorId)) throw new RulesError("AVENTURE.Error.Missing", { name: `party[${i}].id` });
    if (seen.has(m.actorId)) {
      throw new RulesError("AVENTURE.Error.UnknownValue", { name: `party[${i}].id`, value: m.actorId, allowed: "unique ids" });
    }
    seen.add(m.actorId);
    return {
      actorId: m.actorId,
      food: oneOf(`party[${i}].food`, m.food, RATION_LEVELS),
      water: oneOf(`party[${i}].water`, m.water, RATION_LEVELS),
      position: oneOf(`party[${i}].position`, m.position, MARCHING_POSITIONS),
      activity: oneOf(`party[${i}].activity`, m.activity, TRAVEL_ACTIVITIES),
      conMod: optNumber(`party[${i}].conMod`, m.conMod, { integer: true, min: SURVIVAL_CON_MOD_RANGE.min, max: SURVIVAL_CON_MOD_RANGE.max }),
      passivePerception: optNumber(`party[${i}].passivePerception`, m.passivePerception, { integer: true, min: 0, max: TRAVEL_REQUEST_LIMITS.passivePerception }),
    };
  });
  return {
    pace: oneOf("pace", r.pace, TRAVEL_PACES),
    terrain: oneOf("terrain", r.terrain, TRAVEL_TERRAINS),
    mode: oneOf("mode", r.mode, TRAVEL_MODES),
    speedKmh: r.speedKmh === undefined || r.speedKmh === null ? null : positive("speedKmh", r.speedKmh, TRAVEL_REQUEST_LIMITS.speedKmh),
    distance,
    duration,
    hoursPerDay: positive("hoursPerDay", r.hoursPerDay, TRAVEL_REQUEST_LIMITS.hoursPerDay),
    hot: bool("hot", r.hot, false),
    stealth: bool("stealth", r.stealth, false),
    lostChance: r.lostChance === undefined ? 0 : num("lostChance", r.lostChance, { min: 0, max: TRAVEL_REQUEST_LIMITS.lostChance }),
    members,
  };
}

/**
 * The rules' input for a request and the actors' snapshots (in the request's order). With food and water
 * not tracked, everyone eats and drinks their fill and the counters start at 0 (no hunger, no thirst).
 */
export function planInput(
  req: TravelRequest,
  snapshots: readonly MemberSnapshot[],
  ruleset: RulesetId,
  trackFood: boolean,
): TravelInput {
  const byId = new Map(snapshots.map((s) => [s.actorId, s]));
  return {
    ruleset,
    pace: req.pace,
    terrain: req.terrain,
    mode: req.mode,
    ...(req.mode === "boat" || req.mode === "custom" ? { speedKmh: req.speedKmh ?? undefined } : {}),
    ...(req.distance !== null ? { distance: req.distance } : { duration: req.duration! }),
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
