/**
 * The documents of the fake world: one shared model for every feature (users, actors and their active effects,
 * scenes with tokens, regions, drawings, lights and walls, chat messages). Combat lives in combat.ts.
 *
 * Every mutating call goes through FakeWorld's write pipeline (world.ts): permission check as the calling client's
 * user, pre-hook on the initiating client, an asynchronous round trip to the "server", the change applied once,
 * then the document hook on every connected client with the server's `userId`. Reading a document is synchronous
 * and sees the server's state (each real client has its own copy, updated by the broadcast: the fake shares one).
 *
 * Sources (public API documentation, v13) are named where each rule is modelled.
 */
import { applyMerge, clone, DEL, getProperty, isPlainObject, type Plain } from "./data.js";
import type { FakeClient, FakeWorld } from "./world.js";
import { defaultSheet } from "./models.js";

/** CONST.DOCUMENT_OWNERSHIP_LEVELS (https://foundryvtt.com/api/v13/variables/CONST.DOCUMENT_OWNERSHIP_LEVELS.html). */
export const OWNERSHIP = { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } as const;
export type OwnershipLevel = keyof typeof OWNERSHIP;

export type Action = "create" | "update" | "delete";

/** A Foundry Collection: a Map of documents by id with the array helpers Foundry adds. */
export class FakeCollection<T extends { id: string }> implements Iterable<T> {
  readonly map = new Map<string, T>();
  constructor(readonly documentName: string) {}
  /** Collection#get(id, {strict}): undefined for an unknown id, or an error with strict. */
  get(id: string, options: { strict?: boolean } = {}): T | undefined {
    const d = this.map.get(id);
    if (!d && options.strict) throw new Error(`${this.documentName} id [${id}] does not exist in the collection`);
    return d;
  }
  has(id: string): boolean {
    return this.map.has(id);
  }
  get contents(): T[] {
    return [...this.map.values()];
  }
  get size(): number {
    return this.map.size;
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
  every(fn: (d: T) => boolean): boolean {
    return this.contents.every(fn);
  }
  map_<U>(fn: (d: T) => U): U[] {
    return this.contents.map(fn);
  }
  forEach(fn: (d: T) => void): void {
    this.contents.forEach(fn);
  }
  reduce<U>(fn: (acc: U, d: T) => U, initial: U): U {
    return this.contents.reduce(fn, initial);
  }
  getName(name: string): T | undefined {
    return this.contents.find((d) => (d as unknown as { name?: string }).name === name);
  }
  [Symbol.iterator](): Iterator<T> {
    return this.map.values();
  }
  values(): IterableIterator<T> {
    return this.map.values();
  }
  /** Server side: stores a document (seeding or an applied create). */
  set(doc: T): T {
    this.map.set(doc.id, doc);
    return doc;
  }
  /** Server side: removes a document. */
  remove(id: string): void {
    this.map.delete(id);
  }
}

/**
 * DocumentStats (`_stats`), the creation and access information Foundry keeps on some documents (Actor, Scene; not on an
 * embedded Token: TokenData lists none, v13 and v14 foundry.documents.types.TokenData): among others
 * `lastModifiedBy`, "the ID of the user who last modified the Document", and `modifiedTime`
 * (https://foundryvtt.com/api/v13/interfaces/foundry.data.types.DocumentStats.html, same in v14). The server stamps
 * them on each write; a client cannot choose them here (`_stats` is not an updatable field of the fake).
 */
export interface FakeDocumentStats {
  createdTime: number | null;
  modifiedTime: number | null;
  lastModifiedBy: string | null;
}

export interface DocumentData {
  _id?: string;
  flags?: Record<string, Plain>;
  ownership?: Record<string, number>;
  [key: string]: unknown;
}

/** The base of every fake document: id, flags, ownership, flag helpers and the calls into the write pipeline. */
export abstract class FakeDocument {
  static documentName = "Document";
  /** Top-level fields an update may change (besides flags); anything else throws, as a schema would. */
  static fields: readonly string[] = [];
  id: string;
  flags: Record<string, Plain>;
  ownership: Record<string, number>;
  deleted = false;
  constructor(
    readonly world: FakeWorld,
    data: DocumentData,
    readonly parent: FakeDocument | null = null,
  ) {
    this.id = data._id ?? world.newId(this.documentName);
    this.flags = clone(data.flags ?? {});
    this.ownership = clone(data.ownership ?? {});
  }
  get documentName(): string {
    return (this.constructor as typeof FakeDocument).documentName;
  }
  /** The collection name of this document type inside its parent (e.g. "tokens"). */
  get collectionName(): string {
    return `${this.documentName[0]!.toLowerCase()}${this.documentName.slice(1)}s`;
  }
  get uuid(): string {
    return this.parent ? `${this.parent.uuid}.${this.documentName}.${this.id}` : `${this.documentName}.${this.id}`;
  }
  /** The user of the client reading this (game.user). */
  protected get reader() {
    return this.world.currentClient().user;
  }
  /**
   * Document#testUserPermission: GMs have every level; otherwise the user's own level, else the default level.
   * https://foundryvtt.com/api/v13/classes/foundry.abstract.Document.html#testuserpermission
   */
  testUserPermission(
    user: { id: string; isGM: boolean },
    level: OwnershipLevel | number,
    options: { exact?: boolean } = {},
  ): boolean {
    const need = typeof level === "number" ? level : OWNERSHIP[level];
    if (user.isGM) return true;
    const have = this.ownership[user.id] ?? this.ownership.default ?? OWNERSHIP.NONE;
    return options.exact ? have === need : have >= need;
  }
  get isOwner(): boolean {
    return this.testUserPermission(this.reader, "OWNER");
  }
  /** Who may create, update or delete this document (per type; the default: owners update and delete, GMs create). */
  canUserModify(user: { id: string; isGM: boolean }, action: Action, _data?: Plain): boolean {
    if (action === "create") return user.isGM;
    return this.testUserPermission(user, "OWNER");
  }
  /**
   * Document#getFlag: the scope must be "core", "world", the game system's id or an active module's id, otherwise
   * Foundry throws ("Flag scope … is not valid or not currently active").
   * https://foundryvtt.com/api/v13/classes/foundry.abstract.Document.html#getflag
   */
  getFlag(scope: string, key: string): unknown {
    this.world.assertFlagScope(scope);
    return clone(getProperty(this.flags[scope], key));
  }
  /** Document#setFlag: an update of flags.<scope>.<key> (so an object value merges into the stored one). */
  setFlag(scope: string, key: string, value: unknown): Promise<this | undefined> {
    this.world.assertFlagScope(scope);
    return this.update({ [`flags.${scope}.${key}`]: value });
  }
  /** Document#unsetFlag: an update with the "-=key" deletion syntax (v14: the `_del` operator, data.ts). */
  unsetFlag(scope: string, key: string): Promise<this | undefined> {
    this.world.assertFlagScope(scope);
    if (this.world.generation >= 14) return this.update({ [`flags.${scope}.${key}`]: DEL });
    const parts = key.split(".");
    const last = parts.pop()!;
    const path = [`flags`, scope, ...parts, `-=${last}`].join(".");
    return this.update({ [path]: null });
  }
  update(changes: Plain, options: Plain = {}): Promise<this | undefined> {
    return this.world.updateDocument(this, changes, options) as Promise<this | undefined>;
  }
  delete(options: Plain = {}): Promise<this | undefined> {
    return this.world.deleteDocument(this, options) as Promise<this | undefined>;
  }
  /** The stored value of a top-level field (for the pipeline's diff). */
  readField(key: string): unknown {
    if (key === "flags") return this.flags;
    return (this as unknown as Plain)[key];
  }
  /** Applies a differential of a top-level field (the pipeline's server side). */
  writeField(key: string, diff: unknown): void {
    const self = this as unknown as Plain;
    if (key === "flags") {
      applyMerge(this.flags as Plain, diff as Plain);
      return;
    }
    const cur = self[key];
    if (
      cur !== null &&
      typeof cur === "object" &&
      !Array.isArray(cur) &&
      diff !== null &&
      typeof diff === "object" &&
      !Array.isArray(diff)
    ) {
      applyMerge(cur as Plain, diff as Plain);
    } else self[key] = clone(diff);
  }
  /** The copy of this document a client holds (the same object, unless the document class is per client). */
  forClient(_client: FakeClient): FakeDocument {
    return this;
  }
  /** Custom storage (per-client document copies): true when handled, false to use the default collection. */
  store(): boolean {
    return false;
  }
  unstore(): boolean {
    return false;
  }
  /** Custom stored test, or null for the default collection lookup. */
  storedIn(): boolean | null {
    return null;
  }
  /** Embedded collections of this document by collection name (tokens, effects, combatants...). */
  embedded(_collection: string): FakeCollection<FakeDocument> | null {
    return null;
  }
  toObject(): Plain {
    const out: Plain = { _id: this.id, flags: clone(this.flags), ownership: clone(this.ownership) };
    for (const f of (this.constructor as typeof FakeDocument).fields) out[f] = clone(this.readField(f));
    return out;
  }
}

// ------------------------------------------------------------------------------------------------ users

/**
 * User. A user may update some fields of their own User (flags among them); a GM any user.
 * https://foundryvtt.com/api/v13/classes/foundry.documents.User.html
 */
export class FakeUser extends FakeDocument {
  static override documentName = "User";
  static override fields = ["name", "color", "avatar", "character", "pronouns"];
  name: string;
  readonly isGM: boolean;
  readonly role: number;
  active: boolean;
  color = "#888888";
  avatar = "";
  character: string | null = null;
  pronouns = "";
  /** Tokens this user targets (only meaningful on the user's own client). */
  readonly targets = new Set<{ id: string; document?: unknown }>();
  constructor(world: FakeWorld, data: DocumentData & { name?: string; isGM?: boolean; active?: boolean }) {
    super(world, data);
    this.name = data.name ?? this.id;
    this.isGM = data.isGM ?? false;
    this.role = this.isGM ? 4 : 1;
    this.active = data.active ?? true;
  }
  /** Whether this is the user of the client reading it (User#isSelf). */
  get isSelf(): boolean {
    return this.world.currentClient().user === this;
  }
  override testUserPermission(user: { id: string; isGM: boolean }, level: OwnershipLevel | number): boolean {
    if (user.isGM || user.id === this.id) return true;
    return (typeof level === "number" ? level : OWNERSHIP[level]) <= OWNERSHIP.LIMITED;
  }
  override canUserModify(user: { id: string; isGM: boolean }, action: Action): boolean {
    if (user.isGM) return true;
    return action === "update" && user.id === this.id;
  }
  /**
   * User#query(name, data, {timeout}): runs CONFIG.queries[name] on this user's client. The handler receives
   * ONLY (data, {timeout}) — Foundry does not say who sent the query (NOTES.md "Who sent a request";
   * foundryvtt/foundryvtt#13418). The payload crosses the socket as JSON.
   */
  async query(name: string, data: unknown, options: { timeout?: number } = {}): Promise<unknown> {
    if (!this.active) throw new Error(`User ${this.name} is not connected`);
    const target = this.world.clientOf(this.id);
    await this.world.roundTrip();
    const handler = target.CONFIG.queries[name];
    if (typeof handler !== "function")
      throw new Error(`The query "${name}" is not registered on ${this.name}'s client`);
    const payload = JSON.parse(JSON.stringify(data ?? null)) as unknown;
    const timeout = options.timeout ?? 60_000;
    const result = await this.world.runOn(target, () => handler(payload, { timeout }));
    return result === undefined ? undefined : (JSON.parse(JSON.stringify(result)) as unknown);
  }
}

// ------------------------------------------------------------------------------------------------ actors

export interface EffectData extends DocumentData {
  name?: string;
  img?: string;
  statuses?: string[];
  changes?: Plain[];
  disabled?: boolean;
  duration?: Plain;
  origin?: string | null;
  system?: Plain;
  type?: string;
}

/**
 * ActiveEffect embedded in an Actor. Its owner is the actor's owner. `statuses` is the list of status ids it gives
 * (Actor#statuses is the union over enabled effects, v11+).
 * https://foundryvtt.com/api/v13/classes/foundry.documents.ActiveEffect.html
 */
export class FakeActiveEffect extends FakeDocument {
  static override documentName = "ActiveEffect";
  override get collectionName(): string {
    return "effects";
  }
  static override fields = [
    "name",
    "img",
    "statuses",
    "changes",
    "disabled",
    "duration",
    "origin",
    "system",
    "description",
    "tint",
  ];
  name: string;
  img: string;
  statuses: Set<string>;
  changes: Plain[];
  disabled: boolean;
  duration: Plain;
  origin: string | null;
  system: Plain;
  /** The world time when it was made (the fake's v14 expiry counts from it: world.ts expireEffects). */
  readonly createdAt: number;
  constructor(world: FakeWorld, data: EffectData, parent: FakeActor) {
    super(world, data, parent);
    this.createdAt = world.worldTime;
    if (typeof data.name !== "string" || data.name === "")
      throw new Error("ActiveEffect validation: name may not be blank");
    this.name = data.name;
    this.img = data.img ?? "icons/svg/aura.svg";
    this.statuses = new Set(data.statuses ?? []);
    this.changes = clone(data.changes ?? []);
    this.disabled = data.disabled ?? false;
    this.duration = clone(data.duration ?? {});
    this.origin = data.origin ?? null;
    this.system = clone(data.system ?? {});
  }
  get actor(): FakeActor {
    return this.parent as FakeActor;
  }
  override testUserPermission(user: { id: string; isGM: boolean }, level: OwnershipLevel | number): boolean {
    return this.actor.testUserPermission(user, level);
  }
  override canUserModify(user: { id: string; isGM: boolean }): boolean {
    return this.actor.testUserPermission(user, "OWNER");
  }
  /**
   * Document#updateSource: changes the data of a document not yet created (a preCreate hook may call it; the
   * creation then carries the change in the same write).
   */
  updateSource(changes: Plain): void {
    if (this.world.isStored(this)) throw new Error("updateSource on a stored document: use update");
    for (const [k, v] of Object.entries(changes)) {
      if (k.startsWith("flags.")) {
        const path = k.slice(6).split(".");
        let cur = this.flags as Plain;
        for (const p of path.slice(0, -1)) cur = (cur[p] ??= {}) as Plain;
        cur[path.at(-1)!] = clone(v);
      } else if (k === "flags") applyMerge(this.flags as Plain, v as Plain);
      else this.writeField(k, v);
    }
  }
  override readField(key: string): unknown {
    if (key === "statuses") return [...this.statuses];
    return super.readField(key);
  }
  override writeField(key: string, diff: unknown): void {
    if (key === "statuses") this.statuses = new Set(diff as string[]);
    else super.writeField(key, diff);
  }
}

export interface ActorData extends DocumentData {
  name: string;
  type?: string;
  img?: string;
  system?: Plain;
}

/**
 * Actor. Owners update it and its effects; only GMs create (players lack "create actors" by default).
 * https://foundryvtt.com/api/v13/classes/foundry.documents.Actor.html
 */
export class FakeActor extends FakeDocument {
  static override documentName = "Actor";
  /**
   * DocumentStats: ActorData lists `_stats` (v13 and v14 foundry.documents.types.ActorData). World data as loaded: its
   * last writer is not known to the fake. Stamped by the server on each write (FakeWorld#stamp).
   */
  _stats: FakeDocumentStats = { createdTime: null, modifiedTime: null, lastModifiedBy: null };
  static override fields = ["name", "type", "img", "system", "prototypeToken"];
  name: string;
  type: string;
  img: string;
  system: Plain;
  readonly effects: FakeCollection<FakeActiveEffect>;
  /** Set on the synthetic actor of an unlinked token (Actor#isToken, Actor#token). */
  isToken = false;
  token: FakeToken | null = null;
  constructor(world: FakeWorld, data: ActorData) {
    super(world, data);
    if (typeof data.name !== "string" || data.name === "") throw new Error("Actor validation: name may not be blank");
    this.name = data.name;
    this.type = data.type ?? "character";
    this.img = data.img ?? "icons/svg/mystery-man.svg";
    this.system = clone(data.system ?? {});
    this.effects = new FakeCollection<FakeActiveEffect>("ActiveEffect");
  }
  /** The sheet of each client (Actor#sheet: an instance of the default sheet class of the actor's type, kept). */
  readonly #sheets = new Map<string, unknown>();
  /** Actor#sheet: the default sheet registered for the actor's type on the reading client (models.ts), else null. */
  get sheet(): unknown {
    const client = this.world.currentClient();
    const reg = defaultSheet(client.CONFIG, "Actor", this.type);
    if (!reg) return null;
    let s = this.#sheets.get(client.user.id);
    if (!s || !(s instanceof reg.cls)) {
      s = new reg.cls({ document: this });
      this.#sheets.set(client.user.id, s);
    }
    return s;
  }
  /** Actor#statuses: the status ids of its enabled effects. */
  get statuses(): Set<string> {
    const out = new Set<string>();
    for (const e of this.effects) if (!e.disabled) for (const s of e.statuses) out.add(s);
    return out;
  }
  override embedded(collection: string): FakeCollection<FakeDocument> | null {
    return collection === "effects" ? (this.effects as unknown as FakeCollection<FakeDocument>) : null;
  }
  /** The synthetic actor of an unlinked token checks the token's ownership (it inherits the base actor's). */
  override testUserPermission(
    user: { id: string; isGM: boolean },
    level: OwnershipLevel | number,
    options: { exact?: boolean } = {},
  ): boolean {
    return super.testUserPermission(user, level, options);
  }
  createEmbeddedDocuments(type: string, data: Plain[], options: Plain = {}): Promise<FakeDocument[]> {
    if (type !== "ActiveEffect") throw new Error(`Fake Actor: embedded ${type} is not modelled`);
    return this.world.createEmbedded(this, "effects", data, options);
  }
  updateEmbeddedDocuments(type: string, updates: Plain[], options: Plain = {}): Promise<FakeDocument[]> {
    if (type !== "ActiveEffect") throw new Error(`Fake Actor: embedded ${type} is not modelled`);
    return this.world.updateEmbedded(this, "effects", updates, options);
  }
  deleteEmbeddedDocuments(type: string, ids: string[], options: Plain = {}): Promise<FakeDocument[]> {
    if (type !== "ActiveEffect") throw new Error(`Fake Actor: embedded ${type} is not modelled`);
    return this.world.deleteEmbedded(this, "effects", ids, options);
  }
  /**
   * Actor#toggleStatusEffect(statusId, {active, overlay}) (v12+): the status must be in CONFIG.statusEffects.
   * Turning it on creates an ActiveEffect from the status (name, img, statuses [id], and the status entry's own
   * _id when it has one — dnd5e gives every status a static id); turning it off deletes the effects that carry
   * the status. Resolves to the created ActiveEffect, true when effects were removed, false when nothing changed.
   * https://foundryvtt.com/api/v13/classes/foundry.documents.Actor.html#togglestatuseffect
   * dnd5e's override (module/documents/actor/actor.mjs, 5.3.3) calls super and tests `created instanceof ActiveEffect`.
   */
  async toggleStatusEffect(
    statusId: string,
    options: { active?: boolean; overlay?: boolean } = {},
  ): Promise<FakeActiveEffect | boolean | undefined> {
    const client = this.world.currentClient();
    const entry = client.statusEffectList().find((e) => e.id === statusId);
    if (!entry) throw new Error(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
    const existing = this.effects.filter((e) => e.statuses.has(statusId));
    const active = options.active ?? existing.length === 0;
    if (active) {
      if (existing.length) return false;
      const data: EffectData = {
        name: String(entry.name ?? statusId),
        img: String(entry.img ?? "icons/svg/aura.svg"),
        statuses: [statusId],
        ...(typeof entry._id === "string" ? { _id: entry._id } : {}),
        ...(entry.changes ? { changes: clone(entry.changes as Plain[]) } : {}),
        ...(entry.system ? { system: clone(entry.system as Plain) } : {}),
      };
      const [created] = await this.world.createEmbedded(this, "effects", [data], { keepId: true });
      return created as FakeActiveEffect | undefined;
    }
    if (!existing.length) return false;
    await this.world.deleteEmbedded(
      this,
      "effects",
      existing.map((e) => e.id),
      {},
    );
    return true;
  }
  /** The tokens of this actor on the viewed scene (Actor#getActiveTokens). */
  getActiveTokens(): unknown[] {
    const client = this.world.currentClient();
    const scene = client.viewedScene;
    if (!scene) return [];
    return scene.tokens
      .filter((t) => t.actor === this || (this.isToken && t === this.token))
      .map((t) => client.placeable(t));
  }
}

// ------------------------------------------------------------------------------------------------ scenes

export interface GridData {
  size: number;
  distance: number;
  units: string;
  type?: number;
}

export interface TokenData extends DocumentData {
  name: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  elevation?: number;
  disposition?: number;
  hidden?: boolean;
  actorLink?: boolean;
  actorId?: string | null;
  sight?: Plain;
  detectionModes?: unknown;
  light?: Plain;
  movementAction?: string;
  /** v14 only: the token's level id (TokenData.level, TokenPosition.level). */
  level?: string;
}

/**
 * TokenDocument, embedded in a Scene. Its ownership is its actor's (an unlinked token's synthetic actor inherits the
 * base actor's); a token without an actor belongs to GMs. Only GMs create and delete tokens here.
 * https://foundryvtt.com/api/v13/classes/foundry.documents.TokenDocument.html
 */
export class FakeToken extends FakeDocument {
  static override documentName = "Token";
  static override fields = [
    "name",
    "x",
    "y",
    "width",
    "height",
    "elevation",
    "disposition",
    "hidden",
    "actorLink",
    "sight",
    "detectionModes",
    "light",
    "movementAction",
    "texture",
    "rotation",
    "alpha",
    "locked",
    "lockRotation",
    "displayName",
    "displayBars",
    "level",
  ];
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  elevation: number;
  disposition: number;
  hidden: boolean;
  actorLink: boolean;
  readonly actorId: string | null;
  sight: Plain;
  detectionModes: unknown;
  light: Plain;
  movementAction: string;
  /**
   * v14: the level the token is on (TokenData.level, "The level ID": https://foundryvtt.com/api/v14/interfaces/
   * foundry.documents.types.TokenData.html; TokenPosition.level). v13 tokens have none (null; setting one throws).
   */
  level: string | null;
  texture: Plain = { src: "icons/svg/mystery-man.svg" };
  rotation = 0;
  alpha = 1;
  locked = false;
  lockRotation = false;
  displayName = 0;
  displayBars = 0;
  /** The synthetic actor of an unlinked token (created lazily from the base actor). */
  #synthetic: FakeActor | null = null;
  /** Times stopMovement was called (core stops an animated movement). */
  stopped = 0;
  constructor(world: FakeWorld, data: TokenData, parent: FakeScene) {
    super(world, data, parent);
    if (typeof data.name !== "string") throw new Error("Token validation: name is required");
    this.name = data.name;
    this.x = data.x ?? 0;
    this.y = data.y ?? 0;
    this.width = data.width ?? 1;
    this.height = data.height ?? 1;
    this.elevation = data.elevation ?? 0;
    this.disposition = data.disposition ?? -1;
    this.hidden = data.hidden ?? false;
    this.actorLink = data.actorLink ?? false;
    this.actorId = data.actorId ?? null;
    this.sight = clone(data.sight ?? { enabled: false, range: 0, visionMode: "basic" });
    this.detectionModes = clone(data.detectionModes ?? []);
    this.light = clone(data.light ?? { bright: 0, dim: 0 });
    this.movementAction = data.movementAction ?? "walk";
    if (data.level !== undefined && world.generation < 14) throw new Error("Token validation: level is a v14 field");
    this.level = data.level ?? (world.generation >= 14 ? (parent.levels.contents[0]?.id ?? null) : null);
  }
  override writeField(key: string, diff: unknown): void {
    if (key === "level" && this.world.generation < 14) throw new Error("Token update: level is a v14 field");
    super.writeField(key, diff);
  }
  get scene(): FakeScene {
    return this.parent as FakeScene;
  }
  /** The world actor this token was made from. */
  get baseActor(): FakeActor | null {
    return this.actorId ? (this.world.actors.get(this.actorId) ?? null) : null;
  }
  /** TokenDocument#actor: the world actor when linked, else the token's synthetic actor. */
  get actor(): FakeActor | null {
    const base = this.baseActor;
    if (!base) return null;
    if (this.actorLink) return base;
    if (!this.#synthetic) {
      const a = new FakeActor(this.world, {
        _id: base.id,
        name: base.name,
        type: base.type,
        system: clone(base.system),
        ownership: clone(base.ownership),
      });
      a.isToken = true;
      a.token = this;
      for (const e of base.effects)
        a.effects.set(
          new FakeActiveEffect(
            this.world,
            { ...e.toObject(), statuses: [...e.statuses], name: e.name } as EffectData,
            a,
          ),
        );
      // The system's methods (the prototype's, in a real system) come along; the fake puts them on the instance.
      for (const [k, v] of Object.entries(base)) if (typeof v === "function") (a as unknown as Plain)[k] = v;
      for (const k of ["rollCalls", "damageCalls"]) if (k in base) (a as unknown as Plain)[k] = [];
      this.#synthetic = a;
    }
    return this.#synthetic;
  }
  override testUserPermission(
    user: { id: string; isGM: boolean },
    level: OwnershipLevel | number,
    options: { exact?: boolean } = {},
  ): boolean {
    const actor = this.actor;
    if (actor) return actor.testUserPermission(user, level, options);
    return super.testUserPermission(user, level, options);
  }
  override canUserModify(user: { id: string; isGM: boolean }, action: Action): boolean {
    if (action !== "update") return user.isGM;
    return this.testUserPermission(user, "OWNER");
  }
  /** The token's placeable on the reading client's canvas (null when that client does not view its scene). */
  get object(): unknown {
    const client = this.world.currentClient();
    return client.viewedScene === this.parent ? client.placeable(this) : null;
  }
  /** Centre in pixels. */
  get center(): { x: number; y: number } {
    const size = this.scene.grid.size;
    return { x: this.x + (this.width * size) / 2, y: this.y + (this.height * size) / 2 };
  }
  /**
   * TokenDocument#move(waypoints, options) (v13): moves the token along waypoints as a movement (preMoveToken on this
   * client, the position update, region events, moveToken on every client). Resolves true when it moved.
   * https://foundryvtt.com/api/v13/classes/foundry.documents.TokenDocument.html#move
   */
  async move(waypoints: Plain | Plain[], options: Plain = {}): Promise<boolean> {
    const list = Array.isArray(waypoints) ? waypoints : [waypoints];
    const last = list.at(-1) ?? {};
    const movement = await this.world.moveToken(this, {
      x: typeof last.x === "number" ? last.x : undefined,
      y: typeof last.y === "number" ? last.y : undefined,
      elevation: typeof last.elevation === "number" ? last.elevation : undefined,
      // v14: a waypoint's level (TokenPosition.level)
      ...(typeof last.level === "string" ? { level: last.level } : {}),
      action: typeof last.action === "string" ? last.action : undefined,
      method: (options.method as never) ?? "api",
    });
    return movement !== null;
  }
  /** TokenDocument#stopMovement (v13): only the owner stops a movement. */
  stopMovement(): void {
    if (!this.isOwner) throw new Error(`User ${this.reader.name} cannot stop the movement of token ${this.name}`);
    this.stopped++;
  }
}

export interface RegionShape {
  type: "polygon" | "rectangle" | "ellipse";
  points?: number[];
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  radiusX?: number;
  radiusY?: number;
  hole?: boolean;
}

/**
 * A RegionBehavior embedded in a Region: a type ("modifyMovementCost", "aventure.fall"...) and its system data. GMs only
 * (players cannot edit regions). https://foundryvtt.com/api/v13/classes/foundry.documents.RegionBehavior.html;
 * a module's type needs CONFIG.RegionBehavior.dataModels and module.json documentTypes (NOTES.md "Regions").
 */
export class FakeRegionBehavior extends FakeDocument {
  static override documentName = "RegionBehavior";
  override get collectionName(): string {
    return "behaviors";
  }
  static override fields = ["name", "type", "system", "disabled"];
  name: string;
  type: string;
  system: Plain;
  disabled: boolean;
  constructor(
    world: FakeWorld,
    data: DocumentData & { type: string; name?: string; system?: Plain; disabled?: boolean },
    parent: FakeRegion,
  ) {
    super(world, data, parent);
    this.type = data.type;
    this.name = data.name ?? "";
    this.system = clone(data.system ?? {});
    this.disabled = data.disabled ?? false;
  }
  get region(): FakeRegion {
    return this.parent as FakeRegion;
  }
  override canUserModify(user: { isGM: boolean }): boolean {
    return user.isGM;
  }
}

/**
 * A Region of a Scene: shapes (polygons, rectangles; a hole subtracts), an elevation range, behaviours. GMs only.
 * https://foundryvtt.com/api/v13/classes/foundry.documents.RegionDocument.html (testPoint takes an elevation: NOTES.md
 * "v14", regions may sit on levels). v14: `levels` ("The level IDs", RegionData, v14 API) and
 * `elevation.topInclusive` ("Is the top included in the elevation range?", RegionElevationData, v14 API), false by
 * default (NOTES.md "v14 Scene Levels": the top is excluded by default); v13 includes the top. Unverified, so not
 * modelled: whether v14's testPoint also tests a level (the fake's tests elevation and shapes only).
 */
export class FakeRegion extends FakeDocument {
  static override documentName = "Region";
  static override fields = ["name", "shapes", "elevation", "color", "levels"];
  name: string;
  shapes: RegionShape[];
  elevation: { bottom: number | null; top: number | null; topInclusive?: boolean };
  /** v14: the region's levels (null on v13). */
  levels: string[] | null;
  color = "#ff0000";
  readonly behaviors: FakeCollection<FakeRegionBehavior>;
  constructor(
    world: FakeWorld,
    data: DocumentData & {
      name?: string;
      shapes?: RegionShape[];
      elevation?: { bottom: number | null; top: number | null; topInclusive?: boolean };
      levels?: string[];
    },
    parent: FakeScene,
  ) {
    super(world, data, parent);
    this.name = data.name ?? "Region";
    this.shapes = clone(data.shapes ?? []);
    this.elevation = clone(data.elevation ?? { bottom: null, top: null });
    if (world.generation < 14 && (data.levels !== undefined || this.elevation.topInclusive !== undefined))
      throw new Error("Region validation: levels and topInclusive are v14 fields");
    if (world.generation >= 14) this.elevation.topInclusive ??= false;
    this.levels = world.generation >= 14 ? [...(data.levels ?? [])] : null;
    this.behaviors = new FakeCollection<FakeRegionBehavior>("RegionBehavior");
  }
  override canUserModify(user: { isGM: boolean }): boolean {
    return user.isGM;
  }
  override embedded(collection: string): FakeCollection<FakeDocument> | null {
    return collection === "behaviors" ? (this.behaviors as unknown as FakeCollection<FakeDocument>) : null;
  }
  /** RegionDocument#testPoint({x, y, elevation}) (v13). */
  testPoint(p: { x: number; y: number; elevation: number }): boolean {
    if (typeof p.elevation !== "number") throw new Error("Region#testPoint needs an elevation");
    const { bottom, top } = this.elevation;
    const topIncluded = this.world.generation < 14 || this.elevation.topInclusive === true;
    if (
      (bottom !== null && p.elevation < bottom) ||
      (top !== null && (topIncluded ? p.elevation > top : p.elevation >= top))
    )
      return false;
    let inside = false;
    for (const s of this.shapes) {
      const hit = shapeContains(s, p.x, p.y);
      if (hit && s.hole) return false;
      if (hit) inside = true;
    }
    return inside;
  }
}

export function shapeContains(s: RegionShape, x: number, y: number): boolean {
  if (s.type === "rectangle") return x >= s.x! && x <= s.x! + s.width! && y >= s.y! && y <= s.y! + s.height!;
  if (s.type === "ellipse") {
    const dx = (x - s.x!) / s.radiusX!;
    const dy = (y - s.y!) / s.radiusY!;
    return dx * dx + dy * dy <= 1;
  }
  const pts = s.points ?? [];
  let inside = false;
  for (let i = 0, j = pts.length - 2; i < pts.length; j = i, i += 2) {
    const xi = pts[i]!;
    const yi = pts[i + 1]!;
    const xj = pts[j]!;
    const yj = pts[j + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * A Drawing of a Scene: shape {type: "p" polygon, "f" freehand, "r" rectangle, "e" ellipse}, points relative to x, y
 * (ShapeData.TYPES: https://foundryvtt.com/api/enums/foundry.CONST.DRAWING_TYPES.html, v11 page, which points to it;
 * unverified for v13 beyond NOTES.md). Created and updated by their author or a GM: the fake only lets GMs write them.
 */
export class FakeDrawing extends FakeDocument {
  static override documentName = "Drawing";
  static override fields = ["x", "y", "shape", "text", "author"];
  x: number;
  y: number;
  shape: { type: string; points: number[]; width?: number; height?: number };
  text: string;
  author: string;
  constructor(
    world: FakeWorld,
    data: DocumentData & {
      x?: number;
      y?: number;
      shape: { type: string; points: number[]; width?: number; height?: number };
      text?: string;
      author?: string;
    },
    parent: FakeScene,
  ) {
    super(world, data, parent);
    this.x = data.x ?? 0;
    this.y = data.y ?? 0;
    this.shape = clone(data.shape);
    this.text = data.text ?? "";
    this.author = data.author ?? world.currentClient().user.id;
  }
}

/**
 * An AmbientLight of a Scene: position and radii (config.bright/dim in grid distance units; `negative` makes a
 * darkness source). GMs only. https://foundryvtt.com/api/v13/classes/foundry.documents.AmbientLightDocument.html;
 * NOTES.md "Light and vision" (the drawn source's radii are in pixels: canvas.ts).
 */
export class FakeAmbientLight extends FakeDocument {
  static override documentName = "AmbientLight";
  override get collectionName(): string {
    return "lights";
  }
  static override fields = ["x", "y", "config", "hidden", "elevation"];
  x: number;
  y: number;
  elevation = 0;
  hidden: boolean;
  config: { bright: number; dim: number; negative?: boolean };
  constructor(
    world: FakeWorld,
    data: DocumentData & {
      x: number;
      y: number;
      config: { bright: number; dim: number; negative?: boolean };
      hidden?: boolean;
    },
    parent: FakeScene,
  ) {
    super(world, data, parent);
    this.x = data.x;
    this.y = data.y;
    this.config = clone(data.config);
    this.hidden = data.hidden ?? false;
  }
  override canUserModify(user: { isGM: boolean }): boolean {
    return user.isGM;
  }
}

/**
 * A Wall of a Scene: c = [x1, y1, x2, y2]; a door (door > 0: CONST.WALL_DOOR_TYPES) blocks sight unless open
 * (ds 1: CONST.WALL_DOOR_STATES CLOSED 0, OPEN 1, LOCKED 2, https://foundryvtt.com/api/variables/CONST.WALL_DOOR_STATES.html);
 * sight 0 = CONST.WALL_SENSE_TYPES.NONE. https://foundryvtt.com/api/v13/classes/foundry.documents.WallDocument.html
 * Players may change a door's state only (core's door control); unverified: the server's exact rule (locked doors).
 */
export class FakeWall extends FakeDocument {
  static override documentName = "Wall";
  static override fields = ["c", "sight", "door", "ds"];
  c: [number, number, number, number];
  sight: number;
  door: number;
  ds: number;
  constructor(
    world: FakeWorld,
    data: DocumentData & { c: [number, number, number, number]; sight?: number; door?: number; ds?: number },
    parent: FakeScene,
  ) {
    super(world, data, parent);
    this.c = [...data.c];
    this.sight = data.sight ?? 20;
    this.door = data.door ?? 0;
    this.ds = data.ds ?? 0;
  }
  /** Whether it blocks sight now (an open door does not; a wall with sight "none" does not). */
  get blocksSight(): boolean {
    if (this.sight === 0) return false;
    return !(this.door > 0 && this.ds === 1);
  }
  override canUserModify(user: { isGM: boolean }, action: Action, data?: Plain): boolean {
    if (user.isGM) return true;
    // Players may open and close doors (only the ds field), as core's door controls do.
    return action === "update" && this.door > 0 && !!data && Object.keys(data).every((k) => k === "ds" || k === "_id");
  }
}

/**
 * v14: a Level of a Scene (Scene#levels; LevelData: `elevation {bottom, top}`, `visibility {levels: Set<string>}`,
 * https://foundryvtt.com/api/interfaces/foundry.documents.types.LevelData.html, v14). What `visibility.levels` means
 * is not described there: the fake reads it as "the other levels visible from this one" (NOTES.md "v14 Scene Levels").
 * A level's range is taken as bottom ≤ elevation < top (unverified).
 */
export class FakeLevel extends FakeDocument {
  static override documentName = "Level";
  static override fields = ["name", "elevation", "visibility"];
  name: string;
  elevation: { bottom: number; top: number };
  visibility: { levels: Set<string> };
  constructor(
    world: FakeWorld,
    data: DocumentData & {
      name?: string;
      elevation?: { bottom: number; top: number };
      visibility?: { levels?: string[] };
    },
    parent: FakeScene,
  ) {
    super(world, data, parent);
    if (world.generation < 14) throw new Error("Level: a v14 document");
    this.name = data.name ?? this.id;
    this.elevation = { bottom: data.elevation?.bottom ?? 0, top: data.elevation?.top ?? 0 };
    this.visibility = { levels: new Set(data.visibility?.levels ?? []) };
  }
  /** GMs only (a scene's documents). */
  override canUserModify(user: { isGM: boolean }): boolean {
    return user.isGM;
  }
}

export interface SceneData extends DocumentData {
  name?: string;
  /** v14 only: the scene's levels. */
  levels?: {
    _id: string;
    name?: string;
    elevation: { bottom: number; top: number };
    visibility?: { levels: string[] };
  }[];
  grid?: Partial<GridData>;
  darkness?: number;
  globalLight?: boolean;
  width?: number;
  height?: number;
  padding?: number;
}

/**
 * Scene with its embedded tokens, regions, drawings, lights and walls. GMs only.
 * https://foundryvtt.com/api/v13/classes/foundry.documents.Scene.html
 */
export class FakeScene extends FakeDocument {
  static override documentName = "Scene";
  /** DocumentStats: SceneData lists `_stats` (v13 and v14 foundry.documents.types.SceneData). As FakeActor's. */
  _stats: FakeDocumentStats = { createdTime: null, modifiedTime: null, lastModifiedBy: null };
  static override fields = ["name", "grid", "environment", "active", "width", "height", "padding"];
  name: string;
  grid: GridData;
  environment: { darknessLevel: number; globalLight: { enabled: boolean; darkness: { min: number; max: number } } };
  active = false;
  width: number;
  height: number;
  /** SceneData#padding: the fraction of the scene added on each side of the canvas (0.25 by default). */
  padding: number;
  readonly tokens = new FakeCollection<FakeToken>("Token");
  readonly regions = new FakeCollection<FakeRegion>("Region");
  readonly drawings = new FakeCollection<FakeDrawing>("Drawing");
  readonly lights = new FakeCollection<FakeAmbientLight>("AmbientLight");
  readonly walls = new FakeCollection<FakeWall>("Wall");
  /** v14: the scene's levels (empty on v13). */
  readonly levels = new FakeCollection<FakeLevel>("Level");
  constructor(world: FakeWorld, data: SceneData) {
    super(world, data);
    if (data.levels?.length && world.generation < 14) throw new Error("Scene validation: levels are a v14 feature");
    for (const l of data.levels ?? []) this.levels.set(new FakeLevel(world, l, this));
    this.name = data.name ?? "Scene";
    this.grid = { size: 100, distance: 1.5, units: "m", type: 1, ...(data.grid ?? {}) };
    this.environment = {
      darknessLevel: data.darkness ?? 0,
      globalLight: { enabled: data.globalLight ?? false, darkness: { min: 0, max: 1 } },
    };
    this.width = data.width ?? 4000;
    this.height = data.height ?? 3000;
    this.padding = data.padding ?? 0.25;
  }
  override canUserModify(user: { isGM: boolean }): boolean {
    return user.isGM;
  }
  override embedded(collection: string): FakeCollection<FakeDocument> | null {
    const map: Record<string, FakeCollection<FakeDocument>> = {
      tokens: this.tokens as unknown as FakeCollection<FakeDocument>,
      regions: this.regions as unknown as FakeCollection<FakeDocument>,
      drawings: this.drawings as unknown as FakeCollection<FakeDocument>,
      lights: this.lights as unknown as FakeCollection<FakeDocument>,
      walls: this.walls as unknown as FakeCollection<FakeDocument>,
      levels: this.levels as unknown as FakeCollection<FakeDocument>,
    };
    return map[collection] ?? null;
  }
  createEmbeddedDocuments(type: string, data: Plain[], options: Plain = {}): Promise<FakeDocument[]> {
    return this.world.createEmbedded(this, collectionOf(type), data, options);
  }
  /** Scene#view: the calling client draws this scene (its canvas, its placeables). */
  async view(): Promise<this> {
    const client = this.world.currentClient();
    this.world.viewScene(client, this);
    return this;
  }
  updateEmbeddedDocuments(type: string, updates: Plain[], options: Plain = {}): Promise<FakeDocument[]> {
    return this.world.updateEmbedded(this, collectionOf(type), updates, options);
  }
  deleteEmbeddedDocuments(type: string, ids: string[], options: Plain = {}): Promise<FakeDocument[]> {
    return this.world.deleteEmbedded(this, collectionOf(type), ids, options);
  }
}

function collectionOf(type: string): string {
  const map: Record<string, string> = {
    Token: "tokens",
    Region: "regions",
    Drawing: "drawings",
    AmbientLight: "lights",
    Wall: "walls",
    Level: "levels",
  };
  const c = map[type];
  if (!c) throw new Error(`Fake Scene: embedded ${type} is not modelled`);
  return c;
}

// ------------------------------------------------------------------------------------------------ chat

export interface SpeakerData {
  scene?: string | null;
  actor?: string | null;
  token?: string | null;
  alias?: string;
}

export interface MessageData extends DocumentData {
  content?: string;
  flavor?: string;
  whisper?: string[];
  blind?: boolean;
  speaker?: SpeakerData;
  rolls?: unknown[];
  author?: string;
  style?: number;
  sound?: string | null;
  timestamp?: number;
  type?: string;
  system?: Plain;
}

/**
 * ChatMessage. Any user may create one, as themselves (only a GM may create a message authored by someone else);
 * its author and GMs may update and delete it. A whispered message is visible to its author and the users it is
 * whispered to (GMs see other users' whispers only when the sender lacks the "whisper" permission: not modelled).
 * https://foundryvtt.com/api/v13/classes/foundry.documents.ChatMessage.html ;
 * CONST.CHAT_MESSAGE_TYPES.WHISPER (v11 docs) for visibility.
 * Unverified: whether the server withholds a whisper from non-recipients; the fake delivers every message's hooks
 * to every client, and `visible` says what each one may show.
 */
export class FakeChatMessage extends FakeDocument {
  static override documentName = "ChatMessage";
  static override fields = ["content", "flavor", "whisper", "blind", "speaker", "rolls", "style", "sound", "system"];
  /**
   * The message's sub-type: "base" (core's only one, CONST.BASE_DOCUMENT_TYPE) or a module's `<id>.<sub-type>`
   * (module sub-types article). Not updatable in the fake (whether Foundry lets an update change it is unverified).
   */
  readonly type: string;
  /** The system's source (cleaned and validated by the sub-type's data model, statics.ts and world.ts). */
  systemSource: Plain;
  content: string;
  flavor: string;
  whisper: string[];
  blind: boolean;
  speaker: SpeakerData;
  rolls: unknown[];
  style: number;
  sound: string | null;
  timestamp: number;
  readonly authorId: string;
  constructor(world: FakeWorld, data: MessageData) {
    super(world, data);
    this.content = data.content ?? "";
    this.flavor = data.flavor ?? "";
    this.whisper = [...(data.whisper ?? [])];
    this.blind = data.blind ?? false;
    this.speaker = clone(data.speaker ?? {});
    this.rolls = [...(data.rolls ?? [])];
    this.style = data.style ?? 0;
    this.sound = data.sound ?? null;
    this.timestamp = data.timestamp ?? Date.now();
    this.authorId = data.author ?? world.currentClient().user.id;
    this.type = data.type ?? "base";
    this.systemSource = clone(data.system ?? {});
  }
  /**
   * ChatMessage#system: an instance of the sub-type's data model (CONFIG.ChatMessage.dataModels[type] of the reading
   * client), built from the source; the plain source for a type without one
   * (https://foundryvtt.com/api/v13/classes/foundry.abstract.TypeDataModel.html: "the system field … an instance of
   * the model").
   */
  get system(): Plain {
    const config = this.world.currentClient().CONFIG.ChatMessage as { dataModels?: Plain } | undefined;
    const Model = config?.dataModels?.[this.type] as (new (d: Plain, o: Plain) => Plain) | undefined;
    return Model ? new Model(clone(this.systemSource), { parent: this, strict: false }) : this.systemSource;
  }
  override readField(key: string): unknown {
    return key === "system" ? this.systemSource : super.readField(key);
  }
  override writeField(key: string, diff: unknown): void {
    if (key !== "system") return super.writeField(key, diff);
    if (isPlainObject(diff)) applyMerge(this.systemSource, diff);
    else this.systemSource = clone(diff as Plain);
  }
  /** ChatMessage#author: the User (v12+; the stored field is the id). */
  get author(): FakeUser | undefined {
    return this.world.users.get(this.authorId);
  }
  get isAuthor(): boolean {
    return this.reader.id === this.authorId;
  }
  /**
   * ChatMessage#visible for the reading user: a whisper shows to its author and recipients; a blind roll hides it from
   * its non-GM author (CONST.CHAT_MESSAGE_TYPES.WHISPER, v11 docs; ChatMessage v13 page: `whisper`, `blind`).
   */
  get visible(): boolean {
    if (!this.whisper.length) return true;
    const u = this.reader;
    if (this.blind && u.id === this.authorId && !u.isGM) return false;
    return u.id === this.authorId || this.whisper.includes(u.id);
  }
  override testUserPermission(user: { id: string; isGM: boolean }, level: OwnershipLevel | number): boolean {
    if (user.isGM || user.id === this.authorId) return true;
    return (typeof level === "number" ? level : OWNERSHIP[level]) <= OWNERSHIP.LIMITED;
  }
  override canUserModify(user: { id: string; isGM: boolean }, action: Action, data?: Plain): boolean {
    if (action === "create") return user.isGM || data?.author === undefined || data.author === user.id;
    return user.isGM || user.id === this.authorId;
  }
  override toObject(): Plain {
    return { ...super.toObject(), author: this.authorId, timestamp: this.timestamp, type: this.type };
  }
}
