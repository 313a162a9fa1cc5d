/**
 * Exploration time against the test world (test/world): the Exploration panel (scene controls, buttons, rules in use,
 * settings checked by the rules), advances that move world time once and roll the wandering checks with Foundry dice
 * on a GM card, lights carried by tokens going out and back on, the link to world time moved by anything else
 * (capped checks, rewinds), two GMs (one roll per check, one advance per click), bad input, forged requests and cards,
 * and a crash before every write of an advance, on one GM (reload) or two (the other takes over).
 * Expected values are RULES.md §10 and the examples, as literals.
 */
import { listen } from "../world/listen.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import {
  addDnd5eActor,
  bootWorld,
  clickTool,
  control,
  forgeCard,
  forgeRequest,
  gameWrites,
  GM,
  GM2,
  PLAYER,
  sceneControls,
  viewScene,
  type FakeChatMessage,
  type FakeScene,
  type FakeToken,
  type FakeWorld,
  type UserSpec,
} from "../world/index.js";
import type { Lang } from "../fake/i18n.js";
import type { ExplorationRecord } from "../../src/exploration/record.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectCrashLog } from "./crash-logs.js";

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 0, 1) });
});
afterEach(() => {
  vi.useRealTimers();
});

type Reply = { rev: number; messageId: string | null } | undefined;
interface ExplorationApi {
  status(): {
    rev: number;
    state: ExplorationRecord["state"];
    time: number;
    party: ExplorationRecord["party"];
    restDue: boolean;
  };
  start(tokens?: unknown[]): Promise<Reply>;
  end(): Promise<Reply>;
  party(tokens?: unknown[]): Promise<Reply>;
  advance(turns?: unknown, options?: { rest?: boolean; search?: boolean }): Promise<Reply>;
  spend(seconds: unknown): Promise<Reply>;
  light(token: unknown, kind?: unknown, turns?: unknown): Promise<Reply>;
  putOut(token: unknown): Promise<Reply>;
}
interface Panel {
  element: HTMLElement | null;
  lastHTML: string;
  rendered: boolean;
  click(selector: string): Promise<void>;
  render(): Promise<unknown>;
}
type Api = {
  exploration: ExplorationApi;
  openExploration(): Promise<Panel | undefined>;
  openEncounter(o?: object): Promise<unknown>;
};

interface Ctx {
  world: FakeWorld;
  scene: FakeScene;
  /** Aldric carries a light (dim 6, bright 3); Brune's token has no light; Cyril's has dim 9, bright 4.5. */
  tokens: Record<"aldric" | "brune" | "cyril", FakeToken>;
}

async function setup(
  opts: {
    users?: UserSpec[];
    ruleset?: string;
    lang?: Lang;
    generation?: number;
    borrow?: Record<string, string>;
  } = {},
): Promise<Ctx> {
  const world = await bootWorld({
    system: "dnd5e",
    users: opts.users ?? [GM, PLAYER],
    lang: opts.lang ?? "en",
    generation: opts.generation ?? 13,
  });
  await set(world, "ruleset", opts.ruleset ?? "ose");
  for (const [key, value] of Object.entries(opts.borrow ?? {})) await set(world, key, value);
  const scene = world.addScene({ _id: "scene1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  addDnd5eActor(world, { id: "aldric", name: "Aldric", owner: "p1" });
  addDnd5eActor(world, { id: "brune", name: "Brune", owner: "p1" });
  addDnd5eActor(world, { id: "cyril", name: "Cyril", owner: "p1" });
  const token = (id: string, name: string, actorId: string, light: { dim: number; bright: number }) =>
    world.addToken(scene, { _id: id, name, actorId, actorLink: true, disposition: 1, light });
  const tokens = {
    aldric: token("tA", "Aldric", "aldric", { dim: 6, bright: 3 }),
    brune: token("tB", "Brune", "brune", { dim: 0, bright: 0 }),
    cyril: token("tC", "Cyril", "cyril", { dim: 9, bright: 4.5 }),
  };
  await world.settle();
  return { world, scene, tokens };
}

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const api = (c: Ctx, user = "gm1") => c.world.api<Api>(user);
/** Runs `fn` on a user's client, then lets the world settle (hooks, the active GM's work). */
async function as<T>(c: Ctx, user: string, fn: (a: Api) => Promise<T> | T): Promise<T> {
  const out = await c.world.as(user, () => fn(api(c, user)));
  await c.world.settle();
  return out;
}
const record = (c: Ctx): ExplorationRecord =>
  c.world.settingValues.get("aventure.explorationState") as ExplorationRecord;
const ref = (t: FakeToken) => ({ sceneId: "scene1", tokenId: t.id });
const cards = (w: FakeWorld) => cardsOf(w.messages.contents, "exploration");
const text = (m: FakeChatMessage) => m.content.replaceAll("&#x27;", "'").replace(/[ \t\r\n]+/g, " ");
const notes = (w: FakeWorld, type: "error" | "warn" | "info", user = "gm1") =>
  w.notifications.filter((n) => n.type === type && n.user === user).map((n) => n.message);
const timeWrites = (w: FakeWorld, mark: number) => w.writesSince(mark).filter((x) => x.action === "time");
const light = (t: FakeToken) => ({
  dim: t.light.dim,
  bright: t.light.bright,
  remembered: (t.flags.aventure as { explorationLight?: unknown } | undefined)?.explorationLight ?? null,
});

/** Starts an exploration with Aldric, Brune and Cyril as the party (GM), at world time 1000. */
async function started(opts: Parameters<typeof setup>[0] = {}): Promise<Ctx> {
  const c = await setup(opts);
  await c.world.as("gm1", () => game.time.advance(1000));
  await c.world.settle();
  const reply = await as(c, "gm1", (a) => a.exploration.start([c.tokens.aldric, c.tokens.brune, c.tokens.cyril]));
  expect(reply).toBeDefined();
  return c;
}

describe("the rules' examples, through the glue", () => {
  it("4 turns with dice 1 then 5: checks at turns 2 and 4, an encounter at turn 2; world time moves 40 minutes once", async () => {
    const c = await started();
    const mark = c.world.writes.length;
    const turns = listen(c.world, "aventure.explorationTurn");
    c.world.queueRolls(1, 5);
    const reply = await as(c, "gm1", (a) => a.exploration.advance(4));
    expect(turns).toEqual([{ user: "gm1", data: { turns: 4, worldTime: 3400, messageId: reply!.messageId } }]);
    expect(c.world.rollQueue).toEqual([]);
    expect(c.world.worldTime).toBe(1000 + 2400);
    expect(timeWrites(c.world, mark)).toHaveLength(1);
    const r = record(c);
    expect(r.state!.turn).toBe(4);
    expect(r.op).toBeNull();
    expect(r.time).toBe(3400);
    const [card] = cards(c.world);
    expect(cards(c.world)).toHaveLength(1);
    expect(card!.id).toBe(reply!.messageId);
    expect(card!.rolls).toHaveLength(2);
    expect(card!.whisper).toEqual(["gm1"]);
    expect(text(card!)).toContain("Turn 2: 1 on the d6 — <strong>wandering monsters!</strong>");
    expect(text(card!)).toContain("Turn 4: 5 on the d6 — <strong>nothing</strong>");
    expect(text(card!)).toContain("turn 0 → 4");
    expect(cardOf(card!, "exploration")).toMatchObject({ encounter: true });
  });

  it("6 turns without rest: −1 to attacks and damage; a turn of rest takes it away", async () => {
    const c = await started();
    c.world.queueRolls(3, 4, 5);
    await as(c, "gm1", (a) => a.exploration.advance(6));
    expect(text(cards(c.world)[0]!)).toContain("Rest overdue: −1 to attacks and damage until the party rests.");
    expect(record(c).state!.turnsSinceRest).toBe(6);
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    expect(panel.lastHTML).toContain("Rest overdue: −1");
    expect(panel.lastHTML).toContain("6 turns since the last rest");
    await as(c, "gm1", () => panel.click('[data-action="advance"][data-advance="rest"]'));
    const rest = cards(c.world)[1]!;
    expect(text(rest)).toContain("Resting");
    expect(text(rest)).toContain("The party rested.");
    expect(text(rest)).not.toContain("Rest overdue");
    expect(record(c).state!.turnsSinceRest).toBe(0);
    expect(panel.lastHTML).not.toContain("Rest overdue");
    expect(panel.lastHTML).toContain("0 turns since the last rest");
  });

  it("5 turns: the rest is due, without a penalty yet", async () => {
    const c = await started();
    c.world.queueRolls(6, 6);
    await as(c, "gm1", (a) => a.exploration.advance(5));
    const t = text(cards(c.world)[0]!);
    expect(t).toContain("Rest due: the party should rest a turn now.");
    expect(t).not.toContain("Rest overdue");
  });

  it("a torch lit at turn 0 is out after 6 turns: the token's light goes out, remembered, and comes back when relit", async () => {
    const c = await started();
    await as(c, "gm1", (a) => a.exploration.light(c.tokens.aldric, "torch"));
    expect(record(c).state!.lights).toEqual([{ id: "scene1.tA", kind: "torch", turnsLeft: 6 }]);
    expect(light(c.tokens.aldric)).toEqual({ dim: 6, bright: 3, remembered: null });
    c.world.queueRolls(6, 6);
    await as(c, "gm1", (a) => a.exploration.advance(5));
    expect(record(c).state!.lights).toEqual([{ id: "scene1.tA", kind: "torch", turnsLeft: 1 }]);
    expect(light(c.tokens.aldric)).toEqual({ dim: 6, bright: 3, remembered: null });
    c.world.queueRolls(6);
    await as(c, "gm1", (a) => a.exploration.advance(1));
    expect(record(c).state!.lights).toEqual([]);
    expect(light(c.tokens.aldric)).toEqual({ dim: 0, bright: 0, remembered: { dim: 6, bright: 3 } });
    expect(text(cards(c.world)[1]!)).toContain("Aldric: the torch burns out.");
    // Relit: the remembered radii come back.
    await as(c, "gm1", (a) => a.exploration.light(c.tokens.aldric, "lantern"));
    expect(light(c.tokens.aldric)).toEqual({ dim: 6, bright: 3, remembered: null });
    expect(record(c).state!.lights).toEqual([{ id: "scene1.tA", kind: "lantern", turnsLeft: 24 }]);
  });

  it("a light put out early goes out on the token and leaves the party's lights", async () => {
    const c = await started();
    await as(c, "gm1", (a) => a.exploration.light(ref(c.tokens.cyril), "custom", 3));
    expect(record(c).state!.lights).toEqual([{ id: "scene1.tC", kind: "custom", turnsLeft: 3 }]);
    await as(c, "gm1", (a) => a.exploration.putOut(c.tokens.cyril));
    expect(record(c).state!.lights).toEqual([]);
    expect(light(c.tokens.cyril)).toEqual({ dim: 0, bright: 0, remembered: { dim: 9, bright: 4.5 } });
  });
});

describe("the Exploration panel", () => {
  it("opens from the token controls for a GM only, and from the API", async () => {
    const c = await setup();
    const gmTool = sceneControls(c.world, "gm1").tokens!.tools!.aventureExploration!;
    expect(gmTool).toMatchObject({
      button: true,
      visible: true,
      icon: "fa-solid fa-dungeon",
      title: "AVENTURE.Exploration.control",
    });
    expect(sceneControls(c.world, "p1").tokens!.tools!.aventureExploration!.visible).toBe(false);
    await c.world.as("gm1", () => clickTool(c.world, "gm1", "tokens", "aventureExploration"));
    await c.world.settle();
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    expect(panel.rendered).toBe(true);
    expect(panel.lastHTML).toContain("No exploration under way.");
    // A player gets a message, no panel.
    expect(await as(c, "p1", (a) => a.openExploration())).toBeUndefined();
    expect(notes(c.world, "error", "p1")).toEqual(["Only a GM can do this."]);
  });

  it("v14: a control without tools gets them, and the button", async () => {
    const c = await setup({ generation: 14 });
    const controls: Record<string, { name: string; tools?: Record<string, unknown> }> = { tokens: { name: "tokens" } };
    c.world.as("gm1", () =>
      (Hooks.callAll as unknown as (name: string, ...args: unknown[]) => boolean)("getSceneControlButtons", controls),
    );
    expect(Object.keys(controls.tokens!.tools!)).toEqual(["aventureExploration"]);
    expect(sceneControls(c.world, "gm1").tokens!.tools!.aventureExploration).toBeDefined();
  });

  it("starts with the selected tokens, shows the turn, the party's lights and the rules in use; +1 turn moves world time once", async () => {
    const c = await setup();
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    control(c.world.clientOf("gm1"), "tA", "tC");
    await as(c, "gm1", () => panel.click('[data-action="start"]'));
    expect(record(c).party.map((m) => m.name)).toEqual(["Aldric", "Cyril"]);
    const html = panel.lastHTML;
    expect(html).toContain("Turn 0");
    expect(html).toContain("A turn lasts 10 min.");
    expect(html).toContain("A wandering-monster check every 2 turns: monsters on 1 or less on a d6.");
    expect(html).toContain("The party rests one turn every 5 turns, otherwise −1 to attacks and damage.");
    expect(html).toContain("Turns of light: torch 6, lantern flask 24.");
    // ose: no minutes.
    expect(panel.element!.querySelectorAll('[data-action="advance"]')).toHaveLength(3);
    await as(c, "gm1", () => panel.click('[data-token-id="tA"] [data-action="light"][data-kind="torch"]'));
    expect(panel.lastHTML).toContain("Torch: 6 turns left");
    const mark = c.world.writes.length;
    await as(c, "gm1", () => panel.click('[data-action="advance"][data-advance="explore"]'));
    expect(c.world.worldTime).toBe(600);
    expect(timeWrites(c.world, mark)).toHaveLength(1);
    expect(panel.lastHTML).toContain("Turn 1");
    expect(panel.lastHTML).toContain("Torch: 5 turns left");
    // No check at turn 1: no die, and a card for the turn.
    expect(c.world.rollsMade).toHaveLength(0);
    expect(text(cards(c.world)[0]!)).toContain("No wandering-monster check in these turns.");
    // Search takes a turn too: the check of turn 2.
    c.world.queueRolls(2);
    await as(c, "gm1", () => panel.click('[data-action="advance"][data-advance="search"]'));
    expect(c.world.worldTime).toBe(1200);
    expect(text(cards(c.world)[1]!)).toContain("Searching");
    await as(c, "gm1", () => panel.click('[data-action="end"]'));
    expect(record(c).state).toBeNull();
    expect(panel.lastHTML).toContain("No exploration under way.");
  });

  it("Rôle'n Play: +1 min and +10 min move world time by a minute and ten; the turn is counted once it is complete", async () => {
    const c = await started({ ruleset: "rnp" });
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    expect(panel.element!.querySelectorAll('[data-action="advance"]')).toHaveLength(5);
    await as(c, "gm1", () => panel.click('[data-advance="spend"][data-amount="60"]'));
    expect(c.world.worldTime).toBe(1060);
    expect(record(c).state!.turn).toBe(0);
    expect(cards(c.world)).toHaveLength(0);
    expect(panel.lastHTML).toContain("1 min into the current turn");
    await as(c, "gm1", () => panel.click('[data-advance="spend"][data-amount="600"]'));
    expect(c.world.worldTime).toBe(1660);
    expect(record(c).state!.turn).toBe(1);
    expect(record(c).time).toBe(1600);
    expect(panel.lastHTML).toContain("1 min into the current turn");
    expect(text(cards(c.world)[0]!)).toContain("Time passes");
  });

  it("shows the settings the rules refuse, uses their defaults, and tells the GM", async () => {
    const c = await started();
    await set(c.world, "explorationTurnSeconds", 0);
    await set(c.world, "explorationWanderingChance", 9);
    await c.world.settle();
    expect(notes(c.world, "warn")).toEqual([
      "Exploration: length of a turn (seconds) — the default (600) is used. Expected a value between 1 and 86400 for length of a turn (got 0).",
      "Exploration: wandering monsters on this or less — the default (1) is used. Expected a value between 0 and 6 for wandering-monster chance (got 9).",
    ]);
    expect(notes(c.world, "warn", "p1")).toEqual([]);
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    expect(panel.element!.querySelectorAll(".aventure-exploration-bad")).toHaveLength(2);
    expect(panel.lastHTML).toContain("A turn lasts 10 min.");
    c.world.queueRolls(2);
    await as(c, "gm1", (a) => a.exploration.advance(2));
    expect(c.world.worldTime).toBe(2200);
    expect(text(cards(c.world)[0]!)).toContain("Turn 2: 2 on the d6 — <strong>nothing</strong>");
  });

  it("follows the settings: a d4, monsters on 2 or less, a check every turn, turns of 5 minutes", async () => {
    const c = await started();
    await set(c.world, "explorationWanderingDie", 4);
    await set(c.world, "explorationWanderingChance", 2);
    await set(c.world, "explorationWanderingEvery", 1);
    await set(c.world, "explorationTurnSeconds", 300);
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    expect(panel.lastHTML).toContain("A wandering-monster check every turn: monsters on 2 or less on a d4.");
    expect(panel.lastHTML).toContain("A turn lasts 5 min.");
    c.world.queueRolls(3, 2);
    await as(c, "gm1", (a) => a.exploration.advance(2));
    expect(c.world.worldTime).toBe(1600);
    const t = text(cards(c.world)[0]!);
    expect(t).toContain("Turn 1: 3 on the d4 — <strong>nothing</strong>");
    expect(t).toContain("Turn 2: 2 on the d4 — <strong>wandering monsters!</strong>");
  });

  it("an encounter offers the Encounter dialog to GMs, prefilled for the dungeon", async () => {
    const c = await started({ users: [GM, PLAYER] });
    c.world.queueRolls(1);
    await as(c, "gm1", (a) => a.exploration.advance(2));
    const card = cards(c.world)[0]!;
    const opened: { where: string }[] = [];
    c.world.as("gm1", () =>
      Hooks.on(
        "renderEncounterDialog" as never,
        ((app: { encounter: { where: string } }) => void opened.push({ where: app.encounter.where })) as never,
      ),
    );
    const html = c.world.renderMessage(card, "gm1");
    const button = html.querySelector('[data-action="aventure-exploration-encounter"]');
    expect(button?.textContent).toContain("Open the Encounter dialog");
    c.world.click("gm1", button);
    await c.world.settle();
    expect(opened).toEqual([{ where: "dungeon" }]);
    // The card is whispered to the GMs: a player does not see it, and would not get the button.
    expect(c.world.visibleMessages("p1")).not.toContain(card);
    expect(
      c.world.renderMessage(card, "p1").querySelector('[data-action="aventure-exploration-encounter"]'),
    ).toBeNull();
  });

  it("in French: the panel and the card", async () => {
    const c = await started({ lang: "fr" });
    c.world.queueRolls(1);
    await as(c, "gm1", (a) => a.exploration.advance(2));
    const t = text(cards(c.world)[0]!);
    expect(t).toContain("Tour 2\u00a0: 1 au d6 — <strong>des monstres errants\u202f!</strong>");
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    expect(panel.lastHTML).toContain("2 tours depuis le dernier repos");
    expect(panel.element!.textContent).toContain("Un tour dure 10\u00a0min.");
  });
});

describe("wandering checks, per game (RULES.md §0: Portes, Monstres & Trésors and Old-School Essentials only)", () => {
  it("Rôle'n Play: 4 turns roll no check; the card and the panel say its book has no such rule", async () => {
    const c = await started({ ruleset: "rnp" });
    await as(c, "gm1", (a) => a.exploration.advance(4));
    expect(c.world.rollsMade).toHaveLength(0);
    expect(record(c).state!.turn).toBe(4);
    const [card] = cards(c.world);
    expect(card!.rolls).toHaveLength(0);
    expect(text(card!)).toContain("The Rôle'n Play book has no rule for wandering monsters.");
    expect(text(card!)).not.toContain("No wandering-monster check in these turns.");
    expect(cardOf(card!, "exploration")).toMatchObject({ encounter: false });
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    const rules = [...panel.element!.querySelectorAll(".aventure-exploration-rules li")].map((li) =>
      li.textContent!.replaceAll("&#x27;", "'"),
    );
    expect(rules).toContain("The Rôle'n Play book has no rule for wandering monsters.");
    expect(rules.join(" ")).not.toContain("wandering-monster check every");
  });

  it("Rôle'n Play: the token controls' button names no wandering monsters; borrowed, it does", async () => {
    const c = await setup({ ruleset: "rnp" });
    expect(sceneControls(c.world, "gm1").tokens!.tools!.aventureExploration!.title).toBe(
      "AVENTURE.Exploration.controlNoWandering",
    );
    await set(c.world, "borrowWandering", "pmt");
    await c.world.settle();
    expect(sceneControls(c.world, "gm1").tokens!.tools!.aventureExploration!.title).toBe(
      "AVENTURE.Exploration.control",
    );
  });

  it("Rôle'n Play in French: the same line in French", async () => {
    const c = await started({ ruleset: "rnp", lang: "fr" });
    await as(c, "gm1", (a) => a.exploration.advance(2));
    expect(c.world.rollsMade).toHaveLength(0);
    expect(text(cards(c.world)[0]!)).toContain("Le livre de Rôle’n Play n’a pas de règle pour les monstres errants.");
  });

  it("Rôle'n Play borrowing Old-School Essentials' checks: every 2 turns on 1 in 6, labelled with the game they come from", async () => {
    const c = await started({ ruleset: "rnp", borrow: { borrowWandering: "ose" } });
    c.world.queueRolls(1, 4);
    await as(c, "gm1", (a) => a.exploration.advance(4));
    const t = text(cards(c.world)[0]!);
    expect(t).toContain("Turn 2: 1 on the d6 — <strong>wandering monsters!</strong>");
    expect(t).toContain("Turn 4: 4 on the d6 — <strong>nothing</strong>");
    expect(t).toContain("Wandering-monster checks: Old-School Essentials' rule.");
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    expect(panel.element!.textContent).toContain(
      "A wandering-monster check every 2 turns: monsters on 1 or less on a d6. (Old-School Essentials' rule)",
    );
  });

  it("Old-School Essentials' own checks are not labelled; the ruleset changed to Rôle'n Play mid-exploration stops them", async () => {
    const c = await started();
    c.world.queueRolls(5);
    await as(c, "gm1", (a) => a.exploration.advance(2));
    expect(text(cards(c.world)[0]!)).not.toContain("Old-School Essentials' rule");
    await set(c.world, "ruleset", "rnp");
    await c.world.settle();
    await as(c, "gm1", (a) => a.exploration.advance(2));
    expect(c.world.rollsMade).toHaveLength(1);
    expect(text(cards(c.world)[1]!)).toContain("The Rôle'n Play book has no rule for wandering monsters.");
  });
});

describe("tied to world time", () => {
  it("an hour of world time moved by something else: 6 turns, checks at 2, 4, 6, one card, no time written", async () => {
    const c = await started();
    const mark = c.world.writes.length;
    c.world.queueRolls(2, 1, 6);
    await c.world.as("gm1", () => game.time.advance(3600));
    await c.world.settle();
    expect(c.world.rollQueue).toEqual([]);
    expect(timeWrites(c.world, mark)).toHaveLength(1); // the cause's own
    expect(c.world.worldTime).toBe(4600);
    expect(record(c).state!.turn).toBe(6);
    const [card] = cards(c.world);
    expect(cards(c.world)).toHaveLength(1);
    const t = text(card!);
    expect(t).toContain("World time moved");
    expect(t).toContain("1 h of world time.");
    expect(t).toContain("Turn 4: 1 on the d6 — <strong>wandering monsters!</strong>");
    expect(card!.rolls).toHaveLength(3);
  });

  it("a journey of two hours applied from the Travel API: 12 turns, the checks of turns 2 to 12 on the exploration's card", async () => {
    const c = await started();
    await c.world.as("gm1", () => game.settings.set("aventure" as never, "borrowTravel" as never, "rnp" as never)); // travel borrowed (docs/rules.md §0)
    c.world.queueRolls(6, 5, 4, 3, 2, 1);
    const member = {
      actorId: "aldric",
      food: "full",
      water: "full",
      position: "middle",
      activity: "none",
      conMod: null,
      passivePerception: null,
    };
    const journey = {
      pace: "normal",
      terrain: "normal",
      mode: "foot",
      speedKmh: null,
      distance: null,
      duration: 7200,
      hoursPerDay: 8,
      hot: false,
      stealth: false,
      lostChance: 0,
      members: [member],
    };
    const result = await as(c, "gm1", (a) =>
      (a as unknown as { applyTravel(r: object): Promise<{ ok: boolean }> }).applyTravel(journey),
    );
    expect(result).toMatchObject({ ok: true });
    expect(c.world.worldTime).toBe(1000 + 7200);
    expect(record(c).state!.turn).toBe(12);
    expect(c.world.rollQueue).toEqual([]);
    const card = cards(c.world)[0]!;
    expect(text(card)).toContain("2 h of world time.");
    expect(text(card)).toContain("Turn 12: 1 on the d6 — <strong>wandering monsters!</strong>");
  });

  it("25 minutes: 2 turns counted, 5 minutes carried into the next turn", async () => {
    const c = await started();
    c.world.queueRolls(4);
    await c.world.as("gm1", () => game.time.advance(1500));
    await c.world.settle();
    expect(record(c).state!.turn).toBe(2);
    expect(record(c).time).toBe(2200);
    const panel = (await as(c, "gm1", (a) => a.openExploration()))!;
    expect(panel.lastHTML).toContain("5 min into the current turn");
    // +1 turn from there: exactly one more turn, world time +10 min.
    await as(c, "gm1", (a) => a.exploration.advance(1));
    expect(record(c).state!.turn).toBe(3);
    expect(c.world.worldTime).toBe(3100);
  });

  it("a week at once: 504 checks implied, 60 rolled, and the card says so", async () => {
    const c = await started();
    c.world.queueRolls(...Array.from({ length: 60 }, () => 6));
    await c.world.as("gm1", () => game.time.advance(7 * 86_400));
    await c.world.settle();
    expect(c.world.rollQueue).toEqual([]);
    expect(record(c).state!.turn).toBe(1008);
    const card = cards(c.world)[0]!;
    expect(card.rolls).toHaveLength(60);
    expect(text(card)).toContain("444 more checks not rolled (at most 60 for one move of world time).");
  });

  it("world time going back counts no turn; the count goes on from the new time", async () => {
    const c = await started();
    c.world.queueRolls(5);
    await as(c, "gm1", (a) => a.exploration.advance(2));
    await c.world.as("gm1", () => game.time.advance(-1200));
    await c.world.settle();
    expect(record(c).state!.turn).toBe(2);
    expect(record(c).time).toBe(1000);
    expect(cards(c.world)).toHaveLength(1);
  });

  it("nothing is counted while no exploration is under way", async () => {
    const c = await setup();
    await c.world.as("gm1", () => game.time.advance(3600));
    await c.world.settle();
    expect(cards(c.world)).toHaveLength(0);
    expect(record(c)?.state ?? null).toBeNull();
  });

  it("with two GMs, world time moved by the other GM is counted once, on the active GM: one roll per check", async () => {
    const c = await started({ users: [GM, GM2, PLAYER] });
    c.world.queueRolls(3, 3);
    await c.world.as("gm2", () => game.time.advance(2400));
    await c.world.settle();
    expect(c.world.rollsMade).toHaveLength(2);
    expect(cards(c.world)).toHaveLength(1);
    expect(cards(c.world)[0]!.author?.id).toBe("gm1");
    expect(record(c).state!.turn).toBe(4);
  });
});

describe("the turn count is world time's", () => {
  it("property: however world time moves (turns, minutes, other causes, in any order), the turns counted are the whole turns elapsed and each check is rolled once", async () => {
    const move = fc.oneof(
      fc.record({ kind: fc.constant("turns" as const), n: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant("spend" as const), n: fc.integer({ min: 1, max: 1800 }) }),
      fc.record({ kind: fc.constant("time" as const), n: fc.integer({ min: 1, max: 5000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 5 }), async (moves) => {
        // Rôle'n Play's minutes, with Old-School Essentials' wandering checks borrowed (its book has none).
        const c = await started({ ruleset: "rnp", borrow: { borrowWandering: "ose" } });
        c.world.randomDice = true;
        for (const m of moves) {
          if (m.kind === "turns") await as(c, "gm1", (a) => a.exploration.advance(m.n));
          else if (m.kind === "spend") await as(c, "gm1", (a) => a.exploration.spend(m.n));
          else {
            await c.world.as("gm1", () => game.time.advance(m.n));
            await c.world.settle();
          }
        }
        const turns = Math.floor((c.world.worldTime - 1000) / 600);
        expect(record(c).state!.turn).toBe(turns);
        expect(record(c).time).toBe(1000 + 600 * turns);
        // A check at the end of every second turn, each rolled once (no move here implies more than 60).
        expect(c.world.rollsMade).toHaveLength(Math.floor(turns / 2));
        expect(cards(c.world).reduce((n, m) => n + m.rolls.length, 0)).toBe(Math.floor(turns / 2));
        expect(notes(c.world, "error")).toEqual([]);
      }),
      { numRuns: 12 },
    );
  });
});

describe("two GMs", () => {
  it("the other GM's click goes to the active GM: one advance, one roll per check, world time once", async () => {
    const c = await started({ users: [GM, GM2, PLAYER] });
    const panel = (await as(c, "gm2", (a) => a.openExploration()))!;
    c.world.queueRolls(1, 4);
    const mark = c.world.writes.length;
    await as(c, "gm2", (a) => a.exploration.advance(4));
    expect(c.world.rollsMade).toHaveLength(2);
    expect(timeWrites(c.world, mark).map((w) => w.user)).toEqual(["gm1"]);
    expect(c.world.worldTime).toBe(3400);
    expect(cards(c.world)).toHaveLength(1);
    expect(panel.lastHTML).toContain("Turn 4");
  });

  it("both GMs click +1 turn at once: one turn passes, the second click is told the exploration moved on", async () => {
    const c = await started({ users: [GM, GM2, PLAYER] });
    await as(c, "gm1", (a) => a.exploration.advance(1));
    const p1 = (await as(c, "gm1", (a) => a.openExploration()))!;
    const p2 = (await as(c, "gm2", (a) => a.openExploration()))!;
    c.world.queueRolls(2);
    const selector = '[data-action="advance"][data-advance="explore"]';
    await Promise.all([c.world.as("gm1", () => p1.click(selector)), c.world.as("gm2", () => p2.click(selector))]);
    await c.world.settle();
    expect(record(c).state!.turn).toBe(2);
    expect(c.world.worldTime).toBe(2200);
    expect(c.world.rollsMade).toHaveLength(1);
    expect(notes(c.world, "error", "gm2")).toEqual([
      "The exploration moved on meanwhile: the panel is up to date, try again.",
    ]);
  });
});

describe("bad input changes nothing", () => {
  it("negative, fractional or huge turns, seconds out of range", async () => {
    const c = await started();
    const mark = c.world.writes.length;
    await as(c, "gm1", (a) => a.exploration.advance(-1));
    await as(c, "gm1", (a) => a.exploration.advance(2.5));
    await as(c, "gm1", (a) => a.exploration.advance(1001));
    await as(c, "gm1", (a) => a.exploration.spend(0));
    expect(notes(c.world, "error")).toEqual([
      "Expected a value between 1 and 1000 for number of turns (got -1).",
      "Expected a whole number for number of turns (got 2.5).",
      "Expected a value between 1 and 1000 for number of turns (got 1001).",
      "Expected a value between 1 and 86400 for seconds (got 0).",
    ]);
    expect(gameWrites(c.world, mark)).toEqual([]);
  });

  it("no party: a message, no exploration", async () => {
    const c = await setup();
    await as(c, "gm1", (a) => a.exploration.start());
    expect(notes(c.world, "error")).toEqual(["No party: select the party's tokens first."]);
    expect(record(c)?.state ?? null).toBeNull();
  });

  it("a light on a token without light data: a message, nothing lit", async () => {
    const c = await started();
    const mark = c.world.writes.length;
    await as(c, "gm1", (a) => a.exploration.light(c.tokens.brune, "torch"));
    expect(notes(c.world, "error")).toEqual([
      "Brune has no light to light: give the token a light radius (dim or bright) in its configuration first.",
    ]);
    expect(gameWrites(c.world, mark)).toEqual([]);
  });

  it("advancing without an exploration, lighting twice, putting out what is not lit", async () => {
    const c = await setup();
    await as(c, "gm1", (a) => a.exploration.advance(1));
    expect(notes(c.world, "error")).toEqual(["No exploration under way: start one in the Exploration panel."]);
    const d = await started();
    await as(d, "gm1", (a) => a.exploration.light(d.tokens.aldric, "torch"));
    await as(d, "gm1", (a) => a.exploration.light(d.tokens.aldric, "lantern"));
    await as(d, "gm1", (a) => a.exploration.putOut(d.tokens.cyril));
    await as(d, "gm1", (a) => a.exploration.light(d.tokens.cyril, "custom"));
    await as(d, "gm1", (a) => a.exploration.light(d.tokens.cyril, "candle"));
    expect(notes(d.world, "error")).toEqual([
      "Aldric already carries a lit light: put it out first.",
      "Cyril carries no lit light.",
      "Expected a number for number of turns (got undefined).",
      "candle is not a valid kind of light (expected one of: torch, lantern, custom).",
    ]);
    expect(record(d).state!.lights).toEqual([{ id: "scene1.tA", kind: "torch", turnsLeft: 6 }]);
  });

  it("a player may not drive the exploration, from the API or a forged request", async () => {
    const c = await started();
    const mark = c.world.writes.length;
    await as(c, "p1", (a) => a.exploration.advance(1));
    expect(notes(c.world, "error", "p1")).toEqual(["Only a GM can do this."]);
    const reply = (await forgeRequest(c.world, "p1", "exploration", {
      op: "advance",
      rev: record(c).rev,
      action: "explore",
      turns: 5,
    })) as { ok: boolean; key: string };
    expect(reply).toMatchObject({ ok: false, key: "AVENTURE.Error.GMOnly" });
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(record(c).state!.turn).toBe(0);
  });

  it("a GM's request is checked field by field: unknown op, bad ids, a token that does not exist, a stale revision", async () => {
    const c = await started({ users: [GM, GM2] });
    const mark = c.world.writes.length;
    const rev = record(c).rev;
    const replies = [
      await forgeRequest(c.world, "gm2", "exploration", { op: "rewind", rev }),
      await forgeRequest(c.world, "gm2", "exploration", {
        op: "light",
        rev,
        token: { sceneId: "scene1", tokenId: "<img>" },
        kind: "torch",
      }),
      await forgeRequest(c.world, "gm2", "exploration", {
        op: "light",
        rev,
        token: { sceneId: "scene1", tokenId: "nope" },
        kind: "torch",
      }),
      await forgeRequest(c.world, "gm2", "exploration", { op: "advance", rev: rev - 1, action: "explore", turns: 1 }),
      await forgeRequest(c.world, "gm2", "exploration", { op: "advance", rev, action: "time", turns: 1 }),
    ] as { key: string }[];
    expect(replies.map((r) => r.key)).toEqual([
      "AVENTURE.Error.UnknownValue",
      "AVENTURE.Error.Missing",
      "AVENTURE.Exploration.Error.noToken",
      "AVENTURE.Exploration.Error.moved",
      "AVENTURE.Error.UnknownValue",
    ]);
    expect(gameWrites(c.world, mark)).toEqual([]);
  });

  it("attack: a GM's forged payload of the wrong type, out of range or oversized is refused by its model; nothing is written", async () => {
    const c = await started({ users: [GM, GM2] });
    const mark = c.world.writes.length;
    const rev = record(c).rev;
    const tA = ref(c.tokens.aldric);
    const replies = [
      // a number sent as text is not cast
      await forgeRequest(c.world, "gm2", "exploration", { op: "advance", rev, action: "explore", turns: "5" }),
      await forgeRequest(c.world, "gm2", "exploration", { op: "advance", rev: String(rev), action: "rest", turns: 1 }),
      await forgeRequest(c.world, "gm2", "exploration", { op: "advance", rev, action: "spend", seconds: 86_401 }),
      await forgeRequest(c.world, "gm2", "exploration", { op: "light", rev, token: tA, kind: "torch", turns: 1.5 }),
      await forgeRequest(c.world, "gm2", "exploration", { op: "party", rev, tokens: Array(51).fill(tA) }),
      await forgeRequest(c.world, "gm2", "exploration", { op: "putOut", rev, token: [tA] }),
    ] as { key: string }[];
    expect(replies.map((r) => r.key)).toEqual([
      "AVENTURE.Error.NotANumber",
      "AVENTURE.Error.NotANumber",
      "AVENTURE.Error.OutOfRange",
      "AVENTURE.Error.NotAnInteger",
      "AVENTURE.Error.OutOfRange",
      "AVENTURE.Error.Missing",
    ]);
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(record(c)).toMatchObject({ rev });
    expect(record(c).party).toHaveLength(3);
    expect(record(c).state!.turn).toBe(0);
  });

  it("a player's forged card gets no Encounter button", async () => {
    const c = await started({ users: [GM, PLAYER] });
    const forged = await forgeCard(
      c.world,
      "p1",
      { exploration: { op: "aaaaaaaaaaaaaaaa", encounter: true } },
      `<div class="aventure-exploration-card"><button type="button" data-action="aventure-exploration-encounter">x</button></div>`,
    );
    await c.world.settle();
    expect(
      c.world.renderMessage(forged, "gm1").querySelector('[data-action="aventure-exploration-encounter"]'),
    ).toBeNull();
  });

  it("attack: a player's own aventure.exploration message gets no Encounter button; a GM's card of an earlier version (flags) still has it", async () => {
    const c = await started({ users: [GM, PLAYER] });
    const content = `<div class="aventure-exploration-card"><button type="button" data-action="aventure-exploration-encounter">x</button></div>`;
    const forged = (await c.world.as("p1", () =>
      ChatMessage.implementation.create({
        content,
        type: "aventure.exploration",
        system: { op: "aaaaaaaaaaaaaaaa", encounter: true },
      } as never),
    )) as unknown as FakeChatMessage;
    expect(forged.type).toBe("aventure.exploration");
    const button = (m: FakeChatMessage) =>
      c.world.renderMessage(m, "gm1").querySelector('[data-action="aventure-exploration-encounter"]');
    expect(button(forged)).toBeNull();
    const old = c.world.addMessage({
      author: "gm1",
      content,
      flags: { aventure: { exploration: { op: "aaaaaaaaaaaaaaaa", encounter: true } } },
    });
    expect(button(old)).not.toBeNull();
  });

  it("a malformed stored record reads as no exploration", async () => {
    const c = await started();
    c.world.settingValues.set("aventure.explorationState", {
      v: 1,
      rev: 7,
      state: { ruleset: "ose", turn: -3 },
      time: 0,
      party: [],
      restDue: false,
      op: null,
    });
    const a = api(c);
    expect(c.world.as("gm1", () => a.exploration.status())).toMatchObject({ rev: 7, state: null });
  });

  it("the record's field refuses what its bounds refuse: too many members, a negative radius, a time beyond 1e15 s, a long name", async () => {
    const c = await started();
    const r = record(c);
    const member = { sceneId: "aaaaaaaaaaaaaaaa", tokenId: "bbbbbbbbbbbbbbbb", name: "Aldric" };
    const light = { dim: 6, bright: 3, remembered: null };
    const op = {
      id: "cccccccccccccccc",
      kind: "light",
      time: null,
      lights: [{ ...member, before: light, after: light }],
      card: null,
      target: { state: r.state, time: r.time, restDue: false },
    };
    const a = api(c);
    const status = () => c.world.as("gm1", () => a.exploration.status());
    // A well-formed record of the same shape reads (the checks below are each field's own).
    c.world.settingValues.set("aventure.explorationState", { ...r, rev: 9, op, party: [member] });
    expect(status()).toMatchObject({ rev: 9, state: r.state });
    for (const bad of [
      { party: Array.from({ length: 51 }, () => member) },
      { party: [{ ...member, name: "x".repeat(201) }] },
      { time: 2e15 },
      { op: { ...op, lights: [{ ...member, before: { ...light, dim: -1 }, after: light }] } },
      {
        op: { ...op, lights: [{ ...member, before: light, after: { ...light, remembered: { dim: 2e6, bright: 0 } } }] },
      },
      { op: { ...op, time: { before: 0, after: Number.POSITIVE_INFINITY } } },
    ]) {
      c.world.settingValues.set("aventure.explorationState", { ...r, rev: 9, op, party: [member], ...bad });
      expect(status(), JSON.stringify(bad).slice(0, 80)).toMatchObject({ rev: 9, state: null });
    }
  });

  it("a record an older version wrote (no card `wandering`, no executor) reads with the fields' initial values", async () => {
    const c = await started();
    const r = record(c);
    const card = {
      action: "explore",
      seconds: 600,
      turnFrom: 0,
      turnTo: 1,
      checks: [],
      notRolled: 0,
      die: 6,
      chance: 1,
      restDue: false,
      attackPenalty: 0,
      turnsSinceRest: 1,
      lightsOut: [],
    };
    const op = {
      id: "aaaaaaaaaaaaaaaa",
      kind: "advance",
      time: null,
      lights: [],
      card,
      target: { state: r.state, time: r.time, restDue: false },
    };
    c.world.settingValues.set("aventure.explorationState", { ...r, op });
    const a = api(c);
    expect(c.world.as("gm1", () => a.exploration.status())).toMatchObject({ rev: r.rev, state: r.state });
  });
});

describe("exactly once across a crash", () => {
  /** An advance of 2 turns whose custom light goes out: the record, world time, the token, the card, the record. */
  async function crashing(k: number, users: UserSpec[]) {
    const c = await started({ users });
    await as(c, "gm1", (a) => a.exploration.light(c.tokens.aldric, "custom", 2));
    const mark = c.world.writes.length;
    const rev = record(c).rev;
    c.world.queueRolls(4);
    c.world.crashAt(k);
    // The advance stopped is logged; before write 3, the token's light, that write too.
    expectCrashLog("request failed");
    if (k === 3) expectCrashLog("exploration: a token's light could not be written");
    await c.world.as("gm1", () => api(c).exploration.advance(2)).catch(() => undefined);
    await c.world.settle({ allowErrors: true });
    return { c, mark, rev };
  }

  for (let k = 1; k <= 5; k++) {
    it(`one GM: a crash before write ${k}, then a reload, applies the advance at most once, and fully once recorded`, async () => {
      const { c, mark, rev } = await crashing(k, [GM, PLAYER]);
      await c.world.reload("gm1");
      await c.world.settle();
      const writes = gameWrites(c.world, mark);
      if (k === 1) {
        // Nothing was recorded: nothing happened.
        expect(writes).toEqual([]);
        expect(record(c).state!.turn).toBe(0);
        expect(light(c.tokens.aldric)).toEqual({ dim: 6, bright: 3, remembered: null });
        return;
      }
      expect(record(c).state!.turn).toBe(2);
      expect(record(c).op).toBeNull();
      expect(record(c).rev).toBe(rev + 1);
      expect(c.world.worldTime).toBe(2200);
      expect(writes.filter((w) => w.action === "time")).toHaveLength(1);
      expect(writes.filter((w) => w.documentName === "Token")).toHaveLength(1);
      expect(light(c.tokens.aldric)).toEqual({ dim: 0, bright: 0, remembered: { dim: 6, bright: 3 } });
      expect(cards(c.world)).toHaveLength(1);
      const t = text(cards(c.world)[0]!);
      expect(t).toContain("Turn 2: 4 on the d6");
      expect(t).toContain("Aldric: the light goes out.");
      if (k <= 4) expect(t).toContain("Interrupted by a reload, then finished by the GM's client.");
    });
  }

  for (const k of [2, 3, 4, 5]) {
    it(`two GMs: the active GM crashes before write ${k}: the other finishes the advance once`, async () => {
      const { c } = await crashing(k, [GM, GM2]);
      await c.world.settle();
      expect(record(c).op).toBeNull();
      expect(record(c).state!.turn).toBe(2);
      expect(c.world.worldTime).toBe(2200);
      expect(cards(c.world)).toHaveLength(1);
      expect(light(c.tokens.aldric)).toEqual({ dim: 0, bright: 0, remembered: { dim: 6, bright: 3 } });
      // gm1 comes back: nothing more happens.
      await c.world.reload("gm1");
      await c.world.settle();
      expect(cards(c.world)).toHaveLength(1);
      expect(c.world.worldTime).toBe(2200);
    });
  }

  for (let k = 1; k <= 3; k++) {
    it(`putting a light out: a crash before write ${k} (record, token, record), then a reload, puts it out once`, async () => {
      const c = await started({ users: [GM, PLAYER] });
      await as(c, "gm1", (a) => a.exploration.light(c.tokens.cyril, "torch"));
      const mark = c.world.writes.length;
      c.world.crashAt(k);
      expectCrashLog("request failed");
      if (k === 2) expectCrashLog("exploration: a token's light could not be written");
      await c.world.as("gm1", () => api(c).exploration.putOut(c.tokens.cyril)).catch(() => undefined);
      await c.world.settle({ allowErrors: true });
      await c.world.reload("gm1");
      await c.world.settle();
      const tokenWrites = gameWrites(c.world, mark).filter((w) => w.documentName === "Token");
      if (k === 1) {
        expect(tokenWrites).toHaveLength(0);
        expect(record(c).state!.lights).toHaveLength(1);
        expect(light(c.tokens.cyril)).toEqual({ dim: 9, bright: 4.5, remembered: null });
      } else {
        expect(tokenWrites).toHaveLength(1);
        expect(record(c).state!.lights).toEqual([]);
        expect(record(c).op).toBeNull();
        expect(light(c.tokens.cyril)).toEqual({ dim: 0, bright: 0, remembered: { dim: 9, bright: 4.5 } });
      }
    });
  }

  it("a light changed by hand meanwhile is left alone and reported on the card", async () => {
    const { c } = await crashing(3, [GM, PLAYER]);
    // While the GM is away, the token's owner changes its light.
    await c.world.as("p1", () => c.tokens.aldric.update({ "light.dim": 2, "light.bright": 1 }));
    await c.world.reload("gm1");
    await c.world.settle();
    expect(record(c).state!.turn).toBe(2);
    expect(light(c.tokens.aldric)).toEqual({ dim: 2, bright: 1, remembered: null });
    expect(text(cards(c.world)[0]!)).toContain(
      "Not applied (someone else had already changed it): the light of Aldric.",
    );
  });
});
