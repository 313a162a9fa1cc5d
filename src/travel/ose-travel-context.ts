/**
 * The Travel dialog under Old-School Essentials (docs/rules.md §12): its form state, the field changes, and its
 * context (OSE words only: base movement, terrain legs with their modifier, days, forced march, rest day, guide, road
 * and river, foraging, rations, the arrival day; no DC, passive Perception nor exhaustion), and the request it sends.
 * Pure: no Foundry globals (tested directly).
 */
import { isRulesError } from "../rules/errors.js";
import {
  OSE_JOURNEY_DEFAULT_MAX_DAYS,
  OSE_TERRAINS,
  OSE_TERRAIN_TABLE,
  oseDailyDistance,
  oseJourneyPreview,
  type OseTerrain,
} from "../rules/ose-wilderness.js";
import { num, type NumberConstraints } from "../rules/validate.js";
import type { OseMeasuredLeg } from "./route/ose-legs.js";
import { OSE_REQUEST_LIMITS, type TravelRequest } from "./request.js";
import { oseDayText, oseModifier } from "./ose-card.js";
import { formatKm, localizeError, parseDecimal, plural, type FieldError, type Localize } from "./travel-context.js";

export interface OseMemberState {
  actorId: string;
  name: string;
  /** Base movement in metres read from the actor, or null when unknown. */
  baseMetres: number | null;
}

export interface OseRouteState {
  sceneId: string;
  points: { x: number; y: number }[];
  tokenIds: string[];
  /** The legs by OSE terrain, as measured on this client (the GM measures again on Apply). */
  legs: OseMeasuredLeg[];
}

export const OSE_FLAGS = ["forcedMarch", "flying", "guide", "river", "forage", "restWhenDue", "restFirst"] as const;
export type OseFlag = (typeof OSE_FLAGS)[number];

export interface OseTravelState {
  members: OseMemberState[];
  route: OseRouteState | null;
  /** Base movement override in metres ("": the slowest member's). */
  base: string;
  openTerrain: OseTerrain;
  /** km, for a journey without a route. */
  distance: string;
  /** Days to travel along the route ("": until arrival). */
  days: string;
  animals: string;
  /** Rations carried ("": not counted down). */
  rations: string;
  daysSinceRest: string;
  /** pmt's daily chance of getting lost, in % (its own d100 roll, when the world uses it). */
  lostChance: string;
  flags: Record<OseFlag, boolean>;
}

export function oseDefaultState(members: OseMemberState[], route: OseRouteState | null): OseTravelState {
  return {
    members,
    route,
    base: "",
    openTerrain: "clear",
    distance: "",
    days: "",
    animals: "0",
    rations: "",
    daysSinceRest: "0",
    lostChance: "0",
    flags: {
      forcedMarch: false,
      flying: false,
      guide: false,
      river: false,
      forage: false,
      restWhenDue: false,
      restFirst: false,
    },
  };
}

/** The state to continue a journey from its card: the same options, rations, rest count. */
export function oseStateFromRequest(state: OseTravelState, req: TravelRequest): OseTravelState {
  const o = req.ose;
  if (!o) return state;
  return {
    ...state,
    base: o.baseMetres === null ? "" : String(o.baseMetres),
    openTerrain: o.openTerrain,
    animals: String(o.animals),
    rations: o.rations === null ? "" : String(o.rations),
    daysSinceRest: String(o.daysSinceRest),
    lostChance: String(req.lostChance),
    flags: {
      forcedMarch: o.forcedMarch,
      flying: o.flying,
      guide: o.guide,
      river: o.river,
      forage: o.forage,
      restWhenDue: o.restWhenDue,
      restFirst: o.restFirst,
    },
  };
}

const TEXT_FIELDS = ["base", "distance", "days", "animals", "rations", "daysSinceRest", "lostChance"] as const;

/** One field changed (as the form sends it); unknown names and values leave the state as it is. */
export function oseApplyChange(state: OseTravelState, name: string, value: string | boolean): OseTravelState {
  if ((OSE_FLAGS as readonly string[]).includes(name) && typeof value === "boolean")
    return { ...state, flags: { ...state.flags, [name]: value } };
  if (name === "openTerrain" && typeof value === "string" && (OSE_TERRAINS as readonly string[]).includes(value))
    return { ...state, openTerrain: value as OseTerrain };
  if ((TEXT_FIELDS as readonly string[]).includes(name) && typeof value === "string")
    return { ...state, [name]: value };
  return state;
}

export function oseAddMember(state: OseTravelState, m: OseMemberState): OseTravelState {
  return state.members.some((x) => x.actorId === m.actorId) ? state : { ...state, members: [...state.members, m] };
}

export function oseRemoveMember(state: OseTravelState, actorId: string): OseTravelState {
  return { ...state, members: state.members.filter((m) => m.actorId !== actorId) };
}

const LABEL = {
  base: "AVENTURE.Wilderness.Dialog.base",
  distance: "AVENTURE.Wilderness.Dialog.distance",
  days: "AVENTURE.Wilderness.Dialog.days",
  animals: "AVENTURE.Wilderness.Dialog.animals",
  rations: "AVENTURE.Wilderness.Dialog.rations",
  daysSinceRest: "AVENTURE.Wilderness.Dialog.daysSinceRest",
  lostChance: "AVENTURE.Travel.Field.lostChance",
} as const;

function check(
  errors: Record<string, FieldError>,
  field: keyof typeof LABEL,
  raw: string,
  c: NumberConstraints,
  positive = false,
): number {
  const shown = raw.trim() === "" ? "—" : raw;
  try {
    const v = num(LABEL[field], parseDecimal(raw), c);
    if (positive && v <= 0) {
      errors[field] = { key: "AVENTURE.Travel.Error.Positive", data: { name: LABEL[field], value: shown } };
      return Number.NaN;
    }
    return v;
  } catch (e) {
    if (!isRulesError(e)) throw e;
    errors[field] = { key: e.key, data: { ...e.data, value: shown } };
    return Number.NaN;
  }
}

/** The slowest member's base movement and name (null: none known). */
export function oseSlowest(members: readonly OseMemberState[]): { metres: number; name: string } | null {
  let best: { metres: number; name: string } | null = null;
  for (const m of members)
    if (m.baseMetres !== null && (best === null || m.baseMetres < best.metres))
      best = { metres: m.baseMetres, name: m.name };
  return best;
}

/** Validates the fields and builds the request (null with the field errors while a field is invalid). */
export function oseReadRequest(state: OseTravelState): {
  request: TravelRequest | null;
  errors: Record<string, FieldError>;
  baseMetres: number | null;
} {
  const errors: Record<string, FieldError> = {};
  const base =
    state.base.trim() === ""
      ? null
      : check(errors, "base", state.base, { min: 0, max: OSE_REQUEST_LIMITS.baseMetres }, true);
  const baseMetres = base ?? oseSlowest(state.members)?.metres ?? null;
  if (state.base.trim() === "" && baseMetres === null && state.members.length)
    errors.base = { key: "AVENTURE.Wilderness.Error.noBase", data: {} };
  const distance = state.route ? null : check(errors, "distance", state.distance, { min: 0, max: 1e6 }, true);
  const days =
    state.route && state.days.trim() !== ""
      ? check(errors, "days", state.days, { integer: true, min: 1, max: OSE_JOURNEY_DEFAULT_MAX_DAYS })
      : null;
  const animals = check(errors, "animals", state.animals.trim() === "" ? "0" : state.animals, {
    integer: true,
    min: 0,
    max: OSE_REQUEST_LIMITS.animals,
  });
  const rations =
    state.rations.trim() === ""
      ? null
      : check(errors, "rations", state.rations, { integer: true, min: 0, max: OSE_REQUEST_LIMITS.rations });
  const daysSinceRest = check(errors, "daysSinceRest", state.daysSinceRest.trim() === "" ? "0" : state.daysSinceRest, {
    integer: true,
    min: 0,
    max: OSE_REQUEST_LIMITS.daysSinceRest,
  });
  const lostChance = check(errors, "lostChance", state.lostChance.trim() === "" ? "0" : state.lostChance, {
    integer: true,
    min: 0,
    max: 100,
  });
  if (state.members.length === 0) errors.members = { key: "AVENTURE.Error.EmptyParty", data: {} };
  if (Object.keys(errors).length) return { request: null, errors, baseMetres };
  const f = state.flags;
  const request: TravelRequest = {
    pace: "normal",
    terrain: "normal",
    mode: "foot",
    speedKmh: null,
    distance: distance === null ? null : distance * 1000,
    duration: null,
    hoursPerDay: 8,
    hot: false,
    stealth: false,
    lostChance,
    survivalDC: 10,
    route: state.route
      ? { sceneId: state.route.sceneId, points: state.route.points, tokenIds: state.route.tokenIds, days }
      : null,
    members: state.members.map((m) => ({
      actorId: m.actorId,
      food: "full",
      water: "full",
      position: "front",
      activity: "none",
      conMod: null,
      passivePerception: null,
    })),
    ose: {
      openTerrain: state.openTerrain,
      baseMetres: base,
      forcedMarch: f.forcedMarch,
      flying: f.flying,
      guide: f.guide,
      river: f.river,
      forage: f.forage,
      restWhenDue: f.restWhenDue,
      animals,
      rations,
      daysSinceRest,
      restFirst: f.restFirst,
    },
  };
  return { request, errors, baseMetres };
}

export interface OseEnv {
  localize: Localize;
  lang: string;
  isGM: boolean;
  playersApply: boolean;
  busy: boolean;
  addable: { id: string; name: string }[];
  /** Whether the world's ruleset is pmt borrowing this rule (the dialog says so). */
  borrowed: boolean;
  /** pmt's own d100 roll for getting lost replaces the terrain's chance (the world setting). */
  pmtLost?: boolean;
}

const chance = (n: number, l: Localize) => (n > 0 ? l("AVENTURE.Wilderness.Dialog.inSix", { n }) : "—");

/** The dialog's context: fields, legs with their modifier and chances, the party, the preview of the days. */
export function oseTravelContext(state: OseTravelState, env: OseEnv) {
  const l = env.localize;
  const { request, errors, baseMetres } = oseReadRequest(state);
  const err = (field: string) => (errors[field] ? localizeError(errors[field]!, l) : "");
  const slowest = oseSlowest(state.members);
  const legs = state.route
    ? state.route.legs
    : [
        {
          metres: (parseDecimal(state.distance) || 0) * 1000,
          terrain: state.openTerrain,
          regions: [] as string[],
          from: 0,
          to: 0,
        },
      ];
  const perDay = (t: OseTerrain) =>
    baseMetres === null
      ? "—"
      : formatKm(
          oseDailyDistance(baseMetres, t, { forcedMarch: state.flags.forcedMarch, flying: state.flags.flying }),
          env.lang,
        );
  const noLost = state.flags.guide || state.flags.river;
  let preview: { headline: string; days: { day: string; text: string }[] } | null = null;
  if (request?.ose && baseMetres !== null && legs.every((x) => x.metres >= 0) && legs.some((x) => x.metres > 0)) {
    // The days if the party never gets lost, meets nothing and finds nothing (every die a 6).
    const maxDays = request.route?.days ?? OSE_JOURNEY_DEFAULT_MAX_DAYS;
    const j = oseJourneyPreview({
      baseMetres,
      legs: legs.map((x) => ({ metres: x.metres, terrain: x.terrain })),
      forcedMarch: state.flags.forcedMarch,
      flying: state.flags.flying,
      guide: state.flags.guide,
      river: state.flags.river,
      restWhenDue: state.flags.restWhenDue,
      restFirst: state.flags.restFirst,
      characters: state.members.length,
      animals: request.ose.animals,
      ...(request.ose.rations !== null ? { rations: request.ose.rations } : {}),
      daysSinceRest: request.ose.daysSinceRest,
      maxDays,
      ...(env.pmtLost ? { lostPercent: request.lostChance } : {}),
    });
    preview = {
      headline: j.arrived
        ? l("AVENTURE.Wilderness.Dialog.arrival", {
            day: j.arrivalDay ?? 0,
            distance: formatKm(j.routeMetres, env.lang),
          })
        : l("AVENTURE.Wilderness.Dialog.notArrived", {
            day: j.days.length,
            reached: formatKm(j.endMetres, env.lang),
            total: formatKm(j.routeMetres, env.lang),
          }),
      days: j.days.map((d) => ({
        day: l("AVENTURE.Wilderness.Card.day", { n: d.day }),
        text: oseDayText(d, l, env.lang, false),
      })),
    };
  }
  const cannotApply = !request || env.busy;
  return {
    state,
    borrowed: env.borrowed,
    pmtLost: env.pmtLost === true,
    errors: Object.fromEntries(Object.keys(errors).map((k) => [k, err(k)])),
    route: state.route !== null,
    terrainOptions: OSE_TERRAINS.map((t) => ({
      value: t,
      label: `${l(`AVENTURE.Wilderness.Terrain.${t}`)} ${oseModifier(t)}`,
      selected: t === state.openTerrain,
    })),
    flags: OSE_FLAGS.map((k) => ({
      name: k,
      label: l(k === "restFirst" ? "AVENTURE.Wilderness.Dialog.restFirst" : `AVENTURE.Wilderness.Field.${k}`),
      checked: state.flags[k],
    })),
    members: state.members.map((m) => ({
      actorId: m.actorId,
      name: m.name,
      base: m.baseMetres === null ? "—" : l("AVENTURE.Wilderness.Dialog.metres", { n: m.baseMetres }),
      slowest: slowest !== null && m.baseMetres === slowest.metres && m.name === slowest.name,
    })),
    addable: env.addable.filter((a) => !state.members.some((m) => m.actorId === a.id)),
    baseText:
      baseMetres === null
        ? ""
        : state.base.trim() === "" && slowest
          ? l("AVENTURE.Wilderness.Card.baseOf", { base: baseMetres, name: slowest.name })
          : l("AVENTURE.Wilderness.Card.base", { base: baseMetres }),
    legs: legs.map((x, i) => ({
      index: i + 1,
      length: formatKm(x.metres, env.lang),
      terrain: l(`AVENTURE.Wilderness.Terrain.${x.terrain}`),
      modifier: state.flags.flying ? "—" : oseModifier(x.terrain),
      perDay: perDay(x.terrain),
      lost:
        noLost || OSE_TERRAIN_TABLE[x.terrain].lost === 0
          ? "—"
          : env.pmtLost
            ? l("AVENTURE.Wilderness.Dialog.percent", { n: request?.lostChance ?? 0 })
            : chance(OSE_TERRAIN_TABLE[x.terrain].lost, l),
      wandering: chance(OSE_TERRAIN_TABLE[x.terrain].wandering, l),
      regions: x.regions.join(", "),
      slow: OSE_TERRAIN_TABLE[x.terrain].speed.num < OSE_TERRAIN_TABLE[x.terrain].speed.den,
    })),
    rationsPerDay: plural(
      l,
      env.lang,
      "AVENTURE.Wilderness.Dialog.rationsPerDay",
      state.members.length + (request?.ose?.animals ?? 0),
    ),
    preview,
    request,
    cannotApply,
    playerHint: env.isGM || env.playersApply ? "" : l("AVENTURE.Travel.playerHint"),
    noneToAdd: env.addable.every((a) => state.members.some((m) => m.actorId === a.id)),
  };
}

export type OseTravelContext = ReturnType<typeof oseTravelContext>;
