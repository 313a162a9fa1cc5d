/**
 * A throwaway corner of a real world for the in-world tests: a scene (viewed while the batch runs), actors, tokens,
 * regions, settings changed for the test, world time advanced, and every chat message posted meanwhile; `close()`
 * deletes or restores all of it. Uses only Foundry's public API (Scene.create, Actor.create, createEmbeddedDocuments,
 * Scene#view, Document#delete,
 * game.settings) and the module's own API.
 */
import { MODULE_ID } from "../core/constants.js";
import { onHook, offHook } from "../core/hooks-typed.js";

interface Doc {
  id: string | null;
  delete(): Promise<unknown>;
}
interface SceneDoc extends Doc {
  view(): Promise<unknown>;
  createEmbeddedDocuments(type: string, data: object[]): Promise<Doc[]>;
}
interface Creatable<T> {
  create(data: object): Promise<T | undefined>;
}

/** The document classes a batch creates, as globals. */
function classes(): { Scene: Creatable<SceneDoc>; Actor: Creatable<Doc> } {
  const g = globalThis as unknown as { Scene: Creatable<SceneDoc>; Actor: Creatable<Doc> }; // cast: the document classes as globals, with only the create() a batch uses
  return { Scene: g.Scene, Actor: g.Actor };
}

/** game.settings for any Aventure key a test names (a test sets a key it chose, with a value of that key's type). */
function anySettings(): {
  get(ns: string, k: string): unknown;
  set(ns: string, k: string, v: unknown): Promise<unknown>;
} {
  // cast: SettingConfig types each key's value; a batch sets keys by name and puts the old values back
  return game.settings as unknown as {
    get(ns: string, k: string): unknown;
    set(ns: string, k: string, v: unknown): Promise<unknown>;
  };
}

/** Polls `fn` until it returns something truthy (documents change asynchronously, on the server's answer). */
export async function waitFor<T>(fn: () => T | null | undefined | false, what: string, timeout = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() - start > timeout) throw new Error(`aventure | timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export class Sandbox {
  scene: SceneDoc | null = null;
  #previous: { view(): Promise<unknown> } | null = null;
  readonly #docs: Doc[] = [];
  readonly #settings = new Map<string, unknown>();
  readonly #messages: string[] = [];
  #hook: number | null = null;
  /** World time the batch advanced (rewound on close). */
  #advanced = 0;

  async open(): Promise<void> {
    this.#previous = game.scenes.viewed ?? null;
    this.#hook = onHook("createChatMessage", (m: { id: string | null }) => {
      if (m.id) this.#messages.push(m.id);
    });
    const scene = await classes().Scene.create({
      name: "Aventure — in-world tests",
      grid: { size: 100, distance: 1.5, units: "m" },
      width: 3000,
      height: 2000,
    });
    if (!scene) throw new Error("aventure | could not create the test scene");
    this.scene = scene;
    await scene.view();
  }

  async actor(data: object): Promise<Doc & Record<string, unknown>> {
    const actor = await classes().Actor.create(data);
    if (!actor) throw new Error("aventure | could not create a test actor");
    this.#docs.push(actor);
    return actor as Doc & Record<string, unknown>;
  }

  /** A document the test made some other way (a combat an encounter started): `close()` deletes it first. */
  adopt<T extends Doc>(doc: T): T {
    this.#docs.push(doc);
    return doc;
  }

  async embedded<T>(type: string, data: object): Promise<T> {
    const [doc] = await this.scene!.createEmbeddedDocuments(type, [data]);
    if (!doc) throw new Error(`aventure | could not create a test ${type}`);
    return doc as unknown as T; // cast: the caller names the embedded document type it created
  }

  /** Sets an Aventure setting for the test; `close()` puts the old value back. */
  async setting(key: string, value: unknown): Promise<void> {
    const settings = anySettings();
    if (!this.#settings.has(key)) this.#settings.set(key, settings.get(MODULE_ID, key));
    await settings.set(MODULE_ID, key, value);
  }

  /** Advances the world time (game.time.advance, GM); `close()` rewinds it by the same amount. */
  async advanceTime(seconds: number): Promise<void> {
    await game.time.advance(seconds);
    this.#advanced += seconds;
  }

  /** Chat messages posted since the sandbox opened (newest last). */
  messages(): ChatMessage[] {
    const out: ChatMessage[] = [];
    for (const id of this.#messages) {
      const m = game.messages.get(id);
      if (m) out.push(m as ChatMessage);
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.#hook !== null) offHook("createChatMessage", this.#hook);
    const settings = anySettings();
    for (const [key, value] of this.#settings) await settings.set(MODULE_ID, key, value).catch(() => undefined);
    for (const m of this.messages()) await m.delete().catch(() => undefined);
    if (this.#advanced) await game.time.advance(-this.#advanced).catch(() => undefined);
    this.#advanced = 0;
    for (const d of this.#docs.reverse()) await d.delete().catch(() => undefined);
    if (this.#previous) await this.#previous.view().catch(() => undefined);
    if (this.scene) await this.scene.delete().catch(() => undefined);
    this.scene = null;
  }
}

/**
 * The state a card of `kind` holds, unchecked: the system's source of a message of the sub-type `aventure.<kind>`
 * (core/card-model.ts), or the flag of a card posted before it (flags.aventure.<flag>).
 */
export function cardOf<T = Record<string, unknown>>(m: ChatMessage, kind: string, flag = kind): T | undefined {
  if ((m as { type?: unknown }).type === `${MODULE_ID}.${kind}`) {
    const system = (m as { system?: { toObject?: () => unknown } }).system;
    return (typeof system?.toObject === "function" ? system.toObject() : system) as T;
  }
  return (m.flags as Record<string, Record<string, unknown> | undefined>)[MODULE_ID]?.[flag] as T | undefined;
}
