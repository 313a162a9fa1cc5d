import { show } from "./text.js";
import { RulesError } from "./errors.js";
import { ruleset as checkRuleset, type RulesetId } from "./rulesets.js";
import {
  RATION_LEVELS,
  SURVIVAL_CON_MOD_RANGE,
  SURVIVAL_TABLE,
  fastingDays,
  survivalDay,
  survivalSaveSucceeds,
  waterNeedLitres,
  type RationLevel,
} from "./survival.js";
import { splitDuration } from "./time.js";
import { clean } from "./units.js";
import { bool, num, oneOf } from "./validate.js";
import { DUNGEON_RUN } from "./pursuit.js";
import { deepFreeze, list, metres, record } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";

export * from "./survival.js";

/*
 * docs/rules.md §2 (travel: rnp, dnd5e; getting lost: pmt; encounter movement: pmt, ose) and, through travelPlan,
 * §4.3–4.4 (food and water, rnp). Metres and seconds; speeds given by the user in km/h.
 */

export const TRAVEL_PACES = deepFreeze(["slow", "normal", "fast"] as const);
export type TravelPace = (typeof TRAVEL_PACES)[number];

export const TRAVEL_PERIODS = deepFreeze(["minute", "hour", "day"] as const);
export type TravelPer = (typeof TRAVEL_PERIODS)[number];

/**
 * docs/rules.md §2.1, in metres. The day column assumes 8 hours of marching and is used as given (it is not
 * 8 × the hour column for slow and fast).
 */
export const TRAVEL_PACE_TABLE: Readonly<Record<TravelPace, Readonly<Record<TravelPer, number>>>> = deepFreeze({
  slow: { minute: 60, hour: 3000, day: 27000 },
  normal: { minute: 90, hour: 4500, day: 36000 },
  fast: { minute: 120, hour: 6000, day: 45000 },
});

/** The other numbers of docs/rules.md §2. */
export const TRAVEL_RULES = deepFreeze({
  /** §2.1/2.4: hours of marching the day column assumes; beyond, forced march. */
  standardHours: 8,
  /** §2.4: DC = 10 + hours beyond 8. */
  forcedMarchBaseDC: 10,
  /** §2.3: difficult terrain covers half the distance. */
  difficultFactor: 0.5,
  /** §2.2: fast pace gives −5 to passive Perception. */
  fastPerceptionPenalty: 5,
  /** §2.5: a gallop lasts at most one hour… */
  gallopMaxHours: 1,
  /** …and covers twice the fast pace (12 km in that hour). */
  gallopFactor: 2,
  /** §2.5: ships sail beyond this many hours a day only with enough crew (up to 24 h). */
  boatStandardHours: 8,
  /** travelPlan: hours of marching per day by default, and at most. */
  defaultHoursPerDay: 8,
  maxHoursPerDay: 24,
  /** travelPlan refuses journeys longer than this many days (OutOfRange). */
  maxDays: 1000,
  /** §2.8: encounter movement per round = exploration rate / 3. */
  encounterMovementDivisor: 3,
} as const);

/**
 * docs/rules.md §2.8: running (exploration rate per round) lasts at most this many rounds, then the runner is
 * exhausted.
 * pmt: seed 002 (30 rounds, ½ turn); ose: Old-School Essentials' own rule (seed 004 has none): 30 rounds, then
 * exhausted until 3 turns of rest. The numbers come from DUNGEON_RUN (pursuit.ts), the one table of running.
 * null: the ruleset has no such rule.
 */
export const TRAVEL_RUNNING_TABLE: Readonly<
  Record<RulesetId, Readonly<{ rounds: number; exhaustedAfter: boolean }> | null>
> = deepFreeze({
  rnp: null,
  dnd5e: null,
  pmt: { rounds: DUNGEON_RUN.pmt.limitRounds, exhaustedAfter: true },
  ose: { rounds: DUNGEON_RUN.ose.limitRounds, exhaustedAfter: true },
  polaris: null,
});

/**
 * docs/rules.md §2.8 (ose, seed 004): the encounter movement rate (⅓ of the exploration rate per round) can be kept for
 * at most this many rounds (60 = one turn). null: the ruleset sets no such limit.
 */
export const ENCOUNTER_MOVEMENT_LIMIT: Readonly<Record<RulesetId, number | null>> = deepFreeze({
  rnp: null,
  dnd5e: null,
  pmt: null,
  ose: 60,
  polaris: null,
});

export const TRAVEL_TERRAINS = deepFreeze(["normal", "difficult"] as const);
export type TravelTerrain = (typeof TRAVEL_TERRAINS)[number];

export const TRAVEL_MODES = deepFreeze(["foot", "gallop", "vehicle", "boat", "custom"] as const);
export type TravelMode = (typeof TRAVEL_MODES)[number];

export const MARCHING_POSITIONS = deepFreeze(["front", "middle", "rear"] as const);
export type MarchingPosition = (typeof MARCHING_POSITIONS)[number];

/** docs/rules.md §2.6. "none" and "watch" keep an eye out for threats; the others keep the character busy. */
export const TRAVEL_ACTIVITIES = deepFreeze(["none", "watch", "navigate", "map", "track", "forage"] as const);
export type TravelActivity = (typeof TRAVEL_ACTIVITIES)[number];
export const TRAVEL_BUSY_ACTIVITIES: readonly TravelActivity[] = deepFreeze(["navigate", "map", "track", "forage"]);

export const TRAVEL_SAVE_KINDS = deepFreeze(["forcedMarch", "dehydration"] as const);
export type TravelSaveKind = (typeof TRAVEL_SAVE_KINDS)[number];

/** The rulesets whose source has the travel rules (§2); the others use them as a fallback (warning rulesetFallback). */
export const TRAVEL_NATIVE_RULESETS: readonly RulesetId[] = deepFreeze(["rnp", "dnd5e"]);

/**
 * Warnings of travelPlan, one localization key each (AVENTURE.Travel.Warning.<code> in the glue):
 * - rulesetFallback: the ruleset has no travel rules of its own; the rnp/dnd5e rules (§2, §4) are used.
 * - gallopCapped: a gallop lasts at most one hour a day; the rest of the day goes at the chosen pace.
 * - boatIgnoresPace: a boat goes at its own speed; the pace changes neither distance, Perception nor stealth.
 * - vehicleNormalPace: land vehicles travel at normal pace whatever pace was chosen.
 * - boatCrewNeeded: sailing more than 8 h a day needs enough crew.
 * - terrainIgnoredOnBoat: difficult terrain does not halve a boat's speed.
 * - speedIgnored: a speed was given for a mode that uses the pace table.
 * - stealthNeedsSlow: stealth was asked but the group is not travelling at slow pace (on foot or custom mount).
 * - stealthNotOnBoat: stealth was asked on a boat (no slow-pace benefit).
 * - lostCheck: the referee rolls 1d100 at the start of each day (lostChance %).
 * - forcedMarch: marching beyond 8 h: Constitution saves are due (see saves).
 * - positionsNormalised: with two marching positions only front and rear exist, with one it is the front.
 * - noLookout: every member is busy; nobody notices threats.
 * - hotWeather: hot weather doubles the water need (6 L a day); the water levels are relative to it.
 */
export const TRAVEL_WARNINGS = deepFreeze([
  "rulesetFallback",
  "gallopCapped",
  "boatIgnoresPace",
  "vehicleNormalPace",
  "boatCrewNeeded",
  "terrainIgnoredOnBoat",
  "speedIgnored",
  "stealthNeedsSlow",
  "stealthNotOnBoat",
  "lostCheck",
  "forcedMarch",
  "positionsNormalised",
  "noLookout",
  "hotWeather",
] as const);
export type TravelWarning = (typeof TRAVEL_WARNINGS)[number];

const HOUR = 3600;
const DAY = 86400;

function options(name: string, v: unknown, required = false): Record<string, unknown> {
  if (v === undefined || (required && v === null)) {
    if (required) throw new RulesError("AVENTURE.Error.Missing", { name });
    return {};
  }
  if (typeof v !== "object" || v === null) {
    throw new RulesError("AVENTURE.Error.UnknownValue", { name, value: show(v), allowed: "object" });
  }
  return v as Record<string, unknown>;
}

/**
 * docs/rules.md §2.1/2.3: the distance in metres a group covers at `pace` per minute, hour or day (the day column as
 * given), halved with `options.difficult`.
 */
export function paceDistance(pace: TravelPace, per: TravelPer, opts?: { difficult?: boolean }): number {
  const p = oneOf("pace", pace, TRAVEL_PACES);
  const u = oneOf("per", per, TRAVEL_PERIODS);
  const difficult = bool("difficult", options("options", opts).difficult, false);
  return clean(TRAVEL_PACE_TABLE[p][u] * (difficult ? TRAVEL_RULES.difficultFactor : 1));
}

/**
 * docs/rules.md §2.4: the Constitution save DC at the end of the `hoursMarched`-th hour of marching in a day:
 * null up to 8, 11 for the 9th hour, 12 for the 10th… (integer 0..24).
 */
export function forcedMarchDC(hoursMarched: number): number | null {
  const h = num("hoursMarched", hoursMarched, { integer: true, min: 0, max: TRAVEL_RULES.maxHoursPerDay });
  if (h <= TRAVEL_RULES.standardHours) return null;
  return TRAVEL_RULES.forcedMarchBaseDC + (h - TRAVEL_RULES.standardHours);
}

/** docs/rules.md §2.8 (pmt, ose): encounter movement per round in metres = exploration rate (metres per turn) / 3. */
export function encounterMovement(explorationRate: number): number {
  return clean(num("explorationRate", explorationRate, { min: 0 }) / TRAVEL_RULES.encounterMovementDivisor);
}

/**
 * docs/rules.md §2.8: how many rounds a character can run (at its exploration rate per round): 30 in pmt (seed 002) and
 * 30
 * in ose (Old-School Essentials' own rule; seed 004 has no running rule), exhausted afterwards (TRAVEL_RUNNING_TABLE).
 * rnp, dnd5e and polaris have no such rule and give null (like turnSeconds); an unknown ruleset throws UnknownRuleset.
 */
export function runningLimitRounds(rs: RulesetId): number | null {
  return TRAVEL_RUNNING_TABLE[checkRuleset(rs)]?.rounds ?? null;
}

/**
 * docs/rules.md §2.8 (ose, seed 004): how many rounds the encounter movement rate can be kept: 60 (one turn) in ose,
 * null
 * for the other rulesets (no such limit). Throws UnknownRuleset.
 */
export function encounterMovementLimitRounds(rs: RulesetId): number | null {
  return ENCOUNTER_MOVEMENT_LIMIT[checkRuleset(rs)];
}

/**
 * docs/rules.md §2.7 (pmt): the group is lost when the referee's 1d100 (`roll`, 1..100) is at most `chance` (percent,
 * 0..100). A chance of 0 never gets lost (the default: the seed gives no percentage).
 */
export function travelLostCheck(chance: number, roll: number): boolean {
  const c = num("chance", chance, { min: 0, max: 100 });
  const r = num("roll", roll, { integer: true, min: 1, max: 100 });
  return r <= c;
}

// ---------------------------------------------------------------------------------------------------------------
// travelPlan

export interface TravelMemberInput {
  id: string;
  name: string;
  /** Constitution modifier, integer −5..10. */
  conMod: number;
  /** Passive Wisdom (Perception), before the pace penalty. Integer 0..100. */
  passivePerception: number;
  /** Current exhaustion level, integer 0..6. Default 0. */
  exhaustion?: number;
  /** Fasting counter so far (days without food, half rations = 0.5). Default 0. */
  fasting?: number;
  /**
   * Thirst counter so far: days in a row that ended dehydrated (no water, or half water and a failed save).
   * Default 0. A day that does not end dehydrated resets it.
   */
  thirst?: number;
  /** Food eaten each day of the trip, relative to the need (500 g). */
  food: RationLevel;
  /** Water drunk each day, relative to the need (3 L, 6 L when hot). */
  water: RationLevel;
  position: MarchingPosition;
  /** Default "none". */
  activity?: TravelActivity;
}

/** One leg of a route (docs/rules.md §11): real metres on one terrain. */
export interface TravelLegInput {
  metres: number;
  terrain: TravelTerrain;
}

export interface TravelInput {
  ruleset: RulesetId;
  pace: TravelPace;
  /** The terrain of the whole journey; not with `legs` (each leg has its own). */
  terrain?: TravelTerrain;
  mode: TravelMode;
  /** km/h, required for boat and custom. */
  speedKmh?: number;
  /** Metres to cover. Give exactly one of distance, duration and legs. */
  distance?: number;
  /** Seconds of real (world) time travelling. */
  duration?: number;
  /**
   * A route (docs/rules.md §11): its legs in order, each on normal or difficult terrain (instead of distance and
   * terrain).
   */
  legs?: readonly TravelLegInput[];
  /** Hours of marching (or sailing) per day, > 0 and ≤ 24. Default 8. */
  hoursPerDay?: number;
  /** Hot weather: the water need doubles. Default false. */
  hot?: boolean;
  /** The group wants to travel stealthily (only checked; warns when impossible). Default false. */
  stealth?: boolean;
  /** pmt: daily chance (percent) of getting lost, rolled on 1d100 at the start of each day. Default 0 (no check). */
  lostChance?: number;
  party: readonly TravelMemberInput[];
}

export interface TravelForcedMarchHour {
  /** The hour of marching that day (9, 10…). */
  hour: number;
  dc: number;
}

/**
 * Which column of the pace table (docs/rules.md §2.1) a stretch of a day's march is read from: the day column (a whole
 * standard day of 8 h), the hour column (each hour of a short day, forced-march hours), the minute column (what is
 * left after whole hours); a gallop (§2.5, twice the fast hour) or the own speed of a boat or special mount.
 */
export const TRAVEL_COLUMNS = deepFreeze(["day", "hour", "minute", "gallop", "speed"] as const);
export type TravelColumn = (typeof TRAVEL_COLUMNS)[number];

/** A stretch of a day's march at one steady rate, on one leg of the route. */
export interface TravelStretch {
  column: TravelColumn;
  /** Index in `plan.legs` of the leg walked. */
  leg: number;
  /** World seconds from departure when the stretch starts. */
  startSeconds: number;
  seconds: number;
  /** Real metres covered. */
  metres: number;
}

/** A leg of the plan's route: real metres, terrain, and when the party reaches its end. */
export interface TravelPlanLeg {
  metres: number;
  terrain: TravelTerrain;
  /** World seconds from departure when the party reaches the end of the leg (rests between days included). */
  arrivalSeconds: number;
}

export interface TravelDay {
  /** 1-based. */
  day: number;
  /** Seconds from the start of the journey to the start of this day's march. */
  startSeconds: number;
  marchSeconds: number;
  /** Seconds of that march spent galloping (gallop mode). */
  gallopSeconds: number;
  /** Metres covered this day, and since the start at the end of this day. */
  distance: number;
  distanceTotal: number;
  /** One entry per completed hour beyond 8 (none for boats). */
  forcedMarch: TravelForcedMarchHour[];
  /** The 1d100 lost chance rolled at the start of the day, or null. */
  lostCheckChance: number | null;
  /** The day's march, stretch by stretch, with the column of the pace table each is read from. */
  stretches: TravelStretch[];
}

export interface TravelSave {
  /** Stable id: `${memberId}:${day}:forcedMarch:${hour}` or `${memberId}:${day}:dehydration`. */
  id: string;
  memberId: string;
  day: number;
  kind: TravelSaveKind;
  /** The hour of marching for forcedMarch, null for dehydration (rolled at the end of the day). */
  hour: number | null;
  ability: "con";
  dc: number;
}

export interface TravelMemberDay {
  day: number;
  forcedMarch: (TravelForcedMarchHour & { saveId: string })[];
  food: RationLevel;
  fastingAfter: number;
  /** Automatic levels from hunger at the end of this day. */
  hungerLevels: number;
  water: RationLevel;
  /** 1 when water is "none" (automatic level), else 0. */
  thirstAutomatic: number;
  /** DC 15 when water is "half", else null. */
  dehydrationDC: number | null;
  dehydrationSaveId: string | null;
  /** True when a dehydration level is possible this day: it becomes 2 levels if the member is already exhausted. */
  dehydrationExtraIfExhausted: boolean;
}

export interface TravelMemberPlan {
  id: string;
  name: string;
  conMod: number;
  exhaustionBefore: number;
  fastingBefore: number;
  /** The thirst counter before the trip (days in a row ended dehydrated). */
  thirstBefore: number;
  /** fastingDays(conMod). */
  fastingAllowed: number;
  food: RationLevel;
  water: RationLevel;
  /** The position given and the one used after normalisation (two positions: front and rear; one: front). */
  positionGiven: MarchingPosition;
  position: MarchingPosition;
  activity: TravelActivity;
  busy: boolean;
  /** Whether the member counts for noticing threats (§2.6: busy members don't). */
  countsForNoticing: boolean;
  passivePerceptionBase: number;
  /** After the pace (−5 at fast pace, and when galloping). */
  passivePerception: number;
  days: TravelMemberDay[];
  /** The fasting counter after the trip (does not depend on saves). */
  fastingAfter: number;
  starvingAfter: boolean;
  /** Exhaustion after the trip if every save succeeds / fails. */
  exhaustionMin: number;
  exhaustionMax: number;
}

export interface TravelPlan {
  ruleset: RulesetId;
  pace: TravelPace;
  /** The pace whose table row gives the distance (vehicle: normal; boat and custom: null). */
  effectivePace: TravelPace | null;
  /** The terrain of the journey; with legs, theirs when they all share one, otherwise "mixed". */
  terrain: TravelTerrain | "mixed";
  mode: TravelMode;
  speedKmh: number | null;
  hoursPerDay: number;
  hot: boolean;
  lostChance: number;
  /** Metres per full travel day (with legs: on normal terrain). */
  dayDistance: number;
  /** Real metres in total. */
  distance: number;
  /**
   * docs/rules.md §11: Σ normal metres + 2 × Σ difficult metres (boats: the real metres), the distance the time is
   * computed on.
   */
  equivalentDistance: number;
  /** The route: its legs in order (one leg for a journey given by distance or duration). */
  legs: TravelPlanLeg[];
  /** Real elapsed seconds (world time to advance), and split. */
  durationSeconds: number;
  duration: { days: number; hours: number; minutes: number; seconds: number };
  /** Seconds spent marching in total. */
  marchSeconds: number;
  days: TravelDay[];
  members: TravelMemberPlan[];
  /**
   * The best passive Perception (after the pace) per position among members who count; null when nobody there counts.
   */
  noticeByPosition: Record<MarchingPosition, number | null>;
  canStealth: boolean;
  foodNeedGrams: number;
  waterNeedLitres: number;
  /** Every save the glue must roll, in order (day, member, hour, then dehydration at the end of the day). */
  saves: TravelSave[];
  warnings: TravelWarning[];
}

/*
 * The march is computed on equivalent metres (docs/rules.md §11): the rates of normal terrain, and each difficult metre
 * counts double (§2.3: the group covers half the distance), boats excepted. A piece is a part of a day's march read
 * from one column, at a steady rate.
 */
interface Piece {
  column: TravelColumn;
  seconds: number;
  /** Equivalent metres. */
  eq: number;
}

interface Rates {
  mode: TravelMode;
  /** The pace table row (foot, gallop, vehicle), null for boat and custom. */
  row: Readonly<Record<TravelPer, number>> | null;
  /** Metres per hour at the own speed (boat, custom). */
  speed: number;
  /** Metres per hour galloping. */
  gallop: number;
}

function ratesFor(mode: TravelMode, pace: TravelPace, speedKmh: number): Rates {
  const own = mode === "boat" || mode === "custom";
  return {
    mode,
    row: own ? null : TRAVEL_PACE_TABLE[mode === "vehicle" ? "normal" : pace],
    speed: speedKmh * 1000,
    gallop: TRAVEL_PACE_TABLE.fast.hour * TRAVEL_RULES.gallopFactor,
  };
}

/** A piece of march, none when it lasts less than a microsecond (rounding noise). */
function piece(column: TravelColumn, hours: number, eq: number): Piece[] {
  return hours * HOUR > 1e-6 ? [{ column, seconds: hours * HOUR, eq }] : [];
}

/** §2.1: `hours` of a short day: the hour column for each whole hour, the minute column for what is left. */
function columnsFor(row: Readonly<Record<TravelPer, number>>, hours: number): Piece[] {
  const whole = Math.floor(clean(hours));
  const rest = Math.max(0, hours - whole);
  return [...piece("hour", whole, whole * row.hour), ...piece("minute", rest, rest * 60 * row.minute)];
}

/**
 * §2.1: a distance's remainder is read at the hour column (`eq` / the hour column, in hours); a march longer than
 * `capHours` (only possible when a short day's minute column gave more than its hour) takes `capHours`.
 */
function hourColumnCovering(row: Readonly<Record<TravelPer, number>>, eq: number, capHours: number): Piece[] {
  return piece("hour", Math.min(eq / row.hour, capHours), eq);
}

/**
 * One day's march of `hours` (docs/rules.md §2.1 *Decision (which column)*, §2.4, §2.5): a whole standard day (8 h)
 * covers
 * the day column, the hours beyond it the hour column (forced march), a shorter day the hour column per hour and the
 * minute column for what is left; a gallop its first hour at twice the fast hour, then the hour and minute columns
 * (a gallop day has no whole standard day of walking); boats and special mounts their own speed.
 */
function dayPieces(r: Rates, hours: number): Piece[] {
  if (r.row === null) return piece("speed", hours, hours * r.speed);
  const std = TRAVEL_RULES.standardHours;
  if (r.mode === "gallop") {
    const g = Math.min(hours, TRAVEL_RULES.gallopMaxHours);
    return [...piece("gallop", g, g * r.gallop), ...columnsFor(r.row, hours - g)];
  }
  if (hours >= std) return [...piece("day", std, r.row.day), ...columnsFor(r.row, hours - std)];
  return columnsFor(r.row, hours);
}

/**
 * The last day of a journey given by distance: it covers `eq` equivalent metres, less than a full day (§2.1: whole
 * days first, then the remainder at the hour column; a remainder that would need 8 h or more at the hour column is
 * one more whole day, its extra metres at the hour column as forced march), in at most `hoursPerDay`.
 */
function lastDayPieces(r: Rates, eq: number, hoursPerDay: number): Piece[] {
  if (r.row === null) return piece("speed", eq / r.speed, eq);
  const std = TRAVEL_RULES.standardHours;
  if (r.mode === "gallop") {
    const g = Math.min(hoursPerDay, TRAVEL_RULES.gallopMaxHours);
    if (eq <= g * r.gallop) return piece("gallop", eq / r.gallop, eq);
    return [...piece("gallop", g, g * r.gallop), ...hourColumnCovering(r.row, eq - g * r.gallop, hoursPerDay - g)];
  }
  if (hoursPerDay >= std && clean(eq / r.row.hour) >= std) {
    if (eq <= r.row.day) return piece("day", std, eq);
    return [...piece("day", std, r.row.day), ...hourColumnCovering(r.row, eq - r.row.day, hoursPerDay - std)];
  }
  return hourColumnCovering(r.row, eq, hoursPerDay);
}

const sum = (pieces: readonly Piece[], k: "seconds" | "eq") => pieces.reduce((a, p) => a + p[k], 0);

function str(name: string, v: unknown, allowEmpty: boolean): string {
  if (typeof v !== "string" || (!allowEmpty && v === "")) throw new RulesError("AVENTURE.Error.Missing", { name });
  return v;
}

interface Member {
  id: string;
  name: string;
  conMod: number;
  passivePerception: number;
  exhaustion: number;
  fasting: number;
  thirst: number;
  food: RationLevel;
  water: RationLevel;
  position: MarchingPosition;
  activity: TravelActivity;
}

function member(i: number, raw: unknown): Member {
  const n = (k: string) => `party[${i}].${k}`;
  const m = options(`party[${i}]`, raw, true);
  const conMod = num(n("conMod"), m.conMod, {
    integer: true,
    min: SURVIVAL_CON_MOD_RANGE.min,
    max: SURVIVAL_CON_MOD_RANGE.max,
  });
  return {
    id: str(n("id"), m.id, false),
    name: str(n("name"), m.name, true),
    conMod,
    passivePerception: num(n("passivePerception"), m.passivePerception, { integer: true, min: 0, max: 100 }),
    exhaustion:
      m.exhaustion === undefined
        ? 0
        : num(n("exhaustion"), m.exhaustion, { integer: true, min: 0, max: SURVIVAL_TABLE.exhaustionMax }),
    fasting: m.fasting === undefined ? 0 : num(n("fasting"), m.fasting, { min: 0, max: RULES_LIMITS.maxCounterDays }),
    thirst:
      m.thirst === undefined
        ? 0
        : num(n("thirst"), m.thirst, { integer: true, min: 0, max: RULES_LIMITS.maxCounterDays }),
    food: oneOf(n("food"), m.food, RATION_LEVELS),
    water: oneOf(n("water"), m.water, RATION_LEVELS),
    position: oneOf(n("position"), m.position, MARCHING_POSITIONS),
    activity: m.activity === undefined ? "none" : oneOf(n("activity"), m.activity, TRAVEL_ACTIVITIES),
  };
}

/** §2.6: with two positions in use only front and rear exist; with one, it is the front. */
function normalisePositions(used: readonly MarchingPosition[]): Map<MarchingPosition, MarchingPosition> {
  const distinct = MARCHING_POSITIONS.filter((p) => used.includes(p));
  const map = new Map<MarchingPosition, MarchingPosition>();
  if (distinct.length === 1) map.set(distinct[0]!, "front");
  else if (distinct.length === 2) {
    map.set(distinct[0]!, "front");
    map.set(distinct[1]!, "rear");
  } else for (const p of distinct) map.set(p, p);
  return map;
}

/** A route's legs (docs/rules.md §11), checked: each leg with its equivalent length (difficult metres count double). */
interface Leg {
  metres: number;
  terrain: TravelTerrain;
  /** Equivalent metres per real metre: 2 in difficult terrain (boats excepted), else 1. */
  factor: number;
}

function checkLegs(raw: unknown, boat: boolean): Leg[] {
  const items = list("legs", raw, RULES_LIMITS.maxList);
  if (items.length === 0) throw new RulesError("AVENTURE.Error.Missing", { name: "legs" });
  const legs = items.map((l, i) => {
    const leg = record(`legs[${i}]`, l);
    const terrain = oneOf(`legs[${i}].terrain`, leg.terrain, TRAVEL_TERRAINS);
    return {
      metres: metres(`legs[${i}].metres`, leg.metres),
      terrain,
      factor: terrain === "difficult" && !boat ? 2 : 1,
    };
  });
  metres("legs (total)", clean(legs.reduce((a, l) => a + l.metres, 0)));
  return legs;
}

/**
 * Cuts the days' pieces into stretches on the legs of the route (a stretch never spans two legs, so each has one
 * steady real rate) and notes when the party reaches the end of each leg.
 */
function walkLegs(
  legs: readonly Leg[],
  days: readonly { startSeconds: number; pieces: Piece[] }[],
): { stretches: TravelStretch[][]; arrivals: number[] } {
  const EPS = 1e-6;
  const ends: number[] = [];
  legs.reduce((a, l, i) => (ends[i] = a + l.metres * l.factor), 0);
  const arrivals: (number | null)[] = legs.map(() => null);
  let leg = 0;
  let pos = 0;
  /** Every leg whose end is reached (zero-length legs included) is reached at `time`. */
  const reach = (time: number) => {
    while (leg < legs.length - 1 && ends[leg]! - pos <= EPS) arrivals[leg++] = clean(time);
  };
  reach(0);
  const stretches = days.map((d) => {
    const out: TravelStretch[] = [];
    let time = d.startSeconds;
    for (const p of d.pieces) {
      if (p.eq <= 0) {
        time += p.seconds;
        continue;
      }
      const rate = p.seconds / p.eq;
      let eq = p.eq;
      while (eq > 0) {
        const room = ends[leg]! - pos;
        const arrives = leg < legs.length - 1 && eq >= room - EPS;
        const part = !arrives || Math.abs(eq - room) <= EPS ? eq : room;
        const seconds = part * rate;
        out.push({
          column: p.column,
          leg,
          startSeconds: clean(time),
          seconds: clean(seconds),
          metres: clean(part / legs[leg]!.factor),
        });
        time += seconds;
        eq -= part;
        pos = arrives ? ends[leg]! : pos + part;
        if (arrives) reach(time);
      }
    }
    return out;
  });
  // The legs not reached by then (the last, legs of no length at the end) are reached when the march ends; arrivals
  // never go back in time (rounding).
  const end = clean(
    days.reduce((a, d) => Math.max(a, d.startSeconds + d.pieces.reduce((t, p) => t + p.seconds, 0)), 0),
  );
  let latest = 0;
  return { stretches, arrivals: arrivals.map((a) => (latest = Math.max(latest, a ?? end))) };
}

/**
 * docs/rules.md §2 and §4.3–4.4 (and §11 for a route): plans a whole journey. Pure: rolls nothing; lists the saves to
 * roll
 * (`saves`), whose results go to travelOutcome.
 *
 * Decisions (documented in docs/api/travel.md):
 * - A travel day is one calendar day with `hoursPerDay` of marching. Elapsed (world) time: every day but the last
 *   counts 24 h; the last counts only its marching (the group arrives at the end of its march). With a duration
 *   given, the elapsed time is that duration: whole 24-h days march `hoursPerDay` each, a remainder marches
 *   min(remainder, hoursPerDay).
 * - Which column (docs/rules.md §2.1): a whole standard day (8 h) covers the day column; a shorter day the hour column
 *   for each hour and the minute column for what is left; every hour beyond 8 the hour column (§2.4). A distance is
 *   whole days first, then the remainder at the hour column; a remainder needing 8 h or more at the hour column is
 *   one more whole day. A forced-march save is due at the end of each completed hour beyond 8.
 * - Difficult terrain halves everything, boats excepted; a route's legs count on the equivalent distance
 *   Σ normal + 2 × Σ difficult (§11). Vehicles use the normal pace. Gallop: the first hour of each day at twice the
 *   fast hour (12 km, 6 km in difficult terrain), the rest of the day at the hour and minute columns of the chosen
 *   pace; galloping riders take the fast-pace −5 and cannot be stealthy. Boat: speedKmh × hours, pace ignored (no
 *   −5, no stealth), no forced-march saves (the crew sails). Custom: speedKmh × hours, halved in difficult terrain,
 *   pace keeps its Perception/stealth effects, forced-march saves beyond 8 h.
 * - Food and water are counted for every travel day, the last (partial) one included, at the end of the day.
 */
export function travelPlan(input: TravelInput): TravelPlan {
  const inp = options("input", input, true);
  const rs = checkRuleset(inp.ruleset);
  const pace = oneOf("pace", inp.pace, TRAVEL_PACES);
  const mode = oneOf("mode", inp.mode, TRAVEL_MODES);
  const byLegs = inp.legs !== undefined;
  if (byLegs) {
    for (const other of ["distance", "duration", "terrain"] as const) {
      if (inp[other] !== undefined) {
        throw new RulesError("AVENTURE.Error.UnknownValue", {
          name: "legs",
          value: other,
          allowed: "legs, or distance or duration with terrain",
        });
      }
    }
  }
  const terrain = byLegs ? null : oneOf("terrain", inp.terrain, TRAVEL_TERRAINS);
  const needsSpeed = mode === "boat" || mode === "custom";
  if (needsSpeed && inp.speedKmh === undefined) throw new RulesError("AVENTURE.Error.Missing", { name: "speedKmh" });
  const speedKmh = needsSpeed ? num("speedKmh", inp.speedKmh, { min: 0.01, max: RULES_LIMITS.maxSpeedKmh }) : null;
  const hoursPerDay =
    inp.hoursPerDay === undefined
      ? TRAVEL_RULES.defaultHoursPerDay
      : num("hoursPerDay", inp.hoursPerDay, { min: Number.MIN_VALUE, max: TRAVEL_RULES.maxHoursPerDay });
  const hot = bool("hot", inp.hot, false);
  const stealth = bool("stealth", inp.stealth, false);
  const lostChance = inp.lostChance === undefined ? 0 : num("lostChance", inp.lostChance, { min: 0, max: 100 });
  if (!byLegs && inp.distance === undefined && inp.duration === undefined) {
    throw new RulesError("AVENTURE.Error.Missing", { name: "distance" });
  }
  if (inp.distance !== undefined && inp.duration !== undefined) {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "distance, duration",
      value: "both",
      allowed: "distance or duration",
    });
  }
  const givenDistance = inp.distance === undefined ? null : metres("distance", inp.distance);
  // A duration beyond 1000 days is refused as too many days (below), like a distance.
  const givenDuration = inp.duration === undefined ? null : num("duration", inp.duration, { min: 0 });
  const givenLegs = byLegs ? checkLegs(inp.legs, mode === "boat") : null;
  const partyItems = list("party", inp.party, RULES_LIMITS.maxParty);
  if (partyItems.length === 0) throw new RulesError("AVENTURE.Error.EmptyParty", {});
  const party = partyItems.map((m, i) => member(i, m));
  const ids = new Set<string>();
  party.forEach((m, i) => {
    if (ids.has(m.id)) {
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `party[${i}].id`,
        value: m.id,
        allowed: "unique ids",
      });
    }
    ids.add(m.id);
  });

  // Days, on the equivalent distance (§11; a single terrain: its factor).
  const rates = ratesFor(mode, pace, speedKmh ?? 0);
  const factor = terrain === "difficult" && mode !== "boat" ? 2 : 1;
  const fullDay = dayPieces(rates, hoursPerDay);
  const fullEq = sum(fullDay, "eq");
  const tooLong = (days: number) => {
    if (!(days <= TRAVEL_RULES.maxDays)) {
      throw new RulesError("AVENTURE.Error.OutOfRange", {
        name: "days",
        value: Number.isFinite(days) ? Math.ceil(days) : show(days),
        min: 0,
        max: TRAVEL_RULES.maxDays,
      });
    }
    if (days * party.length > RULES_LIMITS.maxPartyDays) {
      throw new RulesError("AVENTURE.Error.OutOfRange", {
        name: "party × days",
        value: days * party.length,
        min: 0,
        max: RULES_LIMITS.maxPartyDays,
      });
    }
  };
  const dayPlans: { startSeconds: number; pieces: Piece[] }[] = [];
  let equivalent: number;
  let durationSeconds: number;
  if (givenDuration === null) {
    equivalent = givenLegs ? clean(givenLegs.reduce((a, l) => a + l.metres * l.factor, 0)) : givenDistance! * factor;
    // Days needed; a march of almost nothing a day (hoursPerDay near 0) gives too many, or an infinity: refused.
    const rawRatio = equivalent === 0 ? 0 : equivalent / fullEq;
    if (!(rawRatio <= TRAVEL_RULES.maxDays + 1)) tooLong(rawRatio);
    const ratio = clean(rawRatio);
    tooLong(Math.ceil(ratio));
    const whole = Math.floor(ratio);
    const rest = clean(equivalent - whole * fullEq);
    for (let d = 0; d < whole; d++) dayPlans.push({ startSeconds: d * DAY, pieces: fullDay });
    // A remainder below a micrometre is rounding noise, not one more day.
    const last = rest > 1e-6 ? lastDayPieces(rates, rest, hoursPerDay) : [];
    if (last.length) dayPlans.push({ startSeconds: whole * DAY, pieces: last });
    const lastPlan = dayPlans.at(-1);
    durationSeconds = lastPlan ? clean(lastPlan.startSeconds + sum(lastPlan.pieces, "seconds")) : 0;
  } else {
    durationSeconds = givenDuration;
    const whole = Math.floor(clean(durationSeconds / DAY));
    const remainder = clean(durationSeconds - whole * DAY);
    // A remainder below a microsecond is rounding noise, not one more day.
    const partial = remainder > 1e-6;
    tooLong(whole + (partial ? 1 : 0));
    for (let d = 0; d < whole; d++) dayPlans.push({ startSeconds: d * DAY, pieces: fullDay });
    const last = partial ? dayPieces(rates, Math.min(hoursPerDay, remainder / HOUR)) : [];
    if (last.length) dayPlans.push({ startSeconds: whole * DAY, pieces: last });
    equivalent = clean(dayPlans.reduce((a, d) => a + sum(d.pieces, "eq"), 0));
  }
  const legs: Leg[] = givenLegs ?? [{ metres: givenDistance ?? clean(equivalent / factor), terrain: terrain!, factor }];
  const distance = clean(legs.reduce((a, l) => a + l.metres, 0));
  const walked = walkLegs(legs, dayPlans);

  const forcedMarchApplies = mode !== "boat";
  let total = 0;
  const days: TravelDay[] = dayPlans.map((dp, i) => {
    const stretches = walked.stretches[i]!;
    const isLast = i === dayPlans.length - 1;
    const dist = isLast ? clean(distance - total) : clean(stretches.reduce((a, x) => a + x.metres, 0));
    total = clean(total + dist);
    const march = clean(sum(dp.pieces, "seconds"));
    const forcedMarch: TravelForcedMarchHour[] = [];
    if (forcedMarchApplies) {
      for (let hour = TRAVEL_RULES.standardHours + 1; hour <= Math.floor(clean(march / HOUR)); hour++) {
        forcedMarch.push({ hour, dc: forcedMarchDC(hour)! });
      }
    }
    return {
      day: i + 1,
      startSeconds: dp.startSeconds,
      marchSeconds: march,
      gallopSeconds: clean(dp.pieces.filter((p) => p.column === "gallop").reduce((a, p) => a + p.seconds, 0)),
      distance: dist,
      distanceTotal: total,
      forcedMarch,
      lostCheckChance: lostChance > 0 ? lostChance : null,
      stretches,
    };
  });

  // Members.
  const perceptionPenalty =
    mode === "gallop" || ((mode === "foot" || mode === "custom") && pace === "fast")
      ? TRAVEL_RULES.fastPerceptionPenalty
      : 0;
  const canStealth = pace === "slow" && (mode === "foot" || mode === "custom");
  const positions = normalisePositions(party.map((m) => m.position));
  const saves: TravelSave[] = [];
  const members: TravelMemberPlan[] = party.map((m) => {
    const busy = TRAVEL_BUSY_ACTIVITIES.includes(m.activity);
    let fasting = m.fasting;
    const mdays: TravelMemberDay[] = days.map((d) => {
      const food = survivalDay({ conMod: m.conMod, fasting, exhaustion: 0, food: m.food, water: "full" });
      fasting = food.fastingAfter;
      const dehydrationSaveId = m.water === "half" ? `${m.id}:${d.day}:dehydration` : null;
      return {
        day: d.day,
        forcedMarch: d.forcedMarch.map((f) => ({ ...f, saveId: `${m.id}:${d.day}:forcedMarch:${f.hour}` })),
        food: m.food,
        fastingAfter: food.fastingAfter,
        hungerLevels: food.hungerLevels,
        water: m.water,
        thirstAutomatic: m.water === "none" ? SURVIVAL_TABLE.noWaterLevels : 0,
        dehydrationDC: m.water === "half" ? SURVIVAL_TABLE.halfWaterSaveDC : null,
        dehydrationSaveId,
        dehydrationExtraIfExhausted: m.water !== "full",
      };
    });
    const plan: TravelMemberPlan = {
      id: m.id,
      name: m.name,
      conMod: m.conMod,
      exhaustionBefore: m.exhaustion,
      fastingBefore: m.fasting,
      thirstBefore: m.thirst,
      fastingAllowed: fastingDays(m.conMod),
      food: m.food,
      water: m.water,
      positionGiven: m.position,
      position: positions.get(m.position)!,
      activity: m.activity,
      busy,
      countsForNoticing: !busy,
      passivePerceptionBase: m.passivePerception,
      passivePerception: m.passivePerception - perceptionPenalty,
      days: mdays,
      fastingAfter: fasting,
      starvingAfter: fasting > fastingDays(m.conMod),
      exhaustionMin: 0,
      exhaustionMax: 0,
    };
    plan.exhaustionMin = resolveMember(plan, () => true).exhaustionAfter;
    plan.exhaustionMax = resolveMember(plan, () => false).exhaustionAfter;
    return plan;
  });
  for (const d of days) {
    for (const m of members) {
      const md = m.days[d.day - 1]!;
      for (const f of md.forcedMarch) {
        saves.push({
          id: f.saveId,
          memberId: m.id,
          day: d.day,
          kind: "forcedMarch",
          hour: f.hour,
          ability: "con",
          dc: f.dc,
        });
      }
      if (md.dehydrationSaveId !== null) {
        saves.push({
          id: md.dehydrationSaveId,
          memberId: m.id,
          day: d.day,
          kind: "dehydration",
          hour: null,
          ability: "con",
          dc: md.dehydrationDC!,
        });
      }
    }
  }

  const noticeByPosition: Record<MarchingPosition, number | null> = { front: null, middle: null, rear: null };
  for (const m of members) {
    if (!m.countsForNoticing) continue;
    const best = noticeByPosition[m.position];
    if (best === null || m.passivePerception > best) noticeByPosition[m.position] = m.passivePerception;
  }

  // Warnings.
  const w = new Set<TravelWarning>();
  if (!TRAVEL_NATIVE_RULESETS.includes(rs)) w.add("rulesetFallback");
  // (A day of at most the gallop's hour gallops all its march.)
  if (mode === "gallop" && days.some((d) => d.marchSeconds > d.gallopSeconds)) {
    w.add("gallopCapped");
  }
  if (mode === "boat" && pace !== "normal") w.add("boatIgnoresPace");
  if (mode === "vehicle" && pace !== "normal") w.add("vehicleNormalPace");
  if (mode === "boat" && hoursPerDay > TRAVEL_RULES.boatStandardHours) w.add("boatCrewNeeded");
  if (mode === "boat" && legs.some((l) => l.terrain === "difficult")) w.add("terrainIgnoredOnBoat");
  if (!needsSpeed && inp.speedKmh !== undefined) w.add("speedIgnored");
  if (stealth && mode === "boat") w.add("stealthNotOnBoat");
  else if (stealth && !canStealth) w.add("stealthNeedsSlow");
  if (lostChance > 0 && days.length > 0) w.add("lostCheck");
  if (days.some((d) => d.forcedMarch.length > 0)) w.add("forcedMarch");
  if (members.some((m) => m.position !== m.positionGiven)) w.add("positionsNormalised");
  if (members.every((m) => !m.countsForNoticing)) w.add("noLookout");
  if (hot) w.add("hotWeather");

  return {
    ruleset: rs,
    pace,
    effectivePace: mode === "vehicle" ? "normal" : needsSpeed ? null : pace,
    terrain: terrain ?? (legs.every((l) => l.terrain === legs[0]!.terrain) ? legs[0]!.terrain : "mixed"),
    mode,
    speedKmh,
    hoursPerDay,
    hot,
    lostChance,
    dayDistance: clean(fullEq / factor),
    distance,
    equivalentDistance: equivalent,
    legs: legs.map((l, i) => ({ metres: l.metres, terrain: l.terrain, arrivalSeconds: walked.arrivals[i]! })),
    durationSeconds,
    duration: splitDuration(durationSeconds),
    marchSeconds: clean(days.reduce((a, d) => a + d.marchSeconds, 0)),
    days,
    members,
    noticeByPosition,
    canStealth,
    foodNeedGrams: SURVIVAL_TABLE.foodGramsPerDay,
    waterNeedLitres: waterNeedLitres(hot),
    saves,
    warnings: TRAVEL_WARNINGS.filter((c) => w.has(c)),
  };
}

/** Where the party is on its route (routePosition). */
export interface RoutePosition {
  /** Index in `plan.legs` of the leg the party is on (the next one it walks when it stands at a leg's end). */
  leg: number;
  /** Real metres from the start of the route. */
  metresAlongRoute: number;
  /** How much of that leg is behind it, 0..1 (1 for a leg of no length once reached). */
  fraction: number;
}

/**
 * docs/rules.md §11: where the party is after `seconds` of world time from departure, on the route of `plan` (a
 * travelPlan result): it moves steadily within each stretch of each day's march and stands still between days;
 * before departure it is at the start, after arrival at the end (clamped to the route). A party standing exactly at
 * the end of a leg is on the next leg, at fraction 0 (at the end of the route: the last leg, fraction 1).
 * Throws Missing / UnknownValue / NotANumber / OutOfRange / NotAnInteger for a plan or time that does not fit.
 */
export function routePosition(plan: TravelPlan, seconds: number): RoutePosition {
  const p = record("plan", plan);
  const legItems = list("plan.legs", p.legs);
  if (legItems.length === 0) throw new RulesError("AVENTURE.Error.Missing", { name: "plan.legs" });
  const legs = legItems.map((l, i) => metres(`plan.legs[${i}].metres`, record(`plan.legs[${i}]`, l).metres));
  const days = list("plan.days", p.days, TRAVEL_RULES.maxDays);
  const t = num("seconds", seconds, { min: -RULES_LIMITS.maxSeconds, max: 2 * RULES_LIMITS.maxSeconds });
  let pos = 0;
  walk: for (const [i, d] of days.entries()) {
    const stretches = list(
      `plan.days[${i}].stretches`,
      record(`plan.days[${i}]`, d).stretches,
      RULES_LIMITS.maxList + TRAVEL_COLUMNS.length,
    );
    for (const [k, x] of stretches.entries()) {
      const name = `plan.days[${i}].stretches[${k}]`;
      const st = record(name, x);
      const start = num(`${name}.startSeconds`, st.startSeconds, { min: 0, max: RULES_LIMITS.maxSeconds });
      const length = num(`${name}.seconds`, st.seconds, { min: 0, max: RULES_LIMITS.maxSeconds });
      const covered = metres(`${name}.metres`, st.metres);
      num(`${name}.leg`, st.leg, { integer: true, min: 0, max: legs.length - 1 });
      // Stryker disable next-line EqualityOperator: equivalent (at the boundary both ways give the same position).
      if (t <= start) break walk;
      // Stryker disable next-line EqualityOperator: equivalent (at the boundary both ways give the same position).
      if (t >= start + length) pos += covered;
      else {
        pos += (covered * (t - start)) / length;
        break walk;
      }
    }
  }
  const total = clean(legs.reduce((a, m) => a + m, 0));
  pos = Math.min(total, Math.max(0, clean(pos)));
  // The leg holding the position: the first whose end is beyond it, else the last.
  let startOfLeg = 0;
  let i = 0;
  while (i < legs.length - 1 && clean(startOfLeg + legs[i]!) <= pos) startOfLeg = clean(startOfLeg + legs[i++]!);
  const fraction = legs[i]! > 0 ? Math.min(1, Math.max(0, clean((pos - startOfLeg) / legs[i]!))) : 1;
  return { leg: i, metresAlongRoute: pos, fraction };
}

// ---------------------------------------------------------------------------------------------------------------
// Survival activities (docs/rules.md §2.6)

/** §2.6: the activities that call for a Wisdom (Survival) check while travelling. */
export const TRAVEL_SURVIVAL_ACTIVITIES = deepFreeze(["navigate", "track", "forage"] as const);
export type TravelSurvivalActivity = (typeof TRAVEL_SURVIVAL_ACTIVITIES)[number];

/** The DC of those checks unless the GM sets another, and the range a GM may set (§2.6 gives no DC). */
export const TRAVEL_SURVIVAL_DC = deepFreeze({ default: 10, min: 1, max: 40 } as const);

/** One Wisdom (Survival) check to roll: a member busy navigating, tracking or foraging, on one travel day. */
export interface TravelSurvivalCheck {
  /** Stable id: `${memberId}:${day}:survival`. */
  id: string;
  memberId: string;
  day: number;
  activity: TravelSurvivalActivity;
  ability: "wis";
  skill: "survival";
  dc: number;
}

/**
 * docs/rules.md §2.6: the Wisdom (Survival) checks of a journey: one per travel day for each member whose activity is
 * navigate, track or forage, against `dc` (an integer 1..40, default 10), in day order then plan order. What a
 * result means is the GM's call (§2.6 says "when asked"): a failed navigation may get the group lost (pmt: reported
 * with the daily lost check), tracking loses the trail, foraging finds nothing. Nothing here changes exhaustion.
 * Throws Missing / UnknownValue / NotANumber / OutOfRange / NotAnInteger for a plan or DC that does not fit.
 */
export function travelSurvivalChecks(plan: TravelPlan, dc: number = TRAVEL_SURVIVAL_DC.default): TravelSurvivalCheck[] {
  const p = record("plan", plan);
  const target = num("dc", dc, { integer: true, min: TRAVEL_SURVIVAL_DC.min, max: TRAVEL_SURVIVAL_DC.max });
  const days = list("plan.days", p.days, TRAVEL_RULES.maxDays).length;
  const members = list("plan.members", p.members, RULES_LIMITS.maxParty).map((raw, i) => {
    const m = record(`plan.members[${i}]`, raw);
    if (typeof m.id !== "string" || m.id === "")
      throw new RulesError("AVENTURE.Error.Missing", { name: `plan.members[${i}].id` });
    return { id: m.id, activity: oneOf(`plan.members[${i}].activity`, m.activity, TRAVEL_ACTIVITIES) };
  });
  const rolling = members.filter((m): m is { id: string; activity: TravelSurvivalActivity } =>
    (TRAVEL_SURVIVAL_ACTIVITIES as readonly string[]).includes(m.activity),
  );
  if (days * rolling.length > RULES_LIMITS.maxPartyDays) {
    throw new RulesError("AVENTURE.Error.OutOfRange", {
      name: "party × days",
      value: days * rolling.length,
      min: 0,
      max: RULES_LIMITS.maxPartyDays,
    });
  }
  const out: TravelSurvivalCheck[] = [];
  for (let day = 1; day <= days; day++) {
    for (const m of rolling)
      out.push({
        id: `${m.id}:${day}:survival`,
        memberId: m.id,
        day,
        activity: m.activity,
        ability: "wis",
        skill: "survival",
        dc: target,
      });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// travelOutcome

/** A save's result: its success (boolean) or its total (number; success when total ≥ DC). */
export type TravelSaveResult = boolean | number;

export interface TravelMemberDayOutcome {
  day: number;
  forcedMarchFailures: number;
  hungerLevels: number;
  /** Including the extra dehydration level. */
  thirstLevels: number;
  dehydrationExtra: boolean;
  fastingAfter: number;
  /** The thirst counter at the end of this day. */
  thirstAfter: number;
  exhaustionAfter: number;
  /**
   * The levels this day actually added, by cause, once exhaustion is capped at 6 (forced march first, then hunger,
   * then thirst): over the days they add up to `levelsGained`, where the counts above may go past the cap.
   */
  applied: { forcedMarch: number; hunger: number; thirst: number };
}

export interface TravelMemberOutcome {
  id: string;
  name: string;
  exhaustionBefore: number;
  exhaustionAfter: number;
  levelsGained: number;
  fastingAfter: number;
  /** Days in a row ended dehydrated at the end of the trip (0 when the last day did not end dehydrated). */
  thirstAfter: number;
  /**
   * At the end of the trip (§4.3: exhaustion from hunger or thirst cannot be recovered while starving or dehydrated).
   */
  starving: boolean;
  dehydrated: boolean;
  recoveryBlocked: boolean;
  /** Exhaustion reached 6. */
  dead: boolean;
  days: TravelMemberDayOutcome[];
}

export interface TravelOutcome {
  members: TravelMemberOutcome[];
  /** Ids of the failed saves, in plan order. */
  failedSaves: string[];
}

/** What resolveMember reads of a member's plan. */
type ResolvableMember = Pick<
  TravelMemberPlan,
  "id" | "name" | "conMod" | "exhaustionBefore" | "fastingBefore" | "fastingAllowed" | "thirstBefore"
> & {
  days: Pick<TravelMemberDay, "day" | "forcedMarch" | "food" | "water" | "dehydrationSaveId" | "dehydrationDC">[];
};

function resolveMember(m: ResolvableMember, success: (saveId: string, dc: number) => boolean): TravelMemberOutcome {
  let ex = m.exhaustionBefore;
  let fasting = m.fastingBefore;
  let starving = fasting > m.fastingAllowed;
  let thirst = m.thirstBefore;
  let dehydrated = thirst > 0;
  const days: TravelMemberDayOutcome[] = m.days.map((d) => {
    let forcedMarchFailures = 0;
    const start = ex;
    for (const f of d.forcedMarch) {
      if (!success(f.saveId, f.dc)) {
        forcedMarchFailures++;
        ex = Math.min(SURVIVAL_TABLE.exhaustionMax, ex + 1);
      }
    }
    const afterMarch = ex;
    const r = survivalDay({
      conMod: m.conMod,
      fasting,
      exhaustion: ex,
      food: d.food,
      water: d.water,
      ...(d.dehydrationSaveId !== null ? { dehydrationSave: success(d.dehydrationSaveId, d.dehydrationDC!) } : {}),
    });
    ex = r.exhaustionAfter;
    const hungerApplied = Math.min(r.hungerLevels, ex - afterMarch);
    fasting = r.fastingAfter;
    starving = r.starving;
    dehydrated = r.dehydrated;
    thirst = r.dehydrated ? thirst + 1 : 0;
    return {
      day: d.day,
      forcedMarchFailures,
      hungerLevels: r.hungerLevels,
      thirstLevels: r.thirstLevels,
      dehydrationExtra: r.dehydrationExtra,
      fastingAfter: r.fastingAfter,
      thirstAfter: thirst,
      exhaustionAfter: ex,
      applied: { forcedMarch: afterMarch - start, hunger: hungerApplied, thirst: ex - afterMarch - hungerApplied },
    };
  });
  return {
    id: m.id,
    name: m.name,
    exhaustionBefore: m.exhaustionBefore,
    exhaustionAfter: ex,
    levelsGained: ex - m.exhaustionBefore,
    fastingAfter: fasting,
    thirstAfter: thirst,
    starving,
    dehydrated,
    recoveryBlocked: starving || dehydrated,
    dead: ex >= SURVIVAL_TABLE.exhaustionMax,
    days,
  };
}

/**
 * Applies the results of the saves listed in `plan.saves` (rolled by the glue) and returns the exhaustion each
 * member gains and the counters after the trip. `saveResults` maps every save id of the plan to its success
 * (boolean) or total (number, compared with the DC). A missing result throws Missing; an id not in the plan
 * throws UnknownValue. Failure = +1 level; a dehydration level on an already exhausted member (including levels
 * gained earlier in the trip or from that day's forced march) gives one more; exhaustion is capped at 6.
 */
/** The saves of a plan, checked (id and DC are all travelOutcome reads). */
function checkSaves(raw: unknown): { id: string; dc: number }[] {
  return list(
    "plan.saves",
    raw,
    RULES_LIMITS.maxPartyDays * (TRAVEL_RULES.maxHoursPerDay - TRAVEL_RULES.standardHours + 1),
  ).map((x, i) => {
    const sv = record(`plan.saves[${i}]`, x);
    return { id: str(`plan.saves[${i}].id`, sv.id, false), dc: num(`plan.saves[${i}].dc`, sv.dc, DC) };
  });
}

/** The members of a plan, checked field by field: travelOutcome only reads these (and copies nothing else). */
function checkPlanMembers(raw: unknown): ResolvableMember[] {
  let memberDays = 0;
  return list("plan.members", raw, RULES_LIMITS.maxParty).map((x, i) => {
    const n = (k: string) => `plan.members[${i}].${k}`;
    const m = record(`plan.members[${i}]`, x);
    const days = list(n("days"), m.days, TRAVEL_RULES.maxDays).map((y, k) => {
      const dn = (f: string) => `${n("days")}[${k}].${f}`;
      const d = record(`${n("days")}[${k}]`, y);
      const water = oneOf(dn("water"), d.water, RATION_LEVELS);
      return {
        day: num(dn("day"), d.day, { integer: true, min: 1, max: TRAVEL_RULES.maxDays }),
        forcedMarch: list(dn("forcedMarch"), d.forcedMarch, TRAVEL_RULES.maxHoursPerDay).map((z, h) => {
          const f = record(`${dn("forcedMarch")}[${h}]`, z);
          return {
            hour: num(`${dn("forcedMarch")}[${h}].hour`, f.hour, {
              integer: true,
              min: 1,
              max: TRAVEL_RULES.maxHoursPerDay,
            }),
            dc: num(`${dn("forcedMarch")}[${h}].dc`, f.dc, DC),
            saveId: str(`${dn("forcedMarch")}[${h}].saveId`, f.saveId, false),
          };
        }),
        food: oneOf(dn("food"), d.food, RATION_LEVELS),
        water,
        dehydrationDC: d.dehydrationDC === null ? null : num(dn("dehydrationDC"), d.dehydrationDC, DC),
        dehydrationSaveId:
          d.dehydrationSaveId === null ? null : str(dn("dehydrationSaveId"), d.dehydrationSaveId, false),
      };
    });
    memberDays += days.length;
    if (memberDays > RULES_LIMITS.maxPartyDays) {
      throw new RulesError("AVENTURE.Error.OutOfRange", {
        name: "party × days",
        value: memberDays,
        min: 0,
        max: RULES_LIMITS.maxPartyDays,
      });
    }
    days.forEach((d, k) => {
      if (d.dehydrationSaveId !== null && d.dehydrationDC === null)
        throw new RulesError("AVENTURE.Error.Missing", { name: `${n("days")}[${k}].dehydrationDC` });
    });
    const conMod = num(n("conMod"), m.conMod, {
      integer: true,
      min: SURVIVAL_CON_MOD_RANGE.min,
      max: SURVIVAL_CON_MOD_RANGE.max,
    });
    return {
      id: str(n("id"), m.id, false),
      name: str(n("name"), m.name, true),
      conMod,
      exhaustionBefore: num(n("exhaustionBefore"), m.exhaustionBefore, {
        integer: true,
        min: 0,
        max: SURVIVAL_TABLE.exhaustionMax,
      }),
      fastingBefore: num(n("fastingBefore"), m.fastingBefore, { min: 0, max: RULES_LIMITS.maxCounterDays }),
      thirstBefore: num(n("thirstBefore"), m.thirstBefore, { integer: true, min: 0, max: RULES_LIMITS.maxCounterDays }),
      fastingAllowed: fastingDays(conMod),
      days,
    };
  });
}

/** A save DC: an integer within ±1000. */
const DC = Object.freeze({ integer: true, min: -RULES_LIMITS.maxScore, max: RULES_LIMITS.maxScore });

export function travelOutcome(
  input: TravelPlan,
  saveResults: Readonly<Record<string, TravelSaveResult>>,
): TravelOutcome {
  const p = options("plan", input, true);
  if (Array.isArray(p)) throw new RulesError("AVENTURE.Error.Missing", { name: "plan" });
  const plan = { saves: checkSaves(p.saves), members: checkPlanMembers(p.members) };
  const results = options("saveResults", saveResults, true);
  const known = new Map(plan.saves.map((s) => [s.id, s] as const));
  for (const id of Object.keys(results)) {
    if (!known.has(id)) {
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: "saveResults",
        value: id,
        allowed: "the ids of plan.saves",
      });
    }
  }
  const outcome = new Map<string, boolean>();
  for (const s of plan.saves) outcome.set(s.id, survivalSaveSucceeds(s.id, results[s.id], s.dc));
  const members = plan.members.map((m) =>
    resolveMember(m, (id) => {
      const ok = outcome.get(id);
      if (ok === undefined) throw new RulesError("AVENTURE.Error.Missing", { name: id });
      return ok;
    }),
  );
  return { members, failedSaves: plan.saves.filter((s) => !outcome.get(s.id)).map((s) => s.id) };
}
