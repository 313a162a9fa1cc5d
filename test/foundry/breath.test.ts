/**
 * Suffocation in play (RULES.md §4.2) against the test world: Hold breath / Breathe again through the trusted request
 * channel, world time passing (game.time.advance fires updateWorldTime on every client; combat rounds advance it),
 * the drop to 0 HP once on the active GM with its card, the HUD panel and the tracker badges, two GMs, a reload
 * mid-way, crashes at every write of the drop, and players who try what they may not. Expected values are RULES.md's:
 * CON +2 holds 3 minutes then survives 2 rounds; CON −1 holds 30 seconds (the minimum) then 1 round (the minimum).
 */
import { describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  viewScene,
  type FakeActor,
  type FakeChatMessage,
  type FakeCombat,
  type FakeScene,
  type FakeToken,
  type FakeWorld,
} from "../world/index.js";
import { forgeCard, forgeRequest } from "../world/attacks.js";
import { EMPTY_PATHS } from "../../src/core/core-settings.js";
import type { Lang } from "../fake/i18n.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectLogged } from "../setup/quiet.js";

type Api = {
  holdBreath(
    t: unknown,
    o?: { conMod?: number },
  ): Promise<{ op: string; holdSeconds?: number; rounds?: number } | undefined>;
  breatheAgain(t: unknown): Promise<{ op: string; dropped?: boolean } | undefined>;
};
type Breath = {
  v: 1;
  id: string;
  start: number;
  conMod: number;
  roundSeconds: number;
  airUntil: number;
  dropAt: number;
  dropped: boolean;
};

const USERS = [GM, GM2, PLAYER, PLAYER2];
// Each test boots a world of several clients: slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

async function boot(opts: { users?: typeof USERS; lang?: Lang; system?: string; start?: number } = {}) {
  const world = await bootWorld({ system: opts.system ?? "dnd5e", users: opts.users ?? USERS, lang: opts.lang });
  const scene = world.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 } });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  world.worldTime = opts.start ?? 1000;
  return { world, scene };
}

/** A dnd5e creature: Constitution 14 (+2) by default, 20 hit points, owned by `owner`. */
function creature(
  world: FakeWorld,
  scene: FakeScene,
  opts: {
    id?: string;
    name?: string;
    con?: number;
    owner?: string;
    temp?: number;
    hidden?: boolean;
    ownership?: Record<string, number>;
  } = {},
): { actor: FakeActor; token: FakeToken } {
  const id = opts.id ?? "hero";
  const actor = addDnd5eActor(world, {
    id,
    name: opts.name ?? "Aldric",
    owner: opts.owner,
    ownership: opts.ownership,
    abilities: { con: opts.con ?? 14 },
    hp: { value: 20, max: 20, temp: opts.temp ?? null },
  });
  const token = world.addToken(scene, {
    _id: `t${id}`,
    name: opts.name ?? "Aldric",
    actorId: id,
    actorLink: true,
    x: 0,
    y: 0,
    hidden: opts.hidden ?? false,
  });
  return { actor, token };
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const as = <T>(world: FakeWorld, user: string, fn: (a: Api) => Promise<T>) =>
  world.as(user, () => fn(api(world, user)));
/** The held breath of a token: on its scene, by token id (GMs only write a scene). */
const breathOf = (token: FakeToken) =>
  ((token.parent as FakeScene).flags.aventure as { breath?: Record<string, Breath> } | undefined)?.breath?.[token.id];
const hp = (a: FakeActor) => (a.system.attributes as { hp: { value: number; temp: number | null } }).hp;
const cards = (world: FakeWorld) => cardsOf(world.messages.contents, "suffocation");
const cardFlag = (m: FakeChatMessage) => cardOf(m, "suffocation")!;
const unconscious = (a: FakeActor) => a.effects.filter((e) => e.statuses.has("unconscious"));
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
const infos = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "info").map((n) => n.message);
const hpWrites = (world: FakeWorld) =>
  world.writes.filter(
    (w) => w.documentName === "Actor" && w.action === "update" && JSON.stringify(w.data).includes('"hp"'),
  );
const text = (el: Element | null | undefined) => (el?.textContent ?? "").replace(/[ \t\r\n]+/g, " ").trim(); // keeps U+00A0

/** The active GM advances the world clock (game.time.advance: updateWorldTime on every client), then the world settles. */
async function advance(world: FakeWorld, seconds: number, user = "gm1") {
  await world.as(user, () => game.time.advance(seconds));
  await world.settle();
}

describe('Hold breath: who may start and stop it (request "breath")', () => {
  it("the owner starts it from the HUD: absolute deadlines from the world time, CON +2 → 3 minutes, then 2 rounds (RULES.md §4.2)", async () => {
    const { world, scene } = await boot();
    const { token } = creature(world, scene, { owner: "p1" });
    const hud = world.renderTokenHUD(token, "p1");
    const button = hud.querySelector<HTMLElement>("[data-action='aventure-hold-breath']");
    expect(button?.dataset.tooltip).toBe("Hold breath");
    expect(button?.querySelector("i")?.className).toBe("fa-solid fa-lungs");
    expect(hud.querySelector("[data-action='aventure-breathe-again']")).toBeNull();
    world.click("p1", button);
    await world.settle();
    expect(breathOf(token)).toMatchObject({
      v: 1,
      start: 1000,
      conMod: 2,
      roundSeconds: 6,
      airUntil: 1180,
      dropAt: 1192,
      dropped: false,
    });
    expect(infos(world, "p1")).toEqual(["Aldric holds their breath: 3\u00a0min, then 2 rounds out of air."]);
    // The held breath was written on the scene by the active GM, once; the token itself was not written.
    expect(world.writes.filter((w) => w.documentName === "Scene").map((w) => w.user)).toEqual(["gm1"]);
    expect(world.writes.filter((w) => w.documentName === "Token")).toEqual([]);
    const again = world.renderTokenHUD(token, "p1");
    expect(again.querySelector("[data-action='aventure-hold-breath']")).toBeNull();
    expect(again.querySelector<HTMLElement>("[data-action='aventure-breathe-again']")?.dataset.tooltip).toBe(
      "Breathe again",
    );
  });

  it("CON −1 holds 30 seconds (the minimum), then 1 round (the minimum)", async () => {
    const { world, scene } = await boot({ users: [GM] });
    const { token } = creature(world, scene, { con: 8 });
    await api(world).holdBreath(token);
    expect(breathOf(token)).toMatchObject({ conMod: -1, airUntil: 1030, dropAt: 1036 });
  });

  it("ose rounds are 10 seconds: CON 0 holds 1 minute, then down 10 s later", async () => {
    const { world, scene } = await boot({ users: [GM] });
    await world.as("gm1", () => game.settings.set("aventure", "ruleset", "ose"));
    await world.as("gm1", () => game.settings.set("aventure", "borrowSuffocation", "rnp")); // Old-School Essentials has none (docs/rules.md §0)
    const { token } = creature(world, scene, { con: 10 });
    await api(world).holdBreath(token);
    expect(breathOf(token)).toMatchObject({ roundSeconds: 10, airUntil: 1060, dropAt: 1070 });
  });

  it("a player cannot start it for a token they do not own: refused by their client, and by the GM when forged", async () => {
    const { world, scene } = await boot();
    const { token } = creature(world, scene, { owner: "p1" });
    expect(world.renderTokenHUD(token, "p2").querySelector("[data-action='aventure-hold-breath']")).toBeNull();
    await as(world, "p2", (a) => a.holdBreath(token));
    expect(errors(world, "p2")).toEqual(["You do not own Aldric."]);
    const reply = await forgeRequest(world, "p2", "breath", { op: "hold", sceneId: "s1", tokenId: token.id });
    expect(reply).toMatchObject({ ok: false, key: "AVENTURE.Error.NotOwner" });
    expect(breathOf(token)).toBeUndefined();
    // Nor stop it for someone else.
    await api(world).holdBreath(token);
    expect(
      await forgeRequest(world, "p2", "breath", { op: "release", sceneId: "s1", tokenId: token.id }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Error.NotOwner" });
    expect(breathOf(token)).toBeDefined();
  });

  it("only a GM may give the Constitution modifier by hand; malformed requests change nothing", async () => {
    const { world, scene } = await boot();
    const { token } = creature(world, scene, { owner: "p1" });
    expect(
      await forgeRequest(world, "p1", "breath", { op: "hold", sceneId: "s1", tokenId: token.id, conMod: 10 }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Error.GMOnly" });
    for (const data of [
      null,
      [],
      { op: "drown", sceneId: "s1", tokenId: token.id },
      { op: "hold", sceneId: "s1", tokenId: "../x" },
      { op: "hold", sceneId: "s1", tokenId: "nope" },
      { op: "hold", sceneId: "s1", tokenId: token.id, conMod: 1.5 },
    ]) {
      expect(await forgeRequest(world, "p1", "breath", data)).toMatchObject({ ok: false });
    }
    expect(
      await forgeRequest(world, "gm1", "breath", { op: "hold", sceneId: "s1", tokenId: token.id, conMod: 11 }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Error.OutOfRange" });
    expect(breathOf(token)).toBeUndefined();
    await api(world).holdBreath(token, { conMod: 3 });
    expect(breathOf(token)).toMatchObject({ conMod: 3, airUntil: 1240, dropAt: 1258 });
  });

  it("attack: a forged breath payload is refused with what is wrong, taken as sent (never cast), nothing written", async () => {
    const { world, scene } = await boot();
    const { token } = creature(world, scene, { owner: "p1" });
    const mark = world.writes.length;
    const ok = { op: "hold", sceneId: "s1", tokenId: token.id };
    const cases: [unknown, string, Record<string, unknown>?][] = [
      ["hold", "AVENTURE.Error.Missing", { name: "data" }],
      [[ok], "AVENTURE.Error.Missing", { name: "data" }],
      [{ ...ok, op: " hold " }, "AVENTURE.Error.Missing", { name: "op" }],
      [{ ...ok, op: ["hold"] }, "AVENTURE.Error.Missing", { name: "op" }],
      [{ ...ok, sceneId: 7 }, "AVENTURE.Error.NoToken"],
      [{ ...ok, tokenId: { id: token.id } }, "AVENTURE.Error.NoToken"],
      [{ ...ok, conMod: "2" }, "AVENTURE.Error.NotAnInteger", { name: "conMod", value: "2" }],
      [{ ...ok, conMod: true }, "AVENTURE.Error.NotAnInteger", { name: "conMod", value: "true" }],
    ];
    for (const [data, key, detail] of cases)
      expect(await forgeRequest(world, "p1", "breath", data), JSON.stringify(data)).toMatchObject({
        ok: false,
        key,
        ...(detail ? { data: detail } : {}),
      });
    expect(breathOf(token)).toBeUndefined();
    expect(world.writes.slice(mark).filter((w) => w.documentName !== "ChatMessage")).toEqual([]);
  });

  it("refuses twice, and breathing again without holding; a token without an actor gets a clear message", async () => {
    const { world, scene } = await boot({ users: [GM] });
    const { token } = creature(world, scene);
    await api(world).breatheAgain(token);
    await api(world).holdBreath(token);
    await api(world).holdBreath(token);
    const bare = world.addToken(scene, { _id: "tbare", name: "Statue", actorId: null, actorLink: false, x: 0, y: 0 });
    await api(world).holdBreath(bare);
    expect(errors(world, "gm1")).toEqual([
      "Aldric is not holding their breath.",
      "Aldric is already holding their breath.",
      "Statue has no actor.",
    ]);
  });

  it("Breathe again ends it (the owner, through the GM)", async () => {
    const { world, scene } = await boot();
    const { token } = creature(world, scene, { owner: "p1" });
    await as(world, "p1", (a) => a.holdBreath(token));
    await advance(world, 100);
    const result = await as(world, "p1", (a) => a.breatheAgain(token));
    await world.settle();
    expect(result).toEqual({ op: "release", name: "Aldric", dropped: false });
    expect(breathOf(token)).toBeUndefined();
    await advance(world, 600);
    expect(cards(world)).toEqual([]);
    expect(infos(world, "p1").at(-1)).toBe("Aldric breathes again.");
  });
});

describe("world time passing: holding, out of air, down (RULES.md §4.2)", () => {
  it("CON +2: still holding at 179 s, out of air at 180 s with 2 rounds, down at 192 s: 0 HP, unconscious, one card", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene, { owner: "p1", temp: 5 });
    await as(world, "p1", (a) => a.holdBreath(token));
    await advance(world, 179);
    expect(cards(world)).toEqual([]);
    await advance(world, 1);
    expect(cards(world)).toEqual([]);
    await advance(world, 11, "gm2"); // any GM's advance: the active GM (gm1) acts
    expect(cards(world)).toEqual([]);
    expect(hp(actor).value).toBe(20);
    await advance(world, 1);
    expect(hp(actor)).toMatchObject({ value: 0, temp: 0 });
    expect(unconscious(actor)).toHaveLength(1);
    expect(unconscious(actor)[0]!.getFlag("aventure", "applied")).toBe(true);
    const [card, ...more] = cards(world);
    expect(more).toEqual([]);
    expect(card!.author?.id).toBe("gm1");
    expect(cardFlag(card!)).toMatchObject({
      status: "applied",
      name: "Aldric",
      hpBefore: 20,
      holdSeconds: 180,
      rounds: 2,
      unconscious: true,
    });
    const content = text(world.renderMessage(card!, "p1"));
    expect(content).toContain("Aldric held their breath for 3\u00a0min, then survived 2 rounds out of air.");
    expect(content).toContain("Aldric drops from 20 to 0 HP and is dying.");
    expect(content).toContain("The creature cannot be stabilised nor regain hit points while it cannot breathe.");
    expect(breathOf(token)).toMatchObject({ dropped: true });
    // Time goes on: nothing more.
    await advance(world, 60);
    expect(cards(world)).toHaveLength(1);
    expect(hpWrites(world)).toHaveLength(1);
  });

  it("CON −1: nothing at 35 s, down at 36 s (30 s, then 1 round)", async () => {
    const { world, scene } = await boot({ users: [GM] });
    const { actor, token } = creature(world, scene, { con: 8 });
    await api(world).holdBreath(token);
    await advance(world, 35);
    expect(hp(actor).value).toBe(20);
    await advance(world, 1);
    expect(hp(actor).value).toBe(0);
    expect(cards(world)).toHaveLength(1);
  });

  it("a jump of world time well past the drop (a calendar's hour) drops it once", async () => {
    const { world, scene } = await boot({ users: [GM, GM2] });
    const { actor, token } = creature(world, scene);
    await api(world).holdBreath(token);
    await advance(world, 3600);
    await advance(world, 3600, "gm2");
    expect(hp(actor).value).toBe(0);
    expect(cards(world)).toHaveLength(1);
    expect(hpWrites(world)).toHaveLength(1);
  });

  it("an already unconscious creature keeps its status as it was (not Aventure's)", async () => {
    const { world, scene } = await boot({ users: [GM] });
    const { actor, token } = creature(world, scene, { con: 8 });
    await world.as("gm1", () => actor.toggleStatusEffect("unconscious", { active: true }));
    await api(world).holdBreath(token);
    await advance(world, 40);
    expect(unconscious(actor)).toHaveLength(1);
    expect(unconscious(actor)[0]!.getFlag("aventure", "applied")).toBeUndefined();
    expect(cardFlag(cards(world)[0]!)).toMatchObject({ status: "applied", unconscious: false });
  });

  it("Breathe again after the drop: the creature stays at 0 HP and may now be stabilised", async () => {
    const { world, scene } = await boot({ users: [GM] });
    const { actor, token } = creature(world, scene, { con: 8 });
    await api(world).holdBreath(token);
    await advance(world, 40);
    expect(await api(world).breatheAgain(token)).toMatchObject({ dropped: true });
    expect(breathOf(token)).toBeUndefined();
    expect(hp(actor).value).toBe(0);
  });

  it("a generic system: the Constitution and hit point paths of Actor data", async () => {
    const { world, scene } = await boot({ users: [GM], system: "worldbuilding" });
    await world.as("gm1", () =>
      game.settings.set("aventure", "actorData", { ...EMPTY_PATHS, conMod: "system.con", hp: "system.health.value" }),
    );
    const actor = world.addUserActor({ _id: "golem", name: "Golem", system: { con: 0, health: { value: 12 } } });
    const token = world.addToken(scene, {
      _id: "tgolem",
      name: "Golem",
      actorId: actor.id,
      actorLink: true,
      x: 0,
      y: 0,
    });
    await api(world).holdBreath(token);
    expect(breathOf(token)).toMatchObject({ conMod: 0, airUntil: 1060, dropAt: 1066 });
    await advance(world, 66);
    expect((actor.system.health as { value: number }).value).toBe(0);
    expect(actor.statuses.has("unconscious")).toBe(true);
    expect(cardFlag(cards(world)[0]!)).toMatchObject({
      hpPath: "system.health.value",
      hpBefore: 12,
      status: "applied",
    });
  });

  it("a generic system without a Constitution path: a clear message, nothing written", async () => {
    const { world, scene } = await boot({ users: [GM], system: "worldbuilding" });
    const actor = world.addUserActor({ _id: "golem", name: "Golem", system: {} });
    const token = world.addToken(scene, {
      _id: "tgolem",
      name: "Golem",
      actorId: actor.id,
      actorLink: true,
      x: 0,
      y: 0,
    });
    await api(world).holdBreath(token);
    expect(errors(world, "gm1")).toEqual(["Golem: no Constitution modifier (set its path in Actor data)."]);
    expect(breathOf(token)).toBeUndefined();
  });
});

describe("combat rounds count (core advances world time per round)", () => {
  async function combatWith(world: FakeWorld, tokens: string[]): Promise<FakeCombat> {
    return world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments(
        "Combatant",
        tokens.map((tokenId) => ({ tokenId, sceneId: "s1", initiative: 10 })),
      );
      await c.startCombat();
      return c;
    });
  }
  const nextRound = async (world: FakeWorld, c: FakeCombat) => {
    await world.as("gm1", () => c.nextRound());
    await world.settle();
  };

  it("CON −1 in combat: out of air after 5 rounds, down at the start of round 7; the tracker shows it next to the combatant", async () => {
    const { world, scene } = await boot({ users: [GM, PLAYER] });
    const { actor, token } = creature(world, scene, { con: 8, owner: "p1" });
    creature(world, scene, { id: "orc", name: "Orc" });
    const combat = await combatWith(world, [token.id, "torc"]);
    await as(world, "p1", (a) => a.holdBreath(token));
    const tracker = async () => {
      await world.as("p1", () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
      return world.as("p1", () => (ui.combat as unknown as { element: HTMLElement }).element);
    };
    const row = (html: HTMLElement, id: string) => html.querySelector(`li.combatant[data-combatant-id="${id}"]`);
    const heroId = combat.combatants.find((c) => c.tokenId === token.id)!.id;
    const orcId = combat.combatants.find((c) => c.tokenId === "torc")!.id;
    let html = await tracker();
    expect(text(row(html, heroId)?.querySelector(".aventure-breath-badge"))).toBe("30\u00a0s left");
    expect(row(html, orcId)?.querySelector(".aventure-breath-badge")).toBeNull();
    for (let r = 0; r < 5; r++) await nextRound(world, combat);
    expect(world.worldTime).toBe(1030);
    // Redrawn in place when time moves (the tracker is not re-rendered).
    expect(text(row(html, heroId)?.querySelector(".aventure-breath-badge"))).toBe("1 round left");
    expect(
      row(html, heroId)?.querySelector(".aventure-breath-badge")?.classList.contains("aventure-breath-outOfAir"),
    ).toBe(true);
    expect(hp(actor).value).toBe(20);
    await nextRound(world, combat);
    expect(combat.round).toBe(7);
    expect(hp(actor).value).toBe(0);
    expect(cards(world)).toHaveLength(1);
    html = await tracker();
    expect(text(row(html, heroId)?.querySelector(".aventure-breath-badge"))).toBe("0 HP, dying");
    // A monster holding its breath is not shown to the players; the GM sees it.
    await api(world).holdBreath(scene.tokens.get("torc"));
    html = await tracker();
    expect(row(html, orcId)?.querySelector(".aventure-breath-badge")).toBeNull();
    await world.as("gm1", () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
    const gmHtml = world.as("gm1", () => (ui.combat as unknown as { element: HTMLElement }).element);
    expect(text(row(gmHtml, orcId)?.querySelector(".aventure-breath-badge"))).toBe("3\u00a0min left");
  });

  it("inside a collapsed dnd5e group, the group's header shows the badge too", async () => {
    const { world, scene } = await boot({ users: [GM] });
    addDnd5eActor(world, { id: "gob", name: "Goblin", abilities: { con: 10 } });
    for (const id of ["g1", "g2"])
      world.addToken(scene, { _id: id, name: "Goblin", actorId: "gob", actorLink: false, x: 0, y: 0 });
    await combatWith(world, ["g1", "g2"]);
    await api(world).holdBreath(scene.tokens.get("g1"));
    expect(errors(world, "gm1")).toEqual([]);
    await world.as("gm1", () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
    const html = world.as("gm1", () => (ui.combat as unknown as { element: HTMLElement }).element);
    const group = html.querySelector("li.combatant-group.collapsed");
    expect(group).not.toBeNull();
    expect(text(group?.querySelector(".group-header .aventure-breath-badge"))).toBe("1\u00a0min left");
  });
});

describe("the HUD panel", () => {
  it("shows the time left to the owner and the GM, redrawn as world time moves; nothing for other players", async () => {
    const { world, scene } = await boot();
    const { token } = creature(world, scene, { owner: "p1" });
    await as(world, "p1", (a) => a.holdBreath(token));
    const hud = world.renderTokenHUD(token, "p1");
    hud.ownerDocument.body.appendChild(hud); // open: in the page, where a redraw finds it
    await world.settle();
    const panel = () => hud.querySelector(".aventure-breath-panel");
    expect(text(panel()?.querySelector(".aventure-breath-head"))).toBe("Holding breath 3\u00a0min left");
    expect(text(panel()?.querySelector(".aventure-breath-timeline"))).toBe(
      "Holds their breath for 3\u00a0min, then survives 2 rounds out of air.",
    );
    await advance(world, 100);
    expect(text(panel()?.querySelector(".aventure-breath-left"))).toBe("1\u00a0min 20\u00a0s left");
    await advance(world, 86);
    expect(text(panel()?.querySelector(".aventure-breath-head"))).toBe("Out of air 1 round left");
    expect(panel()?.classList.contains("aventure-breath-outOfAir")).toBe(true);
    hud.remove();
    await world.settle();
    expect(world.renderTokenHUD(token, "gm2").querySelector(".aventure-breath-hud-slot")).not.toBeNull();
    expect(world.renderTokenHUD(token, "p2").querySelector(".aventure-breath-hud-slot")).toBeNull();
  });

  it("in French: the panel, the notification and the card", async () => {
    const { world, scene } = await boot({ users: [GM, PLAYER], lang: "fr" });
    const { token } = creature(world, scene, { owner: "p1" });
    world.click("p1", world.renderTokenHUD(token, "p1").querySelector("[data-action='aventure-hold-breath']"));
    await world.settle();
    expect(infos(world, "p1")).toEqual(["Aldric retient son souffle\u00a0: 3\u00a0min, puis 2\u00a0rounds sans air."]);
    const hud = world.renderTokenHUD(token, "p1");
    await world.settle();
    expect(text(hud.querySelector(".aventure-breath-head"))).toBe("Souffle retenu encore 3\u00a0min");
    expect(hud.querySelector<HTMLElement>("[data-action='aventure-breathe-again']")?.dataset.tooltip).toBe(
      "Respirer de nouveau",
    );
    await advance(world, 192);
    const content = text(world.renderMessage(cards(world)[0]!, "p1"));
    expect(content).toContain("Aldric tombe de 20 à 0 PV et agonise.");
    expect(content).toContain(
      "La créature ne peut ni être stabilisée ni regagner de points de vie tant qu’elle ne peut pas respirer.",
    );
  });
});

describe("exactly once: two GMs, a reload mid-way, crashes at every write of the drop", () => {
  it("two GMs both see the time pass: one card, one hit point write", async () => {
    const { world, scene } = await boot({ users: [GM, GM2] });
    const { actor, token } = creature(world, scene, { con: 8 });
    await world.as("gm2", () => api(world, "gm2").holdBreath(token));
    // Both advances make the drop due: their updateWorldTime handlers interleave on the active GM.
    await Promise.all([world.as("gm1", () => game.time.advance(36)), world.as("gm2", () => game.time.advance(36))]);
    await world.settle();
    expect(world.worldTime).toBe(1072);
    expect(cards(world)).toHaveLength(1);
    expect(hpWrites(world)).toHaveLength(1);
    expect(unconscious(actor)).toHaveLength(1);
  });

  it("a reload mid-way keeps the held breath (its deadlines are absolute): the reloaded GM drops it on time, once", async () => {
    const { world, scene } = await boot({ users: [GM, PLAYER] });
    const { actor, token } = creature(world, scene, { owner: "p1" });
    await as(world, "p1", (a) => a.holdBreath(token));
    await advance(world, 100);
    await world.reload("gm1");
    await world.reload("p1");
    expect(breathOf(token)).toMatchObject({ airUntil: 1180, dropAt: 1192 });
    await advance(world, 91);
    expect(hp(actor).value).toBe(20);
    await advance(world, 1);
    expect(hp(actor).value).toBe(0);
    await world.reload("gm1");
    await advance(world, 10);
    expect(cards(world)).toHaveLength(1);
  });

  it("the drop falls due while no GM is connected: the first GM to come back drops it, once", async () => {
    const { world, scene } = await boot({ users: [GM, GM2] });
    const { actor, token } = creature(world, scene, { con: 8 });
    await api(world).holdBreath(token);
    await world.disconnect("gm1");
    await world.disconnect("gm2");
    world.worldTime += 600; // a calendar module moved the clock on the server meanwhile (no client saw it)
    await world.connect("gm2");
    await world.connect("gm1");
    expect(hp(actor).value).toBe(0);
    expect(cards(world)).toHaveLength(1);
  });

  it("counts the active GM's writes of one drop (so the loop below covers every crash point)", async () => {
    const { world, scene } = await boot({ users: [GM, GM2] });
    const { token } = creature(world, scene, { con: 8 });
    await api(world).holdBreath(token);
    const mark = world.writes.length;
    await advance(world, 36);
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "time Setting",
      "create ChatMessage",
      "update Actor",
      "create ActiveEffect",
      "update Scene",
      "update ChatMessage",
    ]);
  });

  for (let k = 2; k <= 6; k++) {
    it(`crash before the active GM's write ${k}: gm2 takes over, gm1 reloads: dropped once, the card applied`, async () => {
      const { world, scene } = await boot({ users: [GM, GM2] });
      const { actor, token } = creature(world, scene, { con: 8 });
      await api(world).holdBreath(token);
      world.crashAt(k, (w) => w.user === "gm1");
      // gm1's page stops mid-drop: it logs the suffocation it could not apply (gm2 then finishes it).
      expectLogged(/^aventure \| could not apply a suffocation ClientCrashed: Fake world: the client of gm1 crashed$/);
      await world.as("gm1", () => game.time.advance(36)).catch(() => undefined);
      await world.settle({ allowErrors: true });
      if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
      await world.settle();
      await advance(world, 6); // and time goes on
      expect(cards(world)).toHaveLength(1);
      expect(cardFlag(cards(world)[0]!)).toMatchObject({ status: "applied", hpBefore: 20 });
      expect(hp(actor).value).toBe(0);
      expect(hpWrites(world)).toHaveLength(1);
      expect(unconscious(actor)).toHaveLength(1);
      expect(breathOf(token)).toMatchObject({ dropped: true });
    });
  }

  it("a player's forged suffocation card is not trusted: no drop is skipped because of it", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene, { con: 8, owner: "p1" });
    await as(world, "p1", (a) => a.holdBreath(token));
    const id = breathOf(token)!.id;
    await forgeCard(world, "p1", {
      suffocation: {
        v: 1,
        status: "applied",
        breathId: id,
        sceneId: "s1",
        tokenId: token.id,
        name: "Aldric",
        holdSeconds: 30,
        rounds: 1,
        hpPath: null,
        hpBefore: null,
        tempPath: null,
        unconscious: false,
      },
    });
    await advance(world, 36);
    expect(hp(actor).value).toBe(0);
    expect(cards(world).filter((m) => m.author?.isGM)).toHaveLength(1);
  });

  const dropState = (breathId: string, tokenId: string, status: string) => ({
    v: 1,
    status,
    breathId,
    sceneId: "s1",
    tokenId,
    name: "Aldric",
    holdSeconds: 30,
    rounds: 1,
    hpPath: "system.attributes.hp.value",
    hpBefore: 20,
    tempPath: null,
    unconscious: false,
  });

  it("attack: a player's own aventure.suffocation message is not trusted: no drop skipped, none recovered from it", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene, { con: 8, owner: "p1" });
    await as(world, "p1", (a) => a.holdBreath(token));
    const id = breathOf(token)!.id;
    const other = creature(world, scene, { id: "monster", con: 8 });
    for (const [tokenId, status] of [
      [token.id, "applied"], // would skip the player's own drop
      [other.token.id, "applying"], // would make a recovering GM drop the GM's creature
    ] as const)
      await world.as("p1", () =>
        ChatMessage.implementation.create({
          content: "<p>x</p>",
          type: "aventure.suffocation",
          system: dropState(id, tokenId, status),
        } as never),
      );
    expect(world.messages.contents.filter((m) => m.type === "aventure.suffocation")).toHaveLength(2);
    await world.reload("gm1"); // recovery of the cards left applying
    expect(hp(other.actor).value).toBe(20);
    await advance(world, 36);
    expect(hp(actor).value).toBe(0);
    expect(cards(world).filter((m) => m.author?.isGM)).toHaveLength(1);
    expect(cards(world).find((m) => m.author?.isGM)!.type).toBe("aventure.suffocation");
  });

  it("a drop card of an earlier version (a GM's base message, its state in flags.aventure.suffocation) still counts: the breath is not dropped twice", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene, { con: 8, owner: "p1" });
    await as(world, "p1", (a) => a.holdBreath(token));
    const id = breathOf(token)!.id;
    world.addMessage({
      author: "gm1",
      content: "<p>x</p>",
      flags: { aventure: { suffocation: dropState(id, token.id, "applied") } },
    });
    await advance(world, 36);
    expect(hp(actor).value).toBe(20); // its drop is on the old card: not made again
    expect(cards(world)).toHaveLength(1);
  });

  it("the owner cannot write the held breath (it is on the scene); a GM setting it back to not dropped does not make it drop twice: its card exists", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene, { con: 8, owner: "p1" });
    await as(world, "p1", (a) => a.holdBreath(token));
    await advance(world, 36);
    expect(hp(actor).value).toBe(0);
    const undropped = { ...breathOf(token)!, dropped: false };
    await expect(
      world.as("p1", () => scene.update({ flags: { aventure: { breath: { [token.id]: undropped } } } })),
    ).rejects.toThrow();
    expect(breathOf(token)).toMatchObject({ dropped: true });
    await world.as("gm2", () => scene.update({ flags: { aventure: { breath: { [token.id]: undropped } } } }));
    await world.as("gm1", () => actor.update({ "system.attributes.hp.value": 7 }));
    await advance(world, 6);
    expect(hp(actor).value).toBe(7);
    expect(cards(world)).toHaveLength(1);
  });

  it("a breath flag a player wrote by hand with forged deadlines is ignored", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene, { owner: "p1" });
    await world.as("p1", () =>
      token.setFlag("aventure", "breath", {
        v: 1,
        id: "forgedforged",
        start: 0,
        conMod: 2,
        roundSeconds: 6,
        airUntil: 5,
        dropAt: 6,
        dropped: false,
      }),
    );
    await advance(world, 10);
    expect(hp(actor).value).toBe(20);
    expect(cards(world)).toEqual([]);
  });

  it("a player who copies a hidden monster's breath id onto their own token cancels nothing: the monster drops on time; the forged breath drops nobody", async () => {
    const { world, scene } = await boot();
    const mon = creature(world, scene, { id: "mon", name: "Drowned Ghoul", hidden: true });
    const pc = creature(world, scene, { id: "pc", owner: "p1" });
    await api(world).holdBreath(mon.token); // CON +2: down at 1192
    const stolen = breathOf(mon.token)!; // anyone who has the scene can read it
    expect(stolen.id).toMatch(/^[A-Za-z0-9]{8,32}$/);
    // Started long ago, with the deadlines the rules give for that start: a flag parseBreathFlag accepts.
    const start = -100_000;
    const forged = {
      ...stolen,
      start,
      airUntil: start + stolen.airUntil - stolen.start,
      dropAt: start + stolen.dropAt - stolen.start,
    };
    await world.as("p1", () => pc.token.setFlag("aventure", "breath", forged));
    await expect(
      world.as("p1", () => scene.update({ flags: { aventure: { breath: { [pc.token.id]: forged } } } })),
    ).rejects.toThrow();
    await world.settle();
    await advance(world, 1);
    expect(hp(pc.actor).value).toBe(20);
    await advance(world, 600);
    expect(hp(mon.actor).value).toBe(0);
    expect(
      cards(world)
        .filter((m) => m.author?.isGM)
        .map((m) => cardFlag(m).tokenId),
    ).toEqual([mon.token.id]);
    expect(hp(pc.actor).value).toBe(20);
  });

  it("a held breath a player wrote on their own token, started in the past with the rules' deadlines, is not the GM's: it never drops them", async () => {
    const { world, scene } = await boot();
    const { actor, token } = creature(world, scene, { owner: "p1" });
    const start = 0; // world time is 1000: down since 192
    const flag = {
      v: 1,
      id: "forgedforged",
      start,
      conMod: 2,
      roundSeconds: 6,
      airUntil: start + 180,
      dropAt: start + 192,
      dropped: false,
    };
    await world.as("p1", () => token.setFlag("aventure", "breath", flag));
    await advance(world, 10);
    expect(hp(actor).value).toBe(20);
    expect(cards(world)).toEqual([]);
  });
});

describe("a deleted token", () => {
  it("the active GM forgets its held breath (the scene's entry), once with two GMs", async () => {
    const { world, scene } = await boot({ users: [GM, GM2] });
    const { token } = creature(world, scene, { con: 8 });
    await api(world).holdBreath(token);
    expect(breathOf(token)).toBeDefined();
    await world.as("gm2", () => scene.deleteEmbeddedDocuments("Token", [token.id]));
    await world.settle();
    expect((scene.flags.aventure as { breath?: Record<string, unknown> }).breath).toEqual({});
    expect(world.writes.filter((w) => w.documentName === "Scene").map((w) => w.user)).toEqual(["gm1", "gm1"]);
    await advance(world, 600);
    expect(cards(world)).toEqual([]);
  });
});

describe("who sees a suffocation (cards, HUD panel, tracker)", () => {
  it("the card of a hidden monster or of a monster no player owns goes to the GMs only; a player's character's to the GMs and its owners", async () => {
    const { world, scene } = await boot();
    const ghoul = creature(world, scene, { id: "mon", name: "Drowned Ghoul", hidden: true, con: 8 });
    const orc = creature(world, scene, { id: "orc", name: "Orc", con: 8 });
    const hero = creature(world, scene, { id: "hero", owner: "p1", con: 8 });
    for (const c of [ghoul, orc, hero]) await api(world).holdBreath(c.token);
    await advance(world, 600);
    expect([ghoul, orc, hero].map((c) => hp(c.actor).value)).toEqual([0, 0, 0]);
    const cardOf = (tokenId: string) => cards(world).find((m) => cardFlag(m).tokenId === tokenId)!;
    expect([...cardOf(ghoul.token.id).whisper].sort()).toEqual(["gm1", "gm2"]);
    expect([...cardOf(orc.token.id).whisper].sort()).toEqual(["gm1", "gm2"]);
    expect([...cardOf(hero.token.id).whisper].sort()).toEqual(["gm1", "gm2", "p1"]);
    const seen = (user: string) =>
      world
        .visibleMessages(user)
        .filter((m) => cards(world).includes(m))
        .map((m) => cardFlag(m).name);
    expect(seen("p1")).toEqual(["Aldric"]);
    expect(seen("p2")).toEqual([]);
    expect(seen("gm2").sort()).toEqual(["Aldric", "Drowned Ghoul", "Orc"]);
  });

  it("a hidden token's breath shows to no player: neither its HUD panel nor its tracker badge, even to a player who may observe it", async () => {
    const { world, scene } = await boot({ users: [GM, PLAYER, PLAYER2] });
    const ghoul = creature(world, scene, {
      id: "mon",
      name: "Drowned Ghoul",
      hidden: true,
      ownership: { p1: 3, p2: 2 },
    });
    await api(world).holdBreath(ghoul.token);
    const combat = await world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments("Combatant", [
        { tokenId: ghoul.token.id, sceneId: "s1", initiative: 10, hidden: false },
      ]);
      await c.startCombat();
      return c;
    });
    await world.settle();
    const badge = async (user: string) => {
      await world.as(user, () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
      const html = world.as(user, () => (ui.combat as unknown as { element: HTMLElement }).element);
      const id = combat.combatants.find((c) => c.tokenId === ghoul.token.id)!.id;
      return html.querySelector(`li.combatant[data-combatant-id="${id}"] .aventure-breath-badge`);
    };
    expect(text(await badge("gm1"))).toBe("3 min left");
    expect(await badge("p2")).toBeNull();
    expect(await badge("p1")).toBeNull();
    const panel = (user: string) => world.renderTokenHUD(ghoul.token, user).querySelector(".aventure-breath-hud-slot");
    expect(panel("gm1")).not.toBeNull();
    expect(panel("p1")).toBeNull();
    // Revealed: its owner sees the panel, its observer the badge.
    await world.as("gm1", () => ghoul.token.update({ hidden: false }));
    await world.settle();
    expect(panel("p1")).not.toBeNull();
    expect(text(await badge("p2"))).toBe("3 min left");
  });
});
