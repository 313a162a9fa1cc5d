/**
 * The canvas side of the fake: scenes with a grid, token documents, core's movement actions (cost
 * functions as core defines them: crawl, climb and jump ×2, swim ×1, all multiplied by the terrain), a
 * stand-in TokenRuler, region behaviour types, the active combat, DialogV2. Installed by installFoundry.
 * Strict like the rest: unknown ids throw, a user moving or stopping a token they do not own throws.
 */
import type { FakeActor, FakeUser, FakeWorld } from "./foundry.js";

export interface FakeGrid {
  units: string;
  distance: number;
}

type CostFunction = (baseCost: number, from: unknown, to: unknown, distance: number, segment: unknown) => number;
interface ActionConfig {
  label: string;
  teleport?: boolean;
  getCostFunction: (token: unknown, options?: unknown) => CostFunction;
}

/** Core's v13 movement actions as NOTES.md describes them (the module replaces some cost functions). */
function coreActions(): Record<string, ActionConfig> {
  const times = (k: number) => () => (baseCost: number) => baseCost * k;
  return {
    walk: { label: "TOKEN.MOVEMENT.ACTIONS.walk.label", getCostFunction: times(1) },
    fly: { label: "TOKEN.MOVEMENT.ACTIONS.fly.label", getCostFunction: times(1) },
    swim: { label: "TOKEN.MOVEMENT.ACTIONS.swim.label", getCostFunction: times(1) },
    burrow: { label: "TOKEN.MOVEMENT.ACTIONS.burrow.label", getCostFunction: times(1) },
    crawl: { label: "TOKEN.MOVEMENT.ACTIONS.crawl.label", getCostFunction: times(2) },
    climb: { label: "TOKEN.MOVEMENT.ACTIONS.climb.label", getCostFunction: times(2) },
    jump: { label: "TOKEN.MOVEMENT.ACTIONS.jump.label", getCostFunction: times(2) },
    blink: { label: "TOKEN.MOVEMENT.ACTIONS.blink.label", teleport: true, getCostFunction: () => () => 0 },
    displace: { label: "TOKEN.MOVEMENT.ACTIONS.displace.label", teleport: true, getCostFunction: () => () => 0 },
  };
}

export class FakeScene {
  readonly tokens = new Map<string, FakeToken>();
  constructor(
    readonly id: string,
    readonly grid: FakeGrid,
  ) {}
  get uuid(): string {
    return `Scene.${this.id}`;
  }
}

export class FakeToken {
  readonly documentName = "Token";
  movementAction = "walk";
  elevation = 0;
  stopped = 0;
  /** Ownership of the token itself when it has no actor. */
  ownership: Record<string, number> = {};
  constructor(
    private readonly world: FakeWorld,
    readonly id: string,
    readonly name: string,
    readonly actor: FakeActor | null,
    readonly parent: FakeScene,
  ) {}
  get uuid(): string {
    return `Scene.${this.parent.id}.Token.${this.id}`;
  }
  testUserPermission(user: FakeUser, level: "OWNER"): boolean {
    if (this.actor) return this.actor.testUserPermission(user, level);
    return user.isGM || (this.ownership[user.id] ?? this.ownership.default ?? 0) >= 3;
  }
  get isOwner(): boolean {
    return this.testUserPermission(this.world.game.user, "OWNER");
  }
  /** TokenDocument#stopMovement: only the user moving it stops it in practice; owners only here. */
  stopMovement(): void {
    if (!this.isOwner) throw new Error(`User ${this.world.game.user.id} cannot stop token ${this.id}`);
    this.stopped++;
  }
}

/** A minimal stand-in for core's TokenRuler: the label context core would build (cost in grid units). */
export class FakeTokenRuler {
  static WAYPOINT_LABEL_TEMPLATE = "templates/hud/waypoint-label.hbs";
  constructor(readonly token: { document: FakeToken; actor: FakeActor | null }) {}
  _getWaypointLabelContext(waypoint: FakeWaypoint, _state: object): Record<string, unknown> | undefined {
    if (!waypoint.previous) return undefined;
    // Like core: from the second segment on, the segment's delta in grid units ("+10").
    const delta = waypoint.previous.previous && waypoint.measurement.backward ? { delta: `+${waypoint.measurement.backward.cost}` } : {};
    return {
      action: { label: waypoint.action },
      cssClass: "",
      distance: { total: String(waypoint.measurement.distance) },
      cost: { total: String(waypoint.measurement.cost), units: this.token.document.parent.grid.units, ...delta },
    };
  }
}

export interface FakeWaypoint {
  action: string;
  previous: FakeWaypoint | null;
  measurement: { distance: number; cost: number; backward: { distance: number; cost: number } | null };
}

/** Builds ruler waypoints for a path of segments [action, distance, terrain multiplier], measured like core. */
export function rulerPath(token: FakeToken, segments: [string, number, number][]): FakeWaypoint[] {
  const actions = (globalThis as unknown as { CONFIG: { Token: { movement: { actions: Record<string, ActionConfig> } } } }).CONFIG.Token
    .movement.actions;
  const first: FakeWaypoint = { action: token.movementAction, previous: null, measurement: { distance: 0, cost: 0, backward: null } };
  const out = [first];
  let distance = 0;
  let cost = 0;
  // Like core: one cost function per action and measurement, then one call per segment.
  const costFns = new Map<string, CostFunction>();
  for (const [action, d, terrain] of segments) {
    let fn = costFns.get(action);
    if (!fn) {
      const config = actions[action];
      if (!config) throw new Error(`Unknown movement action ${action}`);
      fn = config.getCostFunction(token, {});
      costFns.set(action, fn);
    }
    const c = fn(d * terrain, {}, {}, d, {});
    distance += d;
    cost += c;
    out.push({ action, previous: out.at(-1)!, measurement: { distance, cost, backward: { distance: d, cost: c } } });
  }
  return out;
}

class FakeNumberField {
  constructor(readonly options: Record<string, unknown>) {}
}

/** foundry.data.regionBehaviors.RegionBehaviorType: a data model holding its schema's values. */
export class FakeRegionBehaviorType {
  static LOCALIZATION_PREFIXES: string[] = [];
  static events: Record<string, (this: FakeRegionBehaviorType, event: unknown) => unknown> = {};
  static defineSchema(): Record<string, FakeNumberField> {
    return {};
  }
  constructor(data: Record<string, unknown>) {
    const schema = (this.constructor as typeof FakeRegionBehaviorType).defineSchema();
    for (const [k, field] of Object.entries(schema)) {
      (this as unknown as Record<string, unknown>)[k] = data[k] ?? field.options.initial;
    }
  }
}

/** The actor of an unlinked token (Actor#isToken, Actor#token). */
export type FakeSyntheticActor = FakeActor & { readonly isToken: true; token: FakeToken | null };

export interface FakeCombat {
  started: boolean;
  combatant: { tokenId: string; sceneId: string } | null;
}

/** Dialog answers the test queues (true = confirm); an unexpected dialog throws. */
export const dialogAnswers: boolean[] = [];
export const dialogsShown: string[] = [];

export class FakeCanvasWorld {
  readonly scenes = new Map<string, FakeScene>();
  constructor(private readonly world: FakeWorld) {}

  /** Sets `game.combat` (a plain data property: other fakes may model combat more fully). */
  setCombat(combat: FakeCombat | null): void {
    (this.world.game as unknown as { combat: FakeCombat | null }).combat = combat;
  }

  addScene(id: string, grid: FakeGrid = { units: "m", distance: 1.5 }): FakeScene {
    const s = new FakeScene(id, grid);
    this.scenes.set(id, s);
    return s;
  }
  /**
   * An unlinked token: its actor is a synthetic copy of `base` (same id, same ownership, not in game.actors)
   * with `isToken` and `token` set, as Foundry gives an unlinked token's actor.
   */
  addUnlinkedToken(scene: FakeScene, base: FakeActor, data: { id: string; name: string }): { token: FakeToken; actor: FakeSyntheticActor } {
    // The class comes from `base` (foundry.ts imports this file: no value import back).
    const ActorClass = base.constructor as new (world: FakeWorld, data: object) => FakeActor;
    const actor = Object.assign(new ActorClass(this.world, { _id: base.id, name: base.name, type: base.type, system: base.system }), {
      isToken: true as const,
      token: null as FakeToken | null,
    });
    actor.ownership = { ...base.ownership };
    const token = this.addToken(scene, { ...data, actor });
    actor.token = token;
    return { token, actor };
  }
  addToken(scene: FakeScene, data: { id: string; name: string; actor?: FakeActor | null; elevation?: number }): FakeToken {
    const t = new FakeToken(this.world, data.id, data.name, data.actor ?? null, scene);
    t.elevation = data.elevation ?? 0;
    scene.tokens.set(t.id, t);
    return t;
  }
}

let current: FakeCanvasWorld | null = null;

/** The canvas model of the world installed last. */
export function fakeCanvas(): FakeCanvasWorld {
  if (!current) throw new Error("Fake canvas not installed");
  return current;
}

/** Adds the canvas model to a freshly installed world (called by installFoundry). */
export function installCanvas(world: FakeWorld): FakeCanvasWorld {
  const canvasWorld = new FakeCanvasWorld(world);
  current = canvasWorld;
  const config = world.CONFIG as unknown as Record<string, unknown>;
  config.Token = { movement: { actions: coreActions() }, rulerClass: FakeTokenRuler };
  config.RegionBehavior = { dataModels: {}, typeIcons: {} };
  config.specialStatusEffects = world.systemId === "dnd5e" ? { FLY: "flying", HOVER: "hovering" } : { FLY: "fly", HOVER: "hover" };
  const game = world.game as unknown as Record<string, unknown>;
  game.scenes = {
    get: (id: string) => canvasWorld.scenes.get(id),
  };
  game.combat = null;
  const foundry = (globalThis as unknown as { foundry: Record<string, Record<string, unknown>> }).foundry;
  foundry.data = {
    regionBehaviors: { RegionBehaviorType: FakeRegionBehaviorType },
    fields: { NumberField: FakeNumberField },
  };
  foundry.canvas = { placeables: { tokens: { TokenRuler: FakeTokenRuler } } };
  const api = foundry.applications!.api as Record<string, unknown>;
  api.DialogV2 = {
    async confirm(options: { content?: string; window?: { title?: string } }) {
      dialogsShown.push(options.content ?? "");
      const a = dialogAnswers.shift();
      if (a === undefined) throw new Error("Fake DialogV2: no queued answer");
      return a;
    },
  };
  dialogAnswers.length = 0;
  dialogsShown.length = 0;
  return canvasWorld;
}

/**
 * Fires a hook on every connected client and waits for each client's (async) handlers to finish before the
 * next client runs: each real client is its own process, so an async handler must not continue as another
 * user (Hooks.callAll does not wait for promises).
 */
export async function callAllClientsAwait(world: FakeWorld, name: string, ...args: unknown[]): Promise<void> {
  for (const u of world.users.filter((x) => x.active)) {
    await world.asUser(u.id, async () => {
      for (const h of [...(world.hooks.handlers.get(name) ?? [])]) await h.fn(...args);
    });
  }
}
