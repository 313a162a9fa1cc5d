/**
 * The fake world itself: it must behave like Foundry where the module depends on it (per-client module instances,
 * per-call users, lifecycle order, asynchronous writes with the server's userId, queries without a sender, merge
 * semantics, permissions, faults). Each test states the Foundry behaviour it checks.
 */
import { describe, expect, it } from "vitest";
import {
  bootWorld,
  GM,
  GM2,
  PLAYER,
  ClientCrashed,
  addDnd5eActor,
  coreSystem,
  dnd5eSystem,
  FakeWorld,
  type FakeCombat,
  type FakeDocument,
  type UserSpec,
} from "./index.js";
import type { SystemProfile } from "./world.js";

async function world3(): Promise<FakeWorld> {
  return bootWorld({ users: [GM, GM2, PLAYER] });
}

describe("fake world: clients", () => {
  it("each client has its own module instance, CONFIG and Hooks; game.user follows the running client", async () => {
    const w = await world3();
    const apis = ["gm1", "gm2", "p1"].map((u) => w.api(u));
    expect(new Set(apis).size).toBe(3);
    expect(w.clientOf("gm1").CONFIG).not.toBe(w.clientOf("p1").CONFIG);
    expect(w.as("p1", () => game.user.id)).toBe("p1");
    expect(w.as("gm2", () => game.users.activeGM?.isSelf)).toBe(false);
    expect(w.as("gm1", () => game.users.activeGM?.isSelf)).toBe(true);
  });

  it("two overlapping un-awaited calls each keep their own user across awaits", async () => {
    const w = await world3();
    const seen: string[] = [];
    const slow = async (tag: string) => {
      await w.roundTrip();
      await w.roundTrip();
      seen.push(`${tag}:${game.user.id}`);
    };
    await Promise.all([w.as("p1", () => slow("a")), w.as("gm2", () => slow("b"))]);
    expect(seen.sort()).toEqual(["a:p1", "b:gm2"]);
  });

  it("dnd5e's status list replaces core's on every client (blinded, not blind)", async () => {
    const w = await bootWorld({ system: "dnd5e" });
    const ids = w.as("gm1", () => (CONFIG.statusEffects as { id: string }[]).map((e) => e.id));
    expect(ids).toContain("blinded");
    expect(ids).not.toContain("blind");
  });
});

describe("fake world: documents", () => {
  it("a write resolves after a round trip and every client's hook gets the server's userId", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "hero", name: "Hero", owner: "p1" });
    const seen: string[] = [];
    for (const u of ["gm1", "gm2", "p1"])
      w.as(u, () =>
        Hooks.on(
          "updateActor",
          (_d: unknown, _c: unknown, _o: unknown, userId: string) => void seen.push(`${game.user.id}<-${userId}`),
        ),
      );
    const p = w.as("p1", () => a.setFlag("aventure", "x", 1));
    expect(a.getFlag("aventure", "x")).toBeUndefined(); // not yet: the server has not answered
    await p;
    expect(a.getFlag("aventure", "x")).toBe(1);
    expect(seen.sort()).toEqual(["gm1<-p1", "gm2<-p1", "p1<-p1"]);
  });

  it("setFlag with an object merges into the stored object; unsetFlag removes the key", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "hero", name: "Hero" });
    await a.setFlag("aventure", "applied", { blinded: true });
    await a.setFlag("aventure", "applied", { prone: true });
    expect(a.getFlag("aventure", "applied")).toEqual({ blinded: true, prone: true });
    await a.unsetFlag("aventure", "applied");
    expect(a.getFlag("aventure", "applied")).toBeUndefined();
  });

  it("a player cannot write what they do not own; a bad flag scope throws", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "orc", name: "Orc" });
    await expect(w.as("p1", () => a.setFlag("aventure", "x", 1))).rejects.toThrow(/lacks permission/);
    expect(() => a.getFlag("nope", "x")).toThrow(/not valid/);
  });

  it("a player creates chat messages only as themselves", async () => {
    const w = await world3();
    await expect(
      w.as("p1", () => ChatMessage.implementation.create({ content: "hi", author: "gm1" } as never)),
    ).rejects.toThrow(/permission/);
    const m = await w.as("p1", () => ChatMessage.implementation.create({ content: "hi" }));
    expect((m as unknown as { author: { id: string } }).author.id).toBe("p1");
  });

  it("a query handler receives only (data, {timeout}): nothing says who sent it", async () => {
    const w = await world3();
    let args: unknown[] = [];
    w.as("gm1", () => {
      (CONFIG.queries as unknown as Record<string, unknown>)["aventure.probe"] = (...a: unknown[]) => {
        args = a;
        return { ranOn: game.user.id };
      };
    });
    const out = await w.as("p1", () =>
      (game.users.activeGM as unknown as { query(n: string, d: unknown, o: unknown): Promise<unknown> }).query(
        "aventure.probe",
        { userId: "gm1" },
        { timeout: 5000 },
      ),
    );
    expect(out).toEqual({ ranOn: "gm1" });
    expect(args).toEqual([{ userId: "gm1" }, { timeout: 5000 }]);
  });

  it("a crash before the k-th write loses it and everything after; reload brings a fresh module instance", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "hero", name: "Hero" });
    const before = w.api("gm1");
    w.crashAt(2);
    await expect(
      w.as("gm1", async () => {
        await a.setFlag("aventure", "one", 1);
        await a.setFlag("aventure", "two", 2);
      }),
    ).rejects.toBeInstanceOf(ClientCrashed);
    expect(a.getFlag("aventure", "one")).toBe(1);
    expect(a.getFlag("aventure", "two")).toBeUndefined();
    expect(w.users.activeGM?.id).toBe("gm2"); // gm1 is gone: gm2 is the active GM now
    await w.reload("gm1");
    expect(w.api("gm1")).not.toBe(before);
    expect(w.users.activeGM?.id).toBe("gm1");
  });
});

// ------------------------------------------------------------------------------------------------ issue 11, item 2

/** A world whose "module" only records what it sees (the real module is not loaded: the fake alone is checked). */
function probeWorld(
  opts: { system?: SystemProfile; users?: UserSpec[]; onLoad?: () => void } = {},
): Promise<FakeWorld> {
  return FakeWorld.boot({
    system: opts.system ?? dnd5eSystem(),
    users: opts.users ?? [GM],
    load: async () => {
      opts.onLoad?.();
      return {};
    },
  });
}

describe('fake world: lifecycle (hookEvents.init / i18nInit / setup / ready; NOTES.md "Lifecycle order with a system")', () => {
  it("runs init → i18nInit → setup → ready on each client, the system's handler before the module's for every hook", async () => {
    const seen: string[] = [];
    const hooks = ["init", "i18nInit", "setup", "ready"] as const;
    const base = dnd5eSystem();
    const system: SystemProfile = {
      ...base,
      install(client) {
        base.install(client);
        for (const h of hooks) client.hooks.once(h, () => void seen.push(`system:${h}`));
      },
    };
    let keybindingInReady: unknown = null;
    await probeWorld({
      system,
      onLoad: () => {
        for (const h of hooks) Hooks.once(h, () => void seen.push(`module:${h}`));
        Hooks.once("ready", () => {
          try {
            (game.keybindings as unknown as { register(n: string, k: string, d: object): void }).register(
              "aventure",
              "late",
              {},
            );
          } catch (e) {
            keybindingInReady = e;
          }
        });
      },
    });
    expect(seen).toEqual(hooks.flatMap((h) => [`system:${h}`, `module:${h}`]));
    // ClientKeybindings: registering after setup throws (NOTES.md "Lifecycle").
    expect(String(keybindingInReady)).toMatch(/before the setup hook/);
  });

  it("dnd5e: a status a module pushes in init is gone after dnd5e's i18nInit; one pushed in its own i18nInit stays", async () => {
    const w = await probeWorld({
      onLoad: () => {
        Hooks.once("init", () => void (CONFIG.statusEffects as unknown as { id: string }[]).push({ id: "probe-init" }));
        Hooks.once(
          "i18nInit",
          () => void (CONFIG.statusEffects as unknown as { id: string }[]).push({ id: "probe-i18n" }),
        );
      },
    });
    const ids = w
      .clientOf("gm1")
      .statusEffectList()
      .map((e) => e.id);
    expect(ids).not.toContain("probe-init");
    expect(ids).toContain("probe-i18n");
    expect(ids).toEqual(expect.arrayContaining(["blinded", "hiding", "surprised", "exhaustion"]));
    expect(ids).not.toContain("blind"); // core's list is replaced, not extended
  });

  it("a core world keeps what a module pushed in init (no system rebuilds the list)", async () => {
    const w = await probeWorld({
      system: coreSystem(),
      onLoad: () =>
        Hooks.once("init", () => void (CONFIG.statusEffects as unknown as { id: string }[]).push({ id: "probe-init" })),
    });
    expect(
      w
        .clientOf("gm1")
        .statusEffectList()
        .map((e) => e.id),
    ).toEqual(expect.arrayContaining(["probe-init", "blind"]));
  });
});

describe("fake world: permission checks on every mutating call (Document#canUserModify; nothing written when refused)", () => {
  async function seeded() {
    const w = await probeWorld({ users: [GM, PLAYER] });
    const mine = addDnd5eActor(w, { id: "hero", name: "Hero", owner: "p1" });
    const theirs = addDnd5eActor(w, { id: "orc", name: "Orc" });
    await theirs.setFlag("aventure", "mark", { a: 1 });
    const scene = w.addScene({ name: "S" });
    const tHero = w.addToken(scene, { _id: "tHero", name: "Hero", actorId: "hero", actorLink: true });
    const tOrc = w.addToken(scene, { _id: "tOrc", name: "Orc", actorId: "orc", actorLink: true });
    await w.as("gm1", () =>
      scene.createEmbeddedDocuments("Wall", [{ c: [0, 0, 100, 0] }, { c: [0, 100, 100, 100], door: 1 }]),
    );
    const gmMessage = await w.as("gm1", () => ChatMessage.implementation.create({ content: "gm" }));
    await w.settle();
    return { w, mine, theirs, scene, tHero, tOrc, gmMessage: gmMessage as unknown as FakeDocument };
  }

  it("a player's unsetFlag, update, delete, effect creation and status toggle on an actor they do not own are refused", async () => {
    const { w, theirs } = await seeded();
    const mark = w.writes.length;
    const attempts: [string, () => Promise<unknown>][] = [
      ["unsetFlag", () => theirs.unsetFlag("aventure", "mark")],
      ["setFlag", () => theirs.setFlag("aventure", "mark", { b: 2 })],
      ["update", () => theirs.update({ "system.attributes.hp.value": 0 })],
      ["delete", () => theirs.delete()],
      [
        "createEmbeddedDocuments",
        () => theirs.createEmbeddedDocuments("ActiveEffect", [{ name: "x", statuses: ["prone"] }]),
      ],
      ["toggleStatusEffect", () => theirs.toggleStatusEffect("prone", { active: true })],
    ];
    for (const [what, attempt] of attempts) await expect(w.as("p1", attempt), what).rejects.toThrow(/lacks permission/);
    expect(w.writes.length).toBe(mark);
    expect(theirs.getFlag("aventure", "mark")).toEqual({ a: 1 });
    expect(theirs.statuses.has("prone")).toBe(false);
  });

  it("the owner may unsetFlag and toggle statuses on their own actor", async () => {
    const { w, mine } = await seeded();
    await w.as("p1", () => mine.setFlag("aventure", "mark", 1));
    await w.as("p1", () => mine.unsetFlag("aventure", "mark"));
    await w.as("p1", () => mine.toggleStatusEffect("prone", { active: true }));
    expect(mine.getFlag("aventure", "mark")).toBeUndefined();
    expect(mine.statuses.has("prone")).toBe(true);
  });

  it("a player cannot move someone else's token, change a scene, draw walls, edit a GM's message, advance time or set a world setting", async () => {
    const { w, scene, tOrc, tHero, gmMessage } = await seeded();
    w.as("gm1", () =>
      (game.settings as unknown as { register(n: string, k: string, d: object): void }).register("aventure", "probe", {
        scope: "world",
        type: Number,
        default: 0,
      }),
    );
    w.as("p1", () =>
      (game.settings as unknown as { register(n: string, k: string, d: object): void }).register("aventure", "probe", {
        scope: "world",
        type: Number,
        default: 0,
      }),
    );
    const mark = w.writes.length;
    const attempts: [string, () => Promise<unknown>][] = [
      ["token update", () => tOrc.update({ x: 500 })],
      ["token delete", () => tHero.delete()],
      ["scene update", () => scene.update({ name: "Mine" })],
      ["wall create", () => scene.createEmbeddedDocuments("Wall", [{ c: [0, 0, 50, 50] }])],
      ["message update", () => gmMessage.update({ content: "forged" })],
      ["message delete", () => gmMessage.delete()],
      ["time", () => game.time.advance(60)],
      ["world setting", () => game.settings.set("aventure" as never, "probe" as never, 5 as never)],
    ];
    for (const [what, attempt] of attempts) await expect(w.as("p1", attempt), what).rejects.toThrow(/permission/);
    expect(w.writes.length).toBe(mark);
    // What core lets a player do: move their own token, open a door (only its `ds`).
    await w.as("p1", () => tHero.update({ x: 200 }));
    const door = scene.walls.find((x) => (x as unknown as { door: number }).door === 1)!;
    await w.as("p1", () => door.update({ ds: 1 }));
    await expect(w.as("p1", () => door.update({ c: [0, 0, 1, 1] }))).rejects.toThrow(/lacks permission/);
  });
});

describe('fake world: combat updates (core lets the current combatant\'s owner change round and turn; NOTES.md "Combat")', () => {
  async function combatWorld() {
    const w = await probeWorld({ system: coreSystem(), users: [GM, PLAYER] });
    addDnd5eActor(w, { id: "hero", name: "Hero", owner: "p1" });
    addDnd5eActor(w, { id: "orc", name: "Orc" });
    const scene = w.addScene({ name: "S" });
    w.addToken(scene, { _id: "tHero", name: "Hero", actorId: "hero", actorLink: true });
    w.addToken(scene, { _id: "tOrc", name: "Orc", actorId: "orc", actorLink: true });
    const id = await w.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: scene.id, active: true });
      const [hero, orc] = await c.createEmbeddedDocuments("Combatant", [
        { tokenId: "tHero", sceneId: scene.id },
        { tokenId: "tOrc", sceneId: scene.id },
      ]);
      await c.updateEmbeddedDocuments("Combatant", [
        { _id: hero!.id, initiative: 20 },
        { _id: orc!.id, initiative: 10 },
      ]);
      await c.startCombat();
      return c.id;
    });
    await w.settle();
    const as = (user: string) => w.as(user, () => game.combats.get(id) as unknown as FakeCombat);
    return { w, as };
  }

  it("the owner of the current combatant ends the turn (nextTurn); then, not owning the current one, cannot", async () => {
    const { w, as } = await combatWorld();
    expect(as("p1").combatant?.name).toBe("Hero");
    await w.as("p1", () => as("p1").nextTurn());
    expect(as("gm1").turn).toBe(1);
    expect(w.writes.at(-1)).toMatchObject({ user: "p1", action: "update", documentName: "Combat" });
    await expect(w.as("p1", () => as("p1").nextTurn())).rejects.toThrow(/lacks permission/);
    expect(as("gm1").turn).toBe(1);
  });

  it("even on their turn, a player may change only round and turn", async () => {
    const { w, as } = await combatWorld();
    await expect(w.as("p1", () => as("p1").update({ active: false }))).rejects.toThrow(/lacks permission/);
    await expect(w.as("p1", () => as("p1").setFlag("aventure", "x", 1))).rejects.toThrow(/lacks permission/);
  });
});

describe("fake world: asynchronous writes interleave across clients (every write is a server round trip)", () => {
  it("two clients' un-awaited writes both start before either lands; each lands once, with its own user", async () => {
    const w = await probeWorld({ users: [GM, PLAYER] });
    const a = addDnd5eActor(w, { id: "hero", name: "Hero", owner: "p1" });
    const log: string[] = [];
    for (const u of ["gm1", "p1"]) {
      w.as(u, () => {
        Hooks.on("preUpdateActor", () => void log.push(`pre by ${game.user.id}`));
        Hooks.on("updateActor", (_d: unknown, changes: unknown, _o: unknown, userId: string) => {
          const mine = (changes as { flags?: { aventure?: Record<string, unknown> } }).flags?.aventure ?? {};
          if (game.user.id === "gm1") log.push(`${Object.keys(mine).join()} from ${userId}`);
        });
      });
    }
    const gm = w.as("gm1", () => a.setFlag("aventure", "gm", 1));
    const player = w.as("p1", () => a.setFlag("aventure", "player", 1));
    expect(log).toEqual(["pre by gm1", "pre by p1"]); // preUpdate on the initiating client only; nothing applied yet
    expect(a.flags.aventure).toBeUndefined();
    await Promise.all([gm, player]);
    expect(log.slice(2)).toEqual(["gm from gm1", "player from p1"]);
    expect(a.getFlag("aventure", "gm")).toBe(1);
    expect(a.getFlag("aventure", "player")).toBe(1);
  });
});

describe("fake world: a write held open (a slow network) while other clients go on", () => {
  it("the server applies a held write only when released; settle() returns meanwhile; other writes land first", async () => {
    const w = await probeWorld({ users: [GM, PLAYER] });
    const a = addDnd5eActor(w, { id: "hero", name: "Hero", owner: "p1" });
    const release = w.holdWrite((x) => x.user === "gm1" && x.documentName === "Actor");
    expect(release.reached).toBe(false);
    const gm = w.as("gm1", () => a.setFlag("aventure", "gm", 1));
    await w.settle();
    expect(release.reached).toBe(true);
    expect(a.getFlag("aventure", "gm")).toBeUndefined(); // not applied yet
    await w.as("p1", () => a.setFlag("aventure", "player", 1)); // a later write lands first
    expect(w.writes.filter((x) => x.documentName === "Actor").map((x) => x.user)).toEqual(["p1"]);
    release();
    await gm;
    expect(a.getFlag("aventure", "gm")).toBe(1);
    expect(w.writes.filter((x) => x.documentName === "Actor").map((x) => x.user)).toEqual(["p1", "gm1"]);
  });

  it("a GM with a higher claim connects while the active GM's write is held: Users#activeGM changes at once", async () => {
    const w = await bootWorld({ users: [{ ...GM, active: false }, GM2, PLAYER] });
    const a = addDnd5eActor(w, { id: "hero", name: "Hero", owner: "p1" });
    expect(w.as("gm2", () => game.users.activeGM?.id)).toBe("gm2");
    const release = w.holdWrite((x) => x.user === "gm2");
    const write = w.as("gm2", () => a.setFlag("aventure", "x", 1));
    await w.settle();
    await w.connect("gm1");
    expect(w.as("gm2", () => game.users.activeGM?.id)).toBe("gm1");
    release();
    await write;
    expect(a.getFlag("aventure", "x")).toBe(1);
  });

  it("a held write of a client that disconnected is lost when released", async () => {
    const w = await bootWorld({ users: [GM, GM2] });
    const a = addDnd5eActor(w, { id: "hero", name: "Hero" });
    const release = w.holdWrite((x) => x.user === "gm1");
    const write = w.as("gm1", () => a.setFlag("aventure", "x", 1)).catch((e: unknown) => e);
    await w.settle();
    await w.disconnect("gm1");
    release();
    expect(await write).toBeInstanceOf(ClientCrashed);
    expect(a.getFlag("aventure", "x")).toBeUndefined();
  });
});

describe("fake world: who last modified a document (DocumentStats)", () => {
  it("an Actor and a Scene record their last writer (_stats.lastModifiedBy, stamped by the server); a Token records nobody", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "hero", name: "Hero", owner: "p1" });
    const scene = w.addScene({ _id: "s1" });
    const token = w.addToken(scene, { _id: "t1", name: "Hero", actorId: "hero", actorLink: true });
    expect(a._stats).toEqual({ createdTime: null, modifiedTime: null, lastModifiedBy: null });
    await w.as("p1", () => a.setFlag("aventure", "x", 1));
    expect(a._stats!.lastModifiedBy).toBe("p1");
    await w.as("gm2", () => scene.setFlag("aventure", "x", 1));
    expect(scene._stats!.lastModifiedBy).toBe("gm2");
    // TokenData has no _stats (v13 and v14): nothing says who wrote a token's flags.
    await w.as("p1", () => token.setFlag("aventure", "x", 1));
    expect("_stats" in token).toBe(false);
    // A client cannot write the stats itself.
    await expect(w.as("p1", () => a.update({ "_stats.lastModifiedBy": "gm1" }))).rejects.toThrow(/unknown field/);
    const created = (await w.as("gm1", () => Actor.implementation.create({ name: "New" } as never))) as unknown as {
      _stats: { lastModifiedBy: string; createdTime: number };
    }; // cast: the fake's Actor.create resolves to a FakeActor
    expect(created._stats.lastModifiedBy).toBe("gm1");
    expect(created._stats.createdTime).toBeGreaterThan(0);
  });
});

describe("fake world: module sub-types and data models (models.ts; the module sub-types article, TypeDataModel, DataField#clean)", () => {
  type Plain = Record<string, unknown>;
  const create = (w: FakeWorld, data: Plain) =>
    w.as("gm1", () =>
      (
        globalThis.Actor as unknown as {
          create(d: Plain): Promise<{ system: Plain; update(c: Plain): Promise<unknown> }>;
        }
      ).create(data),
    );

  it("a namespaced type must be declared by an active module; a plain (system) type is taken", async () => {
    const w = await bootWorld({});
    await expect(create(w, { name: "A", type: "aventure.nope" })).rejects.toThrow(
      '"aventure.nope" is not a valid type for the Actor Document class',
    );
    await expect(create(w, { name: "B", type: "othermodule.polaris" })).rejects.toThrow("is not a valid type");
    await expect(create(w, { name: "C", type: "character" })).resolves.toBeDefined();
    expect(w.actors.contents.map((a) => a.name)).toEqual(["C"]);
  });

  it("the data model cleans the system on creation (initial values filled, unknown keys dropped, numeric strings cast) and validates every update", async () => {
    const w = await bootWorld({});
    const a = await create(w, {
      name: "P",
      type: "aventure.polaris",
      system: { reaction: "14", stray: 1, attributes: { coo: { value: 16 } } },
    });
    expect(a.system.reaction).toBe(14);
    expect("stray" in a.system).toBe(false);
    expect(a.system.initiative).toBeNull();
    expect((a.system.attributes as Record<string, { value: unknown }>).for!.value).toBeNull();
    expect((a.system.attributes as Record<string, { value: unknown }>).coo!.value).toBe(16);
    const writes = w.writes.length;
    await expect(w.as("gm1", () => a.update({ "system.attributes.coo.value": -4 }))).rejects.toThrow(
      "system.attributes.coo.value: must be at least 0",
    );
    expect(w.writes.length).toBe(writes);
    expect((a.system.attributes as Record<string, { value: unknown }>).coo!.value).toBe(16);
  });

  it("Actor#sheet is the type's default registered sheet, per client; an actor of a type without one has none", async () => {
    const w = await bootWorld({ users: [GM, PLAYER] });
    const a = await create(w, { name: "P", type: "aventure.polaris", ownership: { p1: 3 } });
    const s1 = w.as("gm1", () => (a as unknown as { sheet: object }).sheet);
    const s2 = w.as("p1", () => (a as unknown as { sheet: object }).sheet);
    expect(s1.constructor.name).toBe("PolarisActorSheet");
    expect(s1).not.toBe(s2);
    expect(w.as("gm1", () => (a as unknown as { sheet: object }).sheet)).toBe(s1);
    const plain = await create(w, { name: "C", type: "character" });
    expect(w.as("gm1", () => (plain as unknown as { sheet: object | null }).sheet)).toBeNull();
  });
});

describe("fake world: settings typed by a DataField or a DataModel (SettingConfig.type; ClientSettings#register, #get, #set)", () => {
  type Fields = Record<string, new (...args: unknown[]) => unknown>;
  type Settings = {
    register(ns: string, key: string, data: Record<string, unknown>): void;
    get(ns: string, key: string): unknown;
    set(ns: string, key: string, value: unknown): Promise<unknown>;
  };
  const settings = () => (globalThis as unknown as { game: { settings: Settings } }).game.settings;
  const fields = () => (globalThis as unknown as { foundry: { data: { fields: Fields } } }).foundry.data.fields;
  const abstract = () =>
    (globalThis as unknown as { foundry: { abstract: { DataModel: new (...a: unknown[]) => object } } }).foundry
      .abstract;

  /** Registers, on every client, a number setting (1 to 10), a schema setting and a DataModel setting. */
  async function typed(): Promise<{ w: FakeWorld; seen: unknown[] }> {
    const w = await bootWorld({ users: [GM, PLAYER] });
    const seen: unknown[] = [];
    for (const u of ["gm1", "p1"])
      w.as(u, () => {
        const f = fields();
        const { DataModel } = abstract();
        class Party extends DataModel {
          static defineSchema() {
            return {
              leader: new f.StringField!({ required: true, blank: true, initial: "" }),
              size: new f.NumberField!({ required: true, nullable: false, integer: true, min: 1, initial: 4 }),
            };
          }
          get label(): string {
            return `${(this as unknown as { leader: string }).leader}+${(this as unknown as { size: number }).size}`;
          }
        }
        const s = settings();
        s.register("test", "count", {
          scope: "world",
          config: true,
          type: new f.NumberField!({ required: true, nullable: false, integer: true, min: 1, max: 10 }),
          default: 3,
          onChange: (v: unknown) => u === "p1" && seen.push(v),
        });
        s.register("test", "paths", {
          scope: "world",
          config: false,
          type: new f.SchemaField!({
            a: new f.StringField!({ required: true, blank: true, initial: "" }),
            b: new f.StringField!({ required: true, blank: true, initial: "" }),
          }),
          default: { a: "", b: "" },
        });
        s.register("test", "party", {
          scope: "world",
          config: false,
          type: Party,
          default: { leader: "Ann", size: 2 },
        });
      });
    return { w, seen };
  }

  it("returns the registered default until a value is set; a DataModel setting reads as an instance of its class", async () => {
    const { w } = await typed();
    expect(w.as("p1", () => settings().get("test", "count"))).toBe(3);
    const party = w.as("p1", () => settings().get("test", "party")) as { label: string };
    expect(party).toBeInstanceOf(abstract().DataModel);
    expect(party.label).toBe("Ann+2");
  });

  it("cleans what is set (a numeric string cast, unknown keys dropped, missing keys given their initial value) and hands onChange the cleaned value", async () => {
    const { w, seen } = await typed();
    await w.as("gm1", () => settings().set("test", "count", "7"));
    expect(w.as("p1", () => settings().get("test", "count"))).toBe(7);
    expect(seen).toEqual([7]);
    await w.as("gm1", () => settings().set("test", "paths", { a: "x", forged: "y" }));
    expect(w.as("p1", () => settings().get("test", "paths"))).toEqual({ a: "x", b: "" });
    await w.as("gm1", () => settings().set("test", "party", { leader: "Bo" }));
    expect((w.as("p1", () => settings().get("test", "party")) as { label: string }).label).toBe("Bo+4");
  });

  it("attack: a value its field refuses throws, and nothing is written nor announced", async () => {
    const { w, seen } = await typed();
    const mark = w.writes.length;
    await expect(w.as("gm1", () => settings().set("test", "count", 11))).rejects.toThrow(/count: must be at most 10/);
    await expect(w.as("gm1", () => settings().set("test", "count", 2.5))).rejects.toThrow(/must be an integer/);
    await expect(w.as("gm1", () => settings().set("test", "count", "lots"))).rejects.toThrow(/finite number/);
    await expect(w.as("gm1", () => settings().set("test", "paths", { a: 3 }))).resolves.toBeDefined(); // a number is cast to a string
    await expect(w.as("gm1", () => settings().set("test", "party", { size: 0 }))).rejects.toThrow(
      /size: must be at least 1/,
    );
    await expect(w.as("gm1", () => settings().set("test", "paths", "nope"))).rejects.toThrow(/must be an object/);
    expect(w.as("p1", () => settings().get("test", "count"))).toBe(3);
    expect((w.as("p1", () => settings().get("test", "party")) as { label: string }).label).toBe("Ann+2");
    expect(seen).toEqual([]);
    expect(w.writes.slice(mark).map((x) => x.id)).toEqual(["test.paths"]);
  });
});

describe("fake world: ChatMessage sub-types (the module sub-types article, CONFIG.ChatMessage.dataModels, TypeDataModel)", () => {
  type Plain = Record<string, unknown>;
  type Message = { type: string; system: Plain; systemSource: Plain; update(c: Plain): Promise<unknown> };
  const create = (w: FakeWorld, user: string, data: Plain) =>
    w.as(user, () => (globalThis.ChatMessage as unknown as { create(d: Plain): Promise<Message> }).create(data));
  const fall = {
    status: "pending",
    ref: { actorId: "hero" },
    name: "Aldric",
    metres: 10,
    dice: 3,
    damage: 8,
    source: "api",
  };

  it("a message is of type base unless told; a namespaced type no active module declares is refused", async () => {
    const w = await bootWorld({ users: [GM, PLAYER] });
    expect((await create(w, "gm1", { content: "hi" })).type).toBe("base");
    await expect(create(w, "gm1", { content: "x", type: "aventure.nope" })).rejects.toThrow(
      '"aventure.nope" is not a valid type for the ChatMessage Document class',
    );
    await expect(create(w, "gm1", { content: "x", type: "othermodule.fall" })).rejects.toThrow("is not a valid type");
    expect(w.messages.contents.map((m) => m.type)).toEqual(["base"]);
  });

  it("the sub-type's data model migrates, cleans (defaults filled, unknown keys dropped) and validates the system on creation, by any user", async () => {
    const w = await bootWorld({ users: [GM, PLAYER] });
    const m = await create(w, "p1", { content: "x", type: "aventure.fall", system: { ...fall, stray: 1 } });
    expect(m.systemSource).toMatchObject({ v: 2, ...fall, hpBefore: null, executor: null, problems: [] });
    expect("stray" in m.systemSource).toBe(false);
    expect(w.as("gm1", () => m.system)).toHaveProperty("toObject"); // an instance of the model
    await expect(create(w, "p1", { type: "aventure.fall", system: { ...fall, damage: 500 } })).rejects.toThrow(
      "system.damage: must be at most 120",
    );
    await expect(create(w, "p1", { type: "aventure.fall", system: { ...fall, status: "done" } })).rejects.toThrow(
      "system.status: done is not a valid choice",
    );
    expect(w.messages.contents).toHaveLength(1);
  });

  it("migrateData runs before cleaning (an older shape is brought up to date) and the model's joint rules refuse a create", async () => {
    const w = await bootWorld({ users: [GM, PLAYER] });
    const old = await create(w, "gm1", {
      type: "aventure.fall",
      system: { pending: true, damage: 6, name: "Aldric", actorId: "hero" }, // version 1 of the fall card
    });
    expect(old.systemSource).toMatchObject({ v: 2, status: "pending", dice: 1, ref: { actorId: "hero" } });
    const journal = {
      actors: [],
      time: null,
      days: 2,
      tokens: [{ sceneId: "s1", tokenId: "t1", name: "A", before: { x: 0, y: 0 }, after: { x: 1, y: 1 }, stops: [] }],
    };
    await expect(
      create(w, "gm1", { type: "aventure.travel", system: { v: 2, status: "applied", journal } }),
    ).rejects.toThrow("(joint): each token's stops must be one fewer than the days");
    expect(w.messages.contents).toHaveLength(1);
  });

  it("an update of the system is cleaned and validated whole; an invalid one writes nothing", async () => {
    const w = await bootWorld({ users: [GM, PLAYER] });
    const m = await create(w, "gm1", { content: "x", type: "aventure.fall", system: fall });
    await w.as("gm1", () => m.update({ system: { status: "applied", applied: "true" } }));
    expect(m.systemSource).toMatchObject({ status: "applied", applied: true, damage: 8 });
    const writes = w.writes.length;
    await expect(w.as("gm1", () => m.update({ "system.ref": { actorId: "hero", extra: 1 } }))).rejects.toThrow(
      "system.ref: is not a valid value",
    );
    expect(w.writes.length).toBe(writes);
    expect(m.systemSource.ref).toEqual({ actorId: "hero" });
  });
});
