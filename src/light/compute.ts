/**
 * The light level at each token, from plain data: no Foundry globals, so it is benchmarked (bench/light.bench.ts)
 * and tested against simple polygons. The glue (scene.ts) turns Foundry's light sources, darkness sources and tokens
 * into these shapes; the rule itself (bright / dim / ambient) is the rules engine's `lightLevelFromNearest`.
 *
 * Geometry only, in canvas pixels: a source lights a point when the point lies inside the source's wall-clipped shape
 * (Foundry's `source.shape`, a polygon already cut by walls) and within its dim radius; within the bright radius it
 * lights it brightly. Each pair goes through a cheap bounding-box test and a squared-distance test before the exact
 * shape test; `computeLightLevelsNaive` does the exact test on every pair (the benchmark's baseline).
 */
import { lightLevelFromNearest, type LightLevel, type LightThresholds, LIGHT_THRESHOLDS } from "../rules/light.js";

/** An exact "is this point inside the source's area" test (e.g. Foundry's `source.testPoint({x, y, elevation})`). */
export type ShapeTest = (x: number, y: number, elevation: number) => boolean;

export interface PlainLightSource {
  id: string;
  /** Origin, canvas pixels. */
  x: number;
  y: number;
  /** Bright and dim radii, pixels (0 = none). Dim is normally the outer radius. */
  bright: number;
  dim: number;
  /**
   * The wall-clipped shape as a flat [x0, y0, x1, y1, ...] list (PIXI.Polygon#points). Omitted: an unobstructed disc.
   */
  points?: ArrayLike<number>;
  /** Exact test used instead of `points` (Foundry's own, elevation aware). Called only after the pre-filter passes. */
  test?: ShapeTest;
}

export interface PlainDarknessSource {
  id: string;
  x: number;
  y: number;
  /** Radius, pixels. */
  radius: number;
  points?: ArrayLike<number>;
  test?: ShapeTest;
}

export interface PlainToken {
  id: string;
  /** Centre, canvas pixels. */
  x: number;
  y: number;
  elevation: number;
  /** Darkness level at the token's centre, 0..1 (Foundry's getDarknessLevel, regions included). */
  darkness: number;
  /** Whether global illumination reaches the token (global light enabled and active at that darkness). */
  globalLight: boolean;
}

export interface TokenLight {
  id: string;
  level: LightLevel;
  /** Within a source's bright radius (inside its shape). */
  inBright: boolean;
  /** Within a source's dim light and in no source's bright light (bright wins). */
  inDim: boolean;
  /** Inside a darkness source: light sources and global light do not reach the token. */
  inDarkness: boolean;
  darkness: number;
  globalLight: boolean;
}

/** A source with its pre-filter data computed once per recomputation. */
interface Prepared {
  id: string;
  x: number;
  y: number;
  /** Squared bright radius; −1 for a source without bright light (no squared distance is below it). */
  bright2: number;
  outer2: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  points: ArrayLike<number> | undefined;
  test: ShapeTest | undefined;
}

function prepare(
  id: string,
  x: number,
  y: number,
  bright: number,
  outer: number,
  points: ArrayLike<number> | undefined,
  test: ShapeTest | undefined,
): Prepared {
  let minX = x - outer;
  let minY = y - outer;
  let maxX = x + outer;
  let maxY = y + outer;
  if (points && points.length >= 6) {
    // The wall-clipped polygon can be much smaller than the disc (a torch in a closet): intersect both boxes.
    let pminX = Infinity;
    let pminY = Infinity;
    let pmaxX = -Infinity;
    let pmaxY = -Infinity;
    for (let i = 0; i < points.length; i += 2) {
      const px = points[i]!;
      const py = points[i + 1]!;
      if (px < pminX) pminX = px;
      if (px > pmaxX) pmaxX = px;
      if (py < pminY) pminY = py;
      if (py > pmaxY) pmaxY = py;
    }
    minX = Math.max(minX, pminX);
    minY = Math.max(minY, pminY);
    maxX = Math.min(maxX, pmaxX);
    maxY = Math.min(maxY, pmaxY);
  }
  // No bright radius (a candle: dim only): no point is bright, not even the origin (squared distance 0 ≤ 0).
  return {
    id,
    x,
    y,
    bright2: bright > 0 ? bright * bright : -1,
    outer2: outer * outer,
    minX,
    minY,
    maxX,
    maxY,
    points,
    test,
  };
}

/** Even-odd point-in-polygon on a flat coordinate list; points on an edge may fall either way. */
export function polygonContains(points: ArrayLike<number>, x: number, y: number): boolean {
  const n = points.length;
  if (n < 6) return false;
  let inside = false;
  let xj = points[n - 2]!;
  let yj = points[n - 1]!;
  for (let i = 0; i < n; i += 2) {
    const xi = points[i]!;
    const yi = points[i + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    xj = xi;
    yj = yi;
  }
  return inside;
}

function exact(p: Prepared, x: number, y: number, elevation: number): boolean {
  if (p.test) return p.test(x, y, elevation);
  if (p.points && p.points.length >= 6) return polygonContains(p.points, x, y);
  return true; // an unobstructed disc: the distance test already decided
}

/** Sources prepared for many tokens. Build once per recomputation, reuse for every token. */
export interface PreparedScene {
  lights: Prepared[];
  darkness: Prepared[];
}

export function prepareScene(
  lights: readonly PlainLightSource[],
  darkness: readonly PlainDarknessSource[] = [],
): PreparedScene {
  return {
    lights: lights
      .filter((s) => s.dim > 0 || s.bright > 0)
      .map((s) => prepare(s.id, s.x, s.y, s.bright, Math.max(s.bright, s.dim), s.points, s.test)),
    darkness: darkness.filter((s) => s.radius > 0).map((s) => prepare(s.id, s.x, s.y, 0, s.radius, s.points, s.test)),
  };
}

function inside(p: Prepared, x: number, y: number, elevation: number): 0 | 1 | 2 {
  // 0 = not lit, 1 = dim, 2 = bright. Bounding box, then squared distance, then the exact shape.
  if (x < p.minX || x > p.maxX || y < p.minY || y > p.maxY) return 0;
  const dx = x - p.x;
  const dy = y - p.y;
  const d2 = dx * dx + dy * dy;
  if (d2 > p.outer2) return 0;
  if (!exact(p, x, y, elevation)) return 0;
  return d2 <= p.bright2 ? 2 : 1;
}

/** The light at one token (pre-filtered; stops at the first bright source). */
export function lightAtToken(
  token: PlainToken,
  scene: PreparedScene,
  thresholds: LightThresholds = LIGHT_THRESHOLDS,
): TokenLight {
  const { x, y, elevation } = token;
  let inDarkness = false;
  for (const d of scene.darkness) {
    if (inside(d, x, y, elevation) !== 0) {
      inDarkness = true;
      break;
    }
  }
  let inBright = false;
  let inDim = false;
  if (!inDarkness) {
    for (const s of scene.lights) {
      const r = inside(s, x, y, elevation);
      if (r === 2) {
        inBright = true;
        inDim = false;
        break;
      }
      if (r === 1) inDim = true;
    }
  }
  const globalLight = token.globalLight && !inDarkness;
  const level = lightLevelFromNearest(token.darkness, globalLight, inBright, inDim, thresholds);
  return { id: token.id, level, inBright, inDim, inDarkness, darkness: token.darkness, globalLight };
}

/** The light at every token: one preparation of the sources, then one pass per token. */
export function computeLightLevels(
  tokens: readonly PlainToken[],
  lights: readonly PlainLightSource[],
  darkness: readonly PlainDarknessSource[] = [],
  thresholds: LightThresholds = LIGHT_THRESHOLDS,
): Map<string, TokenLight> {
  const scene = prepareScene(lights, darkness);
  const out = new Map<string, TokenLight>();
  for (const t of tokens) out.set(t.id, lightAtToken(t, scene, thresholds));
  return out;
}

function naiveShape(
  points: ArrayLike<number> | undefined,
  test: ShapeTest | undefined,
  x: number,
  y: number,
  e: number,
): boolean {
  if (test) return test(x, y, e);
  if (points && points.length >= 6) return polygonContains(points, x, y);
  return true;
}

/**
 * Whether `p` is within `r` of the source's origin: the squared distance against the squared radius (exact on
 * integer coordinates, where Math.hypot can be off by one unit in the last place on the circle itself: 21–220–221).
 */
function within(p: { x: number; y: number }, o: { x: number; y: number }, r: number): boolean {
  const dx = p.x - o.x;
  const dy = p.y - o.y;
  return dx * dx + dy * dy <= r * r;
}

/**
 * The benchmark's baseline: the exact shape test on every (token, source) pair, no pre-filter and no early exit.
 * Same results as computeLightLevels (a property test checks it: at origins, on radius boundaries, zero radii).
 */
export function computeLightLevelsNaive(
  tokens: readonly PlainToken[],
  lights: readonly PlainLightSource[],
  darkness: readonly PlainDarknessSource[] = [],
  thresholds: LightThresholds = LIGHT_THRESHOLDS,
): Map<string, TokenLight> {
  const out = new Map<string, TokenLight>();
  for (const t of tokens) {
    let inDarkness = false;
    for (const d of darkness) {
      const inShape = naiveShape(d.points, d.test, t.x, t.y, t.elevation);
      if (inShape && within(t, d, d.radius) && d.radius > 0) inDarkness = true;
    }
    let inBright = false;
    let inDim = false;
    for (const s of lights) {
      const inShape = naiveShape(s.points, s.test, t.x, t.y, t.elevation);
      if (!inShape || inDarkness) continue;
      if (s.bright > 0 && within(t, s, s.bright)) inBright = true;
      else if (Math.max(s.bright, s.dim) > 0 && within(t, s, Math.max(s.bright, s.dim))) inDim = true;
    }
    if (inBright) inDim = false;
    const globalLight = t.globalLight && !inDarkness;
    const level = lightLevelFromNearest(t.darkness, globalLight, inBright, inDim, thresholds);
    out.set(t.id, { id: t.id, level, inBright, inDim, inDarkness, darkness: t.darkness, globalLight });
  }
  return out;
}
