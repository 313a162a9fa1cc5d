/**
 * Combat in the fake world. A combat is one record on the server, but each client holds its own Combat object of its
 * own CONFIG.Combat.documentClass (the module replaces that class with a subclass, and each client runs its own copy of
 * the module): `forClient` gives the client's object, and every hook gets the receiving client's object.
 *
 * Sources (public API documentation, v13, and NOTES.md "Combat"):
 * - Combat: `turns` sorted by `_sortCombatants` (initiative descending, unrolled last, then name; called unbound),
 *   `combatant` = turns[turn], `started` = turns exist and round > 0. startCombat fires combatStart(combat, updateData)
 *   then updates {round: 1, turn: 0}. nextTurn/nextRound fire combatTurn/combatRound(combat, updateData,
 *   updateOptions) on the initiating client, then update with v13 options {advanceTime, direction: 1}
 *   (v14: {direction, worldTime: {delta}}); nextTurn skips defeated combatants only when core's "skip defeated"
 *   setting is on. https://foundryvtt.com/api/v13/classes/foundry.documents.Combat.html
 * - Who may update: GMs; a player may change only `round`/`turn`, and only when they own the current combatant (core
 *   lets the current combatant's owner end the turn: NOTES.md "Combat"; the v14 Combat page lists the checks
 *   `_canChangeRound` / `_canChangeTurn` beside `canUserModify`, https://foundryvtt.com/api/v14/classes/foundry.documents.Combat.html
 *   — their exact rule is not in the public text: unverified beyond NOTES.md). Combatants: their owner updates them
 *   (initiative, flags).
 * - Turn events (_onStartRound(context), _onStartTurn, _onEndTurn, _onEndRound) run on the ACTIVE GM's client only,
 *   after an update that changes round or turn, unless the update's options say turnEvents: false
 *   (https://foundryvtt.com/api/v13/classes/foundry.documents.Combat.html#_onstartround). After combatants change,
 *   the active GM keeps the turn on the combatant who had it (same exception).
 * - rollInitiative(ids, {formula, updateTurn, messageOptions}): one roll per combatant (combatant.getInitiativeRoll),
 *   ONE updateEmbeddedDocuments("Combatant") with all initiatives, then the turn is kept.
 * - dnd5e 5.3.3 Combat5e (module/documents/combat.mjs): _sortCombatants separates equal initiatives by base actor;
 *   createGroups groups unlinked combatants with the same initiative, disposition and base actor (Combatant5e
 *   getGroupingKey); its tracker (module/applications/combat/combat-tracker.mjs renderGroups) moves those rows into a
 *   collapsed `li.combatant-group > ol.group-children`, from its own renderCombatTracker handler (systems.ts).
 *   rollInitiative calls super then `_recoverUses({initiative: combatant})` for each id; startCombat calls super then
 *   `_recoverUses({encounter: true})`; _onStartRound `{round: true}`, _onStartTurn `{turn: true, turnStart: c}`,
 *   _onEndTurn `{turnEnd: c}` (the fake records the periods per combatant instead of recovering item uses).
 *   Combatant5e#getInitiativeRoll → actor.getInitiativeRoll() (module/documents/combatant.mjs). Its tracker's roll
 *   button calls `combatant.actor.rollInitiativeDialog()` (CombatTracker5e#_onCombatantControl); core's calls
 *   `combat.rollInitiative([id])`.
 * - Actor#rollInitiative({createCombatants, rerollInitiative, initiativeOptions}) (core, v13 Actor page): the active
 *   combat's combatants of this actor (of this token for a synthetic actor), created first with createCombatants,
 *   those without initiative unless rerollInitiative, then `combat.rollInitiative(ids, initiativeOptions)`; no active
 *   combat: a warning and null (unverified detail: core's exact message). dnd5e 5.3.3 Actor5e
 *   (module/documents/actor/actor.mjs): rollInitiativeDialog builds a D20Roll configuration with hookNames
 *   ["initiativeDialog", "abilityCheck", "d20Test"] and BasicRoll.buildConfigure (module/dice/basic-roll.mjs) calls
 *   `dnd5e.preRoll<Name>` then `dnd5e.preRoll<Name>V2` for each name and "" (a false return stops it) before the
 *   dialog, then caches the roll and calls `this.rollInitiative({createCombatants: true, initiativeOptions})`;
 *   rollInitiative fires `dnd5e.preRollInitiative` (false stops it), calls core's, then `dnd5e.rollInitiative`.
 * - The tracker's rows escape the combatant's name (core renders it with Handlebars); a row without initiative
 *   has a roll button for its owners and GMs (core shows it only then).
 */
import { clone, type Plain } from "./data.js";
import {
  FakeActor,
  FakeCollection,
  FakeDocument,
  type Action,
  type FakeToken,
  type OwnershipLevel,
} from "./documents.js";
import { FakeRoll } from "./statics.js";
import type { FakeClient, FakeWorld } from "./world.js";

export interface CombatantRecord {
  id: string;
  tokenId: string;
  sceneId: string;
  actorId: string | null;
  initiative: number | null;
  hidden: boolean;
  defeated: boolean;
  flags: Record<string, Plain>;
  /**
   * DocumentStats (CombatantData#_stats, https://foundryvtt.com/api/v13/interfaces/foundry.documents.types.CombatantData.html;
   * https://foundryvtt.com/api/v13/interfaces/foundry.data.types.DocumentStats.html): "lastModifiedBy: the ID of the
   * user who last modified the Document", stamped by the server on each create and update (a client cannot write it:
   * the fake refuses `_stats` in an update, Foundry would overwrite it).
   */
  _stats: { lastModifiedBy: string | null; createdTime: number | null; modifiedTime: number | null };
}

export class CombatRecord {
  id: string;
  scene: string | null;
  active: boolean;
  round = 0;
  turn: number | null = null;
  flags: Record<string, Plain>;
  readonly combatants = new Map<string, CombatantRecord>();
  deleted = false;
  readonly instances = new Map<FakeClient, FakeCombat>();
  /** dnd5e's use recoveries (Combat5e#_recoverUses), in order: who, for which periods, on whose client. */
  readonly recoveries: { user: string; combatant: string; periods: string[] }[] = [];
  constructor(id: string, data: Plain) {
    this.id = id;
    this.scene = typeof data.scene === "string" ? data.scene : null;
    this.active = data.active === true;
    this.flags = clone((data.flags as Record<string, Plain>) ?? {});
  }
}

type CombatContext = { world: FakeWorld; client: FakeClient; record: CombatRecord };

/** Core's Combat for one client. The module's CONFIG.Combat.documentClass extends it (or the dnd5e class below). */
export class FakeCombat extends FakeDocument {
  static override documentName = "Combat";
  static override fields = ["round", "turn", "active", "scene"];
  readonly record: CombatRecord;
  readonly client: FakeClient;
  readonly #combatants = new Map<string, FakeCombatant>();
  /** Expanded dnd5e groups (per client, like dnd5e's expandedGroups). */
  readonly expandedGroups = new Set<string>();
  constructor(_data: Plain = {}, context?: CombatContext) {
    if (!context) throw new Error("Fake Combat: create combats with CONFIG.Combat.documentClass.create(data)");
    super(context.world, { _id: context.record.id, flags: context.record.flags as never });
    this.record = context.record;
    this.client = context.client;
    this.flags = context.record.flags; // shared: every client reads the server's flags
    Object.defineProperty(this, "deleted", {
      get: () => this.record.deleted,
      set: (v: boolean) => (this.record.deleted = v),
    });
  }
  static async create(data: Plain = {}, options: Plain = {}): Promise<FakeCombat | undefined> {
    const world = FakeRoll.world;
    const client = world.currentClient();
    const record = new CombatRecord(world.newId("Combat"), data);
    if (record.scene && !world.scenes.get(record.scene)) throw new Error(`Scene ${record.scene} does not exist`);
    const Class = client.CONFIG.Combat.documentClass as new (d: Plain, c: CombatContext) => FakeCombat;
    const made = await world.createDocument(
      () => {
        const c = new Class(data, { world, client, record });
        record.instances.set(client, c);
        return c;
      },
      data,
      options,
    );
    if (!made) return undefined;
    if (record.active)
      for (const other of world.combats.contents as CombatRecord[])
        if (other !== record && other.scene === record.scene) other.active = false;
    return made;
  }
  override forClient(client: FakeClient): FakeCombat {
    let mine = this.record.instances.get(client);
    if (!mine) {
      const Class = client.CONFIG.Combat.documentClass as new (d: Plain, c: CombatContext) => FakeCombat;
      mine = new Class({}, { world: this.world, client, record: this.record });
      this.record.instances.set(client, mine);
    }
    return mine;
  }
  override store(): boolean {
    (this.world.combats as FakeCollection<CombatRecord>).set(this.record);
    return true;
  }
  override unstore(): boolean {
    (this.world.combats as FakeCollection<CombatRecord>).remove(this.record.id);
    return true;
  }
  override storedIn(): boolean {
    return !this.record.deleted && this.world.combats.get(this.record.id) === this.record;
  }
  get round(): number {
    return this.record.round;
  }
  get turn(): number | null {
    return this.record.turn;
  }
  get active(): boolean {
    return this.record.active;
  }
  get scene(): { id: string } | null {
    return this.record.scene ? (this.world.scenes.get(this.record.scene) ?? null) : null;
  }
  override readField(key: string): unknown {
    if (key === "flags") return this.record.flags;
    return (this.record as unknown as Plain)[key];
  }
  override writeField(key: string, diff: unknown): void {
    if (key === "flags") super.writeField(key, diff);
    else (this.record as unknown as Plain)[key] = clone(diff);
  }
  /** This client's combatant objects. */
  get combatants(): FakeCollection<FakeCombatant> {
    const out = new FakeCollection<FakeCombatant>("Combatant");
    for (const r of this.record.combatants.values()) {
      let c = this.#combatants.get(r.id);
      if (!c) {
        c = new FakeCombatant(this.world, r, this);
        this.#combatants.set(r.id, c);
      }
      out.set(c);
    }
    return out;
  }
  override embedded(collection: string): FakeCollection<FakeDocument> | null {
    return collection === "combatants" ? (this.combatants as unknown as FakeCollection<FakeDocument>) : null;
  }
  /** Core's default order, called UNBOUND by core (it must not rely on `this`). */
  _sortCombatants(a: FakeCombatant, b: FakeCombatant): number {
    const ia = typeof a.initiative === "number" ? a.initiative : -Infinity;
    const ib = typeof b.initiative === "number" ? b.initiative : -Infinity;
    if (ia !== ib) return ib - ia;
    return a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  }
  get turns(): FakeCombatant[] {
    const sort = this._sortCombatants;
    return this.combatants.contents.sort((a, b) => sort.call(undefined, a, b));
  }
  setupTurns(): FakeCombatant[] {
    return this.turns;
  }
  debounceSetup(): void {}
  get started(): boolean {
    return this.turns.length > 0 && this.round > 0;
  }
  get combatant(): FakeCombatant | null {
    return this.turn === null ? null : (this.turns[this.turn] ?? null);
  }
  /** Combat#settings = core.combatTrackerConfig (v13): skipDefeated off by default (setSkipDefeated). */
  get settings(): { skipDefeated: boolean } {
    return { skipDefeated: skipDefeatedOf.get(this.world) ?? false };
  }
  override canUserModify(user: { id: string; isGM: boolean }, action: Action, data?: Plain): boolean {
    if (user.isGM) return true;
    if (action !== "update" || !data) return false;
    if (Object.keys(data).some((k) => k !== "round" && k !== "turn" && k !== "_id")) return false;
    const current = this.forClient(this.world.currentClient()).combatant;
    return !!current && current.testUserPermission(user, "OWNER");
  }
  override testUserPermission(user: { id: string; isGM: boolean }, level: OwnershipLevel | number): boolean {
    return (
      user.isGM || (typeof level === "number" ? level : { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 }[level]) <= 2
    );
  }
  override async update(changes: Plain, options: Plain = {}): Promise<this | undefined> {
    const prev = { round: this.round, turn: this.turn, combatantId: this.combatant?.id ?? null };
    const out = await this.world.updateDocument(this, changes, options);
    if (out && (prev.round !== this.round || prev.turn !== this.turn)) {
      runTurnEvents(this, prev, options);
      // The round's seconds elapse on the world clock (CONFIG.time.roundTime: "the number of seconds which
      // automatically elapse at the end of a Combat round"; the update carries them as v13 advanceTime, v14
      // worldTime.delta: hookEvents.combatRound). Unverified detail: which side advances it; modelled as the server,
      // after the combat update, for the user who made it: updateWorldTime then fires on every client.
      const delta = Number((options.worldTime as Plain | undefined)?.delta ?? options.advanceTime ?? 0);
      if (Number.isFinite(delta) && delta !== 0)
        await this.world.serverAdvanceTime(delta, options, this.world.currentClient().user.id);
    }
    return out as this | undefined;
  }
  async startCombat(): Promise<this> {
    const updateData = { round: 1, turn: 0 };
    this.client.hooks.callAll("combatStart", this, updateData);
    await this.update(updateData);
    return this;
  }
  #timeOptions(advance: number): Plain {
    return this.world.generation >= 14
      ? { direction: 1, worldTime: { delta: advance } }
      : { advanceTime: advance, direction: 1 };
  }
  async nextRound(): Promise<this> {
    let turn: number | null = this.turn === null ? null : 0;
    if (this.settings.skipDefeated && turn !== null) {
      const i = this.turns.findIndex((t) => !t.isDefeated);
      turn = i < 0 ? 0 : i;
    }
    const updateData = { round: this.round + 1, turn };
    // dnd5e sets CONFIG.time.roundTime = 6 (dnd5e.mjs); the fake keeps 6 where a system sets nothing.
    const roundTime = Number((this.client.CONFIG.time as Plain | undefined)?.roundTime ?? 6);
    const updateOptions = this.#timeOptions(roundTime);
    this.client.hooks.callAll("combatRound", this, updateData, updateOptions);
    await this.update(updateData, updateOptions);
    return this;
  }
  async nextTurn(): Promise<this> {
    const turn = this.turn ?? -1;
    let next: number | null = null;
    if (this.settings.skipDefeated) {
      for (const [i, t] of this.turns.entries())
        if (i > turn && !t.isDefeated) {
          next = i;
          break;
        }
    } else next = turn + 1;
    if (this.round === 0 || next === null || next >= this.turns.length) return this.nextRound();
    const updateData = { round: this.round, turn: next };
    const updateOptions = this.#timeOptions(0);
    this.client.hooks.callAll("combatTurn", this, updateData, updateOptions);
    await this.update(updateData, updateOptions);
    return this;
  }
  async _onStartRound(_context: Plain): Promise<void> {}
  async _onStartTurn(_combatant: FakeCombatant, _context?: Plain): Promise<void> {}
  async _onEndTurn(_combatant: FakeCombatant, _context?: Plain): Promise<void> {}
  async _onEndRound(_context?: Plain): Promise<void> {}
  /** Core's rollInitiative: a 1d20 per combatant (formula option), one Combatant update, the turn kept. */
  async rollInitiative(
    ids: string | string[],
    options: { formula?: string; updateTurn?: boolean } = {},
  ): Promise<this> {
    const list = typeof ids === "string" ? [ids] : ids;
    const currentId = this.combatant?.id;
    const updates: Plain[] = [];
    for (const id of list) {
      const c = this.combatants.get(id);
      if (!c?.isOwner) continue;
      const roll = c.getInitiativeRoll(options.formula);
      await roll.evaluate();
      updates.push({ _id: id, initiative: roll.total });
    }
    if (!updates.length) return this;
    await this.updateEmbeddedDocuments("Combatant", updates);
    if (options.updateTurn !== false && currentId) {
      const idx = this.turns.findIndex((t) => t.id === currentId);
      if (idx >= 0 && idx !== this.turn) await this.update({ turn: idx });
    }
    return this;
  }
  async rollAll(options: Plain = {}): Promise<this> {
    return this.rollInitiative(
      this.combatants.filter((c) => c.isOwner && c.initiative === null).map((c) => c.id),
      options,
    );
  }
  async rollNPC(options: Plain = {}): Promise<this> {
    return this.rollInitiative(
      this.combatants.filter((c) => c.isOwner && c.isNPC && c.initiative === null).map((c) => c.id),
      options,
    );
  }
  createEmbeddedDocuments(type: string, data: Plain[], options: Plain = {}): Promise<FakeDocument[]> {
    if (type !== "Combatant") throw new Error(`Fake Combat: embedded ${type} is not modelled`);
    const currentId = this.combatant?.id ?? null;
    return this.world.createEmbedded(this, "combatants", data, options).then((made) => {
      keepCurrentTurn(this, options, currentId);
      return made;
    });
  }
  updateEmbeddedDocuments(type: string, updates: Plain[], options: Plain = {}): Promise<FakeDocument[]> {
    if (type !== "Combatant") throw new Error(`Fake Combat: embedded ${type} is not modelled`);
    const currentId = this.combatant?.id ?? null;
    return this.world.updateEmbedded(this, "combatants", updates, options).then((out) => {
      keepCurrentTurn(this, options, currentId);
      return out;
    });
  }
  deleteEmbeddedDocuments(type: string, ids: string[], options: Plain = {}): Promise<FakeDocument[]> {
    if (type !== "Combatant") throw new Error(`Fake Combat: embedded ${type} is not modelled`);
    return this.world.deleteEmbedded(this, "combatants", ids, options);
  }
  /** Server side: a combatant created (the pipeline calls it through makeEmbedded). */
  makeEmbedded(collection: string, data: Plain): FakeDocument {
    if (collection !== "combatants") throw new Error(`Fake Combat: cannot create ${collection}`);
    const tokenId = String(data.tokenId ?? "");
    const sceneId = String(data.sceneId ?? this.record.scene ?? "");
    const token = this.world.scenes.get(sceneId)?.tokens.get(tokenId);
    if (!token) throw new Error(`Combatant validation: token ${tokenId} does not exist in scene ${sceneId}`);
    if (data.actorId !== undefined && data.actorId !== (token.actor?.id ?? null))
      throw new Error("Combatant validation: actorId does not match the token");
    const record: CombatantRecord = {
      id: typeof data._id === "string" ? data._id : this.world.newId("Combatant"),
      tokenId,
      sceneId,
      actorId: token.actor?.id ?? null,
      initiative: typeof data.initiative === "number" ? data.initiative : null,
      hidden: data.hidden === true,
      defeated: data.defeated === true,
      flags: clone((data.flags as Record<string, Plain>) ?? {}),
      _stats: { lastModifiedBy: this.world.currentClient().user.id, createdTime: Date.now(), modifiedTime: Date.now() },
    };
    return new FakeCombatant(this.world, record, this, true);
  }
}

/** A Combatant for one client (its record is shared). Owned by its token's actor's owners. */
export class FakeCombatant extends FakeDocument {
  static override documentName = "Combatant";
  static override fields = ["initiative", "hidden", "defeated"];
  readonly record: CombatantRecord;
  #pending: boolean;
  constructor(world: FakeWorld, record: CombatantRecord, parent: FakeCombat, pending = false) {
    super(world, { _id: record.id }, parent);
    this.record = record;
    this.#pending = pending;
    this.flags = record.flags;
  }
  get combat(): FakeCombat {
    return this.parent as FakeCombat;
  }
  override forClient(client: FakeClient): FakeCombatant {
    return this.combat.forClient(client).combatants.get(this.id) ?? this;
  }
  override store(): boolean {
    this.combat.record.combatants.set(this.record.id, this.record);
    this.#pending = false;
    return true;
  }
  override unstore(): boolean {
    this.combat.record.combatants.delete(this.record.id);
    return true;
  }
  override storedIn(): boolean {
    return this.#pending ? false : this.combat.record.combatants.get(this.id) === this.record;
  }
  get tokenId(): string {
    return this.record.tokenId;
  }
  get sceneId(): string {
    return this.record.sceneId;
  }
  get actorId(): string | null {
    return this.record.actorId;
  }
  get initiative(): number | null {
    return this.record.initiative;
  }
  get hidden(): boolean {
    return this.record.hidden;
  }
  get defeated(): boolean {
    return this.record.defeated;
  }
  /** The server's DocumentStats (see CombatantRecord#_stats). */
  get _stats(): CombatantRecord["_stats"] {
    return { ...this.record._stats };
  }
  get token(): FakeToken | null {
    return this.world.scenes.get(this.sceneId)?.tokens.get(this.tokenId) ?? null;
  }
  get actor(): FakeActor | null {
    return this.token?.actor ?? null;
  }
  get name(): string {
    return this.token?.name ?? "Unknown";
  }
  /** A combatant with an actor no player owns. */
  get isNPC(): boolean {
    const a = this.actor;
    if (!a) return true;
    return !this.world.users.some((u) => !u.isGM && a.testUserPermission(u, "OWNER"));
  }
  get isDefeated(): boolean {
    return this.defeated || (this.actor?.statuses.has("dead") ?? false);
  }
  /** v13 CombatantGroup: not used by these combats. */
  get group(): null {
    return null;
  }
  getInitiativeRoll(formula?: string): FakeRoll {
    // Combatant5e#getInitiativeRoll: the actor's own initiative roll (dnd5e), else core's formula.
    const actor = this.actor as unknown as { getInitiativeRoll?: () => FakeRoll } | null;
    if (this.combat instanceof FakeCombat5e && typeof actor?.getInitiativeRoll === "function")
      return actor.getInitiativeRoll();
    return new FakeRoll(formula ?? "1d20");
  }
  override readField(key: string): unknown {
    if (key === "flags") return this.record.flags;
    return (this.record as unknown as Plain)[key];
  }
  override writeField(key: string, diff: unknown): void {
    if (key === "flags") super.writeField(key, diff);
    else (this.record as unknown as Plain)[key] = clone(diff);
    // The server stamps who wrote it (the pipeline applies an update in the writing client's context).
    this.record._stats = {
      ...this.record._stats,
      lastModifiedBy: this.world.currentClient().user.id,
      modifiedTime: Date.now(),
    };
  }
  override testUserPermission(
    user: { id: string; isGM: boolean },
    level: OwnershipLevel | number,
    options: { exact?: boolean } = {},
  ): boolean {
    if (user.isGM) return true;
    return this.actor?.testUserPermission(user, level, options) ?? false;
  }
  override canUserModify(user: { id: string; isGM: boolean }, action: Action): boolean {
    if (user.isGM) return true;
    const token = this.token;
    if (action === "create") return !!token && token.testUserPermission(user, "OWNER");
    return this.testUserPermission(user, "OWNER");
  }
  override update(changes: Plain, options: Plain = {}): Promise<this | undefined> {
    return this.combat
      .updateEmbeddedDocuments("Combatant", [{ _id: this.id, ...changes }], options)
      .then((r) => (r[0] as this | undefined) ?? undefined);
  }
}

/** dnd5e 5.3.3 Combat5e: equal initiatives split by base actor, then name; createGroups for its tracker. */
export class FakeCombat5e extends FakeCombat {
  override async startCombat(): Promise<this> {
    await super.startCombat();
    await this._recoverUses({ encounter: true });
    return this;
  }
  override async rollInitiative(
    ids: string | string[],
    options: { formula?: string; updateTurn?: boolean } = {},
  ): Promise<this> {
    await super.rollInitiative(ids, options);
    for (const id of typeof ids === "string" ? [ids] : ids)
      await this._recoverUses({ initiative: this.combatants.get(id) });
    return this;
  }
  override async _onStartRound(context: Plain): Promise<void> {
    await super._onStartRound(context);
    await this._recoverUses({ round: true });
  }
  override async _onStartTurn(combatant: FakeCombatant, context?: Plain): Promise<void> {
    await super._onStartTurn(combatant, context);
    await this._recoverUses({ turn: true, turnStart: combatant });
  }
  override async _onEndTurn(combatant: FakeCombatant, context?: Plain): Promise<void> {
    await super._onEndTurn(combatant, context);
    await this._recoverUses({ turnEnd: combatant });
  }
  /** Combat5e#_recoverUses: for each combatant not defeated, the periods whose value is true or that combatant. */
  async _recoverUses(types: Record<string, unknown>): Promise<void> {
    for (const c of this.combatants) {
      if (c.isDefeated) continue;
      const periods = Object.entries(types)
        .filter(([, v]) => v === true || (v instanceof FakeCombatant && v.id === c.id))
        .map(([k]) => k);
      if (periods.length)
        this.record.recoveries.push({ user: this.world.currentClient().user.id, combatant: c.name, periods });
    }
  }
  override _sortCombatants(a: FakeCombatant, b: FakeCombatant): number {
    if (a.initiative !== b.initiative) return FakeCombat.prototype._sortCombatants.call(undefined, a, b);
    const ba = a.token?.baseActor;
    const bb = b.token?.baseActor;
    if (!ba || !bb || ba !== bb) {
      const name = (c: FakeCombatant) => `${c.token?.baseActor?.name ?? ""}.${c.token?.baseActor?.id ?? ""}`;
      return name(a).localeCompare(name(b));
    }
    return a.name.localeCompare(b.name);
  }
  /** Combatant5e#getGroupingKey and Combat5e#createGroups: groups of more than one. */
  createGroups(): Map<string, { combatants: FakeCombatant[]; expanded: boolean }> {
    const groups = new Map<string, { combatants: FakeCombatant[]; expanded: boolean }>();
    for (const c of this.combatants) {
      const t = c.token;
      if (!t || t.actorLink || !t.baseActor || c.initiative === null) continue;
      const key = `${String(Math.floor(c.initiative)).padStart(4, "0")}:${t.disposition}:${t.baseActor.id}`;
      if (!groups.has(key)) groups.set(key, { combatants: [], expanded: this.expandedGroups.has(key) });
      groups.get(key)!.combatants.push(c);
    }
    for (const [k, g] of groups) if (g.combatants.length <= 1) groups.delete(k);
    return groups;
  }
}

/**
 * The combat tracker of one client (ui.combat): renders rows `li.combatant[data-combatant-id]` for the viewed combat
 * in turn order into a real DOM, then fires renderCombatTracker(app, html, context). `renderGroups` is dnd5e's.
 */
export class FakeCombatTracker {
  renders = 0;
  element: HTMLElement | null = null;
  constructor(readonly client: FakeClient) {}
  get viewed(): FakeCombat | null {
    return activeCombat(this.client);
  }
  async render(_options?: unknown): Promise<this> {
    this.renders++;
    const world = this.client.world;
    const doc = world.window.document;
    const section = doc.createElement("section");
    section.className = "combat-sidebar";
    const combat = this.viewed;
    const user = this.client.user;
    const rows = (combat?.turns ?? [])
      .filter((c) => user.isGM || !c.hidden)
      .map((c, i) => {
        const roll =
          c.initiative === null && c.testUserPermission(user, "OWNER")
            ? `<button type="button" class="combatant-control roll" data-action="rollInitiative"></button>`
            : "";
        return `<li class="combatant${i === combat?.turn ? " active" : ""}" data-combatant-id="${c.id}"><img class="token-image" src="" alt="${escapeHtml(c.name)}"><div class="token-name"><strong class="name">${escapeHtml(c.name)}</strong></div><div class="token-initiative">${roll}<span class="initiative">${c.initiative ?? ""}</span></div></li>`;
      })
      .join("");
    section.innerHTML = `<header class="combat-tracker-header"></header><ol class="combat-tracker plain">${rows}</ol>`;
    section.addEventListener("click", (event) => {
      const target = (event.target as unknown as HTMLElement).closest?.(
        "[data-action='rollInitiative']",
      ) as HTMLElement | null;
      if (target)
        world.runOn(this.client, () =>
          world.track(this._onCombatantControl(event as unknown as Event, target), "combat tracker control"),
        );
    });
    this.element = section as unknown as HTMLElement;
    world.runOn(this.client, () => this.client.hooks.callAll("renderCombatTracker", this, this.element, { combat }));
    await world.settle();
    return this;
  }
  /** CombatTracker#_onCombatantControl (core): the roll button rolls this combatant's initiative. */
  async _onCombatantControl(_event: Event, target: HTMLElement): Promise<unknown> {
    const id = (target.closest(".combatant") as HTMLElement | null)?.dataset.combatantId ?? "";
    const combat = this.viewed;
    if (target.dataset.action === "rollInitiative" && combat) return combat.rollInitiative([id]);
    return undefined;
  }
  /** dnd5e's CombatTracker5e#renderGroups (only meaningful with the dnd5e Combat class). */
  renderGroups(html: HTMLElement): void {
    const combat = this.viewed as FakeCombat5e | null;
    if (!combat || typeof combat.createGroups !== "function") return;
    const doc = this.client.world.window.document;
    const list = html.querySelector(".combat-tracker") as HTMLElement;
    for (const [key, { combatants, expanded }] of combat.createGroups()) {
      const children = [
        ...list.querySelectorAll(combatants.map((c) => `[data-combatant-id="${c.id}"]`).join(", ")),
      ] as HTMLElement[];
      if (!children.length) continue;
      const group = doc.createElement("li") as unknown as HTMLElement;
      group.classList.add("combatant", "combatant-group", "collapsible", "dnd5e2-collapsible");
      if (!expanded) group.classList.add("collapsed");
      if (children.some((c) => c.classList.contains("active"))) group.classList.add("active");
      group.innerHTML = `<div class="group-header flexrow"><img class="token-image" alt="" src=""><div class="token-name flexcol"><strong class="name"></strong><div class="group-numbers">${children.length}</div></div><div class="token-initiative"><i class="fa-solid fa-chevron-down fa-fw" inert></i></div></div><div class="collapsible-content"><div class="wrapper"><ol class="group-children"></ol></div></div>`;
      (group.querySelector(".name") as HTMLElement).textContent = combatants[0]?.name ?? "";
      group.dataset.groupKey = key;
      children[0]!.before(group);
      (group.querySelector(".group-children") as HTMLElement).replaceChildren(...children);
    }
  }
  /** The entries of the combatant context menu: core's, then getCombatTrackerContextOptions(app, entries). */
  contextOptions(): Plain[] {
    const entries: Plain[] = [];
    this.client.world.runOn(this.client, () =>
      this.client.hooks.callAll("getCombatTrackerContextOptions", this, entries),
    );
    return entries;
  }
}

/** dnd5e's CombatTracker5e: its roll button opens the actor's initiative dialog (actor.rollInitiativeDialog()). */
export class FakeCombatTracker5e extends FakeCombatTracker {
  override async _onCombatantControl(event: Event, target: HTMLElement): Promise<unknown> {
    const id = (target.closest(".combatant") as HTMLElement | null)?.dataset.combatantId ?? "";
    const combatant = this.viewed?.combatants.get(id);
    const actor = combatant?.actor as unknown as { rollInitiativeDialog?: () => Promise<unknown> } | null;
    if (target.dataset.action === "rollInitiative" && typeof actor?.rollInitiativeDialog === "function")
      return actor.rollInitiativeDialog();
    return super._onCombatantControl(event, target);
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const skipDefeatedOf = new WeakMap<FakeWorld, boolean>();

/** Core's "Skip defeated combatants" (core.combatTrackerConfig.skipDefeated), for the whole world. */
export function setSkipDefeated(world: FakeWorld, on: boolean): void {
  skipDefeatedOf.set(world, on);
}

/**
 * Core's Actor#rollInitiative (see the header): the active combat of the calling client, this actor's combatants
 * (this token's for a synthetic actor), created first when asked, then Combat#rollInitiative.
 */
export async function coreActorRollInitiative(
  actor: FakeActor,
  options: { createCombatants?: boolean; rerollInitiative?: boolean; initiativeOptions?: Plain } = {},
): Promise<FakeCombat | null> {
  const client = actor.world.currentClient();
  const combat = activeCombat(client);
  if (!combat) {
    client.notify("warn", "COMBAT.NoneActive");
    return null;
  }
  const scene = combat.scene as { tokens?: FakeCollection<FakeToken> } | null;
  const tokens =
    actor.isToken && actor.token
      ? [actor.token]
      : (scene?.tokens?.filter((t) => t.actorLink && t.actorId === actor.id) ?? []);
  const mine = (c: FakeCombatant) => tokens.some((t) => t.id === c.tokenId);
  if (options.createCombatants) {
    const missing = tokens.filter((t) => !combat.combatants.some((c) => c.tokenId === t.id));
    if (missing.length)
      await combat.createEmbeddedDocuments(
        "Combatant",
        missing.map((t) => ({ tokenId: t.id, sceneId: t.scene.id })),
      );
  }
  const ids = combat.combatants
    .filter((c) => mine(c) && (options.rerollInitiative || c.initiative === null))
    .map((c) => c.id);
  if (ids.length) await combat.rollInitiative(ids, (options.initiativeOptions ?? {}) as never);
  return combat;
}

/**
 * dnd5e 5.3.3 Actor5e's initiative methods (see the header), written with `this` so that an unlinked token's
 * synthetic actor has them too. The initiative dialog takes the user's answer from the dialog queue ("dnd5e-initiative":
 * null = closed, which rolls nothing).
 */
export function installDnd5eInitiative(world: FakeWorld, actor: FakeActor): void {
  const a = actor as unknown as Plain;
  const mod = (self: FakeActor) =>
    (self.system.abilities as Record<string, { mod: number }> | undefined)?.dex?.mod ?? 0;
  a.getInitiativeRoll = function (this: FakeActor & { _cachedInitiativeRoll?: FakeRoll }) {
    if (this._cachedInitiativeRoll)
      return new FakeRoll(this._cachedInitiativeRoll.formula, { ...this._cachedInitiativeRoll.data });
    return new FakeRoll("1d20 + @mod", { mod: mod(this) });
  };
  a.rollInitiativeDialog = async function (
    this: FakeActor & { _cachedInitiativeRoll?: FakeRoll; rollInitiative(o: Plain): Promise<unknown> },
    rollOptions: Plain = {},
    dialog: Plain = {},
  ) {
    const config = {
      evaluate: false,
      event: rollOptions.event,
      hookNames: ["initiativeDialog", "abilityCheck", "d20Test", ""],
      rolls: [{ parts: ["@mod"], data: { mod: mod(this) }, options: {} }],
      subject: this,
    };
    const message = { rollMode: "publicroll" };
    const hooks = this.world.currentClient().hooks;
    for (const name of config.hookNames) {
      const cap = name ? name[0]!.toUpperCase() + name.slice(1) : "";
      if (hooks.call(`dnd5e.preRoll${cap}`, config, dialog, message) === false) return undefined;
      if (hooks.call(`dnd5e.preRoll${cap}V2`, config, dialog, message) === false) return undefined;
    }
    const answer = world.nextDialogAnswer("dnd5e-initiative", "DND5E.InitiativeRoll", "");
    if (answer === null) return undefined;
    this._cachedInitiativeRoll = new FakeRoll("1d20 + @mod", { mod: mod(this) });
    await this.rollInitiative({ createCombatants: true, initiativeOptions: { messageOptions: message } });
    return undefined;
  };
  a.rollInitiative = async function (
    this: FakeActor & { _cachedInitiativeRoll?: FakeRoll; getInitiativeRoll(): FakeRoll },
    options: Plain = {},
  ) {
    this._cachedInitiativeRoll ??= this.getInitiativeRoll();
    const hooks = this.world.currentClient().hooks;
    if (hooks.call("dnd5e.preRollInitiative", this, this._cachedInitiativeRoll) === false) {
      delete this._cachedInitiativeRoll;
      return null;
    }
    const combat = await coreActorRollInitiative(this, options);
    hooks.callAll(
      "dnd5e.rollInitiative",
      this,
      combat?.combatants.filter((c) => c.actor === this || c.actorId === this.id) ?? [],
    );
    delete this._cachedInitiativeRoll;
    return combat;
  };
}

/** Combatants whose turn started, "round:name", in order (for assertions). */
export const turnLog: string[] = [];

/**
 * Turn events after an update that changed round or turn: on the active GM's client only, unless turnEvents: false.
 * The GM's own Combat object runs them (the module's subclass on that client). Every client then gets
 * combatTurnChange(combat, prior, current).
 */
function runTurnEvents(
  combat: FakeCombat,
  prev: { round: number; turn: number | null; combatantId: string | null },
  options: Plain,
): void {
  const world = combat.world;
  const prior = { round: prev.round, turn: prev.turn, combatantId: prev.combatantId };
  if (options.turnEvents !== false) {
    const gm = world.users.activeGM;
    const client = gm ? world.clients.get(gm.id) : undefined;
    if (client?.alive) {
      const mine = combat.forClient(client);
      world.runOn(client, () =>
        world.track(
          (async () => {
            const before = prev.combatantId ? (mine.combatants.get(prev.combatantId) ?? null) : null;
            if (before && prev.round > 0) await mine._onEndTurn(before, { round: prev.round, turn: prev.turn });
            if (mine.round > prev.round) {
              if (prev.round > 0) await mine._onEndRound({ round: prev.round });
              await mine._onStartRound({ round: mine.round, turn: mine.turn ?? 0, skipped: false });
            }
            const current = mine.combatant;
            if (current) {
              turnLog.push(`${mine.round}:${current.name}`);
              await mine._onStartTurn(current, { round: mine.round, turn: mine.turn ?? 0, skipped: false });
            }
          })(),
          "Combat turn events",
        ),
      );
    }
  }
  const current = { round: combat.round, turn: combat.turn, combatantId: combat.combatant?.id ?? null };
  world.broadcast("combatTurnChange", combat, prior, current);
}

/**
 * After combatants change, the active GM keeps the turn on the combatant who had it (a turn update with
 * turnEvents: false), unless the change itself said turnEvents: false.
 */
function keepCurrentTurn(combat: FakeCombat, options: Plain, currentId: string | null): void {
  if (options.turnEvents === false || !currentId || !combat.started) return;
  const world = combat.world;
  const gm = world.users.activeGM;
  const client = gm ? world.clients.get(gm.id) : undefined;
  if (!client?.alive) return;
  const mine = combat.forClient(client);
  const idx = mine.turns.findIndex((t) => t.id === currentId);
  if (idx < 0 || idx === mine.turn) return;
  world.runOn(client, () => world.track(mine.update({ turn: idx }, { turnEvents: false }), "keep the current turn"));
}

/** The active combat of the scene a client views (game.combat), as that client's object. */
export function activeCombat(client: FakeClient): FakeCombat | null {
  const world = client.world;
  const scene = client.viewedScene;
  for (const r of world.combats.contents as CombatRecord[]) {
    if (!r.deleted && r.active && (r.scene === null || r.scene === scene?.id)) return forClientOf(world, r, client);
  }
  return null;
}

function forClientOf(world: FakeWorld, record: CombatRecord, client: FakeClient): FakeCombat {
  const any = record.instances.values().next().value as FakeCombat | undefined;
  if (any) return any.forClient(client);
  const Class = client.CONFIG.Combat.documentClass as new (d: Plain, c: CombatContext) => FakeCombat;
  const mine = new Class({}, { world, client, record });
  record.instances.set(client, mine);
  return mine;
}

/** Installs combat on a client (before the module loads): CONFIG.Combat, game.combats/combat, ui.combat. */
export function installCombat(client: FakeClient, dnd5e: boolean): void {
  const world = client.world;
  client.CONFIG.Combat = {
    documentClass: dnd5e ? FakeCombat5e : FakeCombat,
    initiative: { formula: "1d20", decimals: 2 },
  };
  const tracker = dnd5e ? new FakeCombatTracker5e(client) : new FakeCombatTracker(client);
  // Core's Actor#rollInitiative, on every actor (dnd5e's actors override it: installDnd5eInitiative).
  if (!Object.prototype.hasOwnProperty.call(FakeActor.prototype, "rollInitiative")) {
    Object.defineProperty(FakeActor.prototype, "rollInitiative", {
      configurable: true,
      writable: true,
      value(this: FakeActor, options: Plain = {}) {
        return coreActorRollInitiative(this, options);
      },
    });
  }
  const combats = {
    get: (id: string) => {
      const r = world.combats.get(id) as CombatRecord | undefined;
      return r && !r.deleted ? forClientOf(world, r, client) : undefined;
    },
    get contents() {
      return (world.combats.contents as CombatRecord[])
        .filter((r) => !r.deleted)
        .map((r) => forClientOf(world, r, client));
    },
    filter(fn: (c: FakeCombat) => boolean) {
      return this.contents.filter(fn);
    },
    find(fn: (c: FakeCombat) => boolean) {
      return this.contents.find(fn);
    },
    get size() {
      return this.contents.length;
    },
    [Symbol.iterator]() {
      return this.contents[Symbol.iterator]();
    },
  };
  Object.defineProperty(client.game, "combats", { value: combats, configurable: true, enumerable: true });
  Object.defineProperty(client.game, "combat", {
    get: () => activeCombat(client),
    configurable: true,
    enumerable: true,
  });
  Object.defineProperty(client.ui, "combat", { value: tracker, configurable: true, enumerable: true });
}

/**
 * A combat as a world saved earlier holds it (the server's database at start-up): no hook, no permission check, no
 * write recorded — like FakeWorld#addToken. Each combatant may give its `_stats.lastModifiedBy` (who wrote it last).
 */
export function seedCombat(
  world: FakeWorld,
  data: {
    _id: string;
    scene: string;
    active?: boolean;
    round?: number;
    turn?: number | null;
    flags?: Plain;
    combatants: (Plain & { _id: string; tokenId: string; _stats?: { lastModifiedBy?: string } })[];
  },
): CombatRecord {
  const record = new CombatRecord(data._id, {
    scene: data.scene,
    active: data.active === true,
    flags: (data.flags ?? {}) as Plain,
  });
  record.round = data.round ?? 0;
  record.turn = data.turn ?? null;
  for (const c of data.combatants) {
    const token = world.scenes.get(data.scene)?.tokens.get(c.tokenId);
    if (!token) throw new Error(`seedCombat: token ${c.tokenId} does not exist in scene ${data.scene}`);
    record.combatants.set(c._id, {
      id: c._id,
      tokenId: c.tokenId,
      sceneId: data.scene,
      actorId: token.actor?.id ?? null,
      initiative: typeof c.initiative === "number" ? c.initiative : null,
      hidden: c.hidden === true,
      defeated: c.defeated === true,
      flags: clone((c.flags as Record<string, Plain>) ?? {}),
      _stats: { lastModifiedBy: c._stats?.lastModifiedBy ?? null, createdTime: null, modifiedTime: null },
    });
  }
  (world.combats as FakeCollection<CombatRecord>).set(record);
  return record;
}
