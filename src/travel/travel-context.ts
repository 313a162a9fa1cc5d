/**
 * The Travel dialog's state and template context, with the live summary (pure: no Foundry globals; tested and
 * screenshotted directly). The dialog keeps a TravelFormState of raw field values; every change goes through
 * `applyChange`, and `travelContext` validates the fields (errors on the field, in the user's language), builds
 * the request the GM will apply, plans it with the rules and summarises the plan.
 */
import { RulesError, isRulesError } from "../rules/errors.js";
import type { RulesetId } from "../rules/rulesets.js";
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
  travelOutcome,
  travelPlan,
  travelSurvivalChecks,
  type MarchingPosition,
  type RationLevel,
  type TravelActivity,
  type TravelMode,
  type TravelPace,
  type TravelPlan,
  type TravelTerrain,
} from "../rules/travel.js";
import { toMetres } from "../rules/units.js";
import { num, type NumberConstraints } from "../rules/validate.js";
import { planInput, type MemberSnapshot, type TravelRequest } from "./request.js";
import { planRouteJourney, type RouteJourney } from "./route-plan.js";
import type { MeasuredLeg } from "./route/measure.js";

import type { Localize } from "./format.js";
export type { Localize } from "./format.js";

/** How the length of the journey is given: a distance (km, m) or a duration (days, hours). */
export const TRAVEL_UNITS = ["km", "m", "days", "hours"] as const;
export type TravelUnit = (typeof TRAVEL_UNITS)[number];

export interface TravelMemberState extends MemberSnapshot {
  /** Whether the user of the dialog owns the actor (a GM owns all); the GMs decide for the others. Default true. */
  owned?: boolean;
  /** Typed by the user when the sheet has no CON modifier / passive Perception. */
  conModInput: string;
  ppInput: string;
  food: RationLevel;
  water: RationLevel;
  position: MarchingPosition;
  activity: TravelActivity;
}

/** A route measured on a scene (the dialog's "Plan along the route"): its points, tokens and legs. */
export interface TravelRouteState {
  sceneId: string;
  points: { x: number; y: number }[];
  /** The party's tokens on that scene, moved to the point reached on Apply. */
  tokenIds: string[];
  legs: MeasuredLeg[];
}

/** How the travel dialog opens (TravelDialog, OseTravelDialog). */
export interface TravelDialogOptions {
  /** The party to start with (actor ids); by default the selected tokens, else the scene's player characters. */
  actorIds?: string[];
  /** A journey along a route (measured on this client): its legs replace the distance or duration. */
  route?: TravelRouteState;
  /** A journey to start from ("Continue the journey"): its pace, mode, hours, rations, positions and activities. */
  from?: TravelRequest;
  /**
   * A dnd5e group (party) actor: its creature members are the travellers (unless `actorIds` says otherwise), its pace
   * and primary vehicle are chosen and its other vehicles offered (travel/party.ts).
   */
  groupId?: string;
}

/** A dnd5e party (group actor) the journey starts from: its name, pace and vehicles (travel/party.ts). */
export interface TravelPartyState {
  actorId: string;
  name: string;
  /** The group's pace in dnd5e, or null. */
  pace: TravelPace | null;
  vehicles: { actorId: string; name: string; mode: TravelMode; speedKmh: number | null; primary: boolean }[];
  /** The vehicle the party travels in (an actor id), "" for none. */
  vehicle: string;
}

export interface TravelFormState {
  /** The dnd5e party the journey was opened from, if any. */
  party?: TravelPartyState | null;
  pace: TravelPace;
  terrain: TravelTerrain;
  mode: TravelMode;
  speed: string;
  amount: string;
  unit: TravelUnit;
  hoursPerDay: string;
  hot: boolean;
  stealth: boolean;
  lostChance: string;
  /** The DC of the Wisdom (Survival) checks (navigate, track, forage). */
  survivalDC: string;
  /** A journey along a route (its legs instead of the distance or duration), or null. */
  route: TravelRouteState | null;
  /** Along a route: stop after this many travel days ("": the whole route). */
  days: string;
  members: TravelMemberState[];
}

/** Default marching positions: one → front; two → front, rear; more → front, middle…, rear. */
function defaultPosition(i: number, n: number): MarchingPosition {
  if (i === 0) return "front";
  return i === n - 1 ? "rear" : "middle";
}

export function newMember(s: MemberSnapshot & { owned?: boolean }, i = 0, n = 1): TravelMemberState {
  return {
    ...s,
    conModInput: "",
    ppInput: "",
    food: "full",
    water: "full",
    position: defaultPosition(i, n),
    activity: "none",
  };
}

export function defaultState(
  snapshots: readonly (MemberSnapshot & { owned?: boolean })[],
  hoursPerDay: number,
  route: TravelRouteState | null = null,
): TravelFormState {
  return {
    pace: "normal",
    terrain: "normal",
    mode: "foot",
    speed: "",
    amount: "1",
    unit: "days",
    hoursPerDay: String(hoursPerDay),
    hot: false,
    stealth: false,
    lostChance: "0",
    survivalDC: String(TRAVEL_SURVIVAL_DC.default),
    route,
    days: "",
    members: snapshots.map((s, i) => newMember(s, i, snapshots.length)),
  };
}

const TOP_CHOICES = {
  pace: TRAVEL_PACES,
  terrain: TRAVEL_TERRAINS,
  mode: TRAVEL_MODES,
  unit: TRAVEL_UNITS,
} as const;
const TOP_TEXT = ["speed", "amount", "hoursPerDay", "lostChance", "survivalDC", "days"] as const;
const MEMBER_CHOICES = {
  food: RATION_LEVELS,
  water: RATION_LEVELS,
  position: MARCHING_POSITIONS,
  activity: TRAVEL_ACTIVITIES,
} as const;

/**
 * The state after one form field changed (`name` as in the template: "pace", "members.2.food"…). A value that
 * is not one of a select's choices is ignored; text fields keep what was typed (validated by travelContext).
 */
export function applyChange(state: TravelFormState, name: string, value: string | boolean): TravelFormState {
  const next: TravelFormState = { ...state, members: state.members.map((m) => ({ ...m })) };
  if (name === "partyVehicle") return chooseVehicle(next, String(value));
  if (name === "hot" || name === "stealth") {
    next[name] = value === true || value === "true" || value === "on";
    return next;
  }
  if (name in TOP_CHOICES) {
    const key = name as keyof typeof TOP_CHOICES;
    if ((TOP_CHOICES[key] as readonly string[]).includes(String(value))) Object.assign(next, { [key]: String(value) }); // one of the key's choices
    return next;
  }
  if ((TOP_TEXT as readonly string[]).includes(name)) {
    Object.assign(next, { [name]: String(value) });
    return next;
  }
  const m = /^members\.(\d+)\.(\w+)$/.exec(name);
  const member = m ? next.members[Number(m[1])] : undefined;
  if (!m || !member) return state;
  const field = m[2]!;
  if (field in MEMBER_CHOICES) {
    const choices = MEMBER_CHOICES[field as keyof typeof MEMBER_CHOICES] as readonly string[];
    if (choices.includes(String(value))) Object.assign(member, { [field]: String(value) }); // one of the field's choices
  } else if (field === "conModInput" || field === "ppInput") member[field] = String(value);
  return next;
}

/**
 * The state a dialog starts from when it continues a journey: the request's pace, mode, hours, weather, DCs and each
 * member's rations, position and activity (members the state has, in the request's order).
 */
export function stateFromRequest(state: TravelFormState, req: TravelRequest): TravelFormState {
  const byId = new Map(req.members.map((m) => [m.actorId, m]));
  return {
    ...state,
    pace: req.pace,
    mode: req.mode,
    speed: req.speedKmh === null ? state.speed : String(req.speedKmh),
    hoursPerDay: String(req.hoursPerDay),
    hot: req.hot,
    stealth: req.stealth,
    lostChance: String(req.lostChance),
    survivalDC: String(req.survivalDC),
    members: state.members.map((m) => {
      const r = byId.get(m.actorId);
      return r ? { ...m, food: r.food, water: r.water, position: r.position, activity: r.activity } : m;
    }),
  };
}

/**
 * The state of a journey opened from a dnd5e party: the party's pace (when dnd5e gives one) and its primary vehicle
 * (its mode, and its speed for a boat or a flyer) chosen; the other vehicles are offered in the dialog.
 */
export function withParty(state: TravelFormState, party: Omit<TravelPartyState, "vehicle">): TravelFormState {
  const primary = party.vehicles.find((v) => v.primary);
  const next: TravelFormState = {
    ...state,
    party: { ...party, vehicles: party.vehicles.map((v) => ({ ...v })), vehicle: "" },
    pace: party.pace ?? state.pace,
  };
  return primary ? chooseVehicle(next, primary.actorId) : next;
}

/** The party travels in one of its vehicles ("" : on foot): the journey's mode and speed follow it. */
function chooseVehicle(state: TravelFormState, actorId: string): TravelFormState {
  const party = state.party;
  if (!party) return state;
  if (actorId === "") return { ...state, party: { ...party, vehicle: "" }, mode: "foot" };
  const v = party.vehicles.find((x) => x.actorId === actorId);
  if (!v) return state;
  return {
    ...state,
    party: { ...party, vehicle: v.actorId },
    mode: v.mode,
    speed: v.speedKmh === null ? state.speed : String(v.speedKmh),
  };
}

export function addMember(state: TravelFormState, s: MemberSnapshot & { owned?: boolean }): TravelFormState {
  if (state.members.some((m) => m.actorId === s.actorId)) return state;
  const position: MarchingPosition = state.members.length === 0 ? "front" : "middle";
  return { ...state, members: [...state.members, { ...newMember(s), position }] };
}

export function removeMember(state: TravelFormState, actorId: string): TravelFormState {
  return { ...state, members: state.members.filter((m) => m.actorId !== actorId) };
}

// ------------------------------------------------------------------------------------------------ validation

/** An error shown on a field: a localization key and its data; `data.name` is the key of the field's label. */
export interface FieldError {
  key: string;
  data: Record<string, string | number>;
}

/** "22,5" and "22.5" are both 22.5; an empty or malformed field is NaN (reported as "not a number"). */
export function parseDecimal(raw: string): number {
  const s = raw.trim().replace(",", ".");
  return s === "" || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(s) ? Number.NaN : Number(s);
}

const LABEL = {
  speed: "AVENTURE.Travel.Field.speed",
  amount: "AVENTURE.Travel.Field.amount",
  hoursPerDay: "AVENTURE.Travel.Field.hoursPerDay",
  lostChance: "AVENTURE.Travel.Field.lostChance",
  survivalDC: "AVENTURE.Travel.Field.survivalDC",
  days: "AVENTURE.Travel.Field.days",
  conModInput: "AVENTURE.Travel.Field.conMod",
  ppInput: "AVENTURE.Travel.Field.passivePerception",
  members: "AVENTURE.Travel.Field.party",
} as const;

/** Checks a number field; `positive`: 0 is refused too (with its own message, not "between 5e-324 and …"). */
function check(
  errors: Record<string, FieldError>,
  field: string,
  label: string,
  raw: string,
  c: NumberConstraints,
  positive = false,
): number {
  const shown = raw.trim() === "" ? "—" : raw;
  try {
    const v = num(label, parseDecimal(raw), c);
    if (positive && v <= 0) {
      errors[field] = { key: "AVENTURE.Travel.Error.Positive", data: { name: label, value: shown } };
      return Number.NaN;
    }
    return v;
  } catch (e) {
    if (!isRulesError(e)) throw e;
    errors[field] = { key: e.key, data: { ...e.data, value: shown } };
    return Number.NaN;
  }
}

/** The field a RulesError of travelPlan/parseRequest is about ("party[2].conMod" → "members.2.conModInput"). */
export function fieldOf(name: unknown): string {
  if (typeof name !== "string") return "_form";
  const m = /^party\[(\d+)\]\.(\w+)$/.exec(name);
  if (m) {
    const f = m[2] === "conMod" ? "conModInput" : m[2] === "passivePerception" ? "ppInput" : "name";
    return `members.${m[1]}.${f}`;
  }
  if (name === "speedKmh") return "speed";
  if (name === "distance" || name === "duration" || name === "days") return "amount";
  if (name === "hoursPerDay" || name === "lostChance") return name;
  if (name === "party") return "members";
  return "_form";
}

/**
 * Validates the fields and builds the request. Field errors carry the label key in data.name. The rules
 * check the request again (and their errors land on the field they name, see planFor).
 */
export function readRequest(state: TravelFormState): {
  request: TravelRequest | null;
  errors: Record<string, FieldError>;
} {
  const errors: Record<string, FieldError> = {};
  const needsSpeed = state.mode === "boat" || state.mode === "custom";
  const speed = needsSpeed ? check(errors, "speed", LABEL.speed, state.speed, { min: 0, max: 1000 }, true) : null;
  const route = state.route;
  const amount = route ? Number.NaN : check(errors, "amount", LABEL.amount, state.amount, { min: 0 }, true);
  const days =
    route && state.days.trim() !== ""
      ? check(errors, "days", LABEL.days, state.days, { integer: true, min: 1, max: TRAVEL_RULES.maxDays })
      : null;
  const survivalDC = check(errors, "survivalDC", LABEL.survivalDC, state.survivalDC, {
    integer: true,
    min: TRAVEL_SURVIVAL_DC.min,
    max: TRAVEL_SURVIVAL_DC.max,
  });
  const hoursPerDay = check(
    errors,
    "hoursPerDay",
    LABEL.hoursPerDay,
    state.hoursPerDay,
    { min: 0, max: TRAVEL_RULES.maxHoursPerDay },
    true,
  );
  const lostChance = check(errors, "lostChance", LABEL.lostChance, state.lostChance, { min: 0, max: 100 });
  if (state.members.length === 0) errors.members = { key: "AVENTURE.Error.EmptyParty", data: {} };
  const members = state.members.map((m, i) => ({
    actorId: m.actorId,
    food: m.food,
    water: m.water,
    position: m.position,
    activity: m.activity,
    conMod:
      m.conMod === null
        ? check(errors, `members.${i}.conModInput`, LABEL.conModInput, m.conModInput, {
            integer: true,
            min: SURVIVAL_CON_MOD_RANGE.min,
            max: SURVIVAL_CON_MOD_RANGE.max,
          })
        : null,
    passivePerception:
      m.passivePerception === null
        ? check(errors, `members.${i}.ppInput`, LABEL.ppInput, m.ppInput, { integer: true, min: 0, max: 100 })
        : null,
  }));
  if (Object.keys(errors).length) return { request: null, errors };
  const isDistance = state.unit === "km" || state.unit === "m";
  const seconds = state.unit === "days" ? 86400 : 3600;
  return {
    request: {
      pace: state.pace,
      terrain: state.terrain,
      mode: state.mode,
      speedKmh: speed,
      distance: route ? null : isDistance ? toMetres(amount, state.unit as "km" | "m") : null,
      duration: route || isDistance ? null : amount * seconds,
      hoursPerDay,
      hot: state.hot,
      stealth: state.stealth,
      lostChance,
      survivalDC,
      route: route
        ? {
            sceneId: route.sceneId,
            points: route.points.map((p) => ({ x: p.x, y: p.y })),
            tokenIds: [...route.tokenIds],
            days,
          }
        : null,
      members,
    },
    errors,
  };
}

/** Validates and plans; a rules error lands on the field it names. */
export function planFor(
  state: TravelFormState,
  ruleset: RulesetId,
  trackFood: boolean,
): {
  request: TravelRequest | null;
  plan: TravelPlan | null;
  journey: RouteJourney | null;
  errors: Record<string, FieldError>;
} {
  const { request, errors } = readRequest(state);
  if (!request) return { request, plan: null, journey: null, errors };
  try {
    if (state.route && request.route) {
      const journey = planRouteJourney(
        (legs) => planInput(request, state.members, ruleset, trackFood, legs),
        state.route.legs,
        request.route.days,
      );
      return { request, plan: journey.plan, journey, errors };
    }
    return { request, plan: travelPlan(planInput(request, state.members, ruleset, trackFood)), journey: null, errors };
  } catch (e) {
    if (!(e instanceof RulesError)) throw e;
    const named = fieldOf(e.data.name);
    const field = state.route && named === "amount" ? "_form" : named;
    const label = field === "amount" ? LABEL.amount : field in LABEL ? LABEL[field as keyof typeof LABEL] : undefined;
    const memberField = /^members\.\d+\.(conModInput|ppInput)$/.exec(field)?.[1] as
      "conModInput" | "ppInput" | undefined;
    const nameKey = e.data.name === "days" ? "AVENTURE.Arg.days" : memberField ? LABEL[memberField] : label;
    return {
      request: null,
      plan: null,
      journey: null,
      errors: { [field]: { key: e.key, data: { ...e.data, ...(nameKey ? { name: nameKey } : {}) } } },
    };
  }
}

// ------------------------------------------------------------------------------------------------ formatting

// The cards' formatting (format.ts, loaded with every client), used here too.
import { arrivalText, formatDuration, formatHours, formatKm, formatNumber, plural } from "./format.js";
export { arrivalText, clockText, formatDuration, formatHours, formatKm, formatNumber, plural } from "./format.js";

export function localizeError(err: FieldError, localize: Localize): string {
  const data = { ...err.data };
  if (typeof data.name === "string" && data.name.startsWith("AVENTURE.")) data.name = localize(data.name);
  return localize(err.key, data);
}

/** "DC 11 ×3, DC 12 ×3": the save DCs of a member, counted. */
function dcList(dcs: number[], localize: Localize): string {
  const count = new Map<number, number>();
  for (const dc of dcs) count.set(dc, (count.get(dc) ?? 0) + 1);
  return [...count.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([dc, n]) => localize("AVENTURE.Travel.Summary.dcCount", { dc, n }))
    .join(", ");
}

// ------------------------------------------------------------------------------------------------ context

export interface TravelContextEnv {
  ruleset: RulesetId;
  trackFood: boolean;
  isGM: boolean;
  /** The world setting "Players may apply journeys of their own characters". */
  playersApply?: boolean;
  /** A request of the dialog is running: Apply is disabled. */
  busy?: boolean;
  lang: string;
  localize: Localize;
  /** Actors that can be added (not already in the party). */
  addable: { id: string; name: string }[];
  /** The world time now (seconds), for the arrival's hour; not shown without it. */
  worldTime?: number;
}

interface Option {
  value: string;
  label: string;
  selected: boolean;
}

function options(values: readonly string[], prefix: string, selected: string, localize: Localize): Option[] {
  return values.map((v) => ({ value: v, label: localize(`${prefix}.${v}`), selected: v === selected }));
}

/** The summary of a plan shown live in the dialog. `journey`: the route journey the plan belongs to, if any. */
export function summaryOf(
  plan: TravelPlan,
  env: Pick<TravelContextEnv, "localize" | "lang" | "trackFood" | "worldTime">,
  extra: { journey?: RouteJourney | null; survivalDC?: number } = {},
) {
  const { localize: l, lang } = env;
  const saves = new Map<string, number[]>();
  const water = new Map<string, number>();
  for (const s of plan.saves) {
    if (s.kind === "forcedMarch") saves.set(s.memberId, [...(saves.get(s.memberId) ?? []), s.dc]);
    else water.set(s.memberId, (water.get(s.memberId) ?? 0) + 1);
  }
  // What the card will say, at best (every save succeeds) and at worst (every save fails): the same computation.
  const best = travelOutcome(plan, Object.fromEntries(plan.saves.map((s) => [s.id, true])));
  const worst = travelOutcome(plan, Object.fromEntries(plan.saves.map((s) => [s.id, false])));
  const range = (fixed: string, span: string, min: number, max: number) =>
    min === max ? plural(l, lang, fixed, min) : l(span, { min, max });
  const survival = extra.survivalDC === undefined ? [] : travelSurvivalChecks(plan, extra.survivalDC);
  const pos = (p: MarchingPosition) => l(`AVENTURE.Travel.Position.${p}`);
  const journey = extra.journey ?? null;
  const stopped = !!journey?.stopped;
  const marchSeconds = plan.days.reduce((a, d) => a + d.marchSeconds, 0);
  return {
    distance: formatKm(plan.distance, lang),
    /** The world time the journey takes, nights included (not shown: the arrival's day and hour say it). */
    duration: formatDuration(journey ? journey.durationSeconds : plan.durationSeconds, l),
    dayCount: plural(l, lang, "AVENTURE.Travel.Summary.dayCount", plan.days.length),
    /** The hours actually marched, all days together ("24 h of march"): not to be read as elapsed time. */
    march: l("AVENTURE.Travel.Summary.marchTotal", { time: formatHours(marchSeconds, l) }),
    arrival: env.worldTime === undefined || stopped ? "" : arrivalText(env.worldTime, plan, l),
    stopped: journey?.stopped
      ? l("AVENTURE.Travel.Summary.stopped", {
          days: plan.days.length,
          reached: formatKm(journey.reached, lang),
          total: formatKm(journey.total, lang),
        })
      : "",
    days: plan.days.map((d) => ({
      day: d.day,
      distance: formatKm(d.distance, lang),
      march: formatDuration(d.marchSeconds, l),
      forcedMarch: d.forcedMarch.length
        ? d.forcedMarch.map((f) => l("AVENTURE.Travel.Summary.dc", { dc: f.dc })).join(", ")
        : "—",
    })),
    notice: MARCHING_POSITIONS.map((p) => ({
      label: pos(p),
      value: plan.noticeByPosition[p] === null ? "—" : String(plan.noticeByPosition[p]),
    })),
    canStealth: plan.canStealth,
    stealth: l(plan.canStealth ? "AVENTURE.Travel.Summary.stealthYes" : "AVENTURE.Travel.Summary.stealthNo"),
    saveCount: plan.saves.length,
    survival: survival.length
      ? l("AVENTURE.Travel.Summary.survival", {
          dc: extra.survivalDC ?? TRAVEL_SURVIVAL_DC.default,
          list: plan.members
            .filter((m) => survival.some((c) => c.memberId === m.id))
            .map((m) =>
              l("AVENTURE.Travel.Summary.survivalWho", {
                name: m.name,
                what: l(`AVENTURE.Travel.Activity.${m.activity}`),
                n: survival.filter((c) => c.memberId === m.id).length,
              }),
            )
            .join(", "),
        })
      : "",
    trackFood: env.trackFood,
    waterNeed: l("AVENTURE.Travel.Summary.needs", { food: plan.foodNeedGrams, water: plan.waterNeedLitres }),
    members: plan.members.map((m, i) => {
      const fm = saves.get(m.id) ?? [];
      const dehydration = water.get(m.id) ?? 0;
      const b = best.members[i]!;
      const w = worst.members[i]!;
      const levels = (o: typeof b, k: "hungerLevels" | "thirstLevels") => o.days.reduce((a, d) => a + d[k], 0);
      const food: string[] = [];
      if (env.trackFood) {
        const h = [levels(b, "hungerLevels"), levels(w, "hungerLevels")] as const;
        const t = [levels(b, "thirstLevels"), levels(w, "thirstLevels")] as const;
        if (h[1])
          food.push(range("AVENTURE.Travel.Summary.hungerFixed", "AVENTURE.Travel.Summary.hungerRange", h[0], h[1]));
        if (t[1])
          food.push(range("AVENTURE.Travel.Summary.thirstFixed", "AVENTURE.Travel.Summary.thirstRange", t[0], t[1]));
        if (dehydration)
          food.push(
            plural(l, lang, "AVENTURE.Travel.Summary.dehydration", dehydration, {
              dc: plan.saves.find((s) => s.memberId === m.id && s.kind === "dehydration")!.dc,
            }),
          );
        // Days without food only when the journey changes them (0 → 0 says nothing).
        if (m.fastingAfter !== m.fastingBefore)
          food.push(
            l("AVENTURE.Travel.Summary.fasting", {
              before: formatNumber(m.fastingBefore, lang),
              after: formatNumber(m.fastingAfter, lang),
              allowed: m.fastingAllowed,
            }),
          );
      }
      return {
        name: m.name,
        position: pos(m.position),
        passivePerception: m.passivePerception,
        notices: m.countsForNoticing,
        noticeLabel: l(m.countsForNoticing ? "AVENTURE.Travel.Summary.watching" : "AVENTURE.Travel.Summary.busy"),
        forcedMarch: fm.length ? dcList(fm, l) : "—",
        food: food.join(" · "),
        exhaustion:
          m.exhaustionMin === m.exhaustionMax
            ? l("AVENTURE.Travel.Summary.exhaustionFixed", { before: m.exhaustionBefore, after: m.exhaustionMin })
            : l("AVENTURE.Travel.Summary.exhaustionRange", {
                before: m.exhaustionBefore,
                min: m.exhaustionMin,
                max: m.exhaustionMax,
              }),
        danger: m.exhaustionMin > m.exhaustionBefore,
      };
    }),
    warnings: plan.warnings.map((w) => l(`AVENTURE.Travel.Warning.${w}`, { chance: plan.lostChance })),
  };
}

/** The dialog's full template context. */
export function travelContext(state: TravelFormState, env: TravelContextEnv) {
  const { localize: l } = env;
  const { request, plan, journey, errors } = planFor(state, env.ruleset, env.trackFood);
  const err = (field: string) => (errors[field] ? localizeError(errors[field], l) : "");
  const isDistance = state.unit === "km" || state.unit === "m";
  return {
    state,
    party: state.party
      ? {
          line: l("AVENTURE.Travel.Party.line", { name: state.party.name }),
          pace: state.party.pace
            ? l("AVENTURE.Travel.Party.pace", { pace: l(`AVENTURE.Travel.Pace.${state.party.pace}`) })
            : "",
          vehicleOptions: state.party.vehicles.length
            ? [
                { value: "", label: l("AVENTURE.Travel.Party.onFoot"), selected: state.party.vehicle === "" },
                ...state.party.vehicles.map((v) => ({
                  value: v.actorId,
                  label: l(`AVENTURE.Travel.Party.vehicle.${v.mode}`, { name: v.name }),
                  selected: v.actorId === state.party!.vehicle,
                })),
              ]
            : [],
        }
      : null,
    needsSpeed: state.mode === "boat" || state.mode === "custom",
    trackFood: env.trackFood,
    paceOptions: options(TRAVEL_PACES, "AVENTURE.Travel.Pace", state.pace, l),
    terrainOptions: options(TRAVEL_TERRAINS, "AVENTURE.Travel.Terrain", state.terrain, l),
    modeOptions: options(TRAVEL_MODES, "AVENTURE.Travel.Mode", state.mode, l),
    unitOptions: options(TRAVEL_UNITS, "AVENTURE.Travel.Unit", state.unit, l),
    amountHint: l(isDistance ? "AVENTURE.Travel.Hint.distance" : "AVENTURE.Travel.Hint.duration"),
    errors: {
      speed: err("speed"),
      amount: err("amount"),
      hoursPerDay: err("hoursPerDay"),
      lostChance: err("lostChance"),
      survivalDC: err("survivalDC"),
      days: err("days"),
      members: err("members"),
      form: err("_form"),
    },
    members: state.members.map((m, i) => ({
      index: i,
      actorId: m.actorId,
      name: m.name,
      conMod: m.conMod,
      conModText: m.conMod === null ? "" : m.conMod >= 0 ? `+${m.conMod}` : String(m.conMod),
      conModInput: m.conModInput,
      conModError: err(`members.${i}.conModInput`),
      passivePerception: m.passivePerception,
      ppText: m.passivePerception === null ? "" : String(m.passivePerception),
      ppInput: m.ppInput,
      ppError: err(`members.${i}.ppInput`),
      error: err(`members.${i}.name`),
      exhaustion: m.exhaustion === null ? "—" : String(m.exhaustion),
      fasting: m.fasting,
      thirst: m.thirst,
      foodOptions: options(RATION_LEVELS, "AVENTURE.Travel.Ration", m.food, l),
      waterOptions: options(RATION_LEVELS, "AVENTURE.Travel.Ration", m.water, l),
      positionOptions: options(MARCHING_POSITIONS, "AVENTURE.Travel.Position", m.position, l),
      activityOptions: options(TRAVEL_ACTIVITIES, "AVENTURE.Travel.Activity", m.activity, l),
    })),
    addable: env.addable.filter((a) => !state.members.some((m) => m.actorId === a.id)),
    noneToAdd: env.addable.every((a) => state.members.some((m) => m.actorId === a.id)),
    route: state.route
      ? {
          legs: state.route.legs.map((leg, i) => ({
            index: i + 1,
            length: formatKm(leg.metres, env.lang),
            terrain: l(`AVENTURE.Travel.Leg.${leg.terrain}`),
            difficult: leg.terrain === "difficult",
            regions: leg.regions.join(", "),
          })),
          total: formatKm(
            state.route.legs.reduce((a, leg) => a + leg.metres, 0),
            env.lang,
          ),
          equivalent: journey ? formatKm(journey.full.equivalentDistance, env.lang) : "",
          fullDays: journey ? plural(l, env.lang, "AVENTURE.Travel.Summary.dayCount", journey.full.days.length) : "",
          tokensText: state.route.tokenIds.length
            ? plural(l, env.lang, "AVENTURE.Travel.Route.tokens", state.route.tokenIds.length)
            : "",
        }
      : null,
    summary: plan ? summaryOf(plan, env, { journey, survivalDC: request?.survivalDC }) : null,
    invalid: !plan,
    canApply: !!plan && !!request && !env.busy,
    cannotApply: !plan || !request || !!env.busy,
    isGM: env.isGM,
    // A player's journey is a proposal for the GMs, unless the world lets players apply journeys of their own
    // characters.
    playerHint: env.isGM
      ? ""
      : l(
          env.playersApply && state.members.every((m) => m.owned !== false)
            ? "AVENTURE.Travel.playerHintDirect"
            : "AVENTURE.Travel.playerHint",
        ),
    request,
  };
}

export type TravelContext = ReturnType<typeof travelContext>;
