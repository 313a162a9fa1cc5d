/**
 * Travel glue against the fake world (test/world): the dialog (live summary, field errors), Apply on the active GM
 * through the trusted request channel, players proposing and GMs disposing, the saves rolled through dnd5e's
 * rollSavingThrow signature, exhaustion, counters, world time, the card and its Undo, exactly once under two GMs,
 * forged requests and cards, failed writes and crashes at every write. Expected values come from RULES.md §2.4,
 * §4.3–4.4, worked by hand below.
 */
import { describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  control,
  forgeCard,
  forgeRequest,
  gameWrites,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  viewScene,
  type FakeActor,
  type FakeChatMessage,
  type FakeWorld,
} from "../world/index.js";
import type { TravelApplyResult, TravelUndoResult } from "../../src/foundry/travel/apply.js";
import type { TravelRequest } from "../../src/foundry/travel/request.js";

// Each test boots a world of four clients and rolls dozens of saves; the crash loops boot one per write.
vi.setConfig({ testTimeout: 60_000 });

const USERS = [GM, GM2, PLAYER, PLAYER2];
const IDS = ["aria", "bram", "cyl", "dun"] as const;
type Hero = (typeof IDS)[number];

interface Dialog {
  formState: { hoursPerDay: string; members: { actorId: string }[] };
  request: TravelRequest | null;
  lastContext: Record<string, unknown>;
  lastHTML: string;
  rendered: boolean;
  element: HTMLElement | null;
  change(name: string, value: string | boolean): Promise<unknown>;
  setField(name: string, value: string | boolean): Promise<void>;
  apply(): Promise<TravelApplyResult | null>;
  addActor(id: string): Promise<unknown>;
  removeActor(id: string): Promise<unknown>;
}
interface Api {
  openTravel(o?: { actorIds?: string[] }): Dialog;
  applyTravel(r: TravelRequest): Promise<TravelApplyResult>;
}

/**
 * The party: dnd5e 5.3.3 characters (rollSavingThrow(config, dialog, message) rolls 1d20 + the save bonus).
 * Aria and Bram belong to player p1; Cyl belongs to the GM and every player may see it (limited); Dun is the GM's
 * alone (players cannot see it). Cyl has already gone one day without food.
 */
async function boot(opts: { lang?: "en" | "fr"; users?: typeof USERS } = {}) {
  const world = await bootWorld({ system: "dnd5e", users: opts.users ?? USERS, lang: opts.lang });
  const hero = (id: Hero, name: string, con: number, passive: number, exhaustion: number, ownership: Record<string, number>) =>
    addDnd5eActor(world, { id, name, abilities: { con: 10 + 2 * con }, passive, exhaustion, ownership });
  const party: Record<Hero, FakeActor> = {
    aria: hero("aria", "Aria", 2, 14, 0, { p1: 3 }),
    bram: hero("bram", "Bram", 0, 12, 0, { p1: 3 }),
    cyl: hero("cyl", "Cyl", -1, 16, 1, { default: 1 }),
    dun: hero("dun", "Dun", 1, 11, 0, {}),
  };
  party.cyl.flags.aventure = { fastingDays: 1 }; // world data as loaded
  world.worldTime = 1000;
  return { world, party };
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const set = (world: FakeWorld, key: string, value: unknown) => world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const exhaustion = (a: FakeActor) => (a.system.attributes as { exhaustion: number }).exhaustion;
const levels = (party: Record<Hero, FakeActor>, ids: readonly Hero[] = IDS) => ids.map((id) => exhaustion(party[id]));
const counters = (a: FakeActor) => ({ ...(a.flags.aventure ?? {}) });
const rollCalls = (a: FakeActor) => (a as unknown as { rollCalls: { user: string; config: { ability: string; target: number }; dialog: { configure?: boolean }; message: { create?: boolean; data?: { flavor?: string } } }[] }).rollCalls;
const saveCount = (party: Record<Hero, FakeActor>) => IDS.reduce((n, id) => n + rollCalls(party[id]).length, 0);
const journeyCards = (world: FakeWorld) => world.messages.filter((m) => (m.flags.aventure as { travel?: unknown } | undefined)?.travel !== undefined);
const proposalCards = (world: FakeWorld) => world.messages.filter((m) => (m.flags.aventure as { proposal?: unknown } | undefined)?.proposal !== undefined);
const journey = (m: FakeChatMessage) => (m.flags.aventure as { travel: Record<string, unknown> }).travel;
const notes = (world: FakeWorld, user: string, type?: string) => world.notifications.filter((n) => n.user === user && (!type || n.type === type)).map((n) => n.message);
const footer = (world: FakeWorld, card: FakeChatMessage, user: string) => {
  const html = world.renderMessage(card, user);
  return { html, text: [...html.querySelectorAll(".aventure-travel-card-footer p")].map((p) => p.textContent), undo: html.querySelector<HTMLButtonElement>('[data-action="aventure-travel-undo"]') };
};
const actorWrites = (world: FakeWorld, mark = 0) => world.writesSince(mark).filter((w) => w.documentName === "Actor");
const exhaustionWrites = (world: FakeWorld, id: string, mark = 0) => actorWrites(world, mark).filter((w) => w.id === id && JSON.stringify(w.data).includes("exhaustion"));

/** 67.5 km through a forest at normal pace, 10 h a day: 3 days of 22.5 km, forced march DC 11 and 12 daily. */
async function forestDialog(world: FakeWorld, user = "gm1", ids: readonly Hero[] = IDS): Promise<Dialog> {
  return world.as(user, async () => {
    const d = api(world, user).openTravel({ actorIds: [...ids] });
    await world.settle();
    await d.change("terrain", "difficult");
    await d.change("unit", "km");
    await d.change("amount", "67,5");
    await d.change("hoursPerDay", "10");
    const rows: Record<Hero, [string, string, string, string]> = {
      aria: ["full", "full", "front", "watch"],
      bram: ["half", "half", "middle", "navigate"],
      cyl: ["none", "full", "middle", "map"],
      dun: ["full", "none", "rear", "none"],
    };
    for (const [i, id] of ids.entries()) {
      const [food, water, position, activity] = rows[id];
      await d.change(`members.${i}.food`, food);
      await d.change(`members.${i}.water`, water);
      await d.change(`members.${i}.position`, position);
      await d.change(`members.${i}.activity`, activity);
    }
    return d;
  });
}

/**
 * Save order (rules): per day, per member, forced-march hours then the water save: 9 saves a day, 27 in all.
 * Every d20 is a 20 except Bram's first forced-march save (day 1, hour 9) and his first water save: 1.
 */
function queueForestRolls(world: FakeWorld) {
  const day1 = [20, 20, 1, 20, 1, 20, 20, 20, 20];
  const later = [20, 20, 20, 20, 20, 20, 20, 20, 20];
  world.queueRolls(...day1, ...later, ...later);
}

/** Aria and Bram alone (p1's characters): 5 saves a day; Bram fails day 1, hour 9 (exhaustion 0 → 1). */
function queuePairRolls(world: FakeWorld, times = 1) {
  for (let i = 0; i < times; i++) world.queueRolls(20, 20, 1, 20, 20, ...Array<number>(10).fill(20));
}

/** The request the dialog sends for Aria and Bram (built by a GM's dialog, so no ownership note). */
async function pairRequest(world: FakeWorld): Promise<TravelRequest> {
  const d = await forestDialog(world, "gm1", ["aria", "bram"]);
  const r = d.request!;
  await world.as("gm1", () => (d as unknown as { close(): Promise<unknown> }).close());
  return r;
}

const AFTER_FOREST = 1000 + 2 * 86400 + 10 * 3600; // 2 d 10 h later (§2.1, §2.3: the third day ends after its march)

describe("Travel: a GM plans, applies and undoes a three-day journey for a party of four", () => {
  it("shows the live summary on every change, without submitting", async () => {
    const { world } = await boot();
    const d = world.as("gm1", () => api(world).openTravel({ actorIds: [...IDS] }));
    await world.settle();
    expect(d.rendered).toBe(true);
    expect(d.formState.hoursPerDay).toBe("8"); // the setting's default
    let ctx = d.lastContext as { summary: { distance: string } };
    expect(ctx.summary.distance).toBe("36 km"); // 1 day at normal pace (§2.1)
    await world.as("gm1", () => d.setField("terrain", "difficult")); // the user picks it in the form
    ctx = d.lastContext as typeof ctx;
    expect(ctx.summary.distance).toBe("18 km"); // §2.3: a forest at normal pace, 18 km a day
    const f = await forestDialog(world);
    const c = f.lastContext as {
      summary: { distance: string; duration: string; saveCount: number; days: { forcedMarch: string }[]; notice: { value: string }[]; canStealth: boolean };
      canApply: boolean;
    };
    expect(c.summary.distance).toBe("67.5 km");
    expect(c.summary.duration).toBe("2 d 10 h");
    expect(c.summary.days.map((x) => x.forcedMarch)).toEqual(["DC 11, DC 12", "DC 11, DC 12", "DC 11, DC 12"]);
    expect(c.summary.saveCount).toBe(27);
    expect(c.summary.notice.map((n) => n.value)).toEqual(["14", "—", "11"]); // Bram and Cyl are busy (§2.6)
    expect(c.summary.canStealth).toBe(false);
    expect(c.canApply).toBe(true);
    expect(f.lastHTML).toContain("DC 11 ×3, DC 12 ×3");
    expect(world.writes).toEqual([]);
  });

  it("applies: 27 saves rolled once through dnd5e, the card posted first (applying), then exhaustion, counters, time", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    const mark = world.writes.length;
    const result = await world.as("gm1", () => d.apply());
    await world.settle();
    expect(result).toMatchObject({ ok: true, proposed: false });
    expect(world.rollQueue).toHaveLength(0);
    expect(saveCount(party)).toBe(27);
    expect(rollCalls(party.bram).map((c) => c.config.target)).toEqual([11, 12, 15, 11, 12, 15, 11, 12, 15]);
    expect(rollCalls(party.aria).every((c) => c.config.ability === "con" && c.user === "gm1" && c.dialog.configure === false && c.message.create === false)).toBe(true);
    expect(rollCalls(party.bram)[0]!.message.data!.flavor).toBe("Bram: forced march, day 1, hour 9 (Constitution save DC 11)");
    // Aria: every save made. Bram: day-1 forced march failed (1), then half water failed while already exhausted:
    // 1 + 1 extra (§4.4) = 3. Cyl (CON −1: 2 fasting days, 1 already): no food → 2, 3, 4: two levels, 1 → 3.
    // Dun: no water: 1, then 2 levels a day (already exhausted): 1, 3, 5.
    expect(levels(party)).toEqual([0, 3, 3, 5]);
    expect(counters(party.aria)).toEqual({ fastingDays: 0, thirstDays: 0 });
    expect(counters(party.bram)).toEqual({ fastingDays: 1.5, thirstDays: 0 });
    expect(counters(party.cyl)).toEqual({ fastingDays: 4, thirstDays: 0 });
    expect(counters(party.dun)).toEqual({ fastingDays: 0, thirstDays: 3 });
    expect(world.worldTime).toBe(AFTER_FOREST);
    // One message in all: the system's own save messages are not created; the card carries the 27 rolls.
    expect(world.messages.contents).toHaveLength(1);
    const [card] = journeyCards(world);
    expect(card!.author!.id).toBe("gm1");
    expect(card!.rolls).toHaveLength(27);
    // The card first, marked applying with the whole journal in absolute values; then the steps; then applied.
    const writes = world.writesSince(mark);
    expect(writes[0]).toMatchObject({ user: "gm1", action: "create", documentName: "ChatMessage" });
    expect((writes[0]!.data as { flags: { aventure: { travel: { status: string } } } }).flags.aventure.travel.status).toBe("applying");
    expect(writes.at(-1)).toMatchObject({ action: "update", documentName: "ChatMessage", id: card!.id });
    expect(writes.filter((w) => w.documentName === "ChatMessage")).toHaveLength(2);
    expect(journey(card!)).toMatchObject({
      v: 2,
      status: "applied",
      journal: {
        time: { before: 1000, after: AFTER_FOREST },
        actors: [
          { actorId: "aria", exhaustion: null, fasting: { before: null, after: 0 }, thirst: { before: null, after: 0 } },
          { actorId: "bram", exhaustion: { before: 0, after: 3 }, fasting: { before: null, after: 1.5 }, thirst: { before: null, after: 0 } },
          { actorId: "cyl", exhaustion: { before: 1, after: 3 }, fasting: { before: 1, after: 4 }, thirst: { before: null, after: 0 } },
          { actorId: "dun", exhaustion: { before: 0, after: 5 }, fasting: { before: null, after: 0 }, thirst: { before: null, after: 3 } },
        ],
      },
      problems: [],
      resumed: false,
    });
    expect(card!.content).toContain('data-tooltip="d20: 1"'); // Bram's failed saves show the natural d20
    expect(card!.content).not.toContain("aventure-travel-card-lost"); // no lost chance given
    expect(card!.content).toContain("67.5 km");
    expect(card!.content).toContain("exhaustion 0 → 3");
    expect(card!.content).toMatch(/water: 1 vs DC 15 <span title="Failure"/); // Bram's failed water save: d20 1 + CON 0
    expect(d.rendered).toBe(false); // closed after a successful Apply
    // Shown: no status line once applied; GMs get Undo, players do not.
    expect(footer(world, card!, "gm2")).toMatchObject({ text: [] });
    expect(footer(world, card!, "gm2").undo).not.toBeNull();
    expect(footer(world, card!, "p1").undo).toBeNull();
  });

  it("undoes exactly: time, counters and exhaustion as they were; the card says so; a second Undo is refused", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(notes(world, "gm1")).toEqual(["The journey was undone."]);
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    expect(counters(party.aria)).toEqual({});
    expect(counters(party.bram)).toEqual({});
    expect(counters(party.cyl)).toEqual({ fastingDays: 1 });
    expect(counters(party.dun)).toEqual({});
    expect(world.worldTime).toBe(1000);
    expect(journey(card!)).toMatchObject({ status: "undone", undoTime: { from: AFTER_FOREST, to: 1000 }, problems: [] });
    const shown = footer(world, card!, "gm2");
    expect(shown.text).toEqual(["Undone: the values from before the journey were put back."]);
    expect(shown.undo).toBeNull();
    const mark = world.writes.length;
    expect(await forgeRequest(world, "gm2", "travelUndo", { messageId: card!.id })).toMatchObject({ ok: false, key: "AVENTURE.Travel.Error.AlreadyUndone" });
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.worldTime).toBe(1000);
  });

  it("Undo leaves a value changed since the journey as it is, and says so on the card and to the GM", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    await world.as("gm1", () => party.dun.update({ "system.attributes.exhaustion": 4 })); // a long rest, by hand
    const [card] = journeyCards(world);
    world.click("gm2", footer(world, card!, "gm2").undo);
    await world.settle();
    expect(levels(party)).toEqual([0, 0, 1, 4]); // Dun's 4 is left alone; the others are put back
    expect(counters(party.dun)).toEqual({}); // Dun's counters had not changed: put back
    expect(world.worldTime).toBe(1000);
    expect(notes(world, "gm2")).toEqual(["The journey was undone.", "Left as they were (changed since the journey): Dun."]);
    expect(journey(card!)).toMatchObject({ status: "undone", problems: [{ kind: "drifted", what: "exhaustion", name: "Dun", phase: "undo" }] });
    expect(footer(world, card!, "p1").text).toEqual(["Undone: the values from before the journey were put back.", "Not changed, it changed meanwhile: exhaustion of Dun."]);
  });

  it("Undo skips a deleted actor and reports it; the others are put back", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    await world.as("gm1", () => party.dun.delete());
    const [card] = journeyCards(world);
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(levels(party, ["aria", "bram", "cyl"])).toEqual([0, 0, 1]);
    expect(world.worldTime).toBe(1000);
    expect(journey(card!)).toMatchObject({ status: "undone", problems: [{ kind: "missing", what: "actor", name: "Dun", phase: "undo" }] });
    expect(notes(world, "gm1")).toEqual(["The journey was undone.", "No longer exist (nothing put back for them): Dun."]);
    expect(footer(world, card!, "gm1").text).toContain("Dun no longer exists: nothing was changed for this character.");
  });

  it("works in French: the summary, the errors and the card", async () => {
    const { world } = await boot({ lang: "fr" });
    const d = await forestDialog(world);
    const ctx = d.lastContext as { summary: { distance: string; duration: string } };
    expect(ctx.summary.distance).toBe("67,5 km");
    expect(ctx.summary.duration).toBe("2\u00a0j 10\u00a0h");
    expect(d.lastHTML).toContain("DD 11 ×3, DD 12 ×3");
    await world.as("gm1", () => d.change("hoursPerDay", "30"));
    expect((d.lastContext as { errors: { hoursPerDay: string } }).errors.hoursPerDay).toBe(
      "Il faut une valeur entre 0 et 24 pour Heures de marche par jour (reçu : 30).",
    );
    await world.as("gm1", () => d.change("hoursPerDay", "10"));
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    expect(card!.content).toContain("épuisement 0 → 3");
    expect(card!.content).toContain("Jour 1");
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(footer(world, card!, "gm1").text).toEqual(["Annulé\u00a0: les valeurs d’avant le voyage ont été rétablies."]);
  });
});

describe("Travel: two GMs connected", () => {
  it("the second GM's Apply runs once, on the active GM: saves rolled and exhaustion written exactly once", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "gm2");
    queueForestRolls(world);
    const result = await world.as("gm2", () => d.apply());
    await world.settle();
    expect(result).toMatchObject({ ok: true, proposed: false });
    expect(saveCount(party)).toBe(27);
    expect(IDS.flatMap((id) => rollCalls(party[id]).map((c) => c.user))).toEqual(Array(27).fill("gm1"));
    expect(IDS.map((id) => exhaustionWrites(world, id).length)).toEqual([0, 1, 1, 1]);
    expect(exhaustionWrites(world, "bram").every((w) => w.user === "gm1")).toBe(true);
    expect(journeyCards(world).map((c) => c.author!.id)).toEqual(["gm1"]);
    expect(world.worldTime).toBe(AFTER_FOREST);
    expect(world.messages.contents).toHaveLength(1); // the request and its receipt are gone
  });

  it("both GMs click Undo at once: the active GM undoes it once, the other is told; buttons disabled while it runs", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    const b2 = footer(world, card!, "gm2").undo!;
    const b1 = footer(world, card!, "gm1").undo!;
    const mark = world.writes.length;
    world.click("gm2", b2); // gm2's request travels to gm1 while gm1's own click runs there
    world.click("gm1", b1);
    expect(b1.disabled && b2.disabled).toBe(true);
    await world.settle();
    expect(b1.disabled || b2.disabled).toBe(false);
    expect(IDS.map((id) => exhaustionWrites(world, id, mark).length)).toEqual([0, 1, 1, 1]); // put back once
    expect(world.writesSince(mark).filter((w) => w.action === "time")).toHaveLength(1);
    expect(actorWrites(world, mark).every((w) => w.user === "gm1")).toBe(true); // the active GM ran it
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    expect(world.worldTime).toBe(1000);
    expect(notes(world, "gm1")).toEqual(["The journey was undone."]);
    expect(notes(world, "gm2")).toEqual(["This journey was already undone."]);
    expect(footer(world, card!, "gm2").undo).toBeNull();
  });
});

describe("Travel: players propose, GMs dispose", () => {
  it("a player's journey becomes a proposal for the GMs: nothing rolled or written; the player is told it was sent", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    expect((d.lastContext as { playerHint: string }).playerHint).toBe("The GMs apply or decline your journey: it is sent to them as a proposal.");
    const mark = world.writes.length;
    const result = await world.as("p1", () => d.apply());
    await world.settle();
    expect(result).toEqual({ ok: true, messageId: null, proposed: true });
    expect(notes(world, "p1")).toEqual(["Your journey was sent to the GMs, who will apply or decline it."]);
    expect(d.rendered).toBe(false);
    expect(world.rollsMade).toEqual([]);
    expect(actorWrites(world, mark)).toEqual([]);
    expect(world.worldTime).toBe(1000);
    expect(journeyCards(world)).toEqual([]);
    const [proposal] = proposalCards(world);
    expect(proposal!.author!.id).toBe("gm1");
    expect(proposal!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(world.visibleMessages("p1")).toEqual([]);
    const lines = [...world.renderMessage(proposal!, "gm2").querySelectorAll(".aventure-proposal-lines li")].map((li) => li.textContent);
    expect(lines).toEqual([
      "Party: Aria, Bram.",
      "Normal · Difficult terrain · On foot",
      "67.5 km in 2 d 10 h · travel days: 3",
      "World time moves on by 2 d 10 h.",
      "Rolls to make: 15.",
    ]);
  });

  it("a GM applies the proposal: rolled and applied once on the active GM, the card names the proposer, the player is told", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    await world.as("p1", () => d.apply());
    await world.settle();
    const [proposal] = proposalCards(world);
    queuePairRolls(world);
    world.click("gm2", world.renderMessage(proposal!, "gm2").querySelector("[data-action='aventure-proposal'][data-accept='true']"));
    await world.settle();
    expect(rollCalls(party.bram).map((c) => c.user)).toEqual(Array(9).fill("gm1"));
    expect(levels(party, ["aria", "bram"])).toEqual([0, 1]);
    expect(counters(party.bram)).toEqual({ fastingDays: 1.5, thirstDays: 0 });
    expect(world.worldTime).toBe(AFTER_FOREST);
    const [card] = journeyCards(world);
    expect(card!.author!.id).toBe("gm1");
    expect(journey(card!)).toMatchObject({ status: "applied", proposer: "p1" });
    expect(footer(world, card!, "gm1").text).toEqual(["Proposed by p1."]);
    expect((proposal!.flags.aventure as { proposal: { status: string; decidedBy: string } }).proposal).toMatchObject({ status: "applied", decidedBy: "gm2" });
    const told = world.visibleMessages("p1").map((m) => m.content);
    expect(told.some((c) => c.includes("Your proposal (Proposed journey) was applied by the game master."))).toBe(true);
    // Deciding again is refused: the proposal was applied once.
    expect(await forgeRequest(world, "gm1", "proposalDecide", { messageId: proposal!.id, accept: true })).toMatchObject({ ok: false, key: "AVENTURE.Proposal.alreadyDecided" });
    expect(journeyCards(world)).toHaveLength(1);
  });

  it("a GM declines the proposal: nothing rolled, nothing written", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    await world.as("p1", () => d.apply());
    await world.settle();
    const [proposal] = proposalCards(world);
    const mark = world.writes.length;
    world.click("gm1", world.renderMessage(proposal!, "gm1").querySelector("[data-action='aventure-proposal'][data-accept='false']"));
    await world.settle();
    expect(world.rollsMade).toEqual([]);
    expect(actorWrites(world, mark)).toEqual([]);
    expect(world.writesSince(mark).filter((w) => w.action === "time")).toEqual([]);
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    expect(journeyCards(world)).toEqual([]);
    expect(world.visibleMessages("p1").some((m) => m.content.includes("was declined by the game master"))).toBe(true);
  });

  it("'Players may apply journeys of their own characters' on: the player's own characters are applied at once", async () => {
    const { world, party } = await boot();
    await set(world, "travelPlayersApply", true);
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    expect((d.lastContext as { playerHint: string }).playerHint).toBe("Your journey is applied at once: the party holds only your own characters.");
    queuePairRolls(world);
    const result = await world.as("p1", () => d.apply());
    await world.settle();
    expect(result).toMatchObject({ ok: true, proposed: false });
    expect(rollCalls(party.bram).every((c) => c.user === "gm1")).toBe(true);
    expect(levels(party, ["aria", "bram"])).toEqual([0, 1]);
    expect(world.worldTime).toBe(AFTER_FOREST);
    expect(proposalCards(world)).toEqual([]);
    expect(journeyCards(world).map((c) => [c.author!.id, journey(c).proposer])).toEqual([["gm1", "p1"]]);
    expect(notes(world, "p1")).toEqual([]);
    // The player cannot undo it: Undo is the GMs' (no button, and the request is refused).
    expect(footer(world, journeyCards(world)[0]!, "p1").undo).toBeNull();
  });

  it("with the setting on, a party with someone else's character is still a proposal, listing who is not the player's", async () => {
    const { world, party } = await boot();
    await set(world, "travelPlayersApply", true);
    const d = await forestDialog(world, "p1", ["aria", "cyl"]);
    expect((d.lastContext as { playerHint: string; canApply: boolean }).playerHint).toBe("The GMs apply or decline your journey: it is sent to them as a proposal.");
    const mark = world.writes.length;
    expect(await world.as("p1", () => d.apply())).toEqual({ ok: true, messageId: null, proposed: true });
    await world.settle();
    expect(actorWrites(world, mark)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    const lines = [...world.renderMessage(proposalCards(world)[0]!, "gm1").querySelectorAll(".aventure-proposal-lines li")].map((li) => li.textContent);
    expect(lines.slice(0, 2)).toEqual(["Party: Aria, Cyl.", "Not the proposer's characters: Cyl."]);
  });

  it("a character the player cannot see is unknown to them; nothing is proposed or written", async () => {
    const { world } = await boot();
    const request = { ...(await pairRequest(world)) };
    request.members = [request.members[0]!, { ...request.members[1]!, actorId: "dun" }];
    const mark = world.writes.length;
    const result = await world.as("p1", () => api(world, "p1").applyTravel(request));
    await world.settle();
    expect(result).toEqual({ ok: false, key: "AVENTURE.Travel.Error.UnknownActor", data: { id: "dun" } });
    expect(notes(world, "p1")).toEqual(["Unknown actor: dun."]);
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
  });

  it("the dialog's Apply is disabled while its request runs; a second Apply meanwhile sends nothing", async () => {
    const { world } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    const button = () => d.element!.querySelector<HTMLButtonElement>('[data-action="apply"]')!;
    expect(button().disabled).toBe(false);
    world.click("p1", button());
    await new Promise((r) => setImmediate(r));
    expect(button().disabled).toBe(true);
    expect(() => world.click("p1", button())).toThrow(/disabled/);
    expect(await world.as("p1", () => d.apply())).toBeNull();
    await world.settle();
    expect(proposalCards(world)).toHaveLength(1);
    expect(world.writes.filter((w) => w.user === "p1" && w.action === "create")).toHaveLength(1); // one request
  });

  it("one pending journey per user: a second request from the API while the first runs is refused on the spot", async () => {
    const { world } = await boot();
    const request = await pairRequest(world);
    const [a, b] = await Promise.all([world.as("p1", () => api(world, "p1").applyTravel(request)), world.as("p1", () => api(world, "p1").applyTravel(request))]);
    await world.settle();
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect(notes(world, "p1", "error")).toEqual(["This is already in progress: wait for the answer before asking again."]);
    expect(proposalCards(world)).toHaveLength(1);
  });
});
