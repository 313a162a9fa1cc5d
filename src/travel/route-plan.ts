/**
 * A journey along a route (docs/rules.md §11), the whole route or its first days: the plan of the whole route, where
 * the
 * party stands after the days asked for (`routePosition` at the end of that day's march), and the plan of the part
 * walked now (the legs cut there, planned again: its days, saves and world time are those of the part walked).
 * Pure: the dialog shows it, the GM applies it, both from the same measured legs.
 */
import { routePosition, travelPlan, type TravelInput, type TravelLegInput, type TravelPlan } from "../rules/travel.js";
import type { MeasuredLeg } from "./route/measure.js";

export interface RouteJourney {
  /** The plan of the whole route. */
  full: TravelPlan;
  /** The plan of the part walked now (the whole route, or its first `days` travel days). */
  plan: TravelPlan;
  /** The legs walked now (the last one cut where the party stops), with the regions they cross. */
  legs: MeasuredLeg[];
  /** Metres along the route where the party stands at the end, and the route's length. */
  reached: number;
  total: number;
  /** True when the party stops before the end of the route. */
  stopped: boolean;
  /**
   * The world time the journey takes: the plan's, or for a journey stopped after N days, N whole days (the party camps
   * where the last day's march ends and sets off again the next morning, as in the plan of the whole route).
   */
  durationSeconds: number;
}

/** The legs up to `metres` along the route (the leg there is cut; legs of no length dropped). */
export function cutLegs(legs: readonly MeasuredLeg[], metres: number): MeasuredLeg[] {
  const out: MeasuredLeg[] = [];
  for (const l of legs) {
    if (l.from >= metres) break;
    const to = Math.min(l.to, metres);
    const length = l.to <= metres ? l.metres : Math.round((to - l.from) * 1000) / 1000;
    if (length > 0) out.push({ ...l, to, metres: length });
  }
  return out;
}

/**
 * Plans a journey along measured legs. `inputFor` turns legs into the rules' input (planInput with the request and
 * the actors); `days`: stop after that many travel days (null, or more days than the route needs: the whole route).
 * Throws the rules' errors.
 */
export function planRouteJourney(
  inputFor: (legs: readonly TravelLegInput[]) => TravelInput,
  legs: readonly MeasuredLeg[],
  days: number | null,
): RouteJourney {
  const full = travelPlan(inputFor(legs));
  const total = full.distance;
  if (days === null || days >= full.days.length)
    return {
      full,
      plan: full,
      legs: [...legs],
      reached: total,
      total,
      stopped: false,
      durationSeconds: full.durationSeconds,
    };
  const last = full.days[days - 1]!;
  const reached = routePosition(full, last.startSeconds + last.marchSeconds).metresAlongRoute;
  const walked = cutLegs(legs, reached);
  return {
    full,
    plan: travelPlan(inputFor(walked)),
    legs: walked,
    reached,
    total,
    stopped: true,
    durationSeconds: full.days[days]!.startSeconds,
  };
}
