/**
 * A route's legs by Old-School Essentials terrain (docs/rules.md §12, §11): the route is split where it enters and
 * leaves each region whose *Travel terrain* behaviour names an OSE terrain, and every leg carries its terrain. Pure:
 * the glue hands in the scene's grid and regions (as measure.ts), so every case is tested without Foundry.
 *
 * - A region counts when its Travel terrain behaviour (enabled) has an OSE terrain and its elevation range holds the
 *   party's elevation. Regions without one (core's Modify Movement Cost, dnd5e's Difficult Terrain, a Travel terrain
 *   left empty) say nothing about OSE terrain.
 * - Outside every such region the route is on `openTerrain` (the GM picks it in the Travel dialog; clear by default).
 * - Where such regions overlap, a road wins (the party follows it); otherwise the slowest terrain, then the one where
 *   losing direction is likeliest.
 * - An OSE terrain Aventure does not know (a value written by hand) refuses the route where it enters that region.
 */
import { OSE_TERRAINS, OSE_TERRAIN_TABLE, type OseTerrain } from "../../rules/ose-wilderness.js";
import { oneOf } from "../../rules/validate.js";
import { UserError } from "../../core/i18n.js";
import { routeLength, shapePolygon, splitRoute, type Point, type RouteRegion } from "./geometry.js";
import {
  MAX_ROUTE_POINTS,
  TRAVEL_TERRAIN_BEHAVIOR,
  metresPerPixel,
  type GridLike,
  type RegionLike,
  type UnitSettings,
} from "./measure.js";

/** One leg of a route on one OSE terrain. */
export interface OseMeasuredLeg {
  metres: number;
  terrain: OseTerrain;
  /** The regions that gave the terrain, by name (empty on open ground). */
  regions: string[];
  /** Metres from the start of the route. */
  from: number;
  to: number;
}

export interface OseMeasuredRoute {
  points: Point[];
  legs: OseMeasuredLeg[];
  metres: number;
  metresPerPixel: number;
}

/** The OSE terrain a region gives (and its name on the card), `unknown` for a value Aventure cannot read, or null. */
export function regionOseTerrain(
  region: RegionLike,
): { terrain: OseTerrain; name: string } | { unknown: string; name: string } | null {
  for (const b of region.behaviors) {
    if (b.disabled || b.type !== TRAVEL_TERRAIN_BEHAVIOR) continue;
    const system = (b.system ?? {}) as Record<string, unknown>;
    const value = system.oseTerrain;
    const name = typeof system.label === "string" && system.label.trim() ? system.label.trim() : region.name;
    if (value === undefined || value === null || value === "") return null;
    if (typeof value !== "string" || !(OSE_TERRAINS as readonly string[]).includes(value))
      return { unknown: String(value), name };
    return { terrain: value as OseTerrain, name };
  }
  return null;
}

/** Which of several overlapping terrains a leg is on: a road, else the slowest, else the likeliest to get lost. */
export function dominantOseTerrain(terrains: readonly OseTerrain[]): OseTerrain | null {
  if (!terrains.length) return null;
  if (terrains.includes("road")) return "road";
  const speed = (t: OseTerrain) => OSE_TERRAIN_TABLE[t].speed.num / OSE_TERRAIN_TABLE[t].speed.den;
  return [...terrains].sort(
    (a, b) =>
      speed(a) - speed(b) ||
      OSE_TERRAIN_TABLE[b].lost - OSE_TERRAIN_TABLE[a].lost ||
      OSE_TERRAINS.indexOf(a) - OSE_TERRAINS.indexOf(b),
  )[0]!;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/**
 * Measures a route for an Old-School Essentials journey: its length and its legs by OSE terrain. Refuses (UserError)
 * what measureRoute refuses (no length, no grid distance, an unknown unit, too many points) and a region whose OSE
 * terrain Aventure cannot read, where the route enters it.
 */
export function measureOseRoute(
  points: readonly Point[],
  scene: { grid: GridLike; regions: Iterable<RegionLike> },
  settings: UnitSettings,
  openTerrain: OseTerrain = "clear",
  elevation = 0,
): OseMeasuredRoute {
  if (points.length > MAX_ROUTE_POINTS)
    throw new UserError("AVENTURE.Travel.Route.Error.tooManyPoints", { max: MAX_ROUTE_POINTS });
  const open = oneOf("openTerrain", openTerrain, OSE_TERRAINS);
  const clean = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).map((p) => ({ x: p.x, y: p.y }));
  const perPixel = metresPerPixel(scene.grid, settings);
  const length = routeLength(clean);
  if (clean.length !== points.length || !(length > 0)) throw new UserError("AVENTURE.Travel.Route.Error.zeroLength");
  // Every OSE region is handed to the split as "difficult", so that the route is cut at each of their boundaries.
  const regions: RouteRegion[] = [];
  const meaning = new Map<string, { terrain?: OseTerrain; unknown?: string; name: string }>();
  for (const r of scene.regions) {
    const e = r.elevation;
    if (e && ((e.bottom !== null && elevation < e.bottom) || (e.top !== null && elevation > e.top))) continue;
    const m = regionOseTerrain(r);
    if (!m) continue;
    const polygons: number[][] = [];
    const holes: number[][] = [];
    for (const s of r.shapes) {
      const poly = shapePolygon(s);
      if (poly) (s.hole ? holes : polygons).push(poly);
    }
    if (!polygons.length) continue;
    meaning.set(r.id, m);
    regions.push({ id: r.id, name: m.name, terrain: "difficult", polygons, holes });
  }
  const legs: OseMeasuredLeg[] = [];
  for (const l of splitRoute(clean, regions)) {
    const inside = l.regions.map((r) => meaning.get(r.id)!);
    const bad = inside.find((m) => m.unknown !== undefined);
    if (bad)
      throw new UserError("AVENTURE.Travel.Route.Error.unknownRegion", { name: bad.name, value: bad.unknown ?? "?" });
    const terrains = inside.map((m) => m.terrain!);
    const terrain = dominantOseTerrain(terrains) ?? open;
    const names = [...new Set(inside.filter((m) => m.terrain === terrain).map((m) => m.name))];
    const leg = {
      metres: round(l.length * perPixel),
      terrain,
      regions: names,
      from: round(l.from * perPixel),
      to: round(l.to * perPixel),
    };
    const last = legs.at(-1);
    // Two neighbouring legs on the same terrain from the same regions are one leg.
    if (last && last.terrain === leg.terrain && last.regions.join("|") === leg.regions.join("|")) {
      last.to = leg.to;
      last.metres = round(last.to - last.from);
    } else legs.push(leg);
  }
  return { points: clean, legs, metres: round(length * perPixel), metresPerPixel: perPixel };
}
