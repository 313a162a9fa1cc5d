/**
 * The scene side of journeys along a route: reading a scene's grid and regions for measure.ts, the world's unit
 * settings, the party's tokens, where each token stands when the journey ends (marching order), and moving them.
 * Foundry API (v13): Scene#grid {size, distance, units}, Scene#regions (RegionDocument: shapes, elevation, behaviors),
 * Scene#tokens (TokenDocument: x, y, width, height, elevation), TokenDocument#move(waypoints, options).
 */
import { getSetting } from "../../core/settings.js";
import { UserError } from "../../core/i18n.js";
import { pointAlong, type DrawingLike, type Point, type ShapeLike } from "./geometry.js";
import { measureRoute, type MeasuredRoute, type RegionLike, type UnitSettings } from "./measure.js";
import { tokenCentre, type TokenDocLike } from "../../light/api.js";
import { measureOseRoute, type OseMeasuredRoute } from "./ose-legs.js";
import type { OseTerrain } from "../../rules/ose-wilderness.js";

export { tokenCentre };

/** A token as the journey reads and moves it (a TokenDocument satisfies it): the light feature's token surface. */
export type RouteToken = Pick<TokenDocLike, "id" | "name" | "x" | "y" | "width" | "height" | "elevation"> & {
  actor: { id: string | null } | null;
};

/** The world settings that turn a scene's unit into metres. */
export function unitSettings(): UnitSettings {
  return {
    feetFactor: getSetting("feetFactor"),
    customUnit: getSetting("travelCustomUnit"),
    customMetres: getSetting("travelCustomUnitMetres"),
  };
}

interface RegionDocLike {
  id: string | null;
  name: string;
  shapes: readonly object[];
  elevation: { bottom: number | null; top: number | null };
  behaviors: { contents: readonly { type: string; disabled: boolean; system: unknown }[] };
  /** RegionDocument#testPoint({x, y, elevation}) (v13 and v14; v14 knows `elevation.topInclusive`). */
  testPoint?(point: { x: number; y: number; elevation: number }): boolean;
  /** v14: the levels the region is on (RegionData.levels; empty or null: every level). */
  levels?: Iterable<string> | null;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" ? v : undefined;
}

/**
 * A region shape's data as the geometry reads it (fields absent from a shape type stay undefined). Read property by
 * property (a v13 shape is a data model whose fields need not be own enumerable properties).
 */
function shapeOf(raw: object): ShapeLike {
  const get = (k: string): unknown => Reflect.get(raw, k);
  const pts = get("points");
  const points =
    Array.isArray(pts) && pts.every((p) => typeof p === "number")
      ? pts.filter((p): p is number => typeof p === "number")
      : undefined;
  const type = get("type");
  return {
    type: typeof type === "string" ? type : "",
    x: num(get("x")),
    y: num(get("y")),
    width: num(get("width")),
    height: num(get("height")),
    radius: num(get("radius")),
    radiusX: num(get("radiusX")),
    radiusY: num(get("radiusY")),
    rotation: num(get("rotation")),
    points,
    hole: get("hole") === true,
  };
}

/**
 * The region as measure.ts reads it. Its point test is the region's own (RegionDocument#testPoint) where it has one;
 * on v14 a region on other levels than the party's does not count (RegionData.levels).
 */
function regionOf(r: RegionDocLike, level: string | null): RegionLike {
  const levels = level && r.levels ? [...r.levels] : [];
  const otherLevel = levels.length > 0 && !levels.includes(level!);
  const test =
    typeof r.testPoint === "function"
      ? (p: { x: number; y: number; elevation: number }) => !otherLevel && r.testPoint!(p)
      : undefined;
  return {
    id: r.id ?? "",
    name: r.name,
    shapes: r.shapes.map((s) => shapeOf(s)),
    elevation: { bottom: r.elevation.bottom, top: r.elevation.top },
    behaviors: r.behaviors.contents.map((b) => ({ type: b.type, disabled: b.disabled, system: b.system })),
    ...(test ? { contains: test } : {}),
  };
}

export interface RouteScene {
  id: string | null;
  name: string;
  /** The scene's size (px) and its padding (a fraction of it on each side: Scene#padding, 0.25 by default). */
  width: number | null;
  height: number | null;
  padding: number | null;
  grid: { size: number; distance: number; units: string };
  regions: { contents: readonly RegionDocLike[] };
  tokens: { get(id: string): RouteToken | undefined };
  drawings: { get(id: string): (DrawingLike & { id: string | null }) | undefined };
}

/** The scene a route is on (the viewed one when no id is given); a UserError when it does not exist. */
export function routeScene(sceneId: string | null): RouteScene {
  const scene = sceneId ? game.scenes.get(sceneId) : game.scenes.viewed;
  if (!scene) throw new UserError("AVENTURE.Travel.Route.Error.scene");
  return scene;
}

/**
 * The canvas a route may be drawn on: the scene with its padding on each side (Foundry rounds the padding to whole
 * grid spaces, so it is taken rounded up), and one grid space more of tolerance. Pixels, from the canvas' top-left.
 */
export function sceneBounds(scene: RouteScene): { minX: number; minY: number; maxX: number; maxY: number } {
  const size = scene.grid.size > 0 ? scene.grid.size : 100;
  const padding = typeof scene.padding === "number" && scene.padding > 0 ? scene.padding : 0;
  // A scene without a size (never in Foundry): only the request's own bounds apply.
  const end = (length: number | null) =>
    typeof length === "number" && length > 0
      ? length + 2 * Math.ceil((length * padding) / size) * size + size
      : Infinity;
  return { minX: -size, minY: -size, maxX: end(scene.width), maxY: end(scene.height) };
}

/** Refuses a route with a point outside the scene (its padding included): a UserError naming the point. */
export function checkRouteOnScene(scene: RouteScene, points: readonly Point[]): void {
  const b = sceneBounds(scene);
  const out = points.find((p) => !(p.x >= b.minX && p.x <= b.maxX && p.y >= b.minY && p.y <= b.maxY));
  if (out)
    throw new UserError("AVENTURE.Travel.Route.Error.outside", {
      scene: scene.name,
      x: Math.round(out.x),
      y: Math.round(out.y),
    });
}

/** What the route measures cross on a scene: its grid and its regions (v14: as seen from `level`). */
function routeMap(scene: RouteScene, level: string | null) {
  return {
    grid: { size: scene.grid.size, distance: scene.grid.distance, units: scene.grid.units },
    regions: scene.regions.contents.map((r) => regionOf(r, level)),
  };
}

/**
 * Measures a route on a scene, for a party at `elevation` (v14: on `level`; regions at other elevations or levels do
 * not count). A route with a point outside the scene is refused.
 */
export function measureOnScene(
  scene: RouteScene,
  points: readonly Point[],
  elevation = 0,
  level: string | null = null,
): MeasuredRoute {
  checkRouteOnScene(scene, points);
  return measureRoute(points, routeMap(scene, level), unitSettings(), elevation);
}

/**
 * Measures a route on a scene for an Old-School Essentials journey (docs/rules.md §12): legs by OSE terrain, open
 * ground on `openTerrain`, for a party at `elevation` (v14: on `level`). A route with a point outside the scene is
 * refused.
 */
export function measureOseOnScene(
  scene: RouteScene,
  points: readonly Point[],
  openTerrain: OseTerrain,
  elevation = 0,
  level: string | null = null,
): OseMeasuredRoute {
  checkRouteOnScene(scene, points);
  return measureOseRoute(points, routeMap(scene, level), unitSettings(), openTerrain, elevation);
}

/** The party's tokens on the scene, by id; a UserError naming a token that is not there. */
export function routeTokens(scene: RouteScene, ids: readonly string[]): RouteToken[] {
  return ids.map((id) => {
    const token = scene.tokens.get(id);
    if (!token) throw new UserError("AVENTURE.Travel.Route.Error.token", { id });
    return token;
  });
}

/**
 * Where each token stands when the party has walked `metres` along the route: the first at the point reached, each
 * next one a grid space behind it along the route (never before its start). Top-left corners, whole pixels.
 */
export function tokenTargets(
  route: MeasuredRoute,
  metres: number,
  tokens: readonly RouteToken[],
  gridSize: number,
): { x: number; y: number }[] {
  const reached = metres / route.metresPerPixel;
  return tokens.map((t, k) => {
    const c = pointAlong(route.points, Math.max(0, reached - k * gridSize));
    return { x: Math.round(c.x - (t.width * gridSize) / 2), y: Math.round(c.y - (t.height * gridSize) / 2) };
  });
}
