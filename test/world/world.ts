/**
 * A fake Foundry world with real clients: one "server" (the documents, settings and world time) and one client per
 * connected user, each with its OWN module instance, Hooks, CONFIG, game, ui and canvas — as in Foundry, where every
 * browser runs its own copy of the module. The globals (`game`, `CONFIG`, `Hooks`, `ui`, `canvas`, `Handlebars`) are
 * getters that resolve to the client whose code is running: the current client is carried through every `await` by
 * Node's AsyncLocalStorage, so two clicks running at once on two clients each keep their own `game.user`.
 *
 * What it models, with its sources:
 * - Lifecycle per client: the system's handlers are registered before the module's, then init → i18nInit → setup →
 *   ready (https://foundryvtt.com/api/v13/functions/hookEvents.init.html and the i18nInit/setup/ready pages;
 *   NOTES.md "Lifecycle order with a system"). systems.ts holds the system profiles (dnd5e rebuilds
 *   CONFIG.statusEffects in its i18nInit handler: foundryvtt/dnd5e dnd5e.mjs, 5.3.3).
 * - Every write: a permission check as the calling client's user (Document#canUserModify), the pre-hook on the
 *   initiating client only (hookEvents.preCreateDocument/preUpdateDocument/preDeleteDocument: "only fires for the
 *   client who is initiating the request"; returning false cancels), an asynchronous round trip to the server (so
 *   two clients interleave), the change applied once, then the document hook on EVERY connected client with the
 *   operation's options and the server's `userId` (hookEvents.createDocument/updateDocument/deleteDocument: "fires
 *   for all connected clients"; `options`: the DatabaseCreateOperation/…/DatabaseDeleteOperation, "additional options
 *   which modified the request"; `userId`: "the ID of the User who triggered the workflow"). An update that changes nothing is not sent.
 * - Hooks.callAll / Hooks.call: handlers run in registration order; an error is reported and the next handler runs;
 *   a handler's returned promise is not awaited (https://foundryvtt.com/api/v13/classes/foundry.helpers.Hooks.html).
 *   The fake keeps those promises so that `settle()` waits for them and reports their errors.
 * - CONFIG.queries: a handler receives only (data, {timeout}) (documents.ts FakeUser#query).
 * - Faults: the k-th write can be refused by the server (an error) or the client can crash before it (nothing after
 *   that point runs on that client; its user disconnects); `reload()` reconnects it with a fresh module instance.
 * - Timing: a write can be held open (`holdWrite`): it has left its client, and the server applies it only when the
 *   test releases it, while other clients go on (connect, disconnect, reload, write). A slow network or a busy server
 *   does that in real play: every Document operation is an asynchronous round trip to the server
 *   (https://foundryvtt.com/api/v13/classes/foundry.abstract.DatabaseBackend.html), and other users' events arrive
 *   meanwhile. A client that disconnected while its write was held loses it (its socket is gone).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { vi } from "vitest";
import { Window } from "happy-dom";
import { FakeI18n, type Lang } from "../fake/i18n.js";
import { makeHandlebars } from "../fake/handlebars.js";
import { clone, diffMerge, expandObject, ForcedDeletion, isPlainObject, jsonClone, type Plain } from "./data.js";
import {
  cleanSystemUpdate,
  modelSystemUpdate,
  FakeBooleanField,
  FakeDataField,
  FakeNumberField,
  FakeStringField,
  FakeDataModel,
  FakeTypeDataModel,
} from "./models.js";
import { modulePacks } from "./packs.js";
import {
  FakeActiveEffect,
  FakeActor,
  FakeAmbientLight,
  FakeChatMessage,
  FakeCollection,
  FakeDocument,
  FakeDrawing,
  FakeRegion,
  FakeRegionBehavior,
  FakeScene,
  FakeToken,
  FakeUser,
  FakeWall,
  FakeLevel,
  type ActorData,
  type DocumentData,
  type MessageData,
  type SceneData,
  type TokenData,
} from "./documents.js";

// ------------------------------------------------------------------------------------------------ hooks

type HookFn = (...args: unknown[]) => unknown;

/** One client's Hooks (foundry.helpers.Hooks): on, once, off, call, callAll. */
export class FakeHooks {
  readonly handlers = new Map<string, { fn: HookFn; once: boolean; id: number }[]>();
  private next = 1;
  constructor(private readonly client: FakeClient) {}
  on(name: string, fn: HookFn): number {
    if (typeof fn !== "function") throw new Error(`Hooks.on("${name}"): not a function`);
    const id = this.next++;
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), { fn, once: false, id }]);
    return id;
  }
  once(name: string, fn: HookFn): number {
    if (typeof fn !== "function") throw new Error(`Hooks.once("${name}"): not a function`);
    const id = this.next++;
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), { fn, once: true, id }]);
    return id;
  }
  off(name: string, fnOrId: number | HookFn): void {
    this.handlers.set(
      name,
      (this.handlers.get(name) ?? []).filter((h) => (typeof fnOrId === "number" ? h.id !== fnOrId : h.fn !== fnOrId)),
    );
  }
  private run(name: string, h: { fn: HookFn; once: boolean; id: number }, args: unknown[]): unknown {
    if (h.once) this.off(name, h.id);
    try {
      const out = h.fn(...args);
      if (out && typeof (out as Promise<unknown>).then === "function")
        this.client.world.track(out as Promise<unknown>, `${name} handler`);
      return out;
    } catch (e) {
      this.client.world.reportHookError(name, e);
      return undefined;
    }
  }
  callAll(name: string, ...args: unknown[]): true {
    for (const h of [...(this.handlers.get(name) ?? [])]) this.run(name, h, args);
    return true;
  }
  call(name: string, ...args: unknown[]): boolean {
    for (const h of [...(this.handlers.get(name) ?? [])]) if (this.run(name, h, args) === false) return false;
    return true;
  }
  registered(): string[] {
    return [...this.handlers.keys()].filter((k) => (this.handlers.get(k) ?? []).length > 0).sort();
  }
}

/** A client that crashed (reload, closed tab) runs nothing more. */
export class ClientCrashed extends Error {
  constructor(user: string) {
    super(`Fake world: the client of ${user} crashed`);
    this.name = "ClientCrashed";
  }
}

/** A write the fake server refuses because a test asked it to (`failWrite`): the module sees an ordinary Error. */
export class InjectedFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InjectedFailure";
  }
}

// ------------------------------------------------------------------------------------------------ users

export class FakeUsers extends FakeCollection<FakeUser> {
  /**
   * Users#activeGM: the connected GM with the lowest id (so every client agrees on one).
   * https://foundryvtt.com/api/v13/classes/foundry.documents.collections.Users.html#activegm
   * (unverified detail: how Foundry orders several active GMs; the fake takes the lowest id)
   */
  get activeGM(): FakeUser | null {
    const gms = this.filter((u) => u.isGM && u.active).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return gms[0] ?? null;
  }
  get players(): FakeUser[] {
    return this.filter((u) => !u.isGM);
  }
}

// ------------------------------------------------------------------------------------------------ clients

export interface SettingDef {
  scope: "world" | "client" | "user";
  type: unknown;
  default: unknown;
  choices?: Record<string, string>;
  range?: { min: number; max: number; step?: number };
  onChange?: (value: unknown, options?: unknown, userId?: string) => void;
  config?: boolean;
  name?: string;
  hint?: string;
}

export interface StatusEffectEntry {
  id: string;
  name?: string;
  img?: string;
  _id?: string;
  changes?: unknown;
  system?: unknown;
  [key: string]: unknown;
}

export interface Notification {
  user: string;
  type: "info" | "warn" | "error";
  message: string;
}

/** One connected user's browser: its module instance and its own Foundry globals. */
export class FakeClient {
  readonly hooks: FakeHooks;
  readonly i18n: FakeI18n;
  readonly handlebars: ReturnType<typeof makeHandlebars>;
  readonly settingDefs = new Map<string, SettingDef>();
  readonly clientSettings = new Map<string, unknown>();
  readonly keybindings = new Map<string, Plain>();
  readonly menus = new Map<string, Plain>();
  readonly module: { id: string; active: boolean; api?: unknown } = { id: "aventure", active: true };
  readonly modules = new Map<string, { id: string; active: boolean; api?: unknown }>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  CONFIG: Record<string, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  game: Record<string, any> = {};
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ui: Record<string, any> = {};
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  canvas: Record<string, any> | null = null;
  viewedScene: FakeScene | null = null;
  /** v14: the Level this client views on its scene (the first level when it draws the scene; canvas.ts). */
  viewedLevel: string | null = null;
  readonly placeables = new Map<string, unknown>();
  readonly controlled: string[] = [];
  alive = true;
  setupDone = false;
  /** What the module exported (the module's namespace object), for tests that need it. */
  exports: Record<string, unknown> | null = null;
  constructor(
    readonly world: FakeWorld,
    readonly user: FakeUser,
    lang: Lang,
  ) {
    this.hooks = new FakeHooks(this);
    this.i18n = new FakeI18n(lang);
    this.handlebars = makeHandlebars((k, d) => (d ? this.i18n.format(k, d) : this.i18n.localize(k)), lang);
    this.CONFIG = { queries: {} };
    this.modules.set("aventure", this.module);
  }
  /** CONFIG.statusEffects as a list, whichever shape it has (an array in v13; v14 may key it by id). */
  statusEffectList(): StatusEffectEntry[] {
    const raw = this.CONFIG.statusEffects as unknown;
    if (Array.isArray(raw)) return raw as StatusEffectEntry[];
    if (raw && typeof raw === "object")
      return Object.entries(raw as Record<string, StatusEffectEntry>).map(([id, e]) => ({ ...e, id: e.id ?? id }));
    return [];
  }
  /** The placeable of a token on this client's canvas (made by canvas.ts when the scene is viewed). */
  placeable(token: FakeToken): unknown {
    const p = this.placeables.get(token.id);
    if (!p) throw new Error(`Fake canvas: token ${token.id} has no placeable on ${this.user.id}'s canvas`);
    return p;
  }
  notify(type: Notification["type"], message: unknown): void {
    if (typeof message !== "string") throw new Error(`ui.notifications.${type} needs a string, got ${typeof message}`);
    this.world.notifications.push({ user: this.user.id, type, message });
  }
}

// ------------------------------------------------------------------------------------------------ the world

export interface UserSpec {
  id: string;
  name?: string;
  isGM: boolean;
  active?: boolean;
  lang?: Lang;
}

export interface WriteRecord {
  user: string;
  action: "create" | "update" | "delete" | "time" | "setting";
  documentName: string;
  id: string;
  data: unknown;
  options: Plain;
}

export type Fault = {
  kind: "fail" | "crash";
  at: number;
  seen: number;
  filter?: (w: Omit<WriteRecord, "data">) => boolean;
};

/** A write as a hold's filter sees it when it leaves its client (for an update: the changes it sends). */
export type OutgoingWrite = Omit<WriteRecord, "data"> & { data?: unknown };

/** The function that releases a held write; `reached` tells whether a write matched the hold yet. */
export type Release = (() => void) & { readonly reached: boolean };

export interface SystemProfile {
  id: string;
  version: string;
  /** Sets CONFIG defaults and registers the system's own hooks on a client, before the module is loaded. */
  install(client: FakeClient): void;
  /** What the system's data model and Actor class give a new actor (defaults, methods). */
  prepareActor?(world: FakeWorld, actor: FakeActor): void;
  /** What the system's Actor class alone gives any actor, of a module's sub-type too (its methods). */
  actorMethods?(world: FakeWorld, actor: FakeActor): void;
}

export interface WorldOptions {
  system: SystemProfile;
  users?: UserSpec[];
  lang?: Lang;
  generation?: number;
  /** Loads the module (sources by default; the dist smoke test loads the built bundle). */
  load?: () => Promise<unknown>;
  /** Installs more fakes on each client before the module loads (e.g. combat). */
  extend?: (client: FakeClient) => void;
  /**
   * What the module loads on demand (src/core/on-demand.ts: the windows opened from a feature's api.ts, the GM's
   * executors) arrives in Foundry as a file fetched when first needed. By default the test world loads it with the
   * module, on each client (with that client's module instance: each client is an instance of its own, and an
   * `import()` made later would bind the file to the instance loaded last), so that it resolves at once and `settle()`
   * needs no model of network time; what is tested is that every caller awaits the load, as it must in Foundry.
   * "when used" leaves it to the first use, as in a browser (a test of that path boots the client it drives last, and
   * settles until the load is done).
   */
  onDemand?: "with the module" | "when used";
}

const als = new AsyncLocalStorage<FakeClient>();
let installed: FakeWorld | null = null;

/** The world installed last (for the few fakes reached without a reference). */
export function currentWorld(): FakeWorld {
  if (!installed) throw new Error("No fake world installed");
  return installed;
}

export class FakeWorld {
  readonly users = new FakeUsers("User");
  readonly actors = new FakeCollection<FakeActor>("Actor");
  readonly scenes = new FakeCollection<FakeScene>("Scene");
  readonly messages = new FakeCollection<FakeChatMessage>("ChatMessage");
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly combats = new FakeCollection<any>("Combat");
  readonly settingValues = new Map<string, unknown>();
  readonly userSettingValues = new Map<string, unknown>();
  worldTime = 0;
  readonly clients = new Map<string, FakeClient>();
  readonly notifications: Notification[] = [];
  readonly writes: WriteRecord[] = [];
  /** Deprecated forms the module used (v14: a "-=key" deletion; data.ts names the source), by document and key. */
  readonly deprecations: string[] = [];
  readonly hookErrors: { hook: string; error: unknown }[] = [];
  /** Roll results the test queued (each die takes the next one). */
  readonly rollQueue: number[] = [];
  readonly rollsMade: unknown[] = [];
  readonly window = new Window();
  readonly system: SystemProfile;
  readonly generation: number;
  readonly lang: Lang;
  readonly loader: () => Promise<unknown>;
  readonly extend?: (client: FakeClient) => void;
  readonly onDemand: "with the module" | "when used";
  private readonly pending = new Set<Promise<unknown>>();
  private inflight = 0;
  /** Writes held open by the test (holdWrite), not yet released. */
  private parked = 0;
  private holds: { filter: (w: OutgoingWrite) => boolean; gate: Promise<void>; reached: boolean; taken: boolean }[] =
    [];
  private ids = 0;
  private fault: Fault | null = null;
  /** Answers the test queued for DialogV2 (per user). */
  readonly dialogAnswers = new Map<string, unknown[]>();
  readonly dialogsShown: { user: string; kind: string; title: unknown; content: string }[] = [];

  private constructor(opts: WorldOptions) {
    this.system = opts.system;
    this.generation = opts.generation ?? 13;
    this.lang = opts.lang ?? "en";
    this.loader = opts.load ?? (() => import("../../src/module.js"));
    this.extend = opts.extend;
    this.onDemand = opts.onDemand ?? "with the module";
    for (const u of opts.users ?? [{ id: "gm1", isGM: true }]) {
      const user = new FakeUser(this, { _id: u.id, name: u.name ?? u.id, isGM: u.isGM, active: false });
      (user as unknown as { lang: Lang }).lang = u.lang ?? this.lang;
      this.users.set(user);
    }
  }

  /** Creates the world, installs the globals and connects every active user (system first, then the module). */
  static async boot(opts: WorldOptions & { users?: UserSpec[] }): Promise<FakeWorld> {
    const world = new FakeWorld(opts);
    installed = world;
    world.installGlobals();
    for (const u of opts.users ?? [{ id: "gm1", isGM: true }]) if (u.active !== false) await world.connect(u.id);
    return world;
  }

  // ---------------------------------------------------------------- clients and context

  /** The client whose code is running; outside any client (the test itself), the first connected user's. */
  currentClient(): FakeClient {
    const c = als.getStore();
    if (c) return c;
    const first = [...this.clients.values()][0];
    if (!first) throw new Error("Fake world: no client is connected");
    return first;
  }

  clientOf(userId: string): FakeClient {
    const c = this.clients.get(userId);
    if (!c || !c.alive) throw new Error(`Fake world: ${userId} is not connected`);
    return c;
  }

  /** Runs `fn` as code of `client` (its globals, its game.user), through every await. */
  runOn<T>(client: FakeClient, fn: () => T): T {
    return als.run(client, fn);
  }

  /** Runs `fn` on the client of user `userId` (what that user's browser would do). */
  as<T>(userId: string, fn: () => T): T {
    return this.runOn(this.clientOf(userId), fn);
  }

  /** The module API of a user's client (default: the current client). */
  api<T = Record<string, (...args: never[]) => unknown>>(userId?: string): T {
    const c = userId ? this.clientOf(userId) : this.currentClient();
    if (!c.module.api) throw new Error(`Fake world: the module of ${c.user.id} has no API`);
    return c.module.api as T;
  }

  /** Connects (or reconnects) a user: a fresh client, the system, then the module, then the lifecycle. */
  async connect(userId: string): Promise<FakeClient> {
    const user = this.users.get(userId, { strict: true })!;
    const old = this.clients.get(userId);
    if (old) old.alive = false;
    const client = new FakeClient(this, user, (user as unknown as { lang: Lang }).lang ?? this.lang);
    this.clients.set(userId, client);
    user.active = true;
    await this.runOn(client, async () => {
      buildClientGlobals(this, client);
      this.system.install(client);
      this.extend?.(client);
      vi.resetModules();
      client.exports = (await this.loader()) as Record<string, unknown>;
      // Same module registry as the module just loaded (the next client's connect resets it).
      if (this.onDemand === "with the module") await (await import("../../src/core/on-demand.js")).loadAllOnDemand();
      client.hooks.callAll("init");
      client.hooks.callAll("i18nInit");
      client.hooks.callAll("setup");
      client.setupDone = true;
      client.hooks.callAll("ready");
    });
    for (const other of this.liveClients())
      if (other !== client) this.runOn(other, () => other.hooks.callAll("userConnected", user, true));
    await this.settle();
    return client;
  }

  /** A user closes the tab: the client stops, the other clients see the user leave. */
  async disconnect(userId: string): Promise<void> {
    const c = this.clients.get(userId);
    const user = this.users.get(userId, { strict: true })!;
    if (c) c.alive = false;
    this.clients.delete(userId);
    user.active = false;
    for (const other of this.liveClients()) this.runOn(other, () => other.hooks.callAll("userConnected", user, false));
    await this.settle();
  }

  /** A reload: the client starts again from nothing (module memory lost), the documents stay. */
  async reload(userId: string): Promise<FakeClient> {
    this.fault = null;
    return this.connect(userId);
  }

  liveClients(): FakeClient[] {
    return [...this.clients.values()].filter((c) => c.alive);
  }

  // ---------------------------------------------------------------- async bookkeeping

  /** One network round trip (a macrotask: other clients' work may run meanwhile), after any hold on the write. */
  async roundTrip(holds: readonly Promise<void>[] = []): Promise<void> {
    if (holds.length) {
      this.parked++;
      try {
        await Promise.all(holds);
      } finally {
        this.parked--;
      }
    }
    this.inflight++;
    try {
      await new Promise<void>((r) => setImmediate(r));
    } finally {
      this.inflight--;
    }
  }

  track(p: Promise<unknown>, what: string): void {
    const wrapped = p.then(
      () => undefined,
      (e: unknown) => {
        if (!(e instanceof ClientCrashed)) this.reportHookError(what, e);
      },
    );
    this.pending.add(wrapped);
    void wrapped.finally(() => this.pending.delete(wrapped));
  }

  reportHookError(hook: string, error: unknown): void {
    if (error instanceof ClientCrashed) return;
    this.hookErrors.push({ hook, error });
  }

  /**
   * Waits until no write is in flight and no hook handler's promise is pending — or, while writes are held open
   * (holdWrite), until nothing moves any more (the handlers left wait for a held write). Throws if a handler failed
   * (unless `allowErrors`), so that a bug in a fire-and-forget handler fails the test that caused it.
   */
  async settle(options: { allowErrors?: boolean } = {}): Promise<void> {
    let quiet = 0;
    let seen = { pending: -1, writes: -1 };
    for (let i = 0; i < 10_000; i++) {
      await new Promise<void>((r) => setImmediate(r));
      const stuck = this.parked > 0 && this.pending.size === seen.pending && this.writes.length === seen.writes;
      seen = { pending: this.pending.size, writes: this.writes.length };
      if (this.inflight === 0 && (this.pending.size === 0 || stuck)) {
        if (++quiet >= 3) break;
      } else quiet = 0;
      if (i === 9_999) throw new Error("Fake world: did not settle");
    }
    if (!options.allowErrors && this.hookErrors.length) {
      const errors = this.hookErrors.splice(0);
      throw new Error(
        `Fake world: ${errors.length} hook handler error(s): ${errors.map((e) => `${e.hook}: ${String((e.error as Error)?.stack ?? e.error)}`).join("\n")}`,
      );
    }
  }

  newId(prefix: string): string {
    this.ids += 1;
    return `${prefix.slice(0, 4).toLowerCase().padEnd(4, "x")}${this.ids.toString(36).padStart(12, "0")}`;
  }

  /** Document#getFlag/setFlag scope rule: core, world, the system id or an active module id. */
  assertFlagScope(scope: string): void {
    const client = this.currentClient();
    const ok =
      scope === "core" || scope === "world" || scope === this.system.id || (client.modules.get(scope)?.active ?? false);
    if (!ok) throw new Error(`Flag scope "${scope}" is not valid or not currently active`);
  }

  isStored(doc: FakeDocument): boolean {
    const custom = doc.storedIn();
    if (custom !== null) return custom;
    const home = this.homeOf(doc);
    return !!home && home.get(doc.id) === doc;
  }

  // ---------------------------------------------------------------- faults

  /** The `at`-th write from now (matching `filter`) is refused by the server: it throws and changes nothing. */
  failWrite(at: number, filter?: Fault["filter"]): void {
    this.fault = { kind: "fail", at, seen: 0, filter };
  }

  /** The client making the `at`-th write from now crashes just before it: that write and everything after is lost. */
  crashAt(at: number, filter?: Fault["filter"]): void {
    this.fault = { kind: "crash", at, seen: 0, filter };
  }

  clearFaults(): void {
    this.fault = null;
  }

  /**
   * Holds the next write matching `filter` open: it leaves its client (its pre-hook ran, its permission was checked)
   * but the server applies it only when the returned function is called. Meanwhile the other clients go on: a GM
   * connects (`connect`), leaves (`disconnect`) or reloads (`reload`), others write. `settle()` returns while a held
   * write waits. If its client is gone when it is released, the write is lost (nothing applied).
   */
  holdWrite(filter: (w: OutgoingWrite) => boolean): Release {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const hold = { filter, gate, reached: false, taken: false };
    this.holds.push(hold);
    const release = (() => {
      this.holds = this.holds.filter((h) => h !== hold);
      open();
    }) as Release;
    Object.defineProperty(release, "reached", { get: () => hold.reached });
    return release;
  }

  /** The hold a write leaving its client falls under (each hold takes one write), or null. */
  private holdFor(w: OutgoingWrite): Promise<void> | null {
    const hold = this.holds.find((h) => !h.taken && h.filter(w));
    if (!hold) return null;
    hold.taken = hold.reached = true;
    return hold.gate;
  }

  /** Writes made since `mark` (an index into `writes`). */
  writesSince(mark: number): WriteRecord[] {
    return this.writes.slice(mark);
  }

  /** A write leaves its client: an injected fault, or the hold it falls under (awaited by its round trip). */
  private checkWrite(client: FakeClient, w: OutgoingWrite): Promise<void>[] {
    if (!client.alive) throw new ClientCrashed(client.user.id);
    const f = this.fault;
    const held = (): Promise<void>[] => {
      const h = this.holdFor(w);
      return h ? [h] : [];
    };
    if (!f || (f.filter && !f.filter(w))) return held();
    f.seen++;
    if (f.seen !== f.at) return held();
    this.fault = null;
    if (f.kind === "fail")
      throw new InjectedFailure(
        `Fake server: the ${w.action} of ${w.documentName} ${w.id} was refused (injected failure)`,
      );
    client.alive = false;
    this.clients.delete(client.user.id);
    client.user.active = false;
    // The server notices the lost connection a moment later; events already on their way arrive first.
    this.track(
      new Promise<void>((resolve) =>
        setImmediate(() => {
          for (const other of this.liveClients())
            this.runOn(other, () => other.hooks.callAll("userConnected", client.user, false));
          resolve();
        }),
      ),
      "userConnected",
    );
    throw new ClientCrashed(client.user.id);
  }

  // ---------------------------------------------------------------- the write pipeline

  /** Fires a document hook on every live client, each in its own context. */
  broadcast(name: string, ...args: unknown[]): void {
    const initiator = als.getStore();
    const order = [...this.liveClients()].sort((a, b) => (a === initiator ? -1 : b === initiator ? 1 : 0));
    for (const c of order) {
      // Each client receives its own copy of a document (documents whose class a module overrides, e.g. Combat).
      const mine = args.map((a) => (a instanceof FakeDocument ? a.forClient(c) : a));
      this.runOn(c, () => c.hooks.callAll(name, ...mine));
    }
  }

  homeOf(doc: FakeDocument): FakeCollection<FakeDocument> | null {
    if (doc.parent) return doc.parent.embedded(doc.collectionName);
    const map: Record<string, FakeCollection<FakeDocument>> = {
      User: this.users as unknown as FakeCollection<FakeDocument>,
      Actor: this.actors as unknown as FakeCollection<FakeDocument>,
      Scene: this.scenes as unknown as FakeCollection<FakeDocument>,
      ChatMessage: this.messages as unknown as FakeCollection<FakeDocument>,
      Combat: this.combats as unknown as FakeCollection<FakeDocument>,
    };
    return map[doc.documentName] ?? null;
  }

  private assertAllowed(user: FakeUser, doc: FakeDocument, action: "create" | "update" | "delete", data?: Plain): void {
    if (!doc.canUserModify(user, action, data)) {
      throw new Error(`User ${user.name} lacks permission to ${action} ${doc.documentName} [${doc.id}]`);
    }
  }

  /** Validates an update's keys against the document's fields (flags and _id always allowed). */
  private expandUpdate(doc: FakeDocument, changes: Plain): Plain {
    if (!isPlainObject(changes)) throw new Error(`${doc.documentName} update: the changes must be an object`);
    const expanded = expandObject(changes);
    delete expanded._id;
    const fields = (doc.constructor as typeof FakeDocument).fields;
    for (const k of Object.keys(expanded)) {
      if (k !== "flags" && k !== "ownership" && !fields.includes(k))
        throw new Error(`${doc.documentName} update: unknown field "${k}"`);
    }
    if ("ownership" in expanded && !this.currentClient().user.isGM)
      throw new Error(`Only a GM changes the ownership of ${doc.documentName} ${doc.id}`);
    if (isPlainObject(expanded.flags))
      for (const scope of Object.keys(expanded.flags)) this.assertFlagScope(scope.replace(/^-=/, ""));
    this.checkDeletionForms(doc, expanded, "");
    return expanded;
  }

  /** v13 has no `_del` operator (data.ts); v14 deprecates the "-=key" form: recorded. */
  private checkDeletionForms(doc: FakeDocument, v: unknown, path: string): void {
    if (!isPlainObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      const at = path ? `${path}.${k}` : k;
      if (x instanceof ForcedDeletion && this.generation < 14)
        throw new Error(`${doc.documentName} update: ForcedDeletion (_del) is a v14 operator (${at})`);
      if (k.startsWith("-=") && this.generation >= 14) this.deprecations.push(`${doc.documentName} ${at}`);
      this.checkDeletionForms(doc, x, at);
    }
  }

  private diff(doc: FakeDocument, expanded: Plain): Plain | null {
    const out: Plain = {};
    for (const [k, v] of Object.entries(expanded)) {
      const d = diffMerge(doc.readField(k), v);
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length ? out : null;
  }

  private apply(doc: FakeDocument, diff: Plain): void {
    for (const [k, v] of Object.entries(diff)) doc.writeField(k, v);
  }

  /**
   * The server stamps DocumentStats on the documents of this pipeline that have them (Actor, Scene; a Token has none):
   * who last modified it and when (https://foundryvtt.com/api/v13/interfaces/foundry.data.types.DocumentStats.html).
   * A synthetic actor is not a stored document: not stamped. Unverified, so not modelled: whether a write of an
   * embedded document also stamps its parent. (Combatants keep their own, test/world/combat.ts.)
   */
  private stamp(user: FakeUser, doc: FakeDocument, created: boolean): void {
    if (!(doc instanceof FakeActor || doc instanceof FakeScene) || (doc instanceof FakeActor && doc.isToken)) return;
    const now = Date.now();
    doc._stats = { createdTime: created ? now : doc._stats.createdTime, modifiedTime: now, lastModifiedBy: user.id };
  }

  private record(
    user: FakeUser,
    action: WriteRecord["action"],
    doc: { documentName: string; id: string },
    data: unknown,
    options: Plain,
  ): void {
    this.writes.push({
      user: user.id,
      action,
      documentName: doc.documentName,
      id: doc.id,
      data: clone(data),
      options: { ...options },
    });
  }

  /** Creates a world-level document (Actor, ChatMessage, Combat...) as the current client's user. */
  async createDocument<T extends FakeDocument>(
    make: () => T,
    data: Plain,
    options: Plain = {},
  ): Promise<T | undefined> {
    const client = this.currentClient();
    const user = client.user;
    if (!client.alive) throw new ClientCrashed(user.id);
    const doc = make();
    this.assertAllowed(user, doc, "create", data);
    if (client.hooks.call(`preCreate${doc.documentName}`, doc, clone(data), options, user.id) === false)
      return undefined;
    const holds = this.checkWrite(client, {
      user: user.id,
      action: "create",
      documentName: doc.documentName,
      id: doc.id,
      options,
      data,
    });
    await this.roundTrip(holds);
    if (!client.alive) throw new ClientCrashed(user.id);
    if (!doc.store()) {
      const home = this.homeOf(doc);
      if (!home) throw new Error(`Fake world: no collection for ${doc.documentName}`);
      if (home.has(doc.id)) throw new Error(`${doc.documentName} ${doc.id} already exists`);
      home.set(doc);
    }
    this.stamp(user, doc, true);
    this.record(user, "create", doc, doc.toObject(), options);
    this.broadcast(`create${doc.documentName}`, doc, options, user.id);
    return doc;
  }

  /** Parent#createEmbeddedDocuments: every item checked before any is created; one round trip. */
  async createEmbedded(
    parent: FakeDocument,
    collection: string,
    data: Plain[],
    options: Plain = {},
  ): Promise<FakeDocument[]> {
    const client = this.currentClient();
    const user = client.user;
    if (!client.alive) throw new ClientCrashed(user.id);
    const home = parent.embedded(collection);
    if (!home) throw new Error(`${parent.documentName} has no embedded collection ${collection}`);
    if (!this.isStored(parent) && !(parent instanceof FakeActor && parent.isToken))
      throw new Error(`${parent.documentName} ${parent.id} does not exist`);
    const docs = data.map((d) => makeEmbedded(this, parent, collection, options.keepId ? d : { ...d, _id: undefined }));
    const kept: FakeDocument[] = [];
    for (const [i, doc] of docs.entries()) {
      this.assertAllowed(user, doc, "create", data[i]);
      if (client.hooks.call(`preCreate${doc.documentName}`, doc, clone(data[i]), options, user.id) === false) continue;
      kept.push(doc);
    }
    if (!kept.length) return [];
    const holds = kept.flatMap((doc, i) =>
      this.checkWrite(client, {
        user: user.id,
        action: "create",
        documentName: doc.documentName,
        id: doc.id,
        options,
        data: data[i],
      }),
    );
    await this.roundTrip(holds);
    if (!client.alive) throw new ClientCrashed(user.id);
    for (const doc of kept) {
      if (!doc.store()) {
        if (home.has(doc.id))
          throw new Error(`${doc.documentName} ${doc.id} already exists in ${parent.documentName} ${parent.id}`);
        home.set(doc);
      }
      this.stamp(user, doc, true);
      this.record(user, "create", doc, doc.toObject(), options);
    }
    for (const doc of kept) this.broadcast(`create${doc.documentName}`, doc, options, user.id);
    return kept;
  }

  /** Document#update. Resolves to the document, or undefined when nothing changed or a pre-hook cancelled. */
  async updateDocument(doc: FakeDocument, changes: Plain, options: Plain = {}): Promise<FakeDocument | undefined> {
    const [out] = await this.updateMany([[doc, changes]], options);
    return out;
  }

  async updateEmbedded(
    parent: FakeDocument,
    collection: string,
    updates: Plain[],
    options: Plain = {},
  ): Promise<FakeDocument[]> {
    const home = parent.embedded(collection);
    if (!home) throw new Error(`${parent.documentName} has no embedded collection ${collection}`);
    const pairs = updates.map((u): [FakeDocument, Plain] => {
      const id = u._id;
      if (typeof id !== "string")
        throw new Error(`${parent.documentName}#updateEmbeddedDocuments: every update needs an _id`);
      const doc = home.get(id);
      if (!doc) throw new Error(`${collection} id [${id}] does not exist in ${parent.documentName} ${parent.id}`);
      return [doc, u];
    });
    return (await this.updateMany(pairs, options)).filter((d): d is FakeDocument => !!d);
  }

  private async updateMany(pairs: [FakeDocument, Plain][], options: Plain): Promise<(FakeDocument | undefined)[]> {
    const client = this.currentClient();
    const user = client.user;
    if (!client.alive) throw new ClientCrashed(user.id);
    const planned: { doc: FakeDocument; diff: Plain }[] = [];
    const out: (FakeDocument | undefined)[] = pairs.map(() => undefined);
    for (const [doc, changes] of pairs) {
      if (doc.deleted || (!this.isStored(doc) && !(doc instanceof FakeActor && doc.isToken))) {
        throw new Error(`${doc.documentName} ${doc.id} does not exist`);
      }
      const expanded = this.expandUpdate(doc, changes);
      const diff = this.diff(doc, expanded);
      if (!diff) continue;
      // A type with a data model: the system's changes are cleaned and the result validated, or nothing is written (models.ts).
      if (doc instanceof FakeActor && isPlainObject(diff.system))
        diff.system = cleanSystemUpdate("Actor", doc.type, doc.system, diff.system, client.CONFIG.Actor as never);
      if (doc instanceof FakeChatMessage && isPlainObject(diff.system))
        diff.system = modelSystemUpdate(
          "ChatMessage",
          doc.type,
          doc.systemSource,
          diff.system,
          client.CONFIG.ChatMessage as never,
        );
      this.assertAllowed(user, doc, "update", diff);
      if (client.hooks.call(`preUpdate${doc.documentName}`, doc, diff, options, user.id) === false) continue;
      planned.push({ doc, diff });
    }
    if (!planned.length) return out;
    const holds = planned.flatMap((p) =>
      this.checkWrite(client, {
        user: user.id,
        action: "update",
        documentName: p.doc.documentName,
        id: p.doc.id,
        options,
        data: p.diff,
      }),
    );
    await this.roundTrip(holds);
    if (!client.alive) throw new ClientCrashed(user.id);
    for (const p of planned) {
      if (p.doc.deleted) throw new Error(`${p.doc.documentName} ${p.doc.id} does not exist`);
      this.apply(p.doc, p.diff);
      this.stamp(user, p.doc, false);
      this.record(user, "update", p.doc, p.diff, options);
      out[pairs.findIndex(([d]) => d === p.doc)] = p.doc;
    }
    for (const p of planned) this.broadcast(`update${p.doc.documentName}`, p.doc, clone(p.diff), options, user.id);
    return out;
  }

  async deleteDocument(doc: FakeDocument, options: Plain = {}): Promise<FakeDocument | undefined> {
    const [out] = await this.deleteMany([doc], options);
    return out;
  }

  async deleteEmbedded(
    parent: FakeDocument,
    collection: string,
    ids: string[],
    options: Plain = {},
  ): Promise<FakeDocument[]> {
    const home = parent.embedded(collection);
    if (!home) throw new Error(`${parent.documentName} has no embedded collection ${collection}`);
    const docs = ids.map((id) => {
      const d = home.get(id);
      if (!d) throw new Error(`${collection} id [${id}] does not exist in ${parent.documentName} ${parent.id}`);
      return d;
    });
    return (await this.deleteMany(docs, options)).filter((d): d is FakeDocument => !!d);
  }

  private async deleteMany(docs: FakeDocument[], options: Plain): Promise<(FakeDocument | undefined)[]> {
    const client = this.currentClient();
    const user = client.user;
    if (!client.alive) throw new ClientCrashed(user.id);
    const kept: FakeDocument[] = [];
    for (const doc of docs) {
      if (doc.deleted || !this.isStored(doc)) throw new Error(`${doc.documentName} ${doc.id} does not exist`);
      this.assertAllowed(user, doc, "delete");
      if (client.hooks.call(`preDelete${doc.documentName}`, doc, options, user.id) === false) continue;
      kept.push(doc);
    }
    if (!kept.length) return docs.map(() => undefined);
    const holds = kept.flatMap((doc) =>
      this.checkWrite(client, { user: user.id, action: "delete", documentName: doc.documentName, id: doc.id, options }),
    );
    await this.roundTrip(holds);
    if (!client.alive) throw new ClientCrashed(user.id);
    for (const doc of kept) {
      if (doc.deleted) throw new Error(`${doc.documentName} ${doc.id} does not exist`);
      if (!doc.unstore()) this.homeOf(doc)!.remove(doc.id);
      doc.deleted = true;
      this.record(user, "delete", doc, null, options);
    }
    for (const doc of kept) this.broadcast(`delete${doc.documentName}`, doc, options, user.id);
    return docs.map((d) => (kept.includes(d) ? d : undefined));
  }

  /**
   * game.time.advance(delta, options): a change of the world setting core.time, so GM only; then updateWorldTime
   * (worldTime, delta, options, userId) on every client. https://foundryvtt.com/api/v13/classes/foundry.helpers.GameTime.html
   * and hookEvents.updateWorldTime.
   */
  async advanceTime(delta: number, options: Plain = {}): Promise<number> {
    const client = this.currentClient();
    const user = client.user;
    if (!client.alive) throw new ClientCrashed(user.id);
    if (!user.isGM) throw new Error(`User ${user.name} lacks permission to change the world time`);
    if (typeof delta !== "number" || !Number.isFinite(delta))
      throw new Error("GameTime#advance needs a finite number of seconds");
    const holds = this.checkWrite(client, {
      user: user.id,
      action: "time",
      documentName: "Setting",
      id: "core.time",
      options,
      data: { delta },
    });
    await this.roundTrip(holds);
    if (!client.alive) throw new ClientCrashed(user.id);
    this.worldTime += delta;
    this.record(
      user,
      "time",
      { documentName: "Setting", id: "core.time" },
      { delta, worldTime: this.worldTime },
      options,
    );
    this.broadcast("updateWorldTime", this.worldTime, delta, options, user.id);
    this.expireEffects();
    return this.worldTime;
  }

  /**
   * v14 core's expiry of temporary effects (foundry.helpers.ActiveEffectRegistry: "Refresh the durations of registered
   * ActiveEffects and perform the configured action for expired effects"; CONFIG.ActiveEffect.expiryAction
   * "update" | "delete" | null: "An update action will set the value of ActiveEffectDuration#expired";
   * EffectDurationData.expired, v14 API). Modelled: after world time moves, an effect whose `duration {value, units}`
   * in time units has run out since its creation is updated with `duration.expired: true` (or deleted with
   * "delete") by the active GM's client. Unverified, so simplified: which client writes it, the effect's own start
   * field (the fake counts from the world time at creation), round- and turn-based durations (not modelled).
   * v13 core never expires an effect.
   */
  private expireEffects(): void {
    if (this.generation < 14) return;
    const gm = this.users.activeGM;
    if (!gm) return;
    const client = this.clientOf(gm.id);
    const action = (client.CONFIG.ActiveEffect as { expiryAction?: unknown } | undefined)?.expiryAction ?? "update";
    if (action !== "update" && action !== "delete") return;
    const UNITS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };
    const actors = new Set<FakeActor>(this.actors.contents);
    for (const scene of this.scenes) for (const t of scene.tokens) if (!t.actorLink && t.actor) actors.add(t.actor);
    for (const actor of actors) {
      const over = actor.effects.filter((e) => {
        const d = e.duration as { value?: unknown; units?: unknown; expired?: unknown };
        const k = typeof d.units === "string" ? UNITS[d.units] : undefined;
        return (
          d.expired !== true &&
          typeof d.value === "number" &&
          k !== undefined &&
          e.createdAt + d.value * k <= this.worldTime
        );
      });
      if (!over.length) continue;
      const ids = over.map((e) => e.id);
      const write =
        action === "delete"
          ? () => this.deleteEmbedded(actor, "effects", ids, {})
          : () =>
              this.updateEmbedded(
                actor,
                "effects",
                ids.map((_id) => ({ _id, "duration.expired": true })),
                {},
              );
      this.track(this.runOn(client, write), "core effect expiry");
    }
  }

  /**
   * The server advances the world time itself (a combat round's seconds, see combat.ts): no permission check on the
   * user and no client write (nothing in `writes`, no fault injected), updateWorldTime(worldTime, delta, options,
   * userId) on every client.
   */
  async serverAdvanceTime(delta: number, options: Plain, userId: string): Promise<number> {
    await this.roundTrip();
    this.worldTime += delta;
    this.broadcast("updateWorldTime", this.worldTime, delta, options, userId);
    this.expireEffects();
    return this.worldTime;
  }

  /** game.settings.set for a world or user setting: GM only for world scope; onChange on every client. */
  async setSetting(key: string, given: unknown): Promise<unknown> {
    const client = this.currentClient();
    const user = client.user;
    if (!client.alive) throw new ClientCrashed(user.id);
    const def = client.settingDefs.get(key);
    if (!def) throw new Error(`"${key}" is not a registered game setting`);
    const value = validateSetting(key, def, given);
    if (def.scope === "client") {
      client.clientSettings.set(key, clone(value));
      def.onChange?.(settingValue(def, value));
      return settingValue(def, value);
    }
    if (def.scope === "world" && !user.isGM)
      throw new Error(`User ${user.name} lacks permission to change the world setting ${key}`);
    const holds = this.checkWrite(client, {
      user: user.id,
      action: "setting",
      documentName: "Setting",
      id: key,
      options: {},
      data: value,
    });
    await this.roundTrip(holds);
    if (!client.alive) throw new ClientCrashed(user.id);
    if (def.scope === "world") this.settingValues.set(key, clone(value));
    else this.userSettingValues.set(`${user.id}.${key}`, clone(value));
    this.record(user, "setting", { documentName: "Setting", id: key }, value, {});
    for (const c of this.liveClients()) {
      const d = c.settingDefs.get(key);
      if (d?.onChange && (def.scope === "world" || c.user === user))
        this.runOn(c, () => d.onChange!(settingValue(d, value), {}, user.id));
    }
    return settingValue(def, value);
  }

  readSetting(client: FakeClient, key: string): unknown {
    const def = client.settingDefs.get(key);
    if (!def) throw new Error(`"${key}" is not a registered game setting`);
    let v: unknown;
    if (def.scope === "client") v = client.clientSettings.has(key) ? client.clientSettings.get(key) : def.default;
    else if (def.scope === "user") {
      const k = `${client.user.id}.${key}`;
      v = this.userSettingValues.has(k) ? this.userSettingValues.get(k) : def.default;
    } else v = this.settingValues.has(key) ? this.settingValues.get(key) : def.default;
    return settingValue(def, v);
  }

  // ---------------------------------------------------------------- seeding (world data as loaded, no hooks)

  addUserActor(data: ActorData): FakeActor {
    return this.actors.set(new FakeActor(this, data));
  }

  addScene(data: SceneData = {}): FakeScene {
    return this.scenes.set(new FakeScene(this, data));
  }

  addToken(scene: FakeScene, data: TokenData): FakeToken {
    if (scene.tokens.has(data._id ?? "")) throw new Error(`Token ${data._id} exists`);
    const t = scene.tokens.set(new FakeToken(this, data, scene));
    for (const c of this.clients.values()) if (c.viewedScene === scene) c.hooks.callAll("__fakeTokenAdded", t);
    return t;
  }

  addMessage(data: MessageData): FakeChatMessage {
    return this.messages.set(new FakeChatMessage(this, data));
  }

  // ---------------------------------------------------------------- rolls and dialogs

  /** Queues die results; each die rolled takes the next one (an empty queue throws). */
  queueRolls(...results: number[]): void {
    this.rollQueue.push(...results);
  }

  /** When true, an empty roll queue gives pseudo-random results (in-world batches roll real dice). */
  randomDice = false;
  #seed = 12345;

  takeDie(faces: number): number {
    let r = this.rollQueue.shift();
    if (r === undefined && this.randomDice) {
      this.#seed = (this.#seed * 16807) % 2147483647;
      r = 1 + (this.#seed % faces);
    }
    if (r === undefined) throw new Error(`Fake Roll: no queued result for a d${faces}`);
    if (!Number.isInteger(r) || r < 1 || r > faces) throw new Error(`Fake Roll: ${r} does not fit a d${faces}`);
    return r;
  }

  /** Queues what the next DialogV2 shown to `userId` answers. */
  answerDialog(userId: string, ...answers: unknown[]): void {
    this.dialogAnswers.set(userId, [...(this.dialogAnswers.get(userId) ?? []), ...answers]);
  }

  nextDialogAnswer(kind: string, title: unknown, content: string): unknown {
    const user = this.currentClient().user.id;
    this.dialogsShown.push({ user, kind, title, content });
    const list = this.dialogAnswers.get(user) ?? [];
    if (!list.length) throw new Error(`Fake DialogV2.${kind}: no answer queued for ${user}`);
    return list.shift();
  }

  /**
   * Renders a chat message in a user's chat log, as core does: an `li.chat-message` holding the content, then
   * renderChatMessageHTML(message, html, context) on that client (v13: html is an HTMLElement). Returns the element.
   * https://foundryvtt.com/api/v13/functions/hookEvents.renderChatMessageHTML.html
   */
  renderMessage(message: FakeChatMessage, userId: string): HTMLElement {
    const client = this.clientOf(userId);
    const doc = this.window.document;
    const li = doc.createElement("li");
    li.className = "chat-message message flexcol";
    li.setAttribute("data-message-id", message.id);
    li.innerHTML = `<header class="message-header"></header><div class="message-content">${message.content}</div>`;
    const html = li as unknown as HTMLElement;
    this.runOn(client, () =>
      client.hooks.callAll("renderChatMessageHTML", message, html, { canDelete: client.user.isGM, canClose: false }),
    );
    return html;
  }

  /**
   * Renders the token HUD of a token for a user: core's three columns, then renderTokenHUD(hud, html, context,
   * options) on that client (v13: html is an HTMLElement). Returns the element.
   */
  renderTokenHUD(token: FakeToken, userId: string): HTMLElement {
    const client = this.clientOf(userId);
    const el = this.window.document.createElement("div");
    el.id = "token-hud";
    el.innerHTML = `<div class="col left"></div><div class="col middle"></div><div class="col right"></div>`;
    const html = el as unknown as HTMLElement;
    const hud = { document: token, object: client.placeables.get(token.id) ?? null };
    this.runOn(client, () => client.hooks.callAll("renderTokenHUD", hud, html, {}, {}));
    return html;
  }

  /**
   * Renders core's module settings form (SettingsConfig) for a user: one `div.form-group` per registered setting with
   * `config: true`, stamped `data-setting-id="<namespace>.<key>"`, holding its localized name in a label, its field
   * named by the setting's id (a select for choices, a checkbox for a Boolean, an input otherwise) with the value the
   * user reads, and its hint; then renderSettingsConfig(app, html, context, options) on that client (v13: html is the
   * window's HTMLElement). https://foundryvtt.com/api/v13/classes/foundry.applications.settings.SettingsConfig.html
   */
  renderSettingsConfig(userId: string): HTMLElement {
    const client = this.clientOf(userId);
    const esc = (v: unknown) => String(v).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
    const rows = [...client.settingDefs]
      .filter(([, def]) => def.config)
      .map(([id, def]) => {
        const value = this.readSetting(client, id);
        const dataField = def.type instanceof FakeDataField ? def.type : null;
        const fieldChoices = dataField instanceof FakeStringField ? dataField.options.choices : undefined;
        const choices = def.choices ?? (isPlainObject(fieldChoices) ? (fieldChoices as Record<string, string>) : null);
        const isBoolean = def.type === Boolean || dataField instanceof FakeBooleanField;
        const isNumber = def.type === Number || dataField instanceof FakeNumberField;
        const field = choices
          ? `<select name="${esc(id)}">${Object.entries(choices)
              .map(
                ([v, l]) =>
                  `<option value="${esc(v)}"${v === value ? " selected" : ""}>${esc(client.i18n.localize(l))}</option>`,
              )
              .join("")}</select>`
          : isBoolean
            ? `<input type="checkbox" name="${esc(id)}"${value === true ? " checked" : ""}>`
            : `<input type="${isNumber ? "number" : "text"}" name="${esc(id)}" value="${esc(value ?? "")}">`;
        return `<div class="form-group" data-setting-id="${esc(id)}"><label>${esc(client.i18n.localize(def.name ?? id))}</label><div class="form-fields">${field}</div><p class="hint">${esc(client.i18n.localize(def.hint ?? ""))}</p></div>`;
      });
    const form = this.window.document.createElement("form");
    form.id = "settings-config";
    form.innerHTML = rows.join("");
    // happy-dom does not select a parsed <option selected> of a select set through innerHTML: its value is set here.
    for (const select of form.querySelectorAll("select")) {
      const chosen = select.querySelector("option[selected]");
      if (chosen) select.value = chosen.getAttribute("value") ?? "";
    }
    const html = form as unknown as HTMLElement;
    this.runOn(client, () => client.hooks.callAll("renderSettingsConfig", { id: "settings-config" }, html, {}, {}));
    return html;
  }

  /** A user clicks an element (the click's listeners run as that user's client). */
  click(userId: string, el: Element | null): void {
    if (!el) throw new Error("Fake world: nothing to click");
    if ((el as HTMLButtonElement).disabled) throw new Error("Fake world: the element is disabled");
    this.as(userId, () => (el as HTMLElement).click());
  }

  /** Scene#view and TokenDocument#move go through canvas.ts (installed there, to keep the modules acyclic). */
  viewScene(client: FakeClient, scene: FakeScene): void {
    canvasImpl.view(this, client, scene);
  }
  moveToken(token: FakeToken, spec: Plain): Promise<Plain | null> {
    return canvasImpl.move(this, token, spec);
  }

  /** The messages visible to a user (as that user's chat log shows them). */
  visibleMessages(userId: string): FakeChatMessage[] {
    return this.as(userId, () => this.messages.filter((m) => m.visible));
  }

  private installGlobals(): void {
    const g = globalThis as Record<string, unknown>;
    const current = () => this.currentClient();
    for (const name of ["game", "CONFIG", "Hooks", "ui", "canvas", "Handlebars"] as const) {
      Object.defineProperty(g, name, {
        configurable: true,
        get() {
          const c = current();
          if (name === "Hooks") return c.hooks;
          if (name === "Handlebars") return c.handlebars;
          return (c as unknown as Record<string, unknown>)[name];
        },
        set() {
          throw new Error(`Fake world: the global ${name} is read-only`);
        },
      });
    }
    Object.defineProperty(g, "document", { configurable: true, get: () => this.window.document });
    installStaticGlobals(this);
  }
}

/**
 * A setting whose `type` is a DataField instance or a DataModel class (v13 SettingConfig.type: "BuiltinType | typeof
 * DataModel | DataField", https://foundryvtt.com/api/v13/interfaces/foundry.types.SettingConfig.html):
 * - `game.settings.set` cleans the value with the field (DataField#clean, "Coerce source data to ensure that it
 *   conforms to the correct data type for the field") and validates it (DataField#validate); an invalid value throws
 *   and nothing is written, no onChange runs. A DataModel class: its schema does the same (DataModel#validate).
 * - the value read (`get`) and handed to onChange is the stored (cleaned) one, or the registered `default` (the public
 *   example registers `type: new NumberField({…}), default: 50`, ClientSettings#register,
 *   https://foundryvtt.com/api/v13/classes/foundry.helpers.ClientSettings.html); for a DataModel class, an instance
 *   of the class built from it (dnd5e 5.x module/data/collection/actors-collection.mjs reads
 *   `game.settings.get("dnd5e", "primaryParty")?.actor`, a field of its PrimaryPartySetting DataModel).
 * The exact wording of Foundry's validation error is not modelled: the fake names each failing field path.
 */
function settingField(def: SettingDef): FakeDataField | null {
  if (def.type instanceof FakeDataField) return def.type;
  if (isModelClass(def.type)) return def.type.schemaField();
  return null;
}
function isModelClass(type: unknown): type is typeof FakeTypeDataModel | typeof FakeDataModel {
  return (
    typeof type === "function" &&
    (type.prototype instanceof FakeTypeDataModel || type.prototype instanceof FakeDataModel)
  );
}
function settingValue(def: SettingDef, stored: unknown): unknown {
  const v = clone(stored);
  return isModelClass(def.type) && isPlainObject(v) ? new def.type(v) : v;
}

/** The value to store: the given one, checked (and cleaned by its field when the type is a field or a model). */
function validateSetting(key: string, def: SettingDef, given: unknown): unknown {
  const field = settingField(def);
  if (field) {
    const plain =
      given instanceof FakeDataModel
        ? given.toObject()
        : given instanceof FakeTypeDataModel
          ? clone({ ...given, parent: undefined })
          : given;
    const value = field.clean(plain);
    const errors: string[] = [];
    field.validate(value, key, errors);
    if (errors.length) throw new Error(`Setting ${key} validation errors:\n${errors.map((e) => `  ${e}`).join("\n")}`);
    return value;
  }
  const value = given;
  if (def.choices && !(String(value) in def.choices))
    throw new Error(`${String(value)} is not a valid choice for ${key}`);
  if (def.type === Number && (typeof value !== "number" || !Number.isFinite(value)))
    throw new Error(`${key} must be a number`);
  if (def.type === Number && def.range && ((value as number) < def.range.min || (value as number) > def.range.max)) {
    throw new Error(`${key} must be between ${def.range.min} and ${def.range.max}`);
  }
  if (def.type === Boolean && typeof value !== "boolean") throw new Error(`${key} must be a boolean`);
  if (def.type === String && typeof value !== "string") throw new Error(`${key} must be a string`);
  return value;
}

function makeEmbedded(world: FakeWorld, parent: FakeDocument, collection: string, data: Plain): FakeDocument {
  const d = data as DocumentData;
  switch (collection) {
    case "effects":
      return new FakeActiveEffect(world, d as never, parent as FakeActor);
    case "tokens":
      return new FakeToken(world, d as never, parent as FakeScene);
    case "regions": {
      const region = new FakeRegion(world, d as never, parent as FakeScene);
      for (const b of (data.behaviors as Plain[] | undefined) ?? [])
        region.behaviors.set(new FakeRegionBehavior(world, b as never, region));
      return region;
    }
    case "behaviors":
      return new FakeRegionBehavior(world, d as never, parent as FakeRegion);
    case "drawings":
      return new FakeDrawing(world, d as never, parent as FakeScene);
    case "lights":
      return new FakeAmbientLight(world, d as never, parent as FakeScene);
    case "walls":
      return new FakeWall(world, d as never, parent as FakeScene);
    case "levels":
      return new FakeLevel(world, d as never, parent as FakeScene);
    default: {
      const make = (parent as unknown as { makeEmbedded?: (c: string, d: Plain) => FakeDocument }).makeEmbedded;
      if (make) return make.call(parent, collection, data);
      throw new Error(`Fake world: cannot create embedded ${collection}`);
    }
  }
}

// ------------------------------------------------------------------------------------------------ globals

/** Per client: game, CONFIG, ui (the canvas is drawn by canvas.ts when the client views a scene). */
function buildClientGlobals(world: FakeWorld, client: FakeClient): void {
  const settings = {
    register(ns: string, key: string, data: SettingDef) {
      const id = `${ns}.${key}`;
      if (client.settingDefs.has(id)) throw new Error(`Setting ${id} registered twice`);
      if (!["world", "client", "user"].includes(data.scope)) throw new Error(`Bad scope for ${id}`);
      client.settingDefs.set(id, data);
    },
    /** ClientSettings#settings: every registered setting by "<namespace>.<key>". */
    get settings() {
      return client.settingDefs;
    },
    registerMenu(ns: string, key: string, data: Plain) {
      client.menus.set(`${ns}.${key}`, data);
    },
    get(ns: string, key: string) {
      return world.readSetting(client, `${ns}.${key}`);
    },
    set(ns: string, key: string, value: unknown) {
      return world.setSetting(`${ns}.${key}`, value);
    },
  };
  const time = {
    get worldTime() {
      return world.worldTime;
    },
    advance(delta: number, options: Plain = {}) {
      return world.advanceTime(delta, options);
    },
  };
  const i18n = {
    get lang() {
      return client.i18n.lang;
    },
    has: (k: string) => client.i18n.has(k),
    localize: (k: string) => client.i18n.localize(k),
    format: (k: string, d?: Record<string, unknown>) => client.i18n.format(k, d),
  };
  const keybindings = {
    register(ns: string, id: string, data: Plain) {
      if (client.setupDone) throw new Error("Keybindings must be registered before the setup hook");
      if (client.keybindings.has(`${ns}.${id}`)) throw new Error(`Keybinding ${ns}.${id} registered twice`);
      client.keybindings.set(`${ns}.${id}`, data);
    },
  };
  const game: Record<string, unknown> = {
    get user() {
      return client.user;
    },
    get userId() {
      return client.user.id;
    },
    users: world.users,
    actors: world.actors,
    scenes: {
      get: (id: string) => world.scenes.get(id),
      get contents() {
        return world.scenes.contents;
      },
      get viewed() {
        return client.viewedScene;
      },
      get active() {
        return world.scenes.find((s) => s.active) ?? null;
      },
      filter: (fn: (s: FakeScene) => boolean) => world.scenes.filter(fn),
      find: (fn: (s: FakeScene) => boolean) => world.scenes.find(fn),
      [Symbol.iterator]: () => world.scenes[Symbol.iterator](),
    },
    messages: world.messages,
    combats: world.combats,
    packs: modulePacks(),
    settings: strict(settings, "game.settings"),
    i18n: strict(i18n, "game.i18n"),
    keybindings: strict(keybindings, "game.keybindings"),
    system: { id: world.system.id, version: world.system.version },
    release: { generation: world.generation, version: `${world.generation}.350` },
    modules: strict({ get: (id: string) => client.modules.get(id) }, "game.modules"),
    time: strict(time, "game.time"),
    get ready() {
      return client.setupDone;
    },
  };
  client.game = strict(game, "game");
  client.ui = strict(
    {
      notifications: strict(
        {
          info: (m: unknown) => client.notify("info", m),
          warn: (m: unknown) => client.notify("warn", m),
          error: (m: unknown) => client.notify("error", m),
        },
        "ui.notifications",
      ),
    },
    "ui",
  );
}

/** Wraps an object so that reading a property it does not have throws (catches glue using unmodelled API). */
export function strict<T extends object>(obj: T, name: string): T {
  return new Proxy(obj, {
    get(target, prop, receiver) {
      if (typeof prop === "symbol" || prop in target || prop === "then" || prop === "toJSON")
        return Reflect.get(target, prop, receiver);
      throw new Error(`Fake Foundry: ${name}.${String(prop)} is not modelled`);
    },
  });
}

const canvasImpl: {
  view: (w: FakeWorld, c: FakeClient, s: FakeScene) => void;
  move: (w: FakeWorld, t: FakeToken, spec: Plain) => Promise<Plain | null>;
} = {
  view: () => {
    throw new Error("Fake world: canvas.ts was not loaded");
  },
  move: () => {
    throw new Error("Fake world: canvas.ts was not loaded");
  },
};
export function setCanvasImpl(impl: typeof canvasImpl): void {
  Object.assign(canvasImpl, impl);
}

// The static globals (Roll, ChatMessage, foundry...) are installed by statics.ts (imported lazily to avoid a cycle).
let installStaticGlobals: (world: FakeWorld) => void = () => {
  throw new Error("Fake world: statics.ts was not loaded");
};
export function setStaticInstaller(fn: (world: FakeWorld) => void): void {
  installStaticGlobals = fn;
}

export { jsonClone };
