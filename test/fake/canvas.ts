/**
 * A drawn canvas for the light feature: a viewed scene (grid, darkness, global light), token documents and their
 * placeables, walls as segments, light and darkness sources whose shapes are simple polygons cut by the walls, and
 * Foundry's sight collision test. Builds on FakeWorld; strict like it: the canvas objects throw on unmodelled
 * properties, a user updating or flagging a token they do not own throws, an unknown token id throws.
 */
import { strict, type FakeActor, type FakeUser, type FakeWorld, readFlag } from "./foundry.js";

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

export class FakeSource {
  active = true;
  readonly sourceId: string;
  readonly shape: { points: number[]; contains: (x: number, y: number) => boolean };
  /** How many exact tests ran (the pre-filter keeps this low). */
  tests = 0;
  constructor(
    private readonly scene: FakeLightScene,
    id: string,
    readonly data: { x: number; y: number; bright: number; dim: number; radius?: number },
    readonly isDarknessSource = false,
  ) {
    this.sourceId = id;
    const r = Math.max(data.bright, data.dim, data.radius ?? 0);
    const points = clippedPolygon(scene.walls, data.x, data.y, r);
    this.shape = {
      points,
      contains: () => {
        throw new Error("Fake source: use testPoint (exact) in these tests");
      },
    };
  }
  /** Exact: within the outer radius and no wall between the source and the point. */
  testPoint(p: { x: number; y: number; elevation: number }): boolean {
    if (typeof p.elevation !== "number") throw new Error("testPoint needs an elevation");
    this.tests++;
    const r = Math.max(this.data.bright, this.data.dim, this.data.radius ?? 0);
    if (Math.hypot(p.x - this.data.x, p.y - this.data.y) > r + 1e-9) return false;
    return !blocked(this.scene.walls, this.data.x, this.data.y, p.x, p.y);
  }
}

class FakeGlobalLightSource extends FakeSource {}

export class FakeTokenObject {
  destroyed = false;
  readonly children: unknown[] = [];
  constructor(
    private readonly scene: FakeLightScene,
    readonly document: FakeTokenDoc,
  ) {}
  get id(): string {
    return this.document.id;
  }
  get w(): number {
    return this.document.width * this.scene.grid.size;
  }
  get h(): number {
    return this.document.height * this.scene.grid.size;
  }
  get center(): { x: number; y: number } {
    return { x: this.document.x + this.w / 2, y: this.document.y + this.h / 2 };
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

export interface TokenData {
  id: string;
  name: string;
  /** Centre in grid squares (converted to the document's top-left corner). */
  at: [number, number];
  actor?: FakeActor | null;
  disposition?: number;
  elevation?: number;
  sight?: { enabled: boolean; range: number | null; visionMode: string };
  detectionModes?: { id: string; enabled: boolean; range: number | null }[];
}

export class FakeTokenDoc {
  readonly documentName = "Token";
  x: number;
  y: number;
  width = 1;
  height = 1;
  elevation: number;
  disposition: number;
  hidden = false;
  sight: { enabled: boolean; range: number | null; visionMode: string };
  detectionModes: { id: string; enabled: boolean; range: number | null }[];
  readonly flags: Record<string, Record<string, unknown>> = {};
  readonly actor: FakeActor | null;
  readonly id: string;
  readonly name: string;
  object!: FakeTokenObject;
  constructor(
    private readonly world: FakeWorld,
    readonly parent: FakeLightScene,
    data: TokenData,
  ) {
    this.id = data.id;
    this.name = data.name;
    this.actor = data.actor ?? null;
    const size = parent.grid.size;
    this.x = data.at[0] * size - size / 2;
    this.y = data.at[1] * size - size / 2;
    this.elevation = data.elevation ?? 0;
    this.disposition = data.disposition ?? 1;
    this.sight = data.sight ?? { enabled: true, range: 0, visionMode: "basic" };
    this.detectionModes = data.detectionModes ?? [];
  }
  testUserPermission(user: FakeUser, level: "OWNER"): boolean {
    if (this.actor) return this.actor.testUserPermission(user, level);
    return user.isGM;
  }
  get isOwner(): boolean {
    return this.testUserPermission(this.world.game.user, "OWNER");
  }
  getFlag(scope: string, key: string): unknown {
    return readFlag(this.flags, scope, key);
  }
  async setFlag(scope: string, key: string, value: unknown): Promise<this> {
    if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
    if (!this.isOwner) throw new Error(`User ${this.world.game.user.id} cannot flag token ${this.id}`);
    (this.flags[scope] ??= {})[key] = structuredClone(value);
    this.world.log.push(`flag ${this.id} ${key}`);
    return this;
  }
  async unsetFlag(scope: string, key: string): Promise<this> {
    if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
    if (!this.isOwner) throw new Error(`User ${this.world.game.user.id} cannot unflag token ${this.id}`);
    delete this.flags[scope]?.[key];
    this.world.log.push(`unflag ${this.id} ${key}`);
    return this;
  }
  /** Moves the token (grid squares, centre) as its owner; fires updateToken on every client like Foundry. */
  async moveTo(at: [number, number]): Promise<void> {
    const size = this.parent.grid.size;
    await this.update({ x: at[0] * size - size / 2, y: at[1] * size - size / 2 });
  }
  async update(changes: { x?: number; y?: number; elevation?: number }): Promise<this> {
    if (!this.isOwner) throw new Error(`User ${this.world.game.user.id} cannot update token ${this.id}`);
    for (const [k, v] of Object.entries(changes)) {
      if (k !== "x" && k !== "y" && k !== "elevation") throw new Error(`Fake token: cannot update ${k}`);
      this[k] = v;
    }
    await this.world.callAllClients("updateToken", this, changes, {}, this.world.game.user.id);
    return this;
  }
}

/** The viewed scene and the canvas built on it. */
export class FakeLightScene {
  readonly grid = { size: 100, distance: 1.5, units: "m" };
  readonly environment: { darknessLevel: number; globalLight: { enabled: boolean; darkness: { min: number; max: number } } };
  readonly walls: Segment[] = [];
  readonly lights = new Map<string, FakeSource>();
  readonly darkness = new Map<string, FakeSource>();
  readonly tokens = new Map<string, FakeTokenDoc>();
  readonly controlled: FakeTokenObject[] = [];
  readonly globalLightSource: FakeGlobalLightSource;
  collisionTests = 0;
  constructor(
    private readonly world: FakeWorld,
    readonly id: string,
    opts: { darkness: number; globalLight: boolean },
  ) {
    this.environment = { darknessLevel: opts.darkness, globalLight: { enabled: opts.globalLight, darkness: { min: 0, max: 1 } } };
    this.globalLightSource = new FakeGlobalLightSource(this, "global", { x: 0, y: 0, bright: 1e6, dim: 1e6 });
    this.globalLightSource.active = opts.globalLight;
  }
  /** Metres → pixels on this grid. */
  px(metres: number): number {
    return (metres / this.grid.distance) * this.grid.size;
  }
  addWall(x1: number, y1: number, x2: number, y2: number): void {
    if (this.lights.size || this.darkness.size) throw new Error("Fake canvas: add walls before sources");
    this.walls.push([x1, y1, x2, y2]);
  }
  /** A light at (x, y) grid squares with bright and dim radii in metres. */
  addLight(id: string, at: [number, number], bright: number, dim: number): FakeSource {
    const s = new FakeSource(this, id, { x: at[0] * this.grid.size, y: at[1] * this.grid.size, bright: this.px(bright), dim: this.px(dim) });
    this.lights.set(id, s);
    return s;
  }
  addDarkness(id: string, at: [number, number], radius: number): FakeSource {
    const r = this.px(radius);
    const s = new FakeSource(this, id, { x: at[0] * this.grid.size, y: at[1] * this.grid.size, bright: r, dim: r, radius: r }, true);
    this.darkness.set(id, s);
    return s;
  }
  addToken(data: TokenData): FakeTokenDoc {
    if (this.tokens.has(data.id)) throw new Error(`Token ${data.id} exists`);
    const doc = new FakeTokenDoc(this.world, this, data);
    doc.object = new FakeTokenObject(this, doc);
    this.tokens.set(doc.id, doc);
    return doc;
  }
  token(id: string): FakeTokenDoc {
    const t = this.tokens.get(id);
    if (!t) throw new Error(`Token ${id} does not exist`);
    return t;
  }
  control(...ids: string[]): void {
    this.controlled.length = 0;
    for (const id of ids) this.controlled.push(this.token(id).object);
  }
}

class FakeText {
  destroyed = false;
  name: string | null = null;
  eventMode = "auto";
  readonly position = {
    x: 0,
    y: 0,
    set(x: number, y: number) {
      this.x = x;
      this.y = y;
    },
  };
  constructor(
    public text: string,
    readonly style: Record<string, unknown>,
  ) {}
  get width(): number {
    return 16;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/** Draws `scene` on the canvas of `world` (globalThis.canvas, CONFIG.Canvas sight backend, PIXI.Text). */
export function drawScene(world: FakeWorld, opts: { id?: string; darkness?: number; globalLight?: boolean } = {}): FakeLightScene {
  const scene = new FakeLightScene(world, opts.id ?? "scene1", { darkness: opts.darkness ?? 1, globalLight: opts.globalLight ?? false });
  const g = globalThis as Record<string, unknown>;
  const placeables = () => [...scene.tokens.values()].map((d) => d.object);
  g.canvas = strict(
    {
      ready: true,
      scene: strict({ id: scene.id, environment: scene.environment, grid: scene.grid }, "canvas.scene"),
      grid: scene.grid,
      effects: strict(
        {
          // Foundry lists the global light among the light sources: the glue must skip it.
          get lightSources() {
            return new Map<string, FakeSource>([["globalLight", scene.globalLightSource], ...scene.lights]);
          },
          darknessSources: scene.darkness,
          getDarknessLevel: (p: { x: number; y: number; elevation: number }) => {
            if (typeof p.elevation !== "number") throw new Error("getDarknessLevel needs an elevation");
            return scene.environment.darknessLevel;
          },
        },
        "canvas.effects",
      ),
      environment: strict({ globalLightSource: scene.globalLightSource }, "canvas.environment"),
      tokens: strict(
        {
          get placeables() {
            return placeables();
          },
          get controlled() {
            return [...scene.controlled];
          },
          get: (id: string) => scene.tokens.get(id)?.object,
        },
        "canvas.tokens",
      ),
    },
    "canvas",
  );
  const config = world.CONFIG as unknown as Record<string, unknown>;
  config.Canvas = {
    polygonBackends: {
      sight: {
        testCollision(a: { x: number; y: number }, b: { x: number; y: number }, o: { type: string; mode: string }) {
          if (o.type !== "sight" || o.mode !== "any") throw new Error("Fake: only sight/any collisions are modelled");
          scene.collisionTests++;
          return blocked(scene.walls, a.x, a.y, b.x, b.y);
        },
      },
    },
  };
  g.PIXI = { Text: FakeText };
  for (const u of world.users) (u as unknown as { targets: Set<{ id: string }> }).targets = new Set();
  return scene;
}

/** A dnd5e-shaped actor (senses in feet, passive Perception) with a rollSkill that rolls 1d20 + mod with Foundry's Roll. */
export function dnd5eActor(
  world: FakeWorld,
  data: { id: string; name: string; darkvision?: number; passive?: number; stealthMod?: number; owner?: string },
): FakeActor {
  const actor = world.addActor(
    {
      _id: data.id,
      name: data.name,
      system: {
        abilities: { dex: { value: 14, mod: 2 } },
        skills: { prc: { passive: data.passive ?? 10 }, ste: { total: data.stealthMod ?? 0 } },
        attributes: { senses: { darkvision: data.darkvision ?? 0, units: "ft" }, movement: { walk: 30, units: "ft" }, hp: { value: 10, max: 10 } },
      },
    },
    data.owner ? { [data.owner]: 3 } : {},
  );
  const calls: unknown[] = [];
  (actor as unknown as { skillCalls: unknown[] }).skillCalls = calls;
  actor.rollSkill = async function (config: { skill: string }, dialog: unknown, message: unknown) {
    calls.push({ config, dialog, message });
    const mod = (actor.system.skills as Record<string, { total?: number }>)[config.skill]?.total ?? 0;
    const roll = new (globalThis as unknown as { Roll: new (f: string) => { evaluate(): Promise<unknown>; toMessage(d: object): Promise<unknown> } }).Roll(
      `1d20 + ${mod}`,
    );
    await roll.evaluate();
    await roll.toMessage({ flavor: "Stealth" });
    return [roll];
  };
  return actor;
}

declare module "./foundry.js" {
  interface FakeActor {
    rollSkill?: (config: { skill: string }, dialog: unknown, message: unknown) => Promise<unknown>;
  }
}
