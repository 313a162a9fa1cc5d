/**
 * Measuring a route on a scene (docs/rules.md §11): pixels to metres from the scene's grid, the regions that make
 * travel difficult, and the route's legs. Pure: the glue hands in the scene's data (grid, regions with their shapes
 * and behaviours) and the world settings, so every case is tested without Foundry.
 *
 * Which regions count (docs/api/travel.md "Journeys along a route"):
 * - Aventure's *Travel terrain* behaviour (`aventure.travelTerrain`): its terrain (normal or difficult) and its name
 *   (the region's name when left empty). It wins over the others on the same region.
 * - core's *Modify Movement Cost* (`modifyMovementCost`): difficult when walking costs more than ×1
 *   (`system.difficulties.walk` > 1), normal at ×1 or less.
 * - dnd5e's *Difficult Terrain* (`dnd5e.difficultTerrain`, dnd5e 5.x
 * module/data/region-behavior/difficult-terrain.mjs):
 *   difficult.
 * A region counts when its elevation range holds the party's elevation: the region's own point test when the glue
 * gives one (`contains`: RegionDocument#testPoint, which knows v14's `topInclusive` and levels; docs/compat.md),
 * else its `elevation` range, top included (v13). Disabled behaviours count for nothing.
 */
import { toMetres } from "../../rules/units.js";
import { UserError } from "../../core/i18n.js";
import {
  pointAlong,
  routeLength,
  shapePolygon,
  splitRoute,
  type Point,
  type RouteRegion,
  type ShapeLike,
} from "./geometry.js";

export const TRAVEL_TERRAIN_BEHAVIOR = "aventure.travelTerrain";
const MODIFY_MOVEMENT_COST = "modifyMovementCost";
const DND5E_DIFFICULT = "dnd5e.difficultTerrain";

/** Most points a route may have (a freehand drawing across a continent stays far below). */
export const MAX_ROUTE_POINTS = 5000;

export interface GridLike {
  /** Pixels per grid space. */
  size: number;
  /** Scene units per grid space. */
  distance: number;
  units: string;
}

/** The world settings that turn a scene unit into metres. */
export interface UnitSettings {
  /** Metres per foot (the world's feet factor, 0.3 by default). */
  feetFactor: number;
  /** A unit of the GM's own ("lieue", "hex"...) and the metres it stands for (0: none). */
  customUnit: string;
  customMetres: number;
}

export interface BehaviorLike {
  type: string;
  disabled?: boolean;
  system?: unknown;
}

export interface RegionLike {
  id: string;
  name: string;
  shapes: readonly ShapeLike[];
  elevation?: { bottom: number | null; top: number | null };
  behaviors: Iterable<BehaviorLike>;
  /** The region's own test of a point at an elevation (RegionDocument#testPoint), when the glue has one. */
  contains?(point: { x: number; y: number; elevation: number }): boolean;
}

/** One leg of a measured route: real metres, terrain, the named regions it runs through. */
export interface MeasuredLeg {
  metres: number;
  terrain: "normal" | "difficult";
  /** The difficult regions it crosses, by name (empty on normal ground). */
  regions: string[];
  /** Metres from the start of the route where the leg starts and ends. */
  from: number;
  to: number;
}

export interface MeasuredRoute {
  /** The route's points in scene pixels. */
  points: Point[];
  legs: MeasuredLeg[];
  metres: number;
  metresPerPixel: number;
}

const UNIT_NAMES: Record<string, "m" | "km" | "ft" | "mi"> = {
  m: "m",
  meter: "m",
  meters: "m",
  metre: "m",
  metres: "m",
  mètre: "m",
  mètres: "m",
  km: "km",
  kilometer: "km",
  kilometers: "km",
  kilometre: "km",
  kilometres: "km",
  kilomètre: "km",
  kilomètres: "km",
  ft: "ft",
  feet: "ft",
  foot: "ft",
  pi: "ft",
  pied: "ft",
  pieds: "ft",
  mi: "mi",
  mile: "mi",
  miles: "mi",
};

/**
 * Metres per scene unit: m, km, ft (the world's feet factor), mi (1.5 km, the French convention of the rules) in their
 * usual spellings, or the GM's own unit. Anything else: a UserError naming the unit.
 */
export function metresPerUnit(units: string, settings: UnitSettings): number {
  const raw = typeof units === "string" ? units.trim() : "";
  const key = raw.toLowerCase().replace(/\.$/, "");
  const known = UNIT_NAMES[key];
  if (known) return toMetres(1, known, known === "ft" ? settings.feetFactor : undefined);
  const custom = settings.customUnit.trim().toLowerCase();
  if (custom && key === custom && Number.isFinite(settings.customMetres) && settings.customMetres > 0)
    return settings.customMetres;
  throw new UserError("AVENTURE.Travel.Route.Error.unit", { unit: raw || "—" });
}

/** Metres per pixel on a scene's grid; a UserError when the grid has no distance (or no size). */
export function metresPerPixel(grid: GridLike, settings: UnitSettings): number {
  const { size, distance } = grid;
  if (
    !(typeof distance === "number" && Number.isFinite(distance) && distance > 0) ||
    !(typeof size === "number" && Number.isFinite(size) && size > 0)
  ) {
    throw new UserError("AVENTURE.Travel.Route.Error.noGrid");
  }
  return (distance * metresPerUnit(grid.units, settings)) / size;
}

/** What a region means for travel: its terrain and the name shown; `unknown` for a value Aventure cannot read. */
export type RegionMeaning = { terrain: "normal" | "difficult"; name: string } | { unknown: string; name: string };

/** What a region means for travel, or null when it says nothing about travel. */
export function regionTerrain(region: RegionLike): RegionMeaning | null {
  let found: RegionMeaning | null = null;
  for (const b of region.behaviors) {
    if (b.disabled) continue;
    const system = (b.system ?? {}) as Record<string, unknown>;
    if (b.type === TRAVEL_TERRAIN_BEHAVIOR) {
      const terrain = system.terrain;
      if (terrain !== "normal" && terrain !== "difficult") return { unknown: String(terrain), name: region.name };
      const name = typeof system.label === "string" && system.label.trim() ? system.label.trim() : region.name;
      return { terrain, name };
    }
    if (found && "unknown" in found) continue;
    if (b.type === MODIFY_MOVEMENT_COST) {
      const walk = (system.difficulties as Record<string, unknown> | undefined)?.walk;
      if (walk === undefined) continue;
      if (typeof walk !== "number" || !Number.isFinite(walk) || walk <= 0)
        found = { unknown: `×${String(walk)}`, name: region.name };
      else if (walk > 1 || !found) found = { terrain: walk > 1 ? "difficult" : "normal", name: region.name };
    } else if (b.type === DND5E_DIFFICULT) {
      found = { terrain: "difficult", name: region.name };
    }
  }
  return found;
}

/**
 * The region as the route split sees it (its shapes as polygons, holes apart; a region of an unknown kind as
 * difficult, flagged), or null when it says nothing about travel, has no usable shape or lies at another elevation.
 */
export function routeRegion(region: RegionLike, elevation = 0): (RouteRegion & { unknown?: string }) | null {
  const e = region.contains ? undefined : region.elevation; // with its own test: checked where the route runs (measureRoute)
  if (e && ((e.bottom !== null && elevation < e.bottom) || (e.top !== null && elevation > e.top))) return null;
  const meaning = regionTerrain(region);
  if (!meaning) return null;
  const polygons: number[][] = [];
  const holes: number[][] = [];
  for (const s of region.shapes) {
    const poly = shapePolygon(s);
    if (poly) (s.hole ? holes : polygons).push(poly);
  }
  if (!polygons.length) return null;
  if ("unknown" in meaning)
    return { id: region.id, name: meaning.name, terrain: "difficult", polygons, holes, unknown: meaning.unknown };
  return { id: region.id, name: meaning.name, terrain: meaning.terrain, polygons, holes };
}

/**
 * Measures a route on a scene: its length in metres and its legs by terrain. Refuses (UserError) a route of no length,
 * a grid without distance, a unit Aventure cannot convert, a region of an unknown kind on the scene.
 */
export function measureRoute(
  points: readonly Point[],
  scene: { grid: GridLike; regions: Iterable<RegionLike> },
  settings: UnitSettings,
  elevation = 0,
): MeasuredRoute {
  if (points.length > MAX_ROUTE_POINTS)
    throw new UserError("AVENTURE.Travel.Route.Error.tooManyPoints", { max: MAX_ROUTE_POINTS });
  const clean = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).map((p) => ({ x: p.x, y: p.y }));
  const perPixel = metresPerPixel(scene.grid, settings);
  const length = routeLength(clean);
  if (clean.length !== points.length || !(length > 0)) throw new UserError("AVENTURE.Travel.Route.Error.zeroLength");
  let regions: RouteRegion[] = [];
  let unknown: (RouteRegion & { unknown?: string })[] = [];
  const tested = new Map<string, RegionLike>();
  for (const r of scene.regions) {
    const rr = routeRegion(r, elevation);
    if (rr) (rr.unknown === undefined ? regions : unknown).push(rr);
    if (rr && r.contains) tested.set(rr.id, r);
  }
  if (tested.size) {
    // A region with its own point test counts where the route runs through it at the party's elevation: tested at the
    // middle of each leg the split puts in it (the elevation is the same all along the route).
    const holds = new Map<string, boolean>();
    for (const l of splitRoute(
      clean,
      [...regions, ...unknown].filter((r) => tested.has(r.id)),
    )) {
      const mid = pointAlong(clean, (l.from + l.to) / 2);
      for (const r of l.regions)
        if (!holds.get(r.id)) holds.set(r.id, tested.get(r.id)!.contains!({ ...mid, elevation }));
    }
    const out = (r: RouteRegion) => tested.has(r.id) && holds.get(r.id) === false;
    regions = regions.filter((r) => !out(r));
    unknown = unknown.filter((r) => !out(r));
  }
  // A region of a kind Aventure cannot read matters only where the route enters it.
  const crossed = unknown.length
    ? splitRoute(clean, unknown).find((l) => l.terrain === "difficult")?.regions[0]
    : undefined;
  if (crossed) {
    const r = unknown.find((u) => u.id === crossed.id)!;
    throw new UserError("AVENTURE.Travel.Route.Error.unknownRegion", { name: r.name, value: r.unknown ?? "?" });
  }
  const legs = splitRoute(clean, regions).map((l) => ({
    metres: round(l.length * perPixel),
    terrain: l.terrain,
    regions: [...new Set(l.regions.map((r) => r.name))],
    from: round(l.from * perPixel),
    to: round(l.to * perPixel),
  }));
  return { points: clean, legs, metres: round(length * perPixel), metresPerPixel: perPixel };
}

/** Millimetres are enough on a map: keeps the legs' sums free of floating-point noise. */
function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/**
 * The part of a route from `metres` along it to its end (for "Continue the journey"): the point reached, then the
 * remaining vertices. `metresPerPixel` converts.
 */
export function remainingRoute(points: readonly Point[], metres: number, perPixel: number): Point[] {
  let left = Math.max(0, metres / perPixel);
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (left < len) {
      const start = len > 0 ? { x: a.x + ((b.x - a.x) * left) / len, y: a.y + ((b.y - a.y) * left) / len } : { ...a };
      return [start, ...points.slice(i).map((p) => ({ x: p.x, y: p.y }))];
    }
    left -= len;
  }
  return points.length ? [{ ...points.at(-1)! }] : [];
}
