/**
 * Old-School Essentials wilderness journeys on the GM (docs/rules.md §12): the party's base movement read from the
 * actors, the route measured by OSE terrain on the scene, the days rolled with Foundry dice, and the journal the
 * journey operation applies (apply.ts) a day at a time: each day the party's tokens to where the day ends, then a whole
 * day of world time. Rations are counted on the card (the OSE system keeps no ration counter Aventure could write).
 */
import { tokenLevel } from "../core/compat.js";
import {
  OSE_JOURNEY_DEFAULT_MAX_DAYS,
  oseJourney,
  type OseJourney,
  type OseJourneyPlan,
} from "../rules/ose-wilderness.js";
import { toMetres, clean } from "../rules/units.js";
import { adapterFor, type ActorAdapter, type ActorLike } from "../actors/api.js";
import { readNumber } from "../actors/api.js";
import { foundryDice } from "../core/dice.js";
import { UserError } from "../core/i18n.js";
import { getSetting } from "../core/settings.js";
import { remainingRoute, type MeasuredRoute } from "./route/measure.js";
import type { OseMeasuredLeg, OseMeasuredRoute } from "./route/ose-legs.js";
import {
  measureOseOnScene,
  routeScene,
  routeTokens,
  tokenTargets,
  type RouteScene,
  type RouteToken,
} from "./route/scene.js";
import type { TravelJournalToken } from "./journey.js";
import type { OseTravelRequest, TravelRequest } from "./request.js";

/**
 * An actor's base movement rate in metres (per turn, the OSE "base" movement): OSE's `system.movement.base` in feet
 * (at the world's feet factor), else three times the encounter movement per round the adapter reads (docs/rules.md
 * §2.8: encounter movement is a third of the base). null when neither is known.
 */
export function oseBaseMetres(adapter: ActorAdapter, actor: ActorLike): number | null {
  const base = readNumber(actor, "system.movement.base");
  if (base !== null && base > 0) return clean(toMetres(base, "ft", getSetting("feetFactor")));
  const walk = adapter.read(actor).speeds?.walk ?? null;
  return walk !== null && walk > 0 ? clean(walk * 3) : null;
}

/** Whether a pmt world borrowing Old-School Essentials' journeys rolls its own d100 for getting lost (the setting). */
export function pmtLostRoll(): boolean {
  return getSetting("ruleset") === "pmt" && getSetting("travelPmtLostRoll");
}

/** The slowest member's base movement and name; null when no member's is known. */
export function slowestBase(
  adapter: ActorAdapter,
  actors: readonly ActorLike[],
): { metres: number; name: string } | null {
  let best: { metres: number; name: string } | null = null;
  for (const a of actors) {
    const m = oseBaseMetres(adapter, a);
    if (m !== null && (best === null || m < best.metres)) best = { metres: m, name: a.name };
  }
  return best;
}

export interface PlannedOse {
  ose: OseTravelRequest;
  plan: OseJourneyPlan;
  legs: OseMeasuredLeg[];
  baseMetres: number;
  /** The member whose base movement sets the pace ("" when the GM gave it). */
  slowest: string;
  route: { scene: RouteScene; measured: OseMeasuredRoute; tokens: RouteToken[] } | null;
}

/**
 * Plans an OSE journey from a checked request, on the GM: the base movement (the request's, else the slowest
 * member's), the legs (the route measured again on the scene by OSE terrain, or one leg of the open terrain for a
 * distance), the days to walk (the route's days, else until arrival, at most 100). Writes nothing. Refuses a
 * journey given by duration and a party whose base movement is unknown.
 */
export function planOse(req: TravelRequest, actors: readonly ActorLike[]): PlannedOse {
  const ose = req.ose;
  if (!ose) throw new UserError("AVENTURE.Wilderness.Error.notOse");
  const adapter = adapterFor();
  const slowest = ose.baseMetres === null ? slowestBase(adapter, actors) : null;
  const baseMetres = ose.baseMetres ?? slowest?.metres ?? null;
  if (baseMetres === null) throw new UserError("AVENTURE.Wilderness.Error.noBase");
  let legs: OseMeasuredLeg[];
  let route: PlannedOse["route"] = null;
  if (req.route) {
    const scene = routeScene(req.route.sceneId);
    const tokens = routeTokens(scene, req.route.tokenIds);
    const measured = measureOseOnScene(
      scene,
      req.route.points,
      ose.openTerrain,
      tokens[0]?.elevation ?? 0,
      tokenLevel(tokens[0]),
    );
    legs = measured.legs;
    route = { scene, measured, tokens };
  } else if (req.distance !== null) {
    legs = [{ metres: req.distance, terrain: ose.openTerrain, regions: [], from: 0, to: req.distance }];
  } else throw new UserError("AVENTURE.Wilderness.Error.noDistance");
  // At most 100 days an Apply (400 rolls on one card): a longer journey continues from its card.
  const days = req.route?.days ?? OSE_JOURNEY_DEFAULT_MAX_DAYS;
  if (days > OSE_JOURNEY_DEFAULT_MAX_DAYS)
    throw new UserError("AVENTURE.Wilderness.Error.tooManyDays", { max: OSE_JOURNEY_DEFAULT_MAX_DAYS });
  const plan: OseJourneyPlan = {
    baseMetres,
    legs: legs.map((l) => ({ metres: l.metres, terrain: l.terrain })),
    forcedMarch: ose.forcedMarch,
    flying: ose.flying,
    guide: ose.guide,
    river: ose.river,
    forage: ose.forage,
    restWhenDue: ose.restWhenDue,
    characters: req.members.length,
    animals: ose.animals,
    ...(ose.rations !== null ? { rations: ose.rations } : {}),
    daysSinceRest: ose.daysSinceRest,
    // pmt borrowing these journeys with its own d100 roll for getting lost (docs/rules.md §2.7; a world setting).
    ...(pmtLostRoll() ? { lostPercent: req.lostChance } : {}),
    restFirst: ose.restFirst,
    maxDays: days,
  };
  return { ose, plan, legs, baseMetres, slowest: slowest?.name ?? "", route };
}

/** Rolls the days with Foundry dice (each roll kept for the card): lost, wandering, forage, in the rules' order. */
export async function rollOse(planned: PlannedOse): Promise<{ journey: OseJourney; rolls: Roll[] }> {
  const dice = foundryDice();
  const journey = await oseJourney(planned.plan, dice);
  return { journey, rolls: dice.rolls };
}

/**
 * The party's tokens (the request's order), each from where it stands to where the last day ends, by where each day
 * ends (`stops`: the journey is walked a day at a time; a lost day or a day of rest ends where it started).
 */
export function oseTokenJournal(planned: PlannedOse, journey: OseJourney): TravelJournalToken[] {
  const r = planned.route;
  if (!r || !r.tokens.length) return [];
  const asMeasured: MeasuredRoute = {
    points: r.measured.points,
    legs: [],
    metres: r.measured.metres,
    metresPerPixel: r.measured.metresPerPixel,
  };
  const at = (metres: number) => tokenTargets(asMeasured, metres, r.tokens, r.scene.grid.size);
  const targets = at(journey.endMetres);
  const daily = journey.days.slice(0, -1).map((d) => at(d.endMetres));
  return r.tokens.map((t, i) => ({
    sceneId: r.scene.id ?? "",
    tokenId: t.id ?? "",
    name: t.name,
    before: { x: t.x, y: t.y },
    after: targets[i]!,
    stops: journey.days.length > 1 ? daily.map((d) => d[i]!) : [],
  }));
}

/** The rest of the route when the journey stopped before its end ("Continue the journey"), with the party's state. */
export function oseNextRequest(req: TravelRequest, planned: PlannedOse, journey: OseJourney): TravelRequest | null {
  const r = planned.route;
  if (!req.route || !r || !req.ose || journey.arrived) return null;
  const points = remainingRoute(r.measured.points, journey.endMetres, r.measured.metresPerPixel);
  const last = journey.days.at(-1);
  return {
    ...req,
    route: { ...req.route, points, days: null },
    ose: {
      ...req.ose,
      rations: journey.rationsLeft,
      daysSinceRest: Math.min(last?.daysSinceRest ?? req.ose.daysSinceRest, 1000),
      restFirst: journey.forcedMarchRestOwed,
    },
  };
}

/** World time a journey of `days` days moves: a whole day each (0 when the setting is off). */
export function oseSeconds(days: number): number {
  return getSetting("travelAdvanceTime") ? days * 86_400 : 0;
}
