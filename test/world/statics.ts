/**
 * The globals every client shares (classes and namespaces): Roll, ChatMessage, foundry.*, CONST, PIXI.
 * Their methods act as the client whose code calls them (FakeWorld#currentClient).
 *
 * Sources (public API documentation, v13):
 * - Roll: https://foundryvtt.com/api/v13/classes/foundry.dice.Roll.html (evaluate is async and evaluates once;
 *   toMessage(messageData, {rollMode, create}) creates a ChatMessage carrying the roll).
 * - ChatMessage statics: getSpeaker({scene, actor, token, alias}), getWhisperRecipients(name),
 *   https://foundryvtt.com/api/v13/classes/foundry.documents.ChatMessage.html
 * - ApplicationV2: DEFAULT_OPTIONS merged down the class chain, PARTS rendered in order, `actions` handlers called
 *   with `this` = the application and (event, target), form `handler(event, form, formData)`, `_onChangeForm`,
 *   render hooks `render<ClassName>`. https://foundryvtt.com/api/v13/classes/foundry.applications.api.ApplicationV2.html
 * - DialogV2.confirm/prompt: resolve to the button's callback result, or null when closed with rejectClose false.
 *   https://foundryvtt.com/api/v13/classes/foundry.applications.api.DialogV2.html
 */
import {
  clone,
  deepEqual,
  DEL,
  expandObject,
  ForcedDeletion,
  getProperty,
  isPlainObject,
  randomID,
  type Plain,
} from "./data.js";
import {
  FakeActor,
  FakeChatMessage,
  FakeScene,
  type ActorData,
  type MessageData,
  type SceneData,
} from "./documents.js";
import { setStaticInstaller, type FakeWorld } from "./world.js";
import { renderWith } from "../fake/handlebars.js";
import { FakeTokenRuler } from "./canvas.js";
import {
  cleanSystemForCreate,
  FAKE_FIELDS,
  FakeDataModel,
  FAKE_MODEL_FIELDS,
  FakeValidatingTypeDataModel,
  modelSystemForCreate,
  registerSheet,
  type FakeDataField,
  type SheetRegistration,
} from "./models.js";

// ------------------------------------------------------------------------------------------------ Roll

interface DieTerm {
  faces: number;
  number: number;
  results: { result: number; active: boolean }[];
}

/** Dice terms, numbers and @data; a die may keep its highest or lowest result (`2d20kl`: Foundry's keep modifiers). */
const FORMULA = /^\s*(\d+d\d+(?:kh|kl)?|\d+|@\w+)(\s*[+-]\s*(\d+d\d+(?:kh|kl)?|\d+|@\w+))*\s*$/;

export class FakeRoll {
  static world: FakeWorld;
  readonly dice: DieTerm[] = [];
  total: number | undefined = undefined;
  _evaluated = false;
  readonly options: Plain;
  constructor(
    readonly formula: string,
    readonly data: Plain = {},
    options: Plain = {},
  ) {
    if (typeof formula !== "string" || !FORMULA.test(formula))
      throw new Error(`Fake Roll: unsupported formula ${String(formula)}`);
    this.options = options;
  }
  get isDeterministic(): boolean {
    return !/d\d/.test(this.formula);
  }
  async evaluate(_options: Plain = {}): Promise<this> {
    if (this._evaluated)
      throw new Error(`The ${this.constructor.name} has already been evaluated and is now immutable`);
    let total = 0;
    for (const term of this.formula.replace(/\s+/g, "").match(/[+-]?[^+-]+/g) ?? []) {
      const sign = term.startsWith("-") ? -1 : 1;
      const body = term.replace(/^[+-]/, "");
      const m = /^(\d+)d(\d+)(kh|kl)?$/.exec(body);
      if (m) {
        const number = Number(m[1]);
        const faces = Number(m[2]);
        const results = Array.from({ length: number }, () => ({ result: FakeRoll.world.takeDie(faces), active: true }));
        if (m[3]) {
          // kh / kl keep one die, the highest or the lowest; the others stay in the results, inactive.
          const values = results.map((r) => r.result);
          const kept = m[3] === "kh" ? Math.max(...values) : Math.min(...values);
          const at = values.indexOf(kept);
          results.forEach((r, i) => (r.active = i === at));
        }
        this.dice.push({ faces, number, results });
        total += sign * results.filter((r) => r.active).reduce((a, r) => a + r.result, 0);
      } else if (body.startsWith("@")) {
        const v = getProperty(this.data, body.slice(1));
        if (typeof v !== "number") throw new Error(`Fake Roll: @${body.slice(1)} is not a number`);
        total += sign * v;
      } else total += sign * Number(body);
    }
    this.total = total;
    this._evaluated = true;
    FakeRoll.world.rollsMade.push(this);
    return this;
  }
  /** Roll#toMessage: evaluates if needed and creates a ChatMessage with this roll (create: false returns the data). */
  async toMessage(messageData: Plain = {}, options: { rollMode?: string; create?: boolean } = {}): Promise<unknown> {
    if (!this._evaluated) await this.evaluate();
    const data = { ...messageData, rolls: [this] };
    if (options.create === false) return data;
    return ChatMessageStatics.create(data as MessageData);
  }
  toJSON(): Plain {
    return { class: "Roll", formula: this.formula, total: this.total, evaluated: this._evaluated };
  }
}

// ------------------------------------------------------------------------------------------------ ChatMessage

export const ChatMessageStatics = {
  get implementation() {
    return ChatMessageStatics;
  },
  documentName: "ChatMessage",
  async create(data: MessageData, options: Plain = {}): Promise<FakeChatMessage | undefined> {
    const world = FakeRoll.world;
    if (!isPlainObject(data)) throw new Error("ChatMessage.create: data must be an object");
    for (const k of Object.keys(data)) {
      if (
        ![
          "content",
          "flavor",
          "whisper",
          "blind",
          "speaker",
          "rolls",
          "flags",
          "author",
          "style",
          "sound",
          "type",
          "timestamp",
          "emote",
          "title",
          "system",
        ].includes(k)
      ) {
        throw new Error(`ChatMessage validation: unknown field "${k}"`);
      }
    }
    if (
      data.whisper !== undefined &&
      (!Array.isArray(data.whisper) || !data.whisper.every((id) => typeof id === "string" && world.users.has(id)))
    ) {
      throw new Error("ChatMessage validation: whisper must be a list of user ids");
    }
    // The sub-type: a namespaced one must be declared by an active module, and its data model (the creating client's
    // CONFIG.ChatMessage.dataModels) migrates, cleans and validates the system, or nothing is created (models.ts).
    const client = world.currentClient();
    const type = data.type ?? "base";
    if (typeof type !== "string") throw new Error("ChatMessage validation: type must be a string");
    const system = modelSystemForCreate(
      "ChatMessage",
      type,
      isPlainObject(data.system) ? data.system : {},
      client.CONFIG.ChatMessage as never,
      (id) => client.modules.get(id)?.active ?? false,
    );
    return world.createDocument(
      () => new FakeChatMessage(world, { ...clone(data), system } as MessageData),
      data as Plain,
      options,
    );
  },
  getSpeaker(
    opts: {
      actor?: { id?: string | null; name?: string } | null;
      token?: { id?: string | null; name?: string; parent?: { id?: string } | null } | null;
      scene?: { id?: string } | null;
      alias?: string;
    } = {},
  ) {
    const client = FakeRoll.world.currentClient();
    return {
      scene: opts.scene?.id ?? opts.token?.parent?.id ?? client.viewedScene?.id ?? null,
      actor: opts.actor?.id ?? null,
      token: opts.token?.id ?? null,
      alias: opts.alias ?? opts.token?.name ?? opts.actor?.name ?? client.user.name,
    };
  },
  getWhisperRecipients(name: string) {
    const world = FakeRoll.world;
    if (name === "GM") return world.users.filter((u) => u.isGM);
    const u = world.users.getName(name);
    return u ? [u] : [];
  },
};

// ------------------------------------------------------------------------------------------------ world documents

/**
 * Scene.create / Actor.create as the calling client (GMs only by default: players lack "create" permissions —
 * core's default USER_PERMISSIONS, https://foundryvtt.com/api/v13/variables/CONST.USER_PERMISSIONS.html; the fake
 * grants no player the ACTOR_CREATE permission).
 */
export const SceneStatics = {
  documentName: "Scene",
  get implementation() {
    return SceneStatics;
  },
  create(data: SceneData, options: Plain = {}): Promise<FakeScene | undefined> {
    const world = FakeRoll.world;
    return world.createDocument(() => new FakeScene(world, clone(data)), data as Plain, options);
  },
};

export const ActorStatics = {
  documentName: "Actor",
  get implementation() {
    return ActorStatics;
  },
  async create(data: ActorData, options: Plain = {}): Promise<FakeActor | undefined> {
    const world = FakeRoll.world;
    return world.createDocument(
      () => {
        const actor = new FakeActor(world, clone(data));
        // A module's sub-type must be declared and its data model cleans and validates the system (models.ts).
        const client = world.currentClient();
        actor.system = cleanSystemForCreate(
          "Actor",
          actor.type,
          actor.system,
          client.CONFIG.Actor as never,
          (id) => client.modules.get(id)?.active ?? false,
        );
        // The system's data model fills its defaults and its Actor class brings its methods. A module's sub-type has
        // the module's data model only ("Module-specific data being available under the Document's system field",
        // module sub-types article): the system's Actor class still brings its methods.
        if (actor.type.includes(".")) world.system.actorMethods?.(world, actor);
        else world.system.prepareActor?.(world, actor);
        return actor;
      },
      data as Plain,
      options,
    );
  },
};

// ------------------------------------------------------------------------------------------------ applications

type ActionHandler = (this: FakeApplicationV2, event: Event, target: HTMLElement) => unknown;

/**
 * ApplicationV2's options before the constructor's: the DEFAULT_OPTIONS of every class of the chain merged from the
 * top down (objects key by key, a subclass's value winning; `classes` added together), as the v13 guide to
 * applications describes DEFAULT_OPTIONS (https://foundryvtt.com/api/v13/modules/foundry.applications.html).
 */
export function mergeOptions(cls: typeof FakeApplicationV2): Plain {
  const chain: Plain[] = [];
  let c: unknown = cls;
  while (c && c !== Function.prototype) {
    if (Object.prototype.hasOwnProperty.call(c, "DEFAULT_OPTIONS"))
      chain.unshift((c as { DEFAULT_OPTIONS: Plain }).DEFAULT_OPTIONS);
    c = Object.getPrototypeOf(c);
  }
  const out: Plain = {};
  for (const o of chain) deepMerge(out, o);
  return out;
}

function deepMerge(target: Plain, src: Plain): void {
  for (const [k, v] of Object.entries(src)) {
    if (isPlainObject(v) && isPlainObject(target[k])) deepMerge(target[k] as Plain, v);
    else if (Array.isArray(v) && Array.isArray(target[k]) && k === "classes")
      target[k] = [...new Set([...(target[k] as unknown[]), ...v])];
    else target[k] = isPlainObject(v) ? { ...v } : v;
  }
}

let appCounter = 0;
/** The highest z-index a window was brought to (bringToFront). */
let maxZ = 100;

/**
 * foundry.applications.instances: each client's registry of its rendered ApplicationV2 windows, by id — an
 * application enters it when rendered and leaves it when closed.
 * https://foundryvtt.com/api/v13/variables/foundry.applications.instances.html
 */
const registries = new WeakMap<object, Map<string, FakeApplicationV2>>();
function registryOf(client: object): Map<string, FakeApplicationV2> {
  let r = registries.get(client);
  if (!r) registries.set(client, (r = new Map()));
  return r;
}

/**
 * foundry.applications.ux.FormDataExtended: `object` maps each named field to its value (checkbox → boolean).
 * https://foundryvtt.com/api/v13/classes/foundry.applications.ux.FormDataExtended.html
 */
export class FakeFormData {
  readonly object: Plain = {};
  constructor(form: HTMLFormElement) {
    for (const el of Array.from(
      form.querySelectorAll("input[name], select[name], textarea[name]"),
    ) as HTMLInputElement[]) {
      if (el.disabled) continue;
      if (el.type === "checkbox") this.object[el.name] = el.checked;
      else if (el.type === "radio") {
        if (el.checked) this.object[el.name] = el.value;
      } else if (el.type === "number" || el.dataset.dtype === "Number")
        this.object[el.name] = el.value === "" ? null : Number(el.value);
      else this.object[el.name] = el.value;
    }
  }
}

/**
 * ApplicationV2 + HandlebarsApplicationMixin in one: renders PARTS with the client's Handlebars into a real DOM
 * element (happy-dom), dispatches clicks on [data-action] to `actions`, form changes to _onChangeForm and submits to
 * the form handler. The render hook `render<ClassName>` fires on the rendering client.
 */
export class FakeApplicationV2 {
  static DEFAULT_OPTIONS: Plain = { classes: [], tag: "div", window: { title: "" }, actions: {}, form: undefined };
  static PARTS: Record<string, { template: string }> = {};
  readonly options: Plain;
  element: HTMLElement | null = null;
  rendered = false;
  closed = false;
  lastContext: unknown = null;
  readonly appId = ++appCounter;
  constructor(options: Plain = {}) {
    const merged = mergeOptions(this.constructor as typeof FakeApplicationV2);
    deepMerge(merged, options);
    if (typeof merged.id === "string") merged.id = merged.id.replace("{id}", String(this.appId));
    this.options = merged;
  }
  get id(): string {
    return String(this.options.id ?? `app-${this.appId}`);
  }
  get title(): string {
    const t = (this.options.window as Plain | undefined)?.title;
    if (typeof t !== "string" || !t) return "";
    const client = FakeRoll.world.currentClient();
    return client.i18n.has(t) ? client.i18n.localize(t) : t;
  }
  get window(): { title: string } {
    return { title: this.title };
  }
  /** The rendered HTML of every part, joined (for assertions). */
  get lastHTML(): string {
    return this.element?.innerHTML ?? "";
  }
  /**
   * ApplicationV2#_renderFrame(options): builds the window's frame (v13: the application element with its header —
   * title, header controls, close — and an empty window-content); subclasses may add to the header.
   */
  async _renderFrame(_options: Plain): Promise<HTMLElement> {
    const doc = FakeRoll.world.window.document;
    const el = doc.createElement(String(this.options.tag ?? "div"));
    el.id = this.id;
    el.className = ["application", ...((this.options.classes as string[]) ?? [])].join(" ");
    el.innerHTML = `<header class="window-header"><h1 class="window-title"></h1><button type="button" class="header-control" data-action="toggleControls"></button><button type="button" class="header-control" data-action="close"></button></header><section class="window-content"></section>`;
    return el as unknown as HTMLElement;
  }
  async _prepareContext(_options?: Plain): Promise<unknown> {
    return {};
  }
  async _preparePartContext(_partId: string, context: unknown, _options?: Plain): Promise<unknown> {
    return context;
  }
  async _onRender(_context: unknown, _options: Plain): Promise<void> {}
  _onChangeForm(formConfig: unknown, _event: Event): void {
    if ((formConfig as { submitOnChange?: boolean } | undefined)?.submitOnChange) void this.submit();
  }
  async submit(): Promise<void> {
    const form = this.options.form as
      | {
          handler?: (this: FakeApplicationV2, e: Event, f: HTMLFormElement, d: FakeFormData) => unknown;
          closeOnSubmit?: boolean;
        }
      | undefined;
    if (!form?.handler || !this.element) return;
    const el = this.element as HTMLFormElement;
    await form.handler.call(
      this,
      new (FakeRoll.world.window.Event as unknown as typeof Event)("submit"),
      el,
      new FakeFormData(el),
    );
    if (form.closeOnSubmit) await this.close();
  }
  async render(options: Plain | boolean = {}): Promise<this> {
    const opts: Plain = typeof options === "boolean" ? { force: options } : options;
    const client = FakeRoll.world.currentClient();
    const doc = FakeRoll.world.window.document;
    if (this.closed && !opts.force) return this;
    const context = await this._prepareContext(opts);
    this.lastContext = context;
    const parts = (this.constructor as typeof FakeApplicationV2).PARTS;
    const only = Array.isArray(opts.parts) ? (opts.parts as string[]) : Object.keys(parts);
    if (!this.element) {
      const el = await this._renderFrame(opts);
      (doc.body as unknown as { appendChild(n: unknown): void }).appendChild(el);
      this.element = el;
      this.#listen(el);
    }
    (this.element.querySelector(".window-title") as HTMLElement).textContent = this.title;
    const content = this.element.querySelector(".window-content") as HTMLElement;
    for (const [id, part] of Object.entries(parts)) {
      if (!only.includes(id)) continue;
      const partContext = await this._preparePartContext(id, context, opts);
      const html = renderWith(client.handlebars, part.template, partContext as object);
      const holder = doc.createElement("div");
      holder.innerHTML = html;
      const root = holder.firstElementChild as unknown as HTMLElement | null;
      if (!root || holder.children.length !== 1)
        throw new Error(`Fake ApplicationV2: the part "${id}" must render exactly one root element`);
      root.setAttribute("data-application-part", id);
      // A browser selects the (last) <option selected> of each <select>; happy-dom 21 reads a selected LAST option
      // as the one before it when parsed from HTML. Apply the attribute as a browser does.
      for (const select of Array.from(root.querySelectorAll("select")) as unknown as HTMLSelectElement[]) {
        const i = Array.from(select.options).findLastIndex((o) => o.hasAttribute("selected"));
        if (i >= 0) select.selectedIndex = i;
      }
      const old = content.querySelector(`[data-application-part="${id}"]`) as HTMLElement | null;
      if (old) old.replaceWith(root);
      else content.appendChild(root);
    }
    this.rendered = true;
    this.closed = false;
    registryOf(client).set(this.id, this);
    await this._onRender(context, opts);
    client.hooks.callAll(`render${this.constructor.name}`, this, this.element, context, opts);
    return this;
  }
  async close(_options?: Plain): Promise<this> {
    this.rendered = false;
    this.closed = true;
    registryOf(FakeRoll.world.currentClient()).delete(this.id);
    this.element?.remove();
    FakeRoll.world.currentClient().hooks.callAll(`close${this.constructor.name}`, this, this.element);
    return this;
  }
  /**
   * ApplicationV2#bringToFront(): brings the window to the front of the rendering stack by raising its z-index above
   * every other window's (https://foundryvtt.com/api/v13/classes/foundry.applications.api.ApplicationV2.html#bringtofront).
   * Modelled as the element's z-index, one more than the highest given so far.
   */
  bringToFront(): void {
    if (!this.element) return;
    this.element.style.zIndex = String(++maxZ);
  }
  /** Clicks the element matching `selector` inside the window (a real click event, dispatched to `actions`). */
  async click(selector: string): Promise<void> {
    const target = this.element?.querySelector(selector) as HTMLElement | null;
    if (!target) throw new Error(`Fake ApplicationV2: nothing matches ${selector} in ${this.constructor.name}`);
    if ((target as HTMLButtonElement).disabled) throw new Error(`Fake ApplicationV2: ${selector} is disabled`);
    await this.#dispatchAction(target, new (FakeRoll.world.window.MouseEvent as unknown as typeof MouseEvent)("click"));
  }
  /** Sets a field's value and fires its change event, as a user typing or picking does. */
  async setField(name: string, value: string | boolean): Promise<void> {
    const el = this.element?.querySelector(`[name="${name}"]`) as HTMLInputElement | null;
    if (!el) throw new Error(`Fake ApplicationV2: no field named ${name} in ${this.constructor.name}`);
    if (el.type === "checkbox") el.checked = value === true;
    else el.value = String(value);
    const event = new (FakeRoll.world.window.Event as unknown as typeof Event)("change", { bubbles: true });
    Object.defineProperty(event, "target", { value: el });
    this._onChangeForm(this.options.form, event);
    await FakeRoll.world.settle({ allowErrors: true });
  }
  async #dispatchAction(target: HTMLElement, event: Event): Promise<void> {
    const action = target.closest("[data-action]") as HTMLElement | null;
    const name = action?.dataset.action;
    const handler = name
      ? ((this.options.actions as Record<string, ActionHandler | { handler: ActionHandler }>)[name] ?? null)
      : null;
    // The frame's own close button (data-action="close" in the window header) closes the window: ApplicationV2's
    // built-in action (https://foundryvtt.com/api/v13/classes/foundry.applications.api.ApplicationV2.html#close).
    if (!handler && name === "close") {
      await this.close();
      return;
    }
    if (!handler || !action)
      throw new Error(`Fake ApplicationV2: no action ${String(name)} in ${this.constructor.name}`);
    const fn = typeof handler === "function" ? handler : handler.handler;
    await fn.call(this, event, action);
  }
  #listen(el: HTMLElement): void {
    const world = FakeRoll.world;
    const client = world.currentClient();
    el.addEventListener("click", (event) => {
      const target = (event.target as HTMLElement).closest?.("[data-action]") as HTMLElement | null;
      if (target && !(target as HTMLButtonElement).disabled)
        world.runOn(client, () => world.track(this.#dispatchAction(target, event), `${this.constructor.name} action`));
    });
    el.addEventListener("change", (event) => world.runOn(client, () => this._onChangeForm(this.options.form, event)));
    el.addEventListener("submit", (event) => {
      event.preventDefault();
      world.runOn(client, () => world.track(this.submit(), `${this.constructor.name} submit`));
    });
  }
}

interface SheetDocument {
  name: string;
  isOwner: boolean;
}

/** foundry.applications.sheets.ActorSheetV2 (DocumentSheetV2): the document from `options.document`; a form. */
export class FakeActorSheetV2 extends FakeApplicationV2 {
  static override DEFAULT_OPTIONS: Plain = {
    tag: "form",
    classes: ["sheet", "actor"],
    form: { submitOnChange: true, closeOnSubmit: false },
  };
  readonly document: SheetDocument;
  constructor(options: Plain = {}) {
    super(options);
    this.document = options.document as SheetDocument;
    if (!this.document) throw new Error("ActorSheetV2: options.document is required");
  }
  get actor(): SheetDocument {
    return this.document;
  }
  get isEditable(): boolean {
    return this.document.isOwner;
  }
  override get title(): string {
    return this.document.name;
  }
}

/** DialogV2 statics: confirm and prompt take the answer the test queued for the current user. */
export const DialogV2 = {
  async confirm(o: { window?: { title?: unknown }; content?: string; rejectClose?: boolean } = {}): Promise<unknown> {
    const a = FakeRoll.world.nextDialogAnswer("confirm", o.window?.title, String(o.content ?? ""));
    if (a === null) {
      if (o.rejectClose) throw new Error("The Dialog was closed without a choice being made.");
      return null;
    }
    if (typeof a !== "boolean") throw new Error("Fake DialogV2.confirm: queue true, false or null");
    return a;
  },
  /**
   * prompt: the queued answer is null (closed) or the values of the content's named fields ({name: value}); the
   * fake fills a real form with them (each value must be one the content offers) and calls ok.callback(event,
   * button) with `button.form` that form.
   */
  async prompt(
    o: {
      window?: { title?: unknown };
      content?: string;
      rejectClose?: boolean;
      ok?: { callback?: (e: Event, b: HTMLButtonElement, d: unknown) => unknown };
    } = {},
  ): Promise<unknown> {
    const content = String(o.content ?? "");
    const a = FakeRoll.world.nextDialogAnswer("prompt", o.window?.title, content);
    if (a === null) {
      if (o.rejectClose !== false) throw new Error("The Dialog was closed without a choice being made.");
      return null;
    }
    const doc = FakeRoll.world.window.document;
    const form = doc.createElement("form");
    form.innerHTML = `${content}<footer><button type="submit" data-action="ok">OK</button></footer>`;
    for (const [name, value] of Object.entries(a as Plain)) {
      const field = form.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement | null;
      if (!field) throw new Error(`Fake DialogV2.prompt: no field named ${name}`);
      if (
        field.tagName === "SELECT" &&
        ![...(field as HTMLSelectElement).options].some((op) => op.value === String(value))
      ) {
        throw new Error(`Fake DialogV2.prompt: ${String(value)} is not offered in ${name}`);
      }
      if ((field as HTMLInputElement).type === "checkbox") (field as HTMLInputElement).checked = value === true;
      else field.value = String(value);
    }
    const button = form.querySelector("button") as unknown as HTMLButtonElement;
    return o.ok?.callback
      ? o.ok.callback(new (FakeRoll.world.window.Event as unknown as typeof Event)("submit"), button, null)
      : "ok";
  },
};

// ------------------------------------------------------------------------------------------------ data models

/**
 * foundry.data.regionBehaviors.RegionBehaviorType: a TypeDataModel with `events` handlers (static `events`, called with
 * `this` the behaviour's system data) and a schema from `defineSchema()` whose fields take their `initial` value.
 * https://foundryvtt.com/api/v13/classes/foundry.data.regionBehaviors.RegionBehaviorType.html; NOTES.md "Regions";
 * dnd5e module/data/region-behavior/difficult-terrain.mjs (a system's subclass, same shape). A behaviour's fields take
 * their initial value only (their validation is modelled for Actor sub-types, models.ts).
 */
export class FakeRegionBehaviorType {
  static LOCALIZATION_PREFIXES: string[] = [];
  static events: Record<string, (this: FakeRegionBehaviorType, event: unknown) => unknown> = {};
  static defineSchema(): Record<string, FakeDataField> {
    return {};
  }
  parent: unknown = null;
  constructor(data: Plain = {}, options: { parent?: unknown } = {}) {
    const schema = (this.constructor as typeof FakeRegionBehaviorType).defineSchema();
    for (const [k, field] of Object.entries(schema)) {
      (this as unknown as Plain)[k] = data[k] ?? field.options.initial;
    }
    this.parent = options.parent ?? null;
  }
}

// ------------------------------------------------------------------------------------------------ install

function install(world: FakeWorld): void {
  FakeRoll.world = world;
  const g = globalThis as Record<string, unknown>;
  g.Roll = FakeRoll;
  g.ChatMessage = ChatMessageStatics;
  g.Scene = SceneStatics;
  g.Actor = ActorStatics;
  // CONST: https://foundryvtt.com/api/v13/variables/CONST.TOKEN_DISPOSITIONS.html, …/CONST.DOCUMENT_OWNERSHIP_LEVELS.html,
  // …/CONST.ACTIVE_EFFECT_MODES.html (the values of the v13 pages).
  g.CONST = {
    TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 },
    DOCUMENT_OWNERSHIP_LEVELS: { INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 },
    ACTIVE_EFFECT_MODES: { CUSTOM: 0, MULTIPLY: 1, ADD: 2, DOWNGRADE: 3, UPGRADE: 4, OVERRIDE: 5 },
  };
  // PIXI.Text (PIXI v7, which Foundry v13 ships: https://pixijs.download/v7.x/docs/PIXI.Text.html): only what the
  // light icons use (text, style, position, destroy); width is a fixed stand-in.
  g.PIXI = {
    Text: class {
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
        readonly style: Plain,
      ) {}
      get width(): number {
        return 16;
      }
      destroy(): void {
        this.destroyed = true;
      }
    },
  };
  // v14: the `_del` deletion operator is a global (data.ts); v13 has none.
  if (world.generation >= 14) g._del = DEL;
  else delete g._del;
  g.foundry = {
    applications: {
      api: {
        ApplicationV2: FakeApplicationV2,
        HandlebarsApplicationMixin: <T>(base: T) => base,
        DialogV2,
      },
      // models.ts names the sources of the sheet and its registration.
      sheets: { ActorSheetV2: FakeActorSheetV2 },
      apps: {
        DocumentSheetConfig: {
          registerSheet(
            documentClass: { documentName?: string },
            scope: string,
            cls: SheetRegistration["cls"],
            options: { types?: string[]; makeDefault?: boolean; label?: string } = {},
          ) {
            registerSheet(world.currentClient().CONFIG, String(documentClass.documentName), scope, cls, options);
          },
        },
      },
      handlebars: {
        renderTemplate: async (path: string, data: object) => renderWith(world.currentClient().handlebars, path, data),
        loadTemplates: async (paths: string[] | Record<string, string>) => paths,
      },
      ux: { FormDataExtended: FakeFormData },
      get instances() {
        return registryOf(world.currentClient());
      },
    },
    // foundry.utils: https://foundryvtt.com/api/v13/modules/foundry.utils.html (deepClone, expandObject, getProperty,
    // randomID, objectsEqual), implemented in data.ts.
    utils: {
      deepClone: <T>(v: T) => clone(v),
      expandObject: (o: Plain) => expandObject(o),
      getProperty: (o: unknown, k: string) => getProperty(o, k),
      // randomID(length = 16): https://foundryvtt.com/api/v13/functions/foundry.utils.randomID.html
      randomID: (length = 16) => randomID("r", length),
      objectsEqual: (a: unknown, b: unknown) => deepEqual(a, b),
    },
    canvas: { placeables: { tokens: { TokenRuler: FakeTokenRuler } } },
    abstract: { TypeDataModel: FakeValidatingTypeDataModel, DataModel: FakeDataModel },
    data: {
      // v14 only: foundry.data.operators (data.ts names the source).
      ...(world.generation >= 14 ? { operators: { ForcedDeletion } } : {}),
      regionBehaviors: { RegionBehaviorType: FakeRegionBehaviorType },
      fields: { ...FAKE_FIELDS, ...FAKE_MODEL_FIELDS },
    },
  };
}

setStaticInstaller(install);
