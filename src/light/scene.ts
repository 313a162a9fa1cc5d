/**
 * Reads the viewed scene into the plain shapes of compute.ts: light sources (token lights included, the global light
 * excluded), darkness sources, tokens with the darkness and global illumination at their centre. Also distances in
 * metres and line of sight (walls) between two tokens. Everything Foundry-specific about light lives here.
 */
import { clean, parseUnit, toMetres } from "../rules/units.js";
import { getSetting } from "../core/settings.js";
import { levelOf, levelSees } from "../core/compat.js";
import type { PlainDarknessSource, PlainLightSource, PlainToken } from "./compute.js";
import type { RegionLike } from "./obscurity.js";

export interface Point {
  x: number;
  y: number;
}

/** The token document surface Aventure uses (a real TokenDocument satisfies it). */
export interface TokenDocLike {
  id: string | null;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  elevation: number;
  disposition: number;
  hidden: boolean;
  actor: Actor | null;
  sight?: { enabled?: boolean; range?: number | null; visionMode?: string };
  detectionModes?: unknown;
  object?: TokenObjLike | null;
  parent?: { id: string | null } | null;
  isOwner: boolean;
  testUserPermission(user: User, level: "OWNER"): boolean;
  getFlag(scope: "aventure", key: string): unknown;
  setFlag(scope: "aventure", key: string, value: unknown): Promise<unknown>;
  unsetFlag(scope: "aventure", key: string): Promise<unknown>;
}

/** The token placeable surface Aventure uses. */
export interface TokenObjLike {
  id: string;
  document: TokenDocLike;
  center?: Point;
  w?: number;
  h?: number;
  addChild?(child: unknown): unknown;
  removeChild?(child: unknown): unknown;
  destroyed?: boolean;
}

/** A token as the API accepts it: a token id of the viewed scene, a TokenDocument or a Token. */
export type TokenRef = string | TokenDocLike | TokenObjLike;

/** The token id a TokenRef names (null for a document without id). */
export function tokenRefId(ref: TokenRef): string | null {
  if (typeof ref === "string") return ref;
  if ("document" in ref && ref.document) return ref.document.id;
  return (ref as TokenDocLike).id;
}

interface SourceLike {
  active?: boolean;
  isDarknessSource?: boolean;
  data?: { x?: number; y?: number; bright?: number; dim?: number; radius?: number; elevation?: number };
  shape?: { points?: ArrayLike<number>; contains?(x: number, y: number): boolean };
  testPoint?(point: { x: number; y: number; elevation: number }): boolean;
  object?: { id?: string | null; document?: { id?: string | null } } | null;
  sourceId?: string;
}

export interface GridLike {
  size: number;
  distance: number;
  units: string;
}

interface EffectsLike {
  lightSources?: Iterable<SourceLike> | Map<string, SourceLike>;
  darknessSources?: Iterable<SourceLike> | Map<string, SourceLike>;
  getDarknessLevel?(point: { x: number; y: number; elevation: number }): number;
}

interface SceneLike {
  id: string | null;
  environment?: {
    darknessLevel?: number;
    globalLight?: { enabled?: boolean; darkness?: { min?: number; max?: number } };
  };
  darkness?: number;
  /** The scene's RegionDocuments (Obscurity behaviours). */
  regions?: Iterable<RegionLike>;
}

export interface CanvasLike {
  ready?: boolean;
  scene: SceneLike | null;
  grid: GridLike;
  effects: EffectsLike;
  environment?: { globalLightSource?: SourceLike | null };
  tokens: { placeables: TokenObjLike[]; controlled: TokenObjLike[]; get?(id: string): TokenObjLike | undefined };
}

/** The canvas, or null when no scene is drawn. */
export function canvasLike(): CanvasLike | null {
  const c = (globalThis as { canvas?: unknown }).canvas as CanvasLike | null | undefined;
  if (!c || !c.scene || !c.tokens || !c.effects) return null;
  return c;
}

function values<T>(collection: Iterable<T> | Map<string, T> | undefined): T[] {
  if (!collection) return [];
  if (collection instanceof Map) return [...collection.values()];
  return [...collection];
}

function exactTest(s: SourceLike): ((x: number, y: number, elevation: number) => boolean) | undefined {
  // The source's own test knows walls (its shape) and, on v14 levels, elevation.
  if (typeof s.testPoint === "function") return (x, y, elevation) => s.testPoint!({ x, y, elevation });
  if (s.shape && typeof s.shape.contains === "function") return (x, y) => s.shape!.contains!(x, y);
  return undefined;
}

function sourceId(s: SourceLike, i: number): string {
  return s.sourceId ?? s.object?.document?.id ?? s.object?.id ?? `source${i}`;
}

/** Active light sources (ambient and token lights), the global light source excluded. Radii in pixels. */
export function lightSources(c: CanvasLike): PlainLightSource[] {
  const global = c.environment?.globalLightSource ?? null;
  const out: PlainLightSource[] = [];
  values(c.effects.lightSources).forEach((s, i) => {
    if (s === global || s.active === false || s.isDarknessSource) return;
    if (s.constructor?.name === "GlobalLightSource") return;
    const d = s.data ?? {};
    const bright = d.bright ?? 0;
    const dim = d.dim ?? 0;
    if (!(bright > 0 || dim > 0)) return;
    out.push({
      id: sourceId(s, i),
      x: d.x ?? 0,
      y: d.y ?? 0,
      bright,
      dim,
      points: s.shape?.points,
      test: exactTest(s),
    });
  });
  return out;
}

/** Active darkness sources (magical darkness). */
export function darknessSources(c: CanvasLike): PlainDarknessSource[] {
  const out: PlainDarknessSource[] = [];
  values(c.effects.darknessSources).forEach((s, i) => {
    if (s.active === false) return;
    const d = s.data ?? {};
    const radius = Math.max(d.radius ?? 0, d.dim ?? 0, d.bright ?? 0);
    if (!(radius > 0)) return;
    out.push({ id: sourceId(s, i), x: d.x ?? 0, y: d.y ?? 0, radius, points: s.shape?.points, test: exactTest(s) });
  });
  return out;
}

/** A token's centre in canvas pixels. */
export function tokenCenter(c: CanvasLike, token: TokenObjLike): Point {
  if (token.center) return { x: token.center.x, y: token.center.y };
  return tokenCentre(token.document, c.grid.size);
}

/** A token document's centre in canvas pixels, from its position and its size in grid spaces. */
export function tokenCentre(doc: { x: number; y: number; width: number; height: number }, gridSize: number): Point {
  return { x: doc.x + (doc.width * gridSize) / 2, y: doc.y + (doc.height * gridSize) / 2 };
}

function sceneDarkness(scene: SceneLike): number {
  return scene.environment?.darknessLevel ?? scene.darkness ?? 0;
}

/** Darkness level at a point (regions included where Foundry provides it), clamped to 0..1. */
export function darknessAt(c: CanvasLike, point: Point, elevation: number): number {
  const v =
    typeof c.effects.getDarknessLevel === "function"
      ? c.effects.getDarknessLevel({ ...point, elevation })
      : sceneDarkness(c.scene!);
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

/** Whether global illumination lights a point whose darkness is `darkness`. */
export function globalLightAt(c: CanvasLike, darkness: number): boolean {
  const env = c.scene?.environment?.globalLight;
  const source = c.environment?.globalLightSource;
  const enabled = source ? source.active !== false && env?.enabled !== false : (env?.enabled ?? false);
  if (!enabled) return false;
  const min = env?.darkness?.min ?? 0;
  const max = env?.darkness?.max ?? 1;
  return darkness >= min && darkness <= max;
}

/** Every token of the viewed scene as plain data (only the ids asked for, when given). */
export function plainTokens(c: CanvasLike, ids?: ReadonlySet<string>): PlainToken[] {
  const out: PlainToken[] = [];
  for (const t of c.tokens.placeables) {
    if (ids && !ids.has(t.id)) continue;
    const p = tokenCenter(c, t);
    const elevation = t.document.elevation ?? 0;
    const darkness = darknessAt(c, p, elevation);
    out.push({ id: t.id, x: p.x, y: p.y, elevation, darkness, globalLight: globalLightAt(c, darkness) });
  }
  return out;
}

/** Metres per scene distance unit ("ft" → the world's foot factor). */
export function metresPerUnit(c: { grid: GridLike }): number {
  const unit = parseUnit(c.grid.units, "ft");
  return toMetres(1, unit, unit === "ft" ? getSetting("feetFactor") : undefined);
}

/** A length in scene distance units (a token's sight or detection range) in metres. */
export function unitsToMetres(c: { grid: GridLike }, units: number): number {
  return clean(units * metresPerUnit(c));
}

/** Distance between two points, in metres (straight line). */
export function metresBetween(c: { grid: GridLike }, a: Point, b: Point): number {
  const px = Math.hypot(a.x - b.x, a.y - b.y);
  return clean((px / c.grid.size) * c.grid.distance * metresPerUnit(c));
}

/**
 * Whether walls block sight between two points (Foundry's sight polygon backend). On v14 `level` is the Level
 * document the test is computed in (the looking token's): core otherwise uses the level the user views, and level
 * surfaces block sight between levels (PointSourcePolygonConfig.level; docs/compat.md).
 */
export function hasLineOfSight(
  a: Point & { elevation?: number },
  b: Point & { elevation?: number },
  level?: unknown,
): boolean {
  const backend = CONFIG.Canvas?.polygonBackends?.sight;
  if (!backend) return true;
  const config = { type: "sight", mode: "any", ...(level ? { level } : {}) } as const;
  return !(backend.testCollision as (o: unknown, d: unknown, c: unknown) => unknown)(a, b, config); // cast: v14's config adds `level`
}

/**
 * Line of sight from an observer token to a target token (v14: each on its level): false when the observer's level
 * does not see the target's (levelSees), else the collision test computed in the observer's level.
 */
export function tokensInSight(
  c: { scene: unknown },
  from: Point & { elevation: number; level: string | null },
  to: Point & { elevation: number; level: string | null },
): boolean {
  if (!levelSees(c.scene, from.level, to.level)) return false;
  return hasLineOfSight(from, to, levelOf(c.scene, from.level) ?? undefined);
}
