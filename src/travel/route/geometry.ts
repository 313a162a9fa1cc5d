/**
 * Route geometry for journeys along a route (docs/rules.md §11): the length of a route drawn on the map and its
 * split into legs where it enters and leaves regions of difficult terrain. Pure (no Foundry globals): the glue reads
 * the route (ruler waypoints or a Drawing) and the regions (their polygons) and converts pixels to metres.
 *
 * Performance: each region's bounding box is computed once; a route segment is tested against a region's edges only
 * when their boxes overlap, and a point only against regions whose box contains it (bench/route.bench.ts measures it
 * against testing every segment against every edge).
 */

import { polygonContains } from "../../light/api.js";

export interface Point {
  x: number;
  y: number;
}

/**
 * A region as the split sees it: its polygons (flat [x0, y0, x1, y1, ...]), the holes cut out of them (a point in a
 * hole is outside the region), and its terrain.
 */
export interface RouteRegion {
  id: string;
  name: string;
  terrain: "normal" | "difficult";
  polygons: readonly (readonly number[])[];
  holes?: readonly (readonly number[])[];
}

/** A stretch of the route on one terrain, between two distances along it (pixels). */
export interface RouteLeg {
  from: number;
  to: number;
  length: number;
  terrain: "normal" | "difficult";
  /** The difficult regions it runs through (ids and names, sorted by id); empty on normal terrain. */
  regions: { id: string; name: string }[];
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

interface Prepared {
  region: RouteRegion;
  box: Box;
  polys: { pts: readonly number[]; box: Box }[];
  holes: { pts: readonly number[]; box: Box }[];
}

const EPS = 1e-9;

function boxOf(pts: readonly number[]): Box {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < pts.length; i += 2) {
    const x = pts[i]!;
    const y = pts[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

const overlaps = (a: Box, b: Box) =>
  a.minX <= b.maxX + EPS && b.minX <= a.maxX + EPS && a.minY <= b.maxY + EPS && b.minY <= a.maxY + EPS;
const boxContains = (b: Box, x: number, y: number) =>
  x >= b.minX - EPS && x <= b.maxX + EPS && y >= b.minY - EPS && y <= b.maxY + EPS;

/** Even-odd point in polygon: the light feature's test (one implementation for the module). */
export const pointInPolygon: (pts: readonly number[], x: number, y: number) => boolean = polygonContains;

/** Whether (x, y) lies on one of the polygon's edges (walking along a region's edge is not entering it). */
function onBoundary(pts: readonly number[], x: number, y: number): boolean {
  for (let i = 0, j = pts.length - 2; i < pts.length; j = i, i += 2) {
    const ax = pts[j]!;
    const ay = pts[j + 1]!;
    const bx = pts[i]!;
    const by = pts[i + 1]!;
    const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
    if (len2 < EPS) continue;
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / len2));
    if (Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) < 1e-6) return true;
  }
  return false;
}

/** Strictly inside a polygon (its edges excluded). */
function strictlyInside(pts: readonly number[], x: number, y: number): boolean {
  return pointInPolygon(pts, x, y) && !onBoundary(pts, x, y);
}

/** Parameters t in [0, 1] where segment a→b crosses the polygon's edges (touching counts). */
function crossings(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  pts: readonly number[],
  out: number[],
  stats?: { edgeTests: number },
): void {
  if (stats) stats.edgeTests += pts.length / 2;
  const rX = bx - ax;
  const rY = by - ay;
  for (let i = 0, j = pts.length - 2; i < pts.length; j = i, i += 2) {
    const cx = pts[j]!;
    const cy = pts[j + 1]!;
    const dx = pts[i]!;
    const dy = pts[i + 1]!;
    const sX = dx - cx;
    const sY = dy - cy;
    const den = rX * sY - rY * sX;
    if (Math.abs(den) < EPS) continue; // parallel (collinear overlaps add no crossing: the midpoints decide)
    const t = ((cx - ax) * sY - (cy - ay) * sX) / den;
    const u = ((cx - ax) * rY - (cy - ay) * rX) / den;
    if (t >= -EPS && t <= 1 + EPS && u >= -EPS && u <= 1 + EPS) out.push(Math.min(1, Math.max(0, t)));
  }
}

function prepare(regions: readonly RouteRegion[]): Prepared[] {
  const out: Prepared[] = [];
  for (const region of regions) {
    const polys = region.polygons.filter((p) => p.length >= 6).map((pts) => ({ pts, box: boxOf(pts) }));
    if (!polys.length) continue;
    const holes = (region.holes ?? []).filter((p) => p.length >= 6).map((pts) => ({ pts, box: boxOf(pts) }));
    out.push({
      region,
      polys,
      holes,
      box: {
        minX: Math.min(...polys.map((p) => p.box.minX)),
        minY: Math.min(...polys.map((p) => p.box.minY)),
        maxX: Math.max(...polys.map((p) => p.box.maxX)),
        maxY: Math.max(...polys.map((p) => p.box.maxY)),
      },
    });
  }
  return out;
}

/** Inside the region: strictly inside one of its polygons and not strictly inside one of its holes. */
function insideRegion(p: Prepared, x: number, y: number, prefilter: boolean): boolean {
  const within = (poly: { pts: readonly number[]; box: Box }) =>
    (!prefilter || boxContains(poly.box, x, y)) && strictlyInside(poly.pts, x, y);
  return p.polys.some(within) && !p.holes.some(within);
}

function regionsAt(prepared: readonly Prepared[], x: number, y: number): Prepared[] {
  const out: Prepared[] = [];
  for (const p of prepared) {
    if (!boxContains(p.box, x, y)) continue;
    if (insideRegion(p, x, y, true)) out.push(p);
  }
  return out;
}

/** The length of a polyline (pixels). */
export function routeLength(points: readonly Point[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++)
    total += Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y);
  return total;
}

/**
 * Splits a route into legs of constant terrain: difficult inside any region marked difficult, normal elsewhere. A
 * route that starts inside a region starts on its terrain; crossing a region twice gives two legs there; touching an
 * edge or a corner without entering changes nothing. Consecutive pieces on the same terrain and regions are merged.
 */
export function splitRoute(
  points: readonly Point[],
  regions: readonly RouteRegion[],
  options: { prefilter?: boolean; stats?: { edgeTests: number } } = {},
): RouteLeg[] {
  const prefilter = options.prefilter !== false;
  const difficult = prepare(regions.filter((r) => r.terrain === "difficult"));
  const legs: RouteLeg[] = [];
  const keys: string[] = [];
  let along = 0;
  const ts: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len < EPS) continue;
    ts.length = 0;
    ts.push(0, 1);
    const segBox: Box = {
      minX: Math.min(a.x, b.x),
      minY: Math.min(a.y, b.y),
      maxX: Math.max(a.x, b.x),
      maxY: Math.max(a.y, b.y),
    };
    for (const p of difficult) {
      if (prefilter && !overlaps(segBox, p.box)) continue;
      for (const poly of p.polys.length && p.holes.length ? [...p.polys, ...p.holes] : p.polys) {
        if (prefilter && !overlaps(segBox, poly.box)) continue;
        crossings(a.x, a.y, b.x, b.y, poly.pts, ts, options.stats);
      }
    }
    ts.sort((x, y) => x - y);
    for (let k = 1; k < ts.length; k++) {
      const t0 = ts[k - 1]!;
      const t1 = ts[k]!;
      if (t1 - t0 < EPS) continue;
      const tm = (t0 + t1) / 2;
      const x = a.x + (b.x - a.x) * tm;
      const y = a.y + (b.y - a.y) * tm;
      const inside = prefilter ? regionsAt(difficult, x, y) : difficult.filter((p) => insideRegion(p, x, y, false));
      const terrain = inside.length ? "difficult" : "normal";
      const ids = inside
        .map((p) => ({ id: p.region.id, name: p.region.name }))
        .sort((u, v) => (u.id < v.id ? -1 : u.id > v.id ? 1 : 0));
      const key = ids.map((r) => r.id).join("|");
      const from = along + len * t0;
      const to = along + len * t1;
      const last = legs.at(-1);
      if (last && last.terrain === terrain && keys.at(-1) === key && Math.abs(last.to - from) < 1e-6) {
        last.to = to;
        last.length = last.to - last.from;
      } else {
        legs.push({ from, to, length: to - from, terrain, regions: ids });
        keys.push(key);
      }
    }
    along += len;
  }
  return legs;
}

/**
 * The point at `distance` pixels along the route (clamped to its ends): where a party that walked that far stands.
 */
export function pointAlong(points: readonly Point[], distance: number): Point {
  if (!points.length) return { x: 0, y: 0 };
  let left = Math.max(0, distance);
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (left <= len)
      return len < EPS ? { ...b } : { x: a.x + ((b.x - a.x) * left) / len, y: a.y + ((b.y - a.y) * left) / len };
    left -= len;
  }
  return { ...points.at(-1)! };
}

// ------------------------------------------------------------------------------------------------ shapes

/** A region shape as stored (v13 BaseShapeData: rectangle, circle, ellipse, polygon; `hole` cuts it out). */
export interface ShapeLike {
  type: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  radius?: number;
  radiusX?: number;
  radiusY?: number;
  rotation?: number;
  points?: readonly number[];
  hole?: boolean;
}

/** Vertices used for a circle or an ellipse (a 64-gon: within 0.13 % of the true curve's radius). */
const CURVE_VERTICES = 64;

function rotate(pts: number[], cx: number, cy: number, degrees: number): number[] {
  if (!degrees) return pts;
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const out: number[] = [];
  for (let i = 0; i < pts.length; i += 2) {
    const dx = pts[i]! - cx;
    const dy = pts[i + 1]! - cy;
    out.push(cx + dx * cos - dy * sin, cy + dx * sin + dy * cos);
  }
  return out;
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/**
 * A region shape as a polygon (flat points), or null for a shape this cannot read (an unknown type, missing or
 * non-finite numbers). Rectangles turn about their centre; ellipses and circles are centred on (x, y).
 */
export function shapePolygon(shape: ShapeLike): number[] | null {
  const { x = 0, y = 0, rotation = 0 } = shape;
  if (!finite(x) || !finite(y) || !finite(rotation)) return null;
  switch (shape.type) {
    case "rectangle": {
      const { width, height } = shape;
      if (!finite(width) || !finite(height) || width <= 0 || height <= 0) return null;
      return rotate(
        [x, y, x + width, y, x + width, y + height, x, y + height],
        x + width / 2,
        y + height / 2,
        rotation,
      );
    }
    case "circle":
    case "ellipse": {
      const rx = shape.type === "circle" ? shape.radius : shape.radiusX;
      const ry = shape.type === "circle" ? shape.radius : shape.radiusY;
      if (!finite(rx) || !finite(ry) || rx <= 0 || ry <= 0) return null;
      const pts: number[] = [];
      for (let k = 0; k < CURVE_VERTICES; k++) {
        const a = (k / CURVE_VERTICES) * Math.PI * 2;
        pts.push(x + Math.cos(a) * rx, y + Math.sin(a) * ry);
      }
      return rotate(pts, x, y, rotation);
    }
    case "polygon": {
      const pts = shape.points;
      if (!Array.isArray(pts) || pts.length < 6 || pts.length % 2 || !pts.every(finite)) return null;
      return [...pts];
    }
    default:
      return null;
  }
}

/** A Drawing as stored (v13 DrawingDocument: x, y, rotation, shape {type, width, height, points relative to x, y}). */
export interface DrawingLike {
  x: number;
  y: number;
  rotation?: number;
  shape: {
    type: string | null;
    width?: number | null;
    height?: number | null;
    points?: readonly (number | undefined)[] | null;
  };
}

/** The Drawing shape types that are lines a party can follow: polygon (polyline) and freehand. */
export const LINE_DRAWING_TYPES: readonly string[] = ["p", "f"];

/**
 * The route a Drawing traces, in scene pixels (its points moved to the drawing's position and turned about its
 * centre), or null when it is not a line (a rectangle, an ellipse, text) or its points are not usable.
 */
export function drawingRoute(drawing: DrawingLike): Point[] | null {
  const { x, y, shape } = drawing;
  const rotation = drawing.rotation ?? 0;
  if (!shape.type || !LINE_DRAWING_TYPES.includes(shape.type) || !finite(x) || !finite(y) || !finite(rotation))
    return null;
  const raw = shape.points;
  if (!Array.isArray(raw) || raw.length < 4 || raw.length % 2 || !raw.every(finite)) return null;
  const pts = raw.filter(finite);
  const abs: number[] = [];
  for (let i = 0; i < pts.length; i += 2) abs.push(x + pts[i]!, y + pts[i + 1]!);
  const w = finite(shape.width) ? shape.width : 0;
  const h = finite(shape.height) ? shape.height : 0;
  const turned = rotate(abs, x + w / 2, y + h / 2, rotation);
  const out: Point[] = [];
  for (let i = 0; i < turned.length; i += 2) out.push({ x: turned[i]!, y: turned[i + 1]! });
  return out;
}
