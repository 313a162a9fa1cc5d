/**
 * A client's drawn canvas for the scene it views: token placeables (one per client), the controlled tokens, light
 * and darkness sources made from the scene's AmbientLights and token lights with shapes clipped by the walls that
 * block sight, the darkness level, global illumination, and core's sight collision test. Also token movement
 * (preMoveToken / moveToken) and the TokenRuler stand-in.
 *
 * Sources (public API documentation, v13):
 * - canvas.effects.lightSources (the global light source is among them), source.active, source.data.{x,y,bright,dim}
 *   in pixels, source.shape (wall-clipped polygon), source.testPoint({x, y, elevation}); canvas.effects.getDarknessLevel;
 *   canvas.environment.globalLightSource; scene.environment.{darknessLevel, globalLight}: NOTES.md "Light and vision".
 * - CONFIG.Canvas.polygonBackends.sight.testCollision(origin, destination, {type: "sight", mode: "any"}).
 * - Movement: hookEvents.preMoveToken (initiating client; false cancels) and moveToken(document, movement, operation,
 *   user) on every client (v13 API, NOTES.md "Movement (new in v13)"; the hooks are missing from the 13.346 types).
 * - v14 levels: a movement's origin, destination and waypoints carry a `level` (TokenPosition.level, "The level ID",
 *   https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.TokenPosition.html; TokenMovementSegmentData.level);
 *   core's Change Level region behaviour (ChangeLevelRegionBehaviorType, foundry.data.regionBehaviors, v14) moves a
 *   token to another level during an ordinary move: `moveToken(..., {level})` or a waypoint on another level.
 * - v14 sight between levels: the collision test's config takes `level`, "The Level the polygon is computed in.
 *   Defaults to the viewed Level." (PointSourcePolygonConfig, v14), and level surfaces block vision between levels
 *   (NOTES.md "v14 Scene Levels"): here a sight ray to a point outside that level's elevation range collides, unless
 *   the point lies in a level the polygon's level lists as visible (LevelData.visibility.levels). Simplified: core's
 *   surfaces (floors with holes, Define Surface regions) are not modelled; each level is one whole floor and ceiling.
 */
import type { Plain } from "./data.js";
import type { FakeLevel, FakeRegion, FakeRegionBehavior, FakeScene, FakeToken } from "./documents.js";
import { setCanvasImpl, strict, type FakeClient, type FakeWorld } from "./world.js";
import type { MovementActionConfig } from "./systems.js";

export type Segment = readonly [number, number, number, number];

/** Intersection parameter t along a→b with segment w, or null (touching an end counts). */
function hit(ax: number, ay: number, bx: number, by: number, w: Segment): number | null {
  const [cx, cy, dx, dy] = w;
  const rX = bx - ax;
  const rY = by - ay;
  const sX = dx - cx;
  const sY = dy - cy;
  const den = rX * sY - rY * sX;
  if (den === 0) return null;
  const t = ((cx - ax) * sY - (cy - ay) * sX) / den;
  const u = ((cx - ax) * rY - (cy - ay) * rX) / den;
  return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? t : null;
}

export function blocked(walls: readonly Segment[], ax: number, ay: number, bx: number, by: number): boolean {
  return walls.some((w) => hit(ax, ay, bx, by, w) !== null);
}

function sightWalls(scene: FakeScene): Segment[] {
  return scene.walls.filter((w) => w.blocksSight).map((w) => w.c);
}

/** A disc of `radius` around (x, y) as a polygon of `rays` vertices, each ray stopped at the first wall. */
export function clippedPolygon(walls: readonly Segment[], x: number, y: number, radius: number, rays = 72): number[] {
  const pts: number[] = [];
  for (let i = 0; i < rays; i++) {
    const a = (i / rays) * Math.PI * 2;
    const ex = x + Math.cos(a) * radius;
    const ey = y + Math.sin(a) * radius;
    let t = 1;
    for (const w of walls) {
      const h = hit(x, y, ex, ey, w);
      if (h !== null && h < t) t = h;
    }
    pts.push(x + (ex - x) * t, y + (ey - y) * t);
  }
  return pts;
}

/** A point light or darkness source as core's canvas gives it. Radii in pixels. */
export class FakeSource {
  active = true;
  tests = 0;
  readonly shape: { points: number[]; contains: (x: number, y: number) => boolean };
  constructor(
    private readonly walls: readonly Segment[],
    readonly sourceId: string,
    readonly data: { x: number; y: number; bright: number; dim: number; radius?: number; elevation: number },
    readonly isDarknessSource = false,
    readonly object: { id: string; document: unknown } | null = null,
  ) {
    const r = Math.max(data.bright, data.dim, data.radius ?? 0);
    this.shape = {
      points: clippedPolygon(walls, data.x, data.y, r),
      contains: () => {
        throw new Error("Fake source: use testPoint (exact) in these tests");
      },
    };
  }
  testPoint(p: { x: number; y: number; elevation: number }): boolean {
    if (typeof p.elevation !== "number") throw new Error("testPoint needs an elevation");
    this.tests++;
    const r = Math.max(this.data.bright, this.data.dim, this.data.radius ?? 0);
    if (Math.hypot(p.x - this.data.x, p.y - this.data.y) > r + 1e-9) return false;
    return !blocked(this.walls, this.data.x, this.data.y, p.x, p.y);
  }
}

/** core's GlobalLightSource (the class name is what the glue may test). */
export class GlobalLightSource extends FakeSource {}

/** A token placeable on one client's canvas. */
export class FakeTokenObject {
  destroyed = false;
  readonly children: unknown[] = [];
  constructor(
    private readonly client: FakeClient,
    readonly document: FakeToken,
  ) {}
  get id(): string {
    return this.document.id;
  }
  get scene(): FakeScene {
    return this.document.scene;
  }
  get w(): number {
    return this.document.width * this.scene.grid.size;
  }
  get h(): number {
    return this.document.height * this.scene.grid.size;
  }
  get x(): number {
    return this.document.x;
  }
  get y(): number {
    return this.document.y;
  }
  get center(): { x: number; y: number } {
    return { x: this.document.x + this.w / 2, y: this.document.y + this.h / 2 };
  }
  get actor(): unknown {
    return this.document.actor;
  }
  get controlled(): boolean {
    return this.client.controlled.includes(this.id);
  }
  /**
   * PlaceableObject#control({releaseOthers = true}): selects this token on its client's canvas (only its owners and
   * GMs may); returns whether it is controlled. PlaceableObject#release: deselects it.
   * https://foundryvtt.com/api/v13/classes/foundry.canvas.placeables.PlaceableObject.html#control
   */
  control(options: { releaseOthers?: boolean } = {}): boolean {
    if (!this.document.isOwner && !this.client.user.isGM) return false;
    if (options.releaseOthers !== false) this.client.controlled.length = 0;
    if (!this.client.controlled.includes(this.id)) this.client.controlled.push(this.id);
    return true;
  }
  release(): boolean {
    const i = this.client.controlled.indexOf(this.id);
    if (i >= 0) this.client.controlled.splice(i, 1);
    return true;
  }
  get isOwner(): boolean {
    return this.document.isOwner;
  }
  addChild(c: unknown): unknown {
    this.children.push(c);
    return c;
  }
  removeChild(c: unknown): unknown {
    const i = this.children.indexOf(c);
    if (i < 0) throw new Error("removeChild: not a child");
    this.children.splice(i, 1);
    return c;
  }
}

/** Pixels per scene distance unit. */
const pxPerUnit = (scene: FakeScene) => scene.grid.size / scene.grid.distance;

function lightSourcesOf(scene: FakeScene): Map<string, FakeSource> {
  const walls = sightWalls(scene);
  const out = new Map<string, FakeSource>();
  const k = pxPerUnit(scene);
  for (const l of scene.lights) {
    if (l.hidden || l.config.negative) continue;
    out.set(
      l.id,
      new FakeSource(
        walls,
        l.id,
        { x: l.x, y: l.y, bright: l.config.bright * k, dim: l.config.dim * k, elevation: l.elevation },
        false,
        { id: l.id, document: l },
      ),
    );
  }
  for (const t of scene.tokens) {
    const light = t.light as { bright?: number; dim?: number };
    if (!(light.bright || light.dim)) continue;
    const c = t.center;
    out.set(
      `Token.${t.id}`,
      new FakeSource(
        walls,
        `Token.${t.id}`,
        { x: c.x, y: c.y, bright: (light.bright ?? 0) * k, dim: (light.dim ?? 0) * k, elevation: t.elevation },
        false,
        { id: t.id, document: t },
      ),
    );
  }
  return out;
}

function darknessSourcesOf(scene: FakeScene): Map<string, FakeSource> {
  const walls = sightWalls(scene);
  const out = new Map<string, FakeSource>();
  const k = pxPerUnit(scene);
  for (const l of scene.lights) {
    if (l.hidden || !l.config.negative) continue;
    const r = Math.max(l.config.bright, l.config.dim) * k;
    out.set(
      l.id,
      new FakeSource(walls, l.id, { x: l.x, y: l.y, bright: r, dim: r, radius: r, elevation: l.elevation }, true, {
        id: l.id,
        document: l,
      }),
    );
  }
  return out;
}

/**
 * Draws `scene` on `client`'s canvas (canvas.scene, tokens, effects, environment, CONFIG.Canvas). The placeables
 * follow the scene's tokens as they are created and deleted on that client.
 */
export function viewScene(world: FakeWorld, client: FakeClient, scene: FakeScene, level?: string): void {
  client.viewedScene = scene;
  client.viewedLevel = level ?? scene.levels.contents[0]?.id ?? null;
  client.placeables.clear();
  client.controlled.length = 0;
  for (const t of scene.tokens) client.placeables.set(t.id, new FakeTokenObject(client, t));
  const global = new GlobalLightSource([], "globalLight", { x: 0, y: 0, bright: 1e7, dim: 1e7, elevation: 0 });
  const stats = { collisionTests: 0 };
  const placeables = () =>
    scene.tokens.contents.map((t) => client.placeables.get(t.id)).filter((p): p is FakeTokenObject => !!p);
  client.canvas = strict(
    {
      ready: true,
      scene,
      grid: scene.grid,
      dimensions: { size: scene.grid.size, distance: scene.grid.distance, width: scene.width, height: scene.height },
      stats,
      tokens: strict(
        {
          get placeables() {
            return placeables();
          },
          get controlled() {
            return client.controlled.map((id) => client.placeables.get(id)).filter((p): p is FakeTokenObject => !!p);
          },
          get: (id: string) => client.placeables.get(id),
          get ownedTokens() {
            return placeables().filter((p) => p.document.isOwner);
          },
        },
        "canvas.tokens",
      ),
      effects: strict(
        {
          get lightSources() {
            global.active = scene.environment.globalLight.enabled;
            return new Map<string, FakeSource>([["globalLight", global], ...lightSourcesOf(scene)]);
          },
          get darknessSources() {
            return darknessSourcesOf(scene);
          },
          getDarknessLevel: (p: { x: number; y: number; elevation: number }) => {
            if (typeof p?.elevation !== "number") throw new Error("getDarknessLevel needs an elevation");
            return scene.environment.darknessLevel;
          },
        },
        "canvas.effects",
      ),
      environment: strict(
        {
          get globalLightSource() {
            global.active = scene.environment.globalLight.enabled;
            return global;
          },
        },
        "canvas.environment",
      ),
      regions: strict(
        {
          get placeables() {
            return scene.regions.contents.map((r) => ({ id: r.id, document: r }));
          },
        },
        "canvas.regions",
      ),
      drawings: strict(
        {
          get placeables() {
            return scene.drawings.contents.map((d) => ({ id: d.id, document: d, controlled: false }));
          },
          get controlled() {
            return (
              (client as unknown as { controlledDrawings?: string[] }).controlledDrawings?.map((id) => ({
                id,
                document: scene.drawings.get(id),
              })) ?? []
            );
          },
        },
        "canvas.drawings",
      ),
    },
    "canvas",
  );
  client.CONFIG.Canvas = {
    polygonBackends: {
      sight: {
        testCollision(
          a: { x: number; y: number; elevation?: number },
          b: { x: number; y: number; elevation?: number },
          o: { type: string; mode: string; level?: FakeLevel },
        ) {
          if (o?.type !== "sight" || o.mode !== "any") throw new Error("Fake: only sight/any collisions are modelled");
          stats.collisionTests++;
          if (world.generation >= 14 && scene.levels.size) {
            if (o.level !== undefined && !scene.levels.contents.includes(o.level))
              throw new Error("Fake: config.level must be a Level document of the scene");
            const level = o.level ?? scene.levels.get(client.viewedLevel ?? "");
            if (level && (crossesSurface(scene, level, a) || crossesSurface(scene, level, b))) return true;
          }
          return blocked(sightWalls(scene), a.x, a.y, b.x, b.y);
        },
      },
    },
  };
  // Placeables follow the documents on this client (core draws and destroys them on create/delete).
  if (!(client as unknown as { canvasHooks?: boolean }).canvasHooks) {
    (client as unknown as { canvasHooks?: boolean }).canvasHooks = true;
    const add = (t: FakeToken) => {
      if (client.viewedScene === t.parent && !client.placeables.has(t.id))
        client.placeables.set(t.id, new FakeTokenObject(client, t));
    };
    client.hooks.on("__fakeTokenAdded", add as never);
    // Registered now: runs before handlers registered later, as core's canvas layer runs before modules' hooks.
    client.hooks.on("createToken", add as never);
    client.hooks.on("deleteToken", ((t: FakeToken) => {
      const p = client.placeables.get(t.id) as FakeTokenObject | undefined;
      if (p) p.destroyed = true;
      client.placeables.delete(t.id);
      const i = client.controlled.indexOf(t.id);
      if (i >= 0) client.controlled.splice(i, 1);
    }) as never);
  }
}

/** Whether a sight ray computed in `level` to `p` leaves it through a floor or ceiling (see the sources above). */
function crossesSurface(scene: FakeScene, level: FakeLevel, p: { elevation?: number }): boolean {
  if (typeof p.elevation !== "number")
    throw new Error("Fake: a v14 sight test between levels needs the points' elevations");
  const inside = (l: FakeLevel) => p.elevation! >= l.elevation.bottom && p.elevation! < l.elevation.top;
  if (inside(level)) return false;
  const other = scene.levels.find((l) => l !== level && inside(l));
  return !(other && level.visibility.levels.has(other.id));
}

/** Selects tokens on a client's canvas (canvas.tokens.controlled). Only owned tokens can be controlled. */
export function control(client: FakeClient, ...ids: string[]): void {
  client.controlled.length = 0;
  for (const id of ids) {
    const p = client.placeables.get(id) as FakeTokenObject | undefined;
    if (!p) throw new Error(`Fake canvas: no token ${id} on ${client.user.id}'s canvas`);
    if (!p.document.isOwner && !client.user.isGM) throw new Error(`${client.user.id} cannot control token ${id}`);
    client.controlled.push(id);
  }
}

// ------------------------------------------------------------------------------------------------ movement

export interface MovementSpec {
  /** Destination (top-left corner in pixels) and elevation; defaults: where the token is. */
  x?: number;
  y?: number;
  elevation?: number;
  action?: string;
  method?: "api" | "config" | "dragging" | "keyboard" | "paste" | "undo";
  /** v14: the destination level (a Change Level move); default: the token's level. */
  level?: string;
  /** Waypoints passed on the way (actions and elevations; v14: levels), for falls and costs. */
  waypoints?: { x: number; y: number; elevation: number; action: string; level?: string }[];
  id?: string;
  /** The movement's cost in scene units (default: the straight distance, through the action's cost function). */
  cost?: number;
}

/**
 * Moves a token as the current client (its owner): preMoveToken on this client (false cancels), the update of x,
 * y, elevation (updateToken everywhere), then moveToken(document, movement, operation, user) on every client.
 */
export async function moveToken(world: FakeWorld, token: FakeToken, spec: MovementSpec): Promise<Plain | null> {
  const client = world.currentClient();
  const v14 = world.generation >= 14;
  if (!v14 && (spec.level !== undefined || spec.waypoints?.some((w) => w.level !== undefined)))
    throw new Error("Fake: movement levels are v14");
  if (spec.level !== undefined && !token.scene.levels.has(spec.level))
    throw new Error(`Fake: no level ${spec.level} on the scene`);
  const levels = (level: string | null) => (v14 ? { level } : {});
  const origin = {
    x: token.x,
    y: token.y,
    elevation: token.elevation,
    width: token.width,
    height: token.height,
    action: token.movementAction,
    ...levels(token.level),
  };
  const destination = {
    x: spec.x ?? token.x,
    y: spec.y ?? token.y,
    elevation: spec.elevation ?? token.elevation,
    width: token.width,
    height: token.height,
    action: spec.action ?? token.movementAction,
    ...levels(spec.level ?? token.level),
  };
  const waypoints = spec.waypoints ?? [{ ...destination, checkpoint: true }];
  const grid = token.scene.grid;
  const distance = (Math.hypot(destination.x - origin.x, destination.y - origin.y) / grid.size) * grid.distance;
  const actionConfig = (client.CONFIG.Token as { movement: { actions: Record<string, MovementActionConfig> } }).movement
    .actions[destination.action];
  const cost =
    spec.cost ??
    (actionConfig ? actionConfig.getCostFunction(token, {})(distance, origin, destination, distance, {}) : distance);
  const movement: Plain = {
    id: spec.id ?? world.newId("move"),
    chain: [],
    origin,
    destination,
    passed: { waypoints: [], distance: 0, cost: 0, spaces: 0, diagonals: 0 },
    pending: { waypoints, distance, cost, spaces: 0, diagonals: 0 },
    history: { recorded: { waypoints: [] }, unrecorded: { waypoints: [] } },
    constrained: false,
    recorded: true,
    method: spec.method ?? "dragging",
    autoRotate: false,
    showRuler: false,
    user: client.user,
  };
  const operation: Plain = { movement: { [token.id]: movement } };
  if (client.hooks.call("preMoveToken", token, movement, operation) === false) return null;
  const size = token.scene.grid.size;
  const centre = (p: { x: number; y: number; elevation: number }) => ({
    x: p.x + (token.width * size) / 2,
    y: p.y + (token.height * size) / 2,
    elevation: p.elevation,
  });
  const entered = token.scene.regions.filter((r) => !r.testPoint(centre(origin)) && r.testPoint(centre(destination)));
  const levelChange = v14 && destination.level !== token.level ? { level: destination.level } : {};
  await token.update(
    { x: destination.x, y: destination.y, elevation: destination.elevation, ...levelChange },
    { movement: { [token.id]: { method: movement.method } } },
  );
  // Once moved, the waypoints are passed (what moveToken handlers read).
  movement.passed = movement.pending;
  movement.pending = { waypoints: [], distance: 0, cost: 0, spaces: 0, diagonals: 0 };
  for (const region of entered) {
    for (const behavior of region.behaviors)
      regionEvent(world, behavior, "tokenMoveIn", { token, movement }, client.user.id);
  }
  world.broadcast("moveToken", token, movement, operation, client.user);
  return movement;
}

/**
 * A region event (v13 `{name, data: {token, movement}, region, user}`) handled on every client by that client's
 * instance of the behaviour's type (CONFIG.RegionBehavior.dataModels[type]), `this` being that instance. Disabled
 * behaviours get nothing. NOTES.md "Regions"; RegionBehaviorType#events (v13 API); the data of tokenMoveIn:
 * https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.RegionTokenMoveEventData.html (`{token, movement}`).
 */
export function regionEvent(
  world: FakeWorld,
  behavior: FakeRegionBehavior,
  name: string,
  data: Plain,
  userId: string,
): void {
  if (behavior.disabled) return;
  const user = world.users.get(userId, { strict: true })!;
  for (const c of world.liveClients()) {
    world.runOn(c, () => {
      const Type = (c.CONFIG.RegionBehavior as { dataModels: Record<string, new (d: Plain, o: Plain) => object> })
        .dataModels[behavior.type];
      if (!Type) return;
      const handler = (Type as unknown as { events?: Record<string, (this: object, e: unknown) => unknown> }).events?.[
        name
      ];
      if (!handler) return;
      const system = new Type(behavior.system, { parent: behavior });
      const event = { name, data, region: behavior.parent as FakeRegion, behavior, user };
      try {
        const out = handler.call(system, event);
        if (out && typeof (out as Promise<unknown>).then === "function")
          world.track(out as Promise<unknown>, `region ${name}`);
      } catch (e) {
        world.reportHookError(`region ${name}`, e);
      }
    });
  }
}

// ------------------------------------------------------------------------------------------------ ruler

export interface FakeWaypoint {
  action: string;
  previous: FakeWaypoint | null;
  elevation: number;
  measurement: { distance: number; cost: number; backward: { distance: number; cost: number } | null };
}

/**
 * A minimal stand-in for core's TokenRuler: the waypoint label context core would build (cost in grid units), and its
 * WAYPOINT_LABEL_TEMPLATE. https://foundryvtt.com/api/v13/classes/foundry.canvas.placeables.tokens.TokenRuler.html
 * (_getWaypointLabelContext); NOTES.md "Movement". The context's keys follow core's v13 label template as NOTES.md and
 * test/fake/handlebars.ts describe it (unverified in detail: core's template is not public documentation).
 */
export class FakeTokenRuler {
  static WAYPOINT_LABEL_TEMPLATE = "templates/hud/waypoint-label.hbs";
  constructor(readonly token: { document: FakeToken; actor: unknown }) {}
  _getWaypointLabelContext(waypoint: FakeWaypoint, _state: object): Plain | undefined {
    if (!waypoint.previous) return undefined;
    const later = !!waypoint.previous.previous && !!waypoint.measurement.backward;
    const delta = later ? { delta: `+${waypoint.measurement.backward!.cost}` } : {};
    const elevationDelta = waypoint.elevation - waypoint.previous.elevation;
    return {
      action: { label: waypoint.action },
      cssClass: "",
      units: this.token.document.scene.grid.units,
      distance: {
        total: String(waypoint.measurement.distance),
        ...(later ? { delta: `+${waypoint.measurement.backward!.distance}` } : {}),
      },
      cost: { total: String(waypoint.measurement.cost), units: this.token.document.scene.grid.units, ...delta },
      elevation: {
        total: String(waypoint.elevation),
        icon: "fa-solid fa-arrows-up-down",
        hidden: waypoint.elevation === 0 && elevationDelta === 0,
        ...(elevationDelta ? { delta: `${elevationDelta > 0 ? "+" : ""}${elevationDelta}` } : {}),
      },
    };
  }
}

/**
 * Ruler waypoints for a path of segments [action, distance, terrain multiplier, elevation?], measured like core (one
 * cost function per action, one call per segment).
 */
export function rulerPath(
  client: FakeClient,
  token: FakeToken,
  segments: ([string, number, number] | [string, number, number, number])[],
): FakeWaypoint[] {
  const actions = (client.CONFIG.Token as { movement: { actions: Record<string, MovementActionConfig> } }).movement
    .actions;
  const first: FakeWaypoint = {
    action: token.movementAction,
    previous: null,
    elevation: token.elevation,
    measurement: { distance: 0, cost: 0, backward: null },
  };
  const out = [first];
  let distance = 0;
  let cost = 0;
  const fns = new Map<string, ReturnType<MovementActionConfig["getCostFunction"]>>();
  for (const [action, d, terrain, elevation] of segments) {
    let fn = fns.get(action);
    if (!fn) {
      const config = actions[action];
      if (!config) throw new Error(`Unknown movement action ${action}`);
      fn = config.getCostFunction(token, {});
      fns.set(action, fn);
    }
    const c = fn(d * terrain, {}, {}, d, {});
    distance += d;
    cost += c;
    out.push({
      action,
      previous: out.at(-1)!,
      elevation: elevation ?? out.at(-1)!.elevation,
      measurement: { distance, cost, backward: { distance: d, cost: c } },
    });
  }
  return out;
}

setCanvasImpl({ view: viewScene, move: (world, token, spec) => moveToken(world, token, spec as MovementSpec) });
