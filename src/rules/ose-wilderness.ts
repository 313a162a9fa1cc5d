/**
 * Old-School Essentials wilderness travel (docs/rules.md §12): distance per day by base movement rate and terrain,
 * forced march, a day of rest in seven, losing direction, one wandering-monster check a day, foraging, rations,
 * flying. The figures are the Old-School Essentials SRD's (Wilderness Adventuring, Hazards and Challenges), in the
 * module's units (1 ft = 0.3 m, 1 mile = 1.5 km): base movement ÷ 5 in miles a day, so a base of 36 m (120') gives
 * 36 km a day. A journey along a route (docs/rules.md §11) is walked day by day, each stretch of a leg costing its
 * share of the day at its terrain's rate.
 *
 * Pure: dice are passed in; every table is data, once.
 */
import type { Dice } from "./dice.js";
import { RulesError } from "./errors.js";
import { deepFreeze, list, record, rollChecked } from "./guard.js";
import { RULES_LIMITS } from "./limits.js";
import { clean } from "./units.js";
import { bool, num, oneOf } from "./validate.js";

/** The terrain ids (docs/rules.md §12), as an OSE referee names them. */
export const OSE_TERRAINS = deepFreeze([
  "clear",
  "grassland",
  "road",
  "barren",
  "broken",
  "desert",
  "forest",
  "hills",
  "mountains",
  "woods",
  "jungle",
  "swamp",
] as const);
export type OseTerrain = (typeof OSE_TERRAINS)[number];

/** A fraction kept exact: the day's distance is base × num ÷ den. */
export interface OseFactor {
  num: number;
  den: number;
}

export interface OseTerrainRules {
  /** Distance modifier of the terrain: ×1, ×⅔ (⅓ slower), ×½ (½ slower), ×3/2 (maintained road, ½ faster). */
  speed: Readonly<OseFactor>;
  /** Chance in 6 of losing direction each day (0: cannot get lost). */
  lost: number;
  /** Chance in 6 of a wandering monster in the day's check. */
  wandering: number;
}

/**
 * docs/rules.md §12, one row per terrain. Speed: broken lands, desert, forest, hills ×⅔; jungle, mountains, swamp ×½;
 * maintained roads ×3/2; clear, grasslands ×1. *Decisions:* barren lands are in no speed row (×1); woods go as forest.
 * Losing direction: clear, grasslands 1 in 6; barren lands, hills, mountains, woods 2; desert, jungle, swamp 3; a road
 * 0. *Decisions:* forest is woods (2); broken lands are barren lands (2). Wandering monsters: clear, grasslands 1 in 6;
 * barren lands, desert, forest, hills 2; jungle, mountains, swamp 3. *Decisions:* a road is settled land (1); broken
 * lands are barren lands (2); woods are forest (2).
 */
export const OSE_TERRAIN_TABLE: Readonly<Record<OseTerrain, Readonly<OseTerrainRules>>> = deepFreeze({
  clear: { speed: { num: 1, den: 1 }, lost: 1, wandering: 1 },
  grassland: { speed: { num: 1, den: 1 }, lost: 1, wandering: 1 },
  road: { speed: { num: 3, den: 2 }, lost: 0, wandering: 1 },
  barren: { speed: { num: 1, den: 1 }, lost: 2, wandering: 2 },
  broken: { speed: { num: 2, den: 3 }, lost: 2, wandering: 2 },
  desert: { speed: { num: 2, den: 3 }, lost: 3, wandering: 2 },
  forest: { speed: { num: 2, den: 3 }, lost: 2, wandering: 2 },
  hills: { speed: { num: 2, den: 3 }, lost: 2, wandering: 2 },
  mountains: { speed: { num: 1, den: 2 }, lost: 2, wandering: 3 },
  woods: { speed: { num: 2, den: 3 }, lost: 2, wandering: 2 },
  jungle: { speed: { num: 1, den: 2 }, lost: 3, wandering: 3 },
  swamp: { speed: { num: 1, den: 2 }, lost: 3, wandering: 3 },
});

/** The other numbers of docs/rules.md §12. */
export const OSE_WILDERNESS = deepFreeze({
  /** Metres a day per metre of base movement: base ÷ 5 in miles, 1 mile = 1.5 km, 1 ft = 0.3 m (36 m → 36 km). */
  metresPerDayPerBaseMetre: 1000,
  /** The faces of every check of the procedure (lost, wandering monsters, foraging). */
  die: 6,
  /** Forced march: distance × 3/2 for the day; the next day is a full day of rest. */
  forcedMarch: { num: 3, den: 2 },
  /** Flying: twice the overland distance, terrain ignored. */
  flying: 2,
  /** One day of rest in this many; beyond, −1 to attack and damage rolls until the party rests. */
  restEvery: 7,
  restPenalty: -1,
  /** Foraging while travelling: food found on 1 in 6, for 1d6 characters. */
  forageChance: 1,
  forageFeeds: 6,
  /** Hunting (a full day without travel): an encounter with animals on 1 in 6, besides the day's check. */
  huntChance: 1,
  /** Rations: one a day per character and per animal. */
  rationsPerHead: 1,
});

/** The highest base movement rate accepted, in metres (a 1000 m base would be 1000 km a day). */
const MAX_BASE_METRES = 1000;
/** The journey length when the plan gives none, in days (lost days included). */
export const OSE_JOURNEY_DEFAULT_MAX_DAYS = 100;

export interface OseDistanceOptions {
  forcedMarch?: boolean;
  flying?: boolean;
}

function options(raw: unknown): { forcedMarch: boolean; flying: boolean } {
  const o = raw === undefined ? {} : record("options", raw);
  return { forcedMarch: bool("forcedMarch", o.forcedMarch, false), flying: bool("flying", o.flying, false) };
}

function baseMetres(value: unknown): number {
  return num("baseMetres", value, { min: 0, max: MAX_BASE_METRES });
}

/** Metres a day of `terrain` is worth, before clean(): exact fractions multiplied in order. */
function rate(base: number, terrain: OseTerrain, o: { forcedMarch: boolean; flying: boolean }): number {
  let m = base * OSE_WILDERNESS.metresPerDayPerBaseMetre;
  if (o.flying) m *= OSE_WILDERNESS.flying;
  else m = (m * OSE_TERRAIN_TABLE[terrain].speed.num) / OSE_TERRAIN_TABLE[terrain].speed.den;
  if (o.forcedMarch) m = (m * OSE_WILDERNESS.forcedMarch.num) / OSE_WILDERNESS.forcedMarch.den;
  return clean(m);
}

/**
 * docs/rules.md §12: the metres a party with base movement `baseMetres` (the slowest member's, metres per turn) covers
 * in one day on `terrain`: base ÷ 5 miles, times the terrain's modifier; × 3/2 on a forced march; flying: twice the
 * overland distance, terrain ignored. 36 m on clear → 36,000 m; forest 24,000; mountains 18,000; road 54,000.
 */
export function oseDailyDistance(baseMetres_: number, terrain: OseTerrain, opts?: OseDistanceOptions): number {
  const base = baseMetres(baseMetres_);
  const t = oneOf("terrain", terrain, OSE_TERRAINS);
  return rate(base, t, options(opts));
}

/** docs/rules.md §12: the chance of losing direction on `terrain`, `{ chance, of: 6 }` (0 on a road). */
export function oseLostChance(terrain: OseTerrain): { chance: number; of: number } {
  const t = oneOf("terrain", terrain, OSE_TERRAINS);
  return { chance: OSE_TERRAIN_TABLE[t].lost, of: OSE_WILDERNESS.die };
}

/** docs/rules.md §12: the chance of a wandering monster in the day's check on `terrain`, `{ chance, of: 6 }`. */
export function oseWanderingChance(terrain: OseTerrain): { chance: number; of: number } {
  const t = oneOf("terrain", terrain, OSE_TERRAINS);
  return { chance: OSE_TERRAIN_TABLE[t].wandering, of: OSE_WILDERNESS.die };
}

/** One leg of a route: real metres on one terrain. */
export interface OseLegInput {
  metres: number;
  terrain: OseTerrain;
}

export interface OseJourneyPlan {
  /** Base movement rate of the slowest member, metres per turn (36 for 120'). */
  baseMetres: number;
  /** The route, in order (at least one leg). */
  legs: OseLegInput[];
  /** Every travel day is a forced march, each followed by a full day of rest. */
  forcedMarch?: boolean;
  /** The party flies: twice the distance, terrain ignored. */
  flying?: boolean;
  /** A reliable guide: no losing direction. */
  guide?: boolean;
  /** The party follows a river: no losing direction. */
  river?: boolean;
  /** Foraging while travelling (1 in 6 a travel day, food for 1d6 characters). */
  forage?: boolean;
  /** Take the day of rest when it is due (after 6 travel days since the last rest). */
  restWhenDue?: boolean;
  /** Characters and animals eating one ration a day each. */
  characters: number;
  animals?: number;
  /** Rations carried at the start; omitted: not counted down. */
  rations?: number;
  /** Travel days since the party last rested, before the journey. */
  daysSinceRest?: number;
  /** The forced march of the day before the journey: the first day is a day of rest. */
  restFirst?: boolean;
  /** The journey stops after this many days if the party has not arrived (default 100). */
  maxDays?: number;
  /**
   * pmt borrowing this procedure with its own getting-lost roll (docs/rules.md §2.7): each day's lost check is a d100
   * against this percentage instead of the terrain's chance in 6 (still none on a road, with a guide or along a river).
   * Omitted: the terrain's chance (§12).
   */
  lostPercent?: number;
}

export interface OseCheck {
  chance: number;
  of: number;
  /** The d6, or null when no check is made (no chance: a road, a guide, a river; a day of rest). */
  roll: number | null;
  /** The party lost its way / met a wandering monster / found food. */
  result: boolean;
}

/** A stretch of a day's march on one leg. */
export interface OseStretch {
  leg: number;
  terrain: OseTerrain;
  /** Real metres walked on the leg. */
  metres: number;
  /** The share of the day it took (0..1). */
  dayFraction: number;
}

export const OSE_DAY_KINDS = deepFreeze(["travel", "lost", "rest"] as const);
export type OseDayKind = (typeof OSE_DAY_KINDS)[number];

export const OSE_REST_REASONS = deepFreeze(["forcedMarch", "weekly"] as const);
export type OseRestReason = (typeof OSE_REST_REASONS)[number];

export interface OseJourneyDay {
  /** 1 for the first day. */
  day: number;
  /** travel: the party follows the route; lost: it wanders off it (no progress); rest: a day of rest. */
  kind: OseDayKind;
  /** Why the party rests, or null. */
  restReason: OseRestReason | null;
  /** The terrain where the day starts (its checks use it). */
  terrain: OseTerrain;
  forcedMarch: boolean;
  /** Metres from the start of the route at the start and at the end of the day. */
  startMetres: number;
  endMetres: number;
  stretches: OseStretch[];
  lost: OseCheck;
  wandering: OseCheck;
  forage: OseCheck;
  /** Characters fed by the food found (the 1d6), 0 without. */
  foraged: number;
  /** Rations eaten this day (foraged food first feeds characters). */
  rations: number;
  /** Rations left after the day, or null when they are not counted. */
  rationsLeft: number | null;
  /** Rations missing this day (counted rations ran out). */
  rationsShort: number;
  /** Travel days since the last day of rest, at the end of the day. */
  daysSinceRest: number;
  /** −1 to attack and damage rolls from this day on, until a day of rest (0 otherwise). */
  restPenalty: number;
  /** The party reached the end of the route this day; `arrivalFraction` is the share of the day it took. */
  arrived: boolean;
  arrivalFraction: number | null;
}

export interface OseJourney {
  days: OseJourneyDay[];
  arrived: boolean;
  /** The day of arrival (1-based), or null when the journey stopped at maxDays. */
  arrivalDay: number | null;
  routeMetres: number;
  endMetres: number;
  travelDays: number;
  lostDays: number;
  restDays: number;
  encounters: number;
  rationsUsed: number;
  rationsLeft: number | null;
  /** Days of rest owed at the end: 1 once 7 travel days have passed without one, else 0. */
  restDaysOwed: number;
  /** The last day was a forced march: the next day must be a full day of rest. */
  forcedMarchRestOwed: boolean;
  restPenalty: number;
}

interface Leg {
  metres: number;
  terrain: OseTerrain;
  start: number;
  end: number;
}

function legs(raw: unknown): Leg[] {
  const items = list("legs", raw);
  if (items.length === 0) throw new RulesError("AVENTURE.Error.Missing", { name: "legs" });
  let at = 0;
  return items.map((item, i) => {
    const l = record(`legs[${i}]`, item);
    const metres = num(`legs[${i}].metres`, l.metres, { min: 0, max: RULES_LIMITS.maxMetres });
    const terrain = oneOf(`legs[${i}].terrain`, l.terrain, OSE_TERRAINS);
    const start = at;
    at = clean(at + metres);
    if (at > RULES_LIMITS.maxMetres)
      throw new RulesError("AVENTURE.Error.OutOfRange", {
        name: "legs",
        value: at,
        min: 0,
        max: RULES_LIMITS.maxMetres,
      });
    return { metres, terrain, start, end: at };
  });
}

/** The leg the party stands on at `at` metres (at a leg's end: the next one; at the route's end: the last). */
function legAt(route: Leg[], at: number): number {
  for (let i = 0; i < route.length; i++) if (at < route[i]!.end) return i;
  return route.length - 1;
}

/** The reasons of the dice a journey asks for, in the order it asks (all d6 but pmt's d100 lost roll, "lost100"). */
type D6Reason = "lost" | "lost100" | "wandering" | "forage" | "forageFed";

/** The faces of the die asked for. */
const facesOf = (reason: D6Reason): number => (reason === "lost100" ? 100 : OSE_WILDERNESS.die);

const NO_CHECK = (chance: number): OseCheck => ({ chance, of: OSE_WILDERNESS.die, roll: null, result: false });

/**
 * docs/rules.md §12 and §11: the journey along a route, day by day. Each day, in the SRD's order: a day of rest when
 * one is owed (after a forced march; after 6 travel days with `restWhenDue`); otherwise the referee's lost check (a d6
 * against the chance of the terrain where the day starts, none on a road, with a guide or along a river), then the
 * wandering-monster check (every day, rest days too), then the march: each stretch of a leg costs its share of the day
 * at the terrain's rate (`oseDailyDistance`); a lost party wanders off the route and makes no progress along it (the
 * referee places it). At the end of the day, foraging (travel and lost days: a d6, food for 1d6 characters on 1) and
 * rations (one per character and animal; foraged food feeds characters first). Dice order per day: lost, wandering,
 * forage, the 1d6 fed. The journey ends on arrival or after `maxDays`.
 */
export async function oseJourney(plan: OseJourneyPlan, dice: Dice): Promise<OseJourney> {
  const d = record("dice", dice);
  if (typeof d.roll !== "function") throw new RulesError("AVENTURE.Error.Missing", { name: "dice.roll" });
  const walk = journeySteps(plan);
  let step = walk.next(0);
  while (!step.done) step = walk.next((await rollChecked(dice, 1, facesOf(step.value), step.value))[0]!);
  return step.value;
}

/**
 * docs/rules.md §12: the journey of `plan` if every die shows 6 (never lost, no wandering monster, no food found):
 * the days as the Travel dialog shows them before the GM rolls. Checks the plan as oseJourney does.
 */
export function oseJourneyPreview(plan: OseJourneyPlan): OseJourney {
  const walk = journeySteps(plan);
  let step = walk.next(0);
  while (!step.done) step = walk.next(facesOf(step.value));
  return step.value;
}

/** The journey, asking for each d6 by its reason (a generator: the caller rolls, async or not). */
function* journeySteps(plan: OseJourneyPlan): Generator<D6Reason, OseJourney, number> {
  const p = record("plan", plan);
  const base = baseMetres(p.baseMetres);
  const route = legs(p.legs);
  const forcedMarch = bool("forcedMarch", p.forcedMarch, false);
  const flying = bool("flying", p.flying, false);
  const guide = bool("guide", p.guide, false);
  const river = bool("river", p.river, false);
  const forage = bool("forage", p.forage, false);
  const restWhenDue = bool("restWhenDue", p.restWhenDue, false);
  let owedForcedRest = bool("restFirst", p.restFirst, false);
  const characters = num("characters", p.characters, { min: 0, max: RULES_LIMITS.maxParty, integer: true });
  const animals = num("animals", p.animals ?? 0, { min: 0, max: RULES_LIMITS.maxParty, integer: true });
  const counted = p.rations !== undefined;
  let rationsLeft = counted
    ? num("rations", p.rations, { min: 0, max: RULES_LIMITS.maxPartyDays * 2, integer: true })
    : 0;
  let daysSinceRest = num("daysSinceRest", p.daysSinceRest ?? 0, { min: 0, max: RULES_LIMITS.maxDays, integer: true });
  const maxDays = num("maxDays", p.maxDays ?? OSE_JOURNEY_DEFAULT_MAX_DAYS, {
    min: 1,
    max: RULES_LIMITS.maxDays,
    integer: true,
  });
  const lostPercent =
    p.lostPercent === undefined ? null : num("lostPercent", p.lostPercent, { min: 0, max: 100, integer: true });
  if (base === 0 && route[route.length - 1]!.end > 0)
    throw new RulesError("AVENTURE.Error.OutOfRange", { name: "baseMetres", value: 0, min: 0.3, max: MAX_BASE_METRES });
  const routeMetres = route[route.length - 1]!.end;
  const opts = { forcedMarch, flying };

  const days: OseJourneyDay[] = [];
  let at = 0;
  let arrivalDay: number | null = routeMetres === 0 ? 0 : null;
  let rationsUsed = 0;
  for (let day = 1; day <= maxDays && arrivalDay === null; day++) {
    const terrain = route[legAt(route, at)]!.terrain;
    const rules = OSE_TERRAIN_TABLE[terrain];
    const restReason: OseRestReason | null = owedForcedRest
      ? "forcedMarch"
      : restWhenDue && daysSinceRest >= OSE_WILDERNESS.restEvery - 1
        ? "weekly"
        : null;
    const noLosing = guide || river || rules.lost === 0; // a road, a guide, a river
    const lostChance = noLosing ? 0 : (lostPercent ?? rules.lost);
    let lost: OseCheck =
      lostPercent === null ? NO_CHECK(lostChance) : { chance: lostChance, of: 100, roll: null, result: false };
    if (restReason === null && lostChance > 0) {
      const roll = yield lostPercent === null ? "lost" : "lost100";
      lost = { ...lost, roll, result: roll <= lostChance };
    }
    const wRoll = yield "wandering";
    const wandering: OseCheck = {
      chance: rules.wandering,
      of: OSE_WILDERNESS.die,
      roll: wRoll,
      result: wRoll <= rules.wandering,
    };
    const kind: OseDayKind = restReason !== null ? "rest" : lost.result ? "lost" : "travel";
    const startMetres = at;
    const stretches: OseStretch[] = [];
    let arrivalFraction: number | null = null;
    if (kind === "travel") {
      let left = 1;
      for (let i = legAt(route, at); i < route.length && left > 1e-12; i++) {
        const leg = route[i]!;
        const remaining = clean(leg.end - at);
        if (remaining <= 0) continue;
        const perDay = rate(base, leg.terrain, opts);
        const canWalk = perDay * left;
        const metres = clean(Math.min(remaining, canWalk));
        const fraction = metres >= remaining ? Math.min(left, remaining / perDay) : left;
        if (metres > 0) stretches.push({ leg: i, terrain: leg.terrain, metres, dayFraction: clean(fraction) });
        left = clean(left - fraction);
        at = metres >= remaining ? leg.end : clean(at + metres);
      }
      if (at >= routeMetres) {
        arrivalDay = day;
        arrivalFraction = clean(Math.min(1, 1 - left));
      }
    }
    let forageCheck = NO_CHECK(forage && kind !== "rest" ? OSE_WILDERNESS.forageChance : 0);
    let foraged = 0;
    if (forage && kind !== "rest") {
      const roll = yield "forage";
      forageCheck = { ...forageCheck, roll, result: roll <= OSE_WILDERNESS.forageChance };
      if (forageCheck.result) foraged = yield "forageFed";
    }
    const need =
      Math.max(0, characters - foraged) * OSE_WILDERNESS.rationsPerHead + animals * OSE_WILDERNESS.rationsPerHead;
    let rations = need;
    let short = 0;
    if (counted) {
      rations = Math.min(need, rationsLeft);
      short = need - rations;
      rationsLeft -= rations;
    }
    rationsUsed += rations;
    if (kind === "rest") {
      daysSinceRest = 0;
      owedForcedRest = false;
    } else {
      daysSinceRest = Math.min(daysSinceRest + 1, RULES_LIMITS.maxDays * 2);
      owedForcedRest = forcedMarch && kind === "travel";
    }
    days.push({
      day,
      kind,
      restReason,
      terrain,
      forcedMarch: forcedMarch && kind === "travel",
      startMetres,
      endMetres: at,
      stretches,
      lost,
      wandering,
      forage: forageCheck,
      foraged,
      rations,
      rationsLeft: counted ? rationsLeft : null,
      rationsShort: short,
      daysSinceRest,
      restPenalty: restPenalty(daysSinceRest),
      arrived: arrivalDay === day,
      arrivalFraction,
    });
  }
  const count = (k: OseDayKind) => days.filter((x) => x.kind === k).length;
  return {
    days,
    arrived: arrivalDay !== null,
    arrivalDay,
    routeMetres,
    endMetres: at,
    travelDays: count("travel"),
    lostDays: count("lost"),
    restDays: count("rest"),
    encounters: days.filter((x) => x.wandering.result).length,
    rationsUsed,
    rationsLeft: counted ? rationsLeft : null,
    restDaysOwed: daysSinceRest >= OSE_WILDERNESS.restEvery ? 1 : 0,
    forcedMarchRestOwed: owedForcedRest,
    restPenalty: restPenalty(daysSinceRest),
  };
}

/** docs/rules.md §12: −1 to attack and damage rolls once 7 travel days have passed without a day of rest, else 0. */
export function oseRestPenalty(daysSinceRest: number): number {
  return restPenalty(num("daysSinceRest", daysSinceRest, { min: 0, max: RULES_LIMITS.maxDays * 2, integer: true }));
}

function restPenalty(daysSinceRest: number): number {
  return daysSinceRest >= OSE_WILDERNESS.restEvery ? OSE_WILDERNESS.restPenalty : 0;
}
