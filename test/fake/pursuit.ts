/**
 * What the Pursuit tests need on top of FakeWorld (booted with the combat fake, test/fake/combat.ts
 * bootWithCombat, so CONFIG.Combat is installed once and a flight can meet a running combat), kept apart
 * from the other canvas fakes: a scene with token documents that have a disposition, the selected tokens (canvas.tokens.controlled), the chat log as
 * `game.messages.contents`, Active Effects on actors (strict about the v13 / v14 shape), and a small stand-in
 * for a rendered card's HTMLElement. Strict: unknown ids return undefined like Foundry's collections, a
 * user creating an effect on an actor they do not own throws, a malformed effect throws.
 */
import { strict, type FakeActor, type FakeUser, type FakeWorld } from "./foundry.js";

export class FakeDispositionToken {
  /** Ownership of the token itself when it has no actor. */
  ownership: Record<string, number> = {};
  /** Linked to a world actor (true) or carrying its own synthetic actor (false). */
  actorLink = true;
  constructor(
    private readonly world: FakeWorld,
    readonly id: string,
    readonly name: string,
    readonly disposition: number,
    readonly actor: FakeActor | null,
    readonly parent: FakePursuitScene,
  ) {}
  testUserPermission(user: FakeUser, level: "OWNER"): boolean {
    if (this.actor) return this.actor.testUserPermission(user, level);
    return user.isGM || (this.ownership[user.id] ?? this.ownership.default ?? 0) >= 3;
  }
  get isOwner(): boolean {
    return this.testUserPermission(this.world.game.user, "OWNER");
  }
}

/** A scene's token collection: a Map with Foundry's `contents`. */
export class FakeTokenCollection extends Map<string, FakeDispositionToken> {
  get contents(): FakeDispositionToken[] {
    return [...this.values()];
  }
}

export class FakePursuitScene {
  readonly tokens = new FakeTokenCollection();
  constructor(readonly id: string) {}
}

export interface FakeEffect {
  id: string;
  name: string;
  flags: Record<string, Record<string, unknown>>;
  /** As Foundry prepares it (v13: the creation data's duration, startTime set to the world time if absent). */
  duration: Record<string, unknown>;
  data: Record<string, unknown>;
}

let nextEffect = 1;

/** Gives an actor an `effects` collection and createEmbeddedDocuments("ActiveEffect"), strict per generation. */
export function enableEffects(world: FakeWorld, actor: FakeActor): FakeEffect[] {
  const effects: FakeEffect[] = [];
  const a = actor as unknown as Record<string, unknown>;
  a.effects = effects;
  a.createEmbeddedDocuments = async (type: string, list: Record<string, unknown>[]) => {
    if (type !== "ActiveEffect") throw new Error(`Fake actor: embedded ${type} is not modelled`);
    if (!actor.testUserPermission(world.game.user, "OWNER")) throw new Error(`User ${world.game.user.id} cannot add effects to ${actor.id}`);
    const v14 = world.game.release.generation >= 14;
    for (const d of list) {
      if (typeof d.name !== "string" || !d.name) throw new Error("Fake effect: a name is required");
      const changes = v14 ? (d.system as { changes?: unknown } | undefined)?.changes : d.changes;
      if (v14 && "changes" in d) throw new Error("Fake effect (v14): top-level changes are deprecated, use system.changes");
      if (!v14 && "system" in d) throw new Error("Fake effect (v13): no system data on a base ActiveEffect");
      if (!Array.isArray(changes)) throw new Error("Fake effect: changes must be an array");
      for (const c of changes as Record<string, unknown>[]) {
        if (typeof c.key !== "string" || typeof c.value !== "string") throw new Error("Fake effect: change key and value must be strings");
        if (v14 && typeof c.type !== "string") throw new Error("Fake effect (v14): change type must be a string");
        // v14 core phases (CONST.ACTIVE_EFFECT_CHANGE_PHASES); a package must register any other one first.
        if (v14 && c.phase !== undefined && c.phase !== "initial" && c.phase !== "final") throw new Error(`Fake effect (v14): unknown phase ${String(c.phase)}`);
        if (!v14 && ("type" in c || "phase" in c)) throw new Error("Fake effect (v13): type and phase are v14 change fields");
        if (!v14 && typeof c.mode !== "number") throw new Error("Fake effect (v13): change mode must be a number");
      }
      const duration = structuredClone((d.duration as Record<string, unknown> | undefined) ?? {});
      if (!v14 && typeof duration.seconds === "number" && typeof duration.startTime !== "number") duration.startTime = world.worldTime;
      effects.push({ id: `effect${nextEffect++}`, name: d.name, flags: structuredClone((d.flags as Record<string, Record<string, unknown>>) ?? {}), duration, data: structuredClone(d) });
    }
    world.log.push(`effects ${actor.id} +${list.length}`);
    return list;
  };
  a.deleteEmbeddedDocuments = async (type: string, ids: string[]) => {
    if (type !== "ActiveEffect") throw new Error(`Fake actor: embedded ${type} is not modelled`);
    if (!actor.testUserPermission(world.game.user, "OWNER")) throw new Error(`User ${world.game.user.id} cannot delete effects of ${actor.id}`);
    for (const id of ids) {
      const i = effects.findIndex((e) => e.id === id);
      if (i < 0) throw new Error(`ActiveEffect ${id} does not exist on ${actor.id}`);
      effects.splice(i, 1);
    }
    world.log.push(`effects ${actor.id} -${ids.length}`);
    return ids;
  };
  return effects;
}

export interface PursuitFake {
  scene: FakePursuitScene;
  addToken(data: { id: string; name: string; disposition: number; actor?: FakeActor | null; actorLink?: boolean }): FakeDispositionToken;
  /** Sets the selected tokens (canvas.tokens.controlled). */
  select(...tokens: FakeDispositionToken[]): void;
}

/** Installs a scene, the selection, game.messages (if nobody did) and game.scenes (chained with any other). */
export function installPursuitFake(world: FakeWorld, sceneId = "scene1"): PursuitFake {
  const scene = new FakePursuitScene(sceneId);
  const g = world.game as unknown as Record<string, unknown>;
  const prev = "scenes" in g ? (g.scenes as { get(id: string): unknown }) : null;
  const prevContents = (): unknown[] => (prev && "contents" in prev ? ((prev as { contents: unknown[] }).contents ?? []) : []);
  g.scenes = strict(
    {
      get: (id: string) => (id === scene.id ? strict(scene, "Scene") : prev?.get(id)),
      get contents() {
        return [strict(scene, "Scene"), ...prevContents()];
      },
    },
    "game.scenes",
  );
  if (!("messages" in g)) {
    g.messages = strict(
      {
        get contents() {
          return world.messages;
        },
      },
      "game.messages",
    );
  }
  // Chat messages as documents: captured data plus getFlag (the other features' card hooks read flags that way).
  const create = world.ChatMessage.create.bind(world.ChatMessage);
  world.ChatMessage.create = async (data) => {
    const msg = (await create(data)) as unknown as Record<string, unknown>;
    if (typeof msg.getFlag !== "function") {
      Object.defineProperty(msg, "getFlag", {
        enumerable: false,
        value: (scope: string, key: string) => {
          if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
          const v = (msg.flags as Record<string, Record<string, unknown>> | undefined)?.[scope]?.[key];
          return v === undefined ? undefined : structuredClone(v);
        },
      });
    }
    return msg as never;
  };
  let controlled: { document: FakeDispositionToken }[] = [];
  (globalThis as Record<string, unknown>).canvas = strict(
    {
      scene: strict(scene, "Scene"),
      // No lighting is modelled (other features treat a null `effects` as a canvas not drawn).
      effects: null,
      tokens: strict(
        {
          get controlled() {
            return controlled;
          },
        },
        "canvas.tokens",
      ),
    },
    "canvas",
  );
  return {
    scene,
    addToken(data) {
      const t = new FakeDispositionToken(world, data.id, data.name, data.disposition, data.actor ?? null, scene);
      if (data.actorLink !== undefined) t.actorLink = data.actorLink;
      scene.tokens.set(t.id, t);
      return t;
    },
    select(...tokens) {
      controlled = tokens.map((document) => ({ document: strict(document, "TokenDocument") }));
    },
  };
}

/** A rendered pursuit card's element: querySelector finds the one button it may hold. */
export class FakeCardElement {
  readonly button = { removed: false, listeners: [] as ((e: { preventDefault(): void }) => unknown)[], remove() { this.removed = true; }, addEventListener(_: string, fn: (e: { preventDefault(): void }) => unknown) { this.listeners.push(fn); } };
  constructor(readonly hasButton: boolean) {}
  querySelector(selector: string): unknown {
    // A pursuit card holds one button; other features' selectors find nothing in it (as in the DOM).
    return selector === '[data-action="aventure-pursuit-continue"]' && this.hasButton ? this.button : null;
  }
}
