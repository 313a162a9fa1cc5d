/**
 * Combat for the fake: a viewed scene with token documents that have a disposition, Combat and Combatant
 * documents, `game.combats` / `game.combat`, `canvas.tokens.controlled`, `ui.combat`. Builds on FakeWorld
 * and is strict like it: an unknown combatant, token or update key throws; only a GM creates, updates or
 * deletes a combat; a user updating a combatant they do not own throws. Core runs the turn events
 * (`_onStartRound`) on the active GM only; the fake runs them on EVERY connected GM client, so the glue
 * must guard itself (this is how "nothing rolled twice with two GMs connected" is proven).
 */
import { vi } from "vitest";
import { FakeCollection, installFoundry, setPath, strict, type FakeActor, type FakeUser, type FakeWorld, type WorldOptions } from "./foundry.js";

export class FakeTokenDoc {
  hidden = false;
  constructor(
    private readonly world: FakeWorld,
    readonly id: string,
    readonly name: string,
    public disposition: number,
    readonly actor: FakeActor | null,
  ) {}
  /** A placeable's document (canvas.tokens.controlled holds placeables). */
  get document(): this {
    return this;
  }
  testUserPermission(user: FakeUser, level: "OWNER"): boolean {
    return this.actor ? this.actor.testUserPermission(user, level) : user.isGM;
  }
}

export class FakeCombatScene {
  readonly tokens: FakeCollection<FakeTokenDoc>;
  constructor(readonly id: string) {
    this.tokens = new FakeCollection<FakeTokenDoc>("Token");
  }
}

export interface EmbeddedCall {
  user: string;
  updates: Record<string, unknown>[];
  options: Record<string, unknown>;
}

const COMBATANT_KEYS = new Set(["_id", "initiative", "hidden", "defeated"]);

export class FakeCombatant {
  initiative: number | null;
  hidden: boolean;
  defeated = false;
  readonly flags: Record<string, Record<string, unknown>>;
  readonly id: string;
  readonly tokenId: string;
  constructor(
    private readonly world: FakeWorld,
    readonly parent: FakeCombatBase,
    private readonly scene: FakeCombatScene,
    data: { _id: string; tokenId: string; hidden?: boolean; initiative?: number | null; flags?: Record<string, Record<string, unknown>> },
  ) {
    this.id = data._id;
    this.tokenId = data.tokenId;
    this.hidden = data.hidden ?? false;
    this.initiative = data.initiative ?? null;
    this.flags = structuredClone(data.flags ?? {});
    scene.tokens.getStrict(this.tokenId);
  }
  get token(): FakeTokenDoc {
    return this.scene.tokens.getStrict(this.tokenId);
  }
  get actor(): FakeActor | null {
    return this.token.actor;
  }
  get name(): string {
    return this.token.name;
  }
  get isOwner(): boolean {
    return this.testUserPermission(this.world.game.user, "OWNER");
  }
  testUserPermission(user: FakeUser, level: "OWNER"): boolean {
    return user.isGM || (this.actor?.testUserPermission(user, level) ?? false);
  }
  getFlag(scope: string, key: string): unknown {
    if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
    const v = this.flags[scope]?.[key];
    return v === undefined ? undefined : structuredClone(v);
  }
  async update(data: Record<string, unknown>): Promise<this> {
    await this.parent.updateEmbeddedDocuments("Combatant", [{ _id: this.id, ...data }]);
    return this;
  }
}

let nextId = 1;

export class FakeCombatBase {
  static world: FakeWorld;
  static scene: FakeCombatScene;
  /** Every Combatant update call, in order (to count them and check their options). */
  static embeddedCalls: EmbeddedCall[] = [];

  static async create(data: { scene?: string; active?: boolean; flags?: Record<string, Record<string, unknown>> }) {
    const world = FakeCombatBase.world;
    if (!world.game.user.isGM) throw new Error("Only a GM creates a combat");
    if (data.scene !== FakeCombatBase.scene.id) throw new Error(`Scene ${String(data.scene)} does not exist`);
    const combat = new this(world, FakeCombatBase.scene, `combat${nextId++}`, data.flags ?? {});
    combats.add(combat);
    activeCombat = combat;
    await world.callAllClients("createCombat", combat, {}, world.game.user.id);
    return combat;
  }

  round = 0;
  turn: number | null = null;
  turns: FakeCombatant[] = [];
  readonly combatants = new FakeCollection<FakeCombatant>("Combatant");
  readonly flags: Record<string, Record<string, unknown>>;
  readonly updatesLog: { data: Record<string, unknown>; options: Record<string, unknown> }[] = [];
  /** Combatants whose turn started, per round ("round:name"). */
  readonly turnLog: string[] = [];
  deleted = false;

  constructor(
    private readonly world: FakeWorld,
    private readonly scene: FakeCombatScene,
    readonly id: string,
    flags: Record<string, Record<string, unknown>>,
  ) {
    this.flags = structuredClone(flags);
  }

  get started(): boolean {
    return this.turns.length > 0 && this.round > 0;
  }
  get combatant(): FakeCombatant | null {
    return this.turn === null ? null : (this.turns[this.turn] ?? null);
  }
  getFlag(scope: string, key: string): unknown {
    if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
    const v = this.flags[scope]?.[key];
    return v === undefined ? undefined : structuredClone(v);
  }

  /** Core's default order: initiative descending (none last), then name, then id. Called unbound, like core. */
  _sortCombatants(a: FakeCombatant, b: FakeCombatant): number {
    const ia = typeof a.initiative === "number" ? a.initiative : -Infinity;
    const ib = typeof b.initiative === "number" ? b.initiative : -Infinity;
    if (ia !== ib) return ib - ia;
    return a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  }

  /**
   * Sorts the turns (unbound comparator) and clamps the turn index, as core does: the index stays, so the
   * current combatant may change when the order changes. Core keeps the current combatant only through
   * its turn events (`keepCurrent`), which `turnEvents: false` skips.
   */
  setupTurns(): FakeCombatant[] {
    const sort = this._sortCombatants;
    this.turns = this.combatants.contents.sort((a, b) => sort.call(undefined, a, b));
    if (this.turn !== null && this.turns.length) this.turn = Math.min(Math.max(this.turn, 0), this.turns.length - 1);
    return this.turns;
  }

  /** Core's turn events after a combatant change: the active GM moves the turn back to the combatant who had it. */
  private async keepCurrent(current: FakeCombatant | null, options: Record<string, unknown>): Promise<void> {
    if (options.turnEvents === false || !current || !this.started || !this.combatants.get(current.id)) return;
    const idx = this.turns.indexOf(current);
    const gm = this.world.game.users.activeGM;
    if (idx < 0 || idx === this.turn || !gm) return;
    await this.world.asUser(gm.id, () => this.update({ turn: idx }, { turnEvents: false }));
  }
  debounceSetup(): void {
    this.setupTurns();
  }

  async createEmbeddedDocuments(type: string, data: Record<string, unknown>[]): Promise<FakeCombatant[]> {
    if (type !== "Combatant") throw new Error(`Fake combat: cannot create ${type}`);
    if (!this.world.game.user.isGM) throw new Error("Only a GM adds combatants in the fake");
    const made: FakeCombatant[] = [];
    for (const d of data) {
      if (d.sceneId !== undefined && d.sceneId !== this.scene.id) throw new Error(`Scene ${String(d.sceneId)} does not exist`);
      const c = new FakeCombatant(this.world, this, this.scene, {
        _id: `cbt${nextId++}`,
        tokenId: String(d.tokenId),
        hidden: d.hidden as boolean | undefined,
        flags: d.flags as Record<string, Record<string, unknown>> | undefined,
      });
      if (d.actorId !== undefined && d.actorId !== (c.actor?.id ?? null)) throw new Error("actorId does not match the token");
      this.combatants.add(c);
      made.push(c);
    }
    const current = this.combatant;
    this.setupTurns();
    await this.keepCurrent(current, {});
    for (const c of made) await this.world.callAllClients("createCombatant", c, {}, this.world.game.user.id);
    return made;
  }

  async updateEmbeddedDocuments(type: string, updates: Record<string, unknown>[], options: Record<string, unknown> = {}) {
    if (type !== "Combatant") throw new Error(`Fake combat: cannot update ${type}`);
    const user = this.world.game.user;
    FakeCombatBase.embeddedCalls.push({ user: user.id, updates: structuredClone(updates), options: { ...options } });
    const changed: [FakeCombatant, Record<string, unknown>][] = [];
    for (const u of updates) {
      const c = this.combatants.getStrict(String(u._id));
      if (!c.testUserPermission(user, "OWNER")) throw new Error(`User ${user.id} cannot update combatant ${c.id}`);
      for (const k of Object.keys(u)) {
        if (!COMBATANT_KEYS.has(k) && !k.startsWith("flags.aventure.")) throw new Error(`Fake combatant: cannot update ${k}`);
      }
      changed.push([c, u]);
    }
    const current = this.combatant;
    for (const [c, u] of changed) {
      for (const [k, v] of Object.entries(u)) {
        if (k === "_id") continue;
        if (k === "initiative") {
          if (v !== null && (typeof v !== "number" || !Number.isFinite(v))) throw new Error(`Bad initiative ${String(v)}`);
          c.initiative = v as number | null;
        } else if (k === "hidden" || k === "defeated") (c as unknown as Record<string, unknown>)[k] = v;
        else setPath(c.flags as Record<string, unknown>, k.slice(6), structuredClone(v));
      }
    }
    this.setupTurns();
    await this.keepCurrent(current, options);
    for (const [c, u] of changed) {
      const changes: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(u)) setPath(changes, k, v);
      await this.world.callAllClients("updateCombatant", c, changes, options, user.id);
    }
    return changed.map(([c]) => c);
  }

  async update(data: Record<string, unknown>, options: Record<string, unknown> = {}): Promise<this> {
    const user = this.world.game.user;
    if (!user.isGM) throw new Error(`User ${user.id} cannot update combat ${this.id} in the fake`);
    if (this.deleted) throw new Error(`Combat ${this.id} was deleted`);
    this.updatesLog.push({ data: structuredClone(data), options: { ...options } });
    const prev = { round: this.round, turn: this.turn };
    for (const [k, v] of Object.entries(data)) {
      if (k === "round" || k === "turn") {
        if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new Error(`Bad ${k} ${String(v)}`);
        this[k] = v;
      } else if (k.startsWith("flags.aventure.")) setPath(this.flags as Record<string, unknown>, k.slice(6), structuredClone(v));
      else throw new Error(`Fake combat: cannot update ${k}`);
    }
    if (this.turn !== null && this.turns.length && this.turn >= this.turns.length) throw new Error(`Turn ${this.turn} out of range`);
    await this.world.callAllClients("updateCombat", this, data, options, user.id);
    if ((prev.round !== this.round || prev.turn !== this.turn) && options.turnEvents !== false) {
      // Stricter than core: every connected GM client runs the turn events.
      for (const gm of this.world.users.filter((u) => u.isGM && u.active)) {
        await this.world.asUser(gm.id, async () => {
          if (prev.round !== this.round && this.round > prev.round) await this._onStartRound({ round: this.round, turn: this.turn ?? 0, skipped: false });
        });
      }
      if (this.combatant) this.turnLog.push(`${this.round}:${this.combatant.name}`);
    }
    return this;
  }

  async _onStartRound(_context: { round: number; turn: number; skipped: boolean }): Promise<void> {}

  async startCombat(): Promise<this> {
    this.setupTurns();
    this.world.hooks.callAll("combatStart", this, { round: 1, turn: 0 });
    return this.update({ round: 1, turn: 0 });
  }
  async nextRound(): Promise<this> {
    return this.update({ round: this.round + 1, turn: 0 }, { direction: 1 });
  }
  async nextTurn(): Promise<this> {
    const next = (this.turn ?? -1) + 1;
    if (next >= this.turns.length) return this.nextRound();
    return this.update({ turn: next }, { direction: 1 });
  }
  /** Core's individual initiative (1d20 each): the module must not reach it in side or Polaris mode. */
  async rollInitiative(ids: string | string[]): Promise<this> {
    const list = typeof ids === "string" ? [ids] : ids;
    const updates: Record<string, unknown>[] = [];
    for (const id of list) {
      const roll = new (globalThis as unknown as { Roll: new (f: string) => { evaluate(): Promise<{ total: number }> } }).Roll("1d20");
      updates.push({ _id: id, initiative: (await roll.evaluate()).total });
    }
    await this.updateEmbeddedDocuments("Combatant", updates);
    return this;
  }
  async rollAll(): Promise<this> {
    const ids = this.combatants.filter((c) => c.isOwner && c.initiative === null).map((c) => c.id);
    return this.rollInitiative(ids);
  }
  async delete(): Promise<this> {
    if (!this.world.game.user.isGM) throw new Error("Only a GM deletes a combat");
    this.deleted = true;
    combats.map.delete(this.id);
    if (activeCombat === this) activeCombat = null;
    await this.world.callAllClients("deleteCombat", this, {}, this.world.game.user.id);
    return this;
  }
}

let combats = new FakeCollection<FakeCombatBase>("Combat");
let activeCombat: FakeCombatBase | null = null;

export interface CombatWorld {
  world: FakeWorld;
  scene: FakeCombatScene;
  /** The tokens the user has selected on the canvas. */
  controlled: FakeTokenDoc[];
  addToken(data: { id: string; name: string; disposition: number; actor?: FakeActor | null }): FakeTokenDoc;
  /** The class the module put in CONFIG.Combat.documentClass. */
  combatClass(): typeof FakeCombatBase;
  combat(): FakeCombatBase | null;
  trackerRenders: number;
  /**
   * foundry.applications.api.DialogV2.prompt: each call takes the next answer — the value picked in the
   * dialog's select `name` (it must be one of the rendered options) or null (closed) — and records the call.
   * No answer queued throws.
   */
  prompts: { answers: ({ name: string; value: string } | null)[]; calls: { title: unknown; content: string }[] };
}

/** A strict stand-in for DialogV2.prompt({window, content, ok: {callback(event, button)}, rejectClose}). */
function fakePrompt(cw: CombatWorld) {
  return async (o: { window?: { title?: unknown }; content?: string; rejectClose?: boolean; ok?: { callback?: (e: Event, b: unknown) => unknown } }) => {
    const content = String(o.content ?? "");
    cw.prompts.calls.push({ title: o.window?.title, content });
    if (!cw.prompts.answers.length) throw new Error("Fake DialogV2.prompt: no answer queued");
    const answer = cw.prompts.answers.shift()!;
    if (answer === null) {
      if (o.rejectClose !== false) throw new Error("Dialog was closed");
      return null;
    }
    const select = new RegExp(`<select[^>]*name="${answer.name}"[^>]*>([\\s\\S]*?)</select>`).exec(content);
    if (!select) throw new Error(`Fake DialogV2.prompt: no select named ${answer.name}`);
    if (!select[1]!.includes(`value="${answer.value}"`)) throw new Error(`Fake DialogV2.prompt: ${answer.value} is not offered`);
    const field = { value: answer.value };
    const button = { form: { elements: { namedItem: (n: string) => (n === answer.name ? field : null) } } };
    return o.ok?.callback ? o.ok.callback({} as Event, button) : "ok";
  };
}

/** Adds scene, tokens and combat to a freshly installed world (before the module's init). */
export function installCombat(world: FakeWorld): CombatWorld {
  const scene = new FakeCombatScene("scene1");
  combats = new FakeCollection<FakeCombatBase>("Combat");
  activeCombat = null;
  FakeCombatBase.world = world;
  FakeCombatBase.scene = scene;
  FakeCombatBase.embeddedCalls = [];
  const controlled: FakeTokenDoc[] = [];
  const cw: CombatWorld = {
    world,
    scene,
    controlled,
    trackerRenders: 0,
    prompts: { answers: [], calls: [] },
    addToken: (d) => scene.tokens.add(new FakeTokenDoc(world, d.id, d.name, d.disposition, d.actor ?? null)),
    combatClass: () => (world.CONFIG as unknown as { Combat: { documentClass: typeof FakeCombatBase } }).Combat.documentClass,
    combat: () => activeCombat,
  };
  (world.CONFIG as unknown as Record<string, unknown>).Combat = { documentClass: FakeCombatBase };
  const api = (globalThis as unknown as { foundry: { applications: { api: Record<string, unknown> } } }).foundry.applications.api;
  api.DialogV2 = { prompt: fakePrompt(cw) };
  const game = world.game as unknown as Record<string, unknown>;
  Object.defineProperty(game, "combats", { value: combats, configurable: true, writable: true });
  Object.defineProperty(game, "combat", { get: () => activeCombat, configurable: true });
  const g = globalThis as Record<string, unknown>;
  // No lighting is modelled here (`effects: null`: other features treat the canvas as not drawn).
  g.canvas = strict({ scene, effects: null, tokens: strict({ controlled }, "canvas.tokens") }, "canvas");
  const notifications = (g.ui as { notifications: unknown }).notifications;
  g.ui = strict({ notifications, combat: { render: () => cw.trackerRenders++ } }, "ui");
  return cw;
}

/** Like bootModule, with the combat fake installed before `init` (the module wraps CONFIG.Combat.documentClass there). */
export async function bootWithCombat(
  opts: WorldOptions = {},
  /** Loads the module: the sources by default; the dist smoke test loads the built bundle. */
  load: () => Promise<unknown> = () => import("../../src/module.js"),
): Promise<CombatWorld> {
  const world = installFoundry(opts);
  const cw = installCombat(world);
  vi.resetModules();
  await load();
  world.hooks.callAll("init");
  world.hooks.callAll("i18nInit");
  world.hooks.callAll("setup");
  world.hooks.callAll("ready");
  return cw;
}
