/**
 * A small, strict, typed fake of the Foundry globals the glue uses. Strict means: an undeclared setting, an
 * unknown translation key, an unknown status id, a missing document, a non-GM writing a world setting or
 * advancing time, or any property of `game`/`CONFIG`/`ui` the fake does not model, throws. Grow it only as
 * the glue needs, and keep it as strict as real Foundry (or stricter).
 */
import { FakeI18n, type Lang } from "./i18n.js";
import { makeHandlebars, renderWith } from "./handlebars.js";
import { installCanvas } from "./tokens.js";

/** Wraps an object so that reading a property it does not have throws (catches glue using unmodelled API). */
export function strict<T extends object>(obj: T, name: string): T {
  return new Proxy(obj, {
    get(target, prop, receiver) {
      if (typeof prop === "symbol" || prop in target || prop === "then" || prop === "toJSON") {
        return Reflect.get(target, prop, receiver);
      }
      throw new Error(`Fake Foundry: ${name}.${String(prop)} is not modelled`);
    },
  });
}

export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof cur[p] !== "object" || cur[p] === null) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts.at(-1)!] = value;
}

/** Document#getFlag as the fakes model it: only the "aventure" scope, and a copy (never the stored object). */
export function readFlag(flags: Record<string, Record<string, unknown>>, scope: string, key: string): unknown {
  if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
  const v = flags[scope]?.[key];
  return v === undefined ? undefined : structuredClone(v);
}

function expand(data: Record<string, unknown>): [string, unknown][] {
  return Object.entries(data);
}

// ---------------------------------------------------------------- users

export class FakeUser {
  active = true;
  constructor(
    readonly id: string,
    readonly name: string,
    readonly isGM: boolean,
    private readonly world: FakeWorld,
  ) {}
  get isSelf(): boolean {
    return this.world.currentUserId === this.id;
  }
  /** User#query: runs the registered CONFIG.queries handler as the receiving (GM) client. */
  async query(name: string, data: unknown, _options?: { timeout?: number }): Promise<unknown> {
    if (!this.active) throw new Error(`User ${this.id} is not connected`);
    const handler = this.world.CONFIG.queries[name];
    if (!handler) throw new Error(`No query handler ${name}`);
    const sender = this.world.game.user;
    return this.world.asUser(this.id, () => handler(structuredClone(data), { user: sender }));
  }
}

// ---------------------------------------------------------------- settings

interface SettingData {
  scope: "world" | "client" | "user";
  type: unknown;
  default: unknown;
  choices?: Record<string, string>;
  range?: { min: number; max: number };
  onChange?: (v: unknown) => void;
}

export class FakeSettings {
  readonly defs = new Map<string, SettingData>();
  readonly values = new Map<string, unknown>();
  readonly menus = new Map<string, unknown>();
  constructor(private readonly world: FakeWorld) {}
  register(ns: string, key: string, data: SettingData): void {
    const id = `${ns}.${key}`;
    if (this.defs.has(id)) throw new Error(`Setting ${id} registered twice`);
    if (!["world", "client", "user"].includes(data.scope)) throw new Error(`Bad scope for ${id}`);
    this.defs.set(id, data);
  }
  registerMenu(ns: string, key: string, data: unknown): void {
    this.menus.set(`${ns}.${key}`, data);
  }
  get(ns: string, key: string): unknown {
    const id = `${ns}.${key}`;
    const def = this.defs.get(id);
    if (!def) throw new Error(`Setting ${id} is not registered`);
    const v = this.values.has(id) ? this.values.get(id) : def.default;
    return typeof v === "object" && v !== null ? structuredClone(v) : v;
  }
  async set(ns: string, key: string, value: unknown): Promise<unknown> {
    const id = `${ns}.${key}`;
    const def = this.defs.get(id);
    if (!def) throw new Error(`Setting ${id} is not registered`);
    if (def.scope === "world" && !this.world.game.user.isGM) throw new Error(`Only a GM can set ${id}`);
    if (def.choices && !(String(value) in def.choices)) throw new Error(`${String(value)} is not a choice of ${id}`);
    if (def.type === Number && (typeof value !== "number" || !Number.isFinite(value))) throw new Error(`${id} needs a number`);
    if (def.type === Boolean && typeof value !== "boolean") throw new Error(`${id} needs a boolean`);
    this.values.set(id, value);
    def.onChange?.(value);
    return value;
  }
}

// ---------------------------------------------------------------- hooks

type HookFn = (...args: unknown[]) => unknown;
export class FakeHooks {
  readonly handlers = new Map<string, { fn: HookFn; once: boolean; id: number }[]>();
  private next = 1;
  on(name: string, fn: HookFn): number {
    const id = this.next++;
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), { fn, once: false, id }]);
    return id;
  }
  once(name: string, fn: HookFn): number {
    const id = this.next++;
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), { fn, once: true, id }]);
    return id;
  }
  off(name: string, id: number): void {
    this.handlers.set(name, (this.handlers.get(name) ?? []).filter((h) => h.id !== id));
  }
  callAll(name: string, ...args: unknown[]): true {
    for (const h of [...(this.handlers.get(name) ?? [])]) {
      if (h.once) this.off(name, h.id);
      h.fn(...args);
    }
    return true;
  }
  call(name: string, ...args: unknown[]): boolean {
    for (const h of [...(this.handlers.get(name) ?? [])]) {
      if (h.once) this.off(name, h.id);
      if (h.fn(...args) === false) return false;
    }
    return true;
  }
  registered(): string[] {
    return [...this.handlers.keys()].filter((k) => (this.handlers.get(k) ?? []).length > 0).sort();
  }
}

// ---------------------------------------------------------------- dice

interface DieResult {
  result: number;
  active: boolean;
}
/** Rolls take their results from a queue the test fills; an empty queue throws. */
export class FakeRollFactory {
  readonly queue: number[] = [];
  readonly made: FakeRollBase[] = [];
  push(...results: number[]): void {
    this.queue.push(...results);
  }
  take(faces: number): number {
    const r = this.queue.shift();
    if (r === undefined) throw new Error(`Fake Roll: no queued result for a d${faces}`);
    if (!Number.isInteger(r) || r < 1 || r > faces) throw new Error(`Fake Roll: ${r} does not fit a d${faces}`);
    return r;
  }
}

export class FakeRollBase {
  static factory: FakeRollFactory;
  static world: FakeWorld;
  readonly dice: { faces: number; number: number; results: DieResult[] }[] = [];
  total: number | undefined;
  _evaluated = false;
  constructor(readonly formula: string, readonly data: Record<string, unknown> = {}) {
    if (!/^\s*(\d+d\d+|\d+)(\s*[+-]\s*(\d+d\d+|\d+|@\w+))*\s*$/.test(formula)) {
      throw new Error(`Fake Roll: unsupported formula ${formula}`);
    }
  }
  async evaluate(): Promise<this> {
    if (this._evaluated) throw new Error("Roll already evaluated");
    let total = 0;
    const terms = this.formula.replace(/\s+/g, "").match(/[+-]?[^+-]+/g) ?? [];
    for (const term of terms) {
      const sign = term.startsWith("-") ? -1 : 1;
      const body = term.replace(/^[+-]/, "");
      const m = /^(\d+)d(\d+)$/.exec(body);
      if (m) {
        const number = Number(m[1]);
        const faces = Number(m[2]);
        const results = Array.from({ length: number }, () => ({ result: FakeRollBase.factory.take(faces), active: true }));
        this.dice.push({ faces, number, results });
        total += sign * results.reduce((a, r) => a + r.result, 0);
      } else if (body.startsWith("@")) {
        const v = this.data[body.slice(1)];
        if (typeof v !== "number") throw new Error(`Fake Roll: @${body.slice(1)} is not a number`);
        total += sign * v;
      } else total += sign * Number(body);
    }
    this.total = total;
    this._evaluated = true;
    FakeRollBase.factory.made.push(this);
    return this;
  }
  async toMessage(data: Record<string, unknown> = {}): Promise<unknown> {
    if (!this._evaluated) await this.evaluate();
    return FakeRollBase.world.ChatMessage.create({ ...data, rolls: [this] });
  }
}

// ---------------------------------------------------------------- documents

export class FakeActor {
  readonly statuses = new Set<string>();
  readonly flags: Record<string, Record<string, unknown>> = {};
  readonly updates: Record<string, unknown>[] = [];
  /** Every Foundry actor has an effects collection (empty here; test/fake/pursuit.ts enableEffects models creation). */
  effects: unknown[] = [];
  ownership: Record<string, number> = {};
  system: Record<string, unknown>;
  readonly id: string;
  readonly name: string;
  readonly type: string;
  applyDamage?: (...args: unknown[]) => Promise<unknown>;
  constructor(
    private readonly world: FakeWorld,
    data: { _id: string; name: string; type?: string; system?: Record<string, unknown> },
  ) {
    this.id = data._id;
    this.name = data.name;
    this.type = data.type ?? "character";
    this.system = structuredClone(data.system ?? {});
  }
  testUserPermission(user: FakeUser, level: "OWNER" | "OBSERVER" | "LIMITED"): boolean {
    if (user.isGM) return true;
    const need = { LIMITED: 1, OBSERVER: 2, OWNER: 3 }[level];
    return (this.ownership[user.id] ?? this.ownership.default ?? 0) >= need;
  }
  get isOwner(): boolean {
    return this.testUserPermission(this.world.game.user, "OWNER");
  }
  async update(changes: Record<string, unknown>): Promise<this> {
    if (!this.isOwner) throw new Error(`User ${this.world.game.user.id} cannot update actor ${this.id}`);
    this.updates.push(structuredClone(changes));
    for (const [path, v] of expand(changes)) {
      if (path.startsWith("system.")) setPath(this.system, path.slice(7), v);
      else if (path.startsWith("flags.")) setPath(this.flags as Record<string, unknown>, path.slice(6), v);
      else throw new Error(`Fake actor: cannot update ${path}`);
    }
    return this;
  }
  async toggleStatusEffect(id: string, options: { active?: boolean } = {}): Promise<boolean> {
    if (!this.isOwner) throw new Error(`User ${this.world.game.user.id} cannot change statuses of ${this.id}`);
    if (!this.world.CONFIG.statusEffects.some((e) => e.id === id)) throw new Error(`Unknown status effect ${id}`);
    const active = options.active ?? !this.statuses.has(id);
    if (active) this.statuses.add(id);
    else this.statuses.delete(id);
    this.world.log.push(`status ${this.id} ${id} ${active}`);
    return active;
  }
  getFlag(scope: string, key: string): unknown {
    return readFlag(this.flags, scope, key);
  }
  async setFlag(scope: string, key: string, value: unknown): Promise<this> {
    if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
    if (!this.isOwner) throw new Error(`User ${this.world.game.user.id} cannot flag ${this.id}`);
    const bag = (this.flags[scope] ??= {});
    const old = bag[key];
    // Foundry merges objects on update.
    bag[key] =
      old && typeof old === "object" && value && typeof value === "object" && !Array.isArray(value)
        ? { ...(old as object), ...structuredClone(value as object) }
        : structuredClone(value);
    return this;
  }
  async unsetFlag(scope: string, key: string): Promise<this> {
    if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
    delete this.flags[scope]?.[key];
    return this;
  }
}

export class FakeCollection<T extends { id: string | null }> {
  readonly map = new Map<string, T>();
  constructor(private readonly label: string) {}
  get(id: string): T | undefined {
    return this.map.get(id);
  }
  /** Like Foundry's getter with {strict: true}: a missing document throws. */
  getStrict(id: string): T {
    const d = this.map.get(id);
    if (!d) throw new Error(`${this.label} ${id} does not exist`);
    return d;
  }
  get contents(): T[] {
    return [...this.map.values()];
  }
  filter(fn: (d: T) => boolean): T[] {
    return this.contents.filter(fn);
  }
  find(fn: (d: T) => boolean): T | undefined {
    return this.contents.find(fn);
  }
  some(fn: (d: T) => boolean): boolean {
    return this.contents.some(fn);
  }
  map_<U>(fn: (d: T) => U): U[] {
    return this.contents.map(fn);
  }
  [Symbol.iterator](): Iterator<T> {
    return this.map.values();
  }
  get size(): number {
    return this.map.size;
  }
  add(doc: T): T {
    this.map.set(doc.id!, doc);
    return doc;
  }
}

export class FakeUsers extends FakeCollection<FakeUser> {
  get activeGM(): FakeUser | null {
    const gms = this.filter((u) => u.isGM && u.active).sort((a, b) => a.id.localeCompare(b.id));
    return gms[0] ?? null;
  }
}

// ---------------------------------------------------------------- chat

export interface CapturedMessage {
  content?: string;
  whisper?: string[];
  rolls?: FakeRollBase[];
  flavor?: string;
  speaker?: unknown;
  flags?: Record<string, unknown>;
  author: string;
}

// ---------------------------------------------------------------- the world

export interface WorldOptions {
  systemId?: string;
  lang?: Lang;
  generation?: number;
  /** Users: the first is the current client unless `current` says otherwise. */
  users?: { id: string; name?: string; isGM: boolean; active?: boolean }[];
  current?: string;
}

export const CORE_STATUS_IDS = [
  "dead", "unconscious", "sleep", "stun", "prone", "restrain", "paralysis", "fly", "blind", "deaf", "silence",
  "fear", "burning", "frozen", "shock", "corrode", "bleeding", "disease", "poison", "curse", "regen", "degen",
  "hover", "burrow", "upgrade", "downgrade", "invisible", "target", "eye", "bless", "fireShield", "coldShield",
  "magicShield", "holyShield",
];
export const DND5E_STATUS_IDS = [
  "dead", "bleeding", "blinded", "burning", "burrowing", "charmed", "concentrating", "cursed", "deafened",
  "dehydration", "diseased", "dodging", "encumbered", "ethereal", "exhaustion", "falling", "flying", "frightened",
  "grappled", "heavilyEncumbered", "hiding", "hovering", "incapacitated", "invisible", "malnutrition", "marked",
  "paralyzed", "petrified", "poisoned", "prone", "restrained", "silenced", "sleeping", "stable", "stunned",
  "suffocation", "surprised", "transformed", "unconscious",
];

export class FakeWorld {
  currentUserId: string;
  readonly i18n: FakeI18n;
  readonly hooks = new FakeHooks();
  readonly rolls = new FakeRollFactory();
  readonly messages: CapturedMessage[] = [];
  readonly notifications: { type: "info" | "warn" | "error"; message: string }[] = [];
  readonly log: string[] = [];
  readonly users: FakeUsers;
  readonly actors = new FakeCollection<FakeActor>("Actor");
  readonly settings: FakeSettings;
  readonly handlebars;
  worldTime = 0;
  /** Keybindings registered, by "ns.id"; registering after `setup` throws as in Foundry. */
  readonly keybindings = new Map<string, { name: string; hint?: string; editable?: unknown[]; restricted?: boolean; onDown?: () => unknown }>();
  setupDone = false;
  readonly modules = new Map<string, { id: string; active: boolean; api?: unknown }>();
  readonly CONFIG: {
    statusEffects: { id: string; name?: string; img?: string }[];
    queries: Record<string, (data: unknown, options: { user: FakeUser }) => unknown>;
  };
  readonly game: {
    readonly user: FakeUser;
    users: FakeUsers;
    actors: FakeCollection<FakeActor>;
    settings: FakeSettings;
    i18n: { lang: string; has(k: string): boolean; localize(k: string): string; format(k: string, d?: Record<string, unknown>): string };
    system: { id: string };
    release: { generation: number };
    modules: { get(id: string): { id: string; active: boolean; api?: unknown } | undefined };
    time: { readonly worldTime: number; advance(seconds: number): Promise<number> };
    keybindings: { register(ns: string, id: string, data: unknown): void };
  };
  readonly ChatMessage;
  readonly systemId: string;

  constructor(opts: WorldOptions = {}) {
    this.systemId = opts.systemId ?? "dnd5e";
    this.i18n = new FakeI18n(opts.lang ?? "en");
    this.handlebars = makeHandlebars((k, d) => (d ? this.i18n.format(k, d) : this.i18n.localize(k)), this.i18n.lang);
    this.users = new FakeUsers("User");
    for (const u of opts.users ?? [{ id: "gm1", isGM: true }]) {
      const user = new FakeUser(u.id, u.name ?? u.id, u.isGM, this);
      user.active = u.active ?? true;
      this.users.add(user);
    }
    this.currentUserId = opts.current ?? this.users.contents[0]!.id;
    this.settings = new FakeSettings(this);
    this.CONFIG = {
      statusEffects: (this.systemId === "dnd5e" ? DND5E_STATUS_IDS : CORE_STATUS_IDS).map((id) => ({ id, name: id })),
      queries: {},
    };
    this.modules.set("aventure", { id: "aventure", active: true });
    const world = this;
    this.ChatMessage = {
      implementation: {
        async create(data: Omit<CapturedMessage, "author">) {
          return world.ChatMessage.create(data);
        },
      },
      async create(data: Omit<CapturedMessage, "author">) {
        const msg = { ...data, author: world.game.user.id };
        world.messages.push(msg);
        return msg;
      },
      getSpeaker(opts: { actor?: { name: string } } = {}) {
        return { alias: opts.actor?.name ?? world.game.user.name };
      },
      getWhisperRecipients(name: string) {
        if (name !== "GM") throw new Error("Fake: only GM whisper recipients are modelled");
        return world.users.filter((u) => u.isGM);
      },
    };
    const game = {
      get user() {
        return world.users.getStrict(world.currentUserId);
      },
      users: this.users,
      actors: this.actors,
      settings: strict(this.settings, "game.settings"),
      i18n: strict(
        {
          lang: this.i18n.lang,
          has: (k: string) => this.i18n.has(k),
          localize: (k: string) => this.i18n.localize(k),
          format: (k: string, d?: Record<string, unknown>) => this.i18n.format(k, d),
        },
        "game.i18n",
      ),
      keybindings: strict(
        {
          register: (ns: string, id: string, data: { name: string; editable?: unknown[] }) => {
            if (this.setupDone) throw new Error("Keybindings must be registered before setup");
            if (this.keybindings.has(`${ns}.${id}`)) throw new Error(`Keybinding ${ns}.${id} registered twice`);
            this.keybindings.set(`${ns}.${id}`, data);
          },
        },
        "game.keybindings",
      ),
      system: { id: this.systemId },
      release: { generation: opts.generation ?? 13 },
      modules: strict(
        {
          get: (id: string) => this.modules.get(id),
        },
        "game.modules",
      ),
      time: strict(
        {
          get worldTime() {
            return world.worldTime;
          },
          async advance(seconds: number) {
            if (!world.game.user.isGM) throw new Error("Only a GM can advance world time");
            if (!Number.isFinite(seconds)) throw new Error("advance needs a finite number");
            world.worldTime += seconds;
            world.hooks.callAll("updateWorldTime", world.worldTime, seconds);
            return world.worldTime;
          },
        },
        "game.time",
      ),
    };
    this.game = strict(game, "game") as typeof this.game;
  }

  /** Runs `fn` as if on the client of user `id` (its own `game.user`). */
  async asUser<T>(id: string, fn: () => T | Promise<T>): Promise<T> {
    this.users.getStrict(id);
    const prev = this.currentUserId;
    this.currentUserId = id;
    try {
      return await fn();
    } finally {
      this.currentUserId = prev;
    }
  }

  /** Fires a hook on every connected client, as Foundry does (each client runs its own handlers). */
  async callAllClients(name: string, ...args: unknown[]): Promise<void> {
    for (const u of this.users.filter((x) => x.active)) {
      await this.asUser(u.id, () => this.hooks.callAll(name, ...args));
    }
  }

  addActor(data: { _id: string; name: string; type?: string; system?: Record<string, unknown> }, ownership: Record<string, number> = {}): FakeActor {
    const a = new FakeActor(this, data);
    a.ownership = ownership;
    return this.actors.add(a);
  }

  render(path: string, context: object): string {
    return renderWith(this.handlebars, path, context);
  }
}

// ---------------------------------------------------------------- ApplicationV2 (minimal)

class FakeApplicationV2 {
  static DEFAULT_OPTIONS: Record<string, unknown> = {};
  static PARTS: Record<string, { template: string }> = {};
  element: HTMLElement | null = null;
  rendered = false;
  lastContext: unknown = null;
  lastHTML = "";
  constructor(readonly options: Record<string, unknown> = {}) {}
  async _prepareContext(_options?: unknown): Promise<unknown> {
    return {};
  }
  _onChangeForm(_config: unknown, _event: Event): void {}
  async render(_options?: unknown): Promise<this> {
    const ctx = await this._prepareContext({});
    this.lastContext = ctx;
    const parts = (this.constructor as typeof FakeApplicationV2).PARTS;
    this.lastHTML = Object.values(parts)
      .map((p) => installed!.render(p.template, ctx as object))
      .join("\n");
    this.rendered = true;
    return this;
  }
  async close(): Promise<this> {
    this.rendered = false;
    return this;
  }
}

let installed: FakeWorld | null = null;

/** Installs a fresh fake world on globalThis and returns it. */
export function installFoundry(opts: WorldOptions = {}): FakeWorld {
  const world = new FakeWorld(opts);
  installed = world;
  FakeRollBase.factory = world.rolls;
  FakeRollBase.world = world;
  const g = globalThis as Record<string, unknown>;
  g.game = world.game;
  g.CONFIG = strict(world.CONFIG, "CONFIG");
  g.Hooks = strict(world.hooks, "Hooks");
  g.Roll = FakeRollBase;
  g.ChatMessage = world.ChatMessage;
  g.ui = strict(
    {
      notifications: {
        info: (m: string) => world.notifications.push({ type: "info", message: m }),
        warn: (m: string) => world.notifications.push({ type: "warn", message: m }),
        error: (m: string) => world.notifications.push({ type: "error", message: m }),
      },
    },
    "ui",
  );
  g.Handlebars = world.handlebars;
  g.canvas = null;
  g.foundry = strict(
    {
      applications: {
        api: { ApplicationV2: FakeApplicationV2, HandlebarsApplicationMixin: <T>(base: T) => base },
        handlebars: {
          renderTemplate: async (path: string, data: object) => world.render(path, data),
          loadTemplates: async (paths: string[]) => paths,
        },
      },
      utils: {
        deepClone: <T>(v: T) => structuredClone(v),
      },
    },
    "foundry",
  );
  installCanvas(world); // scenes, tokens, movement actions, regions, combat (test/fake/tokens.ts)
  return world;
}
