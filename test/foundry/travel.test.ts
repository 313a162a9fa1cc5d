/**
 * Travel glue against the fake world (test/world): the dialog (live summary, field errors), Apply on the active GM
 * through the trusted request channel, players proposing and GMs disposing, the saves rolled through dnd5e's
 * rollSavingThrow signature, exhaustion, counters, world time, the card and its Undo, exactly once under two GMs,
 * forged requests and cards, failed writes and crashes at every write. Expected values come from RULES.md §2.4,
 * §4.3–4.4, worked by hand below.
 */
import { listen } from "../world/listen.js";
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
import type { TravelApplyResult } from "../../src/travel/apply.js";
import type { TravelRequest } from "../../src/travel/request.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectCrashLog, expectJourneyCrashLogs, expectRefusalLog, expectUndoCrashLogs } from "./crash-logs.js";

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
  openTravel(o?: { actorIds?: string[] }): Promise<Dialog>;
  applyTravel(r: TravelRequest): Promise<TravelApplyResult>;
}

/**
 * The party: dnd5e 5.3.3 characters (rollSavingThrow(config, dialog, message) rolls 1d20 + the save bonus).
 * Aria and Bram belong to player p1; Cyl belongs to the GM and every player may see it (limited); Dun is the GM's
 * alone (players cannot see it). Cyl has already gone one day without food.
 */
async function boot(
  opts: { lang?: "en" | "fr"; users?: (typeof USERS)[number][]; onDemand?: "with the module" | "when used" } = {},
) {
  const world = await bootWorld({
    system: "dnd5e",
    users: opts.users ?? USERS,
    lang: opts.lang,
    onDemand: opts.onDemand,
  });
  const hero = (
    id: Hero,
    name: string,
    con: number,
    passive: number,
    exhaustion: number,
    ownership: Record<string, number>,
  ) => addDnd5eActor(world, { id, name, abilities: { con: 10 + 2 * con }, passive, exhaustion, ownership });
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
const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const exhaustion = (a: FakeActor) => (a.system.attributes as { exhaustion: number }).exhaustion;
const levels = (party: Record<Hero, FakeActor>, ids: readonly Hero[] = IDS) => ids.map((id) => exhaustion(party[id]));
const counters = (a: FakeActor) => ({ ...(a.flags.aventure ?? {}) });
type RollCall = {
  kind: string;
  user: string;
  config: { ability?: string; skill?: string; target: number };
  dialog: { configure?: boolean };
  message: { create?: boolean; data?: { flavor?: string } };
};
const allRollCalls = (a: FakeActor) => (a as unknown as { rollCalls: RollCall[] }).rollCalls;
/** The saving throws an actor rolled (its Survival checks apart: skillCalls). */
const rollCalls = (a: FakeActor) => allRollCalls(a).filter((c) => c.kind === "save");
const saveCount = (party: Record<Hero, FakeActor>) => IDS.reduce((n, id) => n + rollCalls(party[id]).length, 0);
const journeyCards = (world: FakeWorld) => cardsOf(world.messages.contents, "travel");
const proposalCards = (world: FakeWorld) => cardsOf(world.messages.contents, "proposal");
const journey = (m: FakeChatMessage) => cardOf(m, "travel")!;
const notes = (world: FakeWorld, user: string, type?: string) =>
  world.notifications.filter((n) => n.user === user && (!type || n.type === type)).map((n) => n.message);
const footer = (world: FakeWorld, card: FakeChatMessage, user: string) => {
  const html = world.renderMessage(card, user);
  return {
    html,
    text: [...html.querySelectorAll(".aventure-travel-card-footer p")].map((p) => p.textContent),
    undo: html.querySelector<HTMLButtonElement>('[data-action="aventure-travel-undo"]'),
  };
};
const actorWrites = (world: FakeWorld, mark = 0) => world.writesSince(mark).filter((w) => w.documentName === "Actor");
const exhaustionWrites = (world: FakeWorld, id: string, mark = 0) =>
  actorWrites(world, mark).filter((w) => w.id === id && JSON.stringify(w.data).includes("exhaustion"));

/** 67.5 km through a forest at normal pace, 10 h a day: 3 days of 22.5 km, forced march DC 11 and 12 daily. */
async function forestDialog(world: FakeWorld, user = "gm1", ids: readonly Hero[] = IDS): Promise<Dialog> {
  return world.as(user, async () => {
    const d = await api(world, user).openTravel({ actorIds: [...ids] });
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
  world.queueRolls(20, 20, 20); // then Bram's Wisdom (Survival) check each day: he navigates (RULES.md §2.6)
}

/** Aria and Bram alone (p1's characters): 5 saves a day; Bram fails day 1, hour 9 (exhaustion 0 → 1). */
function queuePairRolls(world: FakeWorld, times = 1) {
  // 15 saves, then Bram's three Survival checks (he navigates).
  for (let i = 0; i < times; i++) world.queueRolls(20, 20, 1, 20, 20, ...Array<number>(10).fill(20), 20, 20, 20);
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
    const d = await world.as("gm1", () => api(world).openTravel({ actorIds: [...IDS] }));
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
      summary: {
        distance: string;
        duration: string;
        saveCount: number;
        days: { forcedMarch: string }[];
        notice: { value: string }[];
        canStealth: boolean;
      };
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
    expect(world.writes.filter((w) => w.id !== "aventure.searchingMarksMigrated")).toEqual([]); // the one-time mark of the active GM's ready
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
    expect(
      rollCalls(party.aria).every(
        (c) =>
          c.config.ability === "con" && c.user === "gm1" && c.dialog.configure === false && c.message.create === false,
      ),
    ).toBe(true);
    expect(rollCalls(party.bram)[0]!.message.data!.flavor).toBe(
      "Bram: forced march, day 1, hour 9 (Constitution save DC 11)",
    );
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
    expect(card!.rolls).toHaveLength(30); // 27 saves and Bram's 3 Survival checks
    // The card first, marked applying with the whole journal in absolute values; then the steps; then applied.
    const writes = world.writesSince(mark);
    expect(writes[0]).toMatchObject({ user: "gm1", action: "create", documentName: "ChatMessage" });
    expect(writes[0]!.data).toMatchObject({ type: "aventure.travel", system: { status: "applying" } });
    expect(writes.at(-1)).toMatchObject({ action: "update", documentName: "ChatMessage", id: card!.id });
    expect(writes.filter((w) => w.documentName === "ChatMessage")).toHaveLength(2);
    expect(journey(card!)).toMatchObject({
      v: 2,
      status: "applied",
      journal: {
        time: { before: 1000, after: AFTER_FOREST },
        actors: [
          {
            actorId: "aria",
            exhaustion: null,
            fasting: { before: null, after: 0 },
            thirst: { before: null, after: 0 },
          },
          {
            actorId: "bram",
            exhaustion: { before: 0, after: 3 },
            fasting: { before: null, after: 1.5 },
            thirst: { before: null, after: 0 },
          },
          {
            actorId: "cyl",
            exhaustion: { before: 1, after: 3 },
            fasting: { before: 1, after: 4 },
            thirst: { before: null, after: 0 },
          },
          {
            actorId: "dun",
            exhaustion: { before: 0, after: 5 },
            fasting: { before: null, after: 0 },
            thirst: { before: null, after: 3 },
          },
        ],
      },
      problems: [],
      resumed: false,
    });
    expect(card!.content).toContain('data-tooltip="d20: 1"'); // Bram's failed saves show the natural d20
    expect(card!.content).not.toContain("aventure-travel-card-lost"); // no lost chance given
    expect(card!.content).toContain("67.5 km");
    expect(card!.content).toContain("exhaustion 0 → 3");
    // Bram's failed water save, named by ability and DC: d20 1 + CON 0.
    expect(card!.content).toMatch(/Constitution save DC 15 \(half water\): 1 <span aria-label="Failure"/);
    expect(card!.content).toContain("Bram finds the way (20 vs DC 10)"); // his Survival check as the navigator
    expect(d.rendered).toBe(false); // closed after a successful Apply
    // Shown: no status line once applied; GMs get Undo, players do not.
    expect(footer(world, card!, "gm2")).toMatchObject({ text: [] });
    expect(footer(world, card!, "gm2").undo).not.toBeNull();
    expect(footer(world, card!, "p1").undo).toBeNull();
  });

  it("attack: travelUndo's payload is read through its model: a card id sent in a list or with spaces is no journey; nothing is undone", async () => {
    const { world } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    const time = world.worldTime;
    const mark = world.writes.length;
    for (const messageId of [[card!.id], ` ${card!.id}`, { id: card!.id }])
      expect(await forgeRequest(world, "gm2", "travelUndo", { messageId })).toMatchObject({
        ok: false,
        key: "AVENTURE.Travel.Error.NoJourney",
      });
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.worldTime).toBe(time);
    expect(journey(card!)).toMatchObject({ status: "applied" });
  });

  it("undoes exactly: time, counters and exhaustion as they were; the card says so; a second Undo is refused", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    const pre = listen(world, "aventure.preTravel");
    const applied = listen(world, "aventure.travelApplied");
    const undone = listen(world, "aventure.travelUndone");
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    // Hooks for other modules: once each, on the GM who executed it (docs/api.md).
    expect(pre.map((c) => c.user)).toEqual(["gm1"]);
    expect(applied).toEqual([
      {
        user: "gm1",
        data: { messageId: card!.id, actorIds: ["aria", "bram", "cyl", "dun"], secondsAdded: expect.any(Number) },
      },
    ]);
    expect(applied[0]!.data.secondsAdded).toBeGreaterThan(0);
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(undone).toEqual([{ user: "gm1", data: { messageId: card!.id, actorIds: ["aria", "bram", "cyl", "dun"] } }]);
    expect(notes(world, "gm1")).toEqual(["The journey was undone."]);
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    expect(counters(party.aria)).toEqual({});
    expect(counters(party.bram)).toEqual({});
    expect(counters(party.cyl)).toEqual({ fastingDays: 1 });
    expect(counters(party.dun)).toEqual({});
    expect(world.worldTime).toBe(1000);
    expect(journey(card!)).toMatchObject({
      status: "undone",
      undoTime: { from: AFTER_FOREST, to: 1000 },
      problems: [],
    });
    const shown = footer(world, card!, "gm2");
    expect(shown.text).toEqual(["Undone: the values from before the journey were put back."]);
    expect(shown.undo).toBeNull();
    const mark = world.writes.length;
    expect(await forgeRequest(world, "gm2", "travelUndo", { messageId: card!.id })).toMatchObject({
      ok: false,
      key: "AVENTURE.Travel.Error.AlreadyUndone",
    });
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
    expect(notes(world, "gm2")).toEqual([
      "The journey was undone.",
      "Left as they were (changed since the journey): Dun.",
    ]);
    expect(journey(card!)).toMatchObject({
      status: "undone",
      problems: [{ kind: "drifted", what: "exhaustion", name: "Dun", phase: "undo" }],
    });
    expect(footer(world, card!, "p1").text).toEqual([
      "Undone: the values from before the journey were put back.",
      "Not applied (someone else had already changed it): exhaustion of Dun.",
    ]);
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
    expect(journey(card!)).toMatchObject({
      status: "undone",
      problems: [{ kind: "missing", what: "actor", name: "Dun", phase: "undo" }],
    });
    expect(notes(world, "gm1")).toEqual([
      "The journey was undone.",
      "No longer exist (nothing put back for them): Dun.",
    ]);
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
      "Il faut une valeur entre 0 et 24 pour Heures de marche par jour (reçu\u00a0: 30).",
    );
    await world.as("gm1", () => d.change("hoursPerDay", "10"));
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    expect(card!.content).toContain("épuisement 0 → 3");
    expect(card!.content).toContain("Jour 1");
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(footer(world, card!, "gm1").text).toEqual([
      "Annulé\u00a0: les valeurs d’avant le voyage ont été rétablies.",
    ]);
  });

  it("a card from before 0.2 (world time moved by a relative amount) is undone once, by that amount", async () => {
    const { world, party } = await boot();
    world.worldTime = 50_000;
    party.bram.system.attributes = { ...(party.bram.system.attributes as object), exhaustion: 1 };
    const v1 = {
      journal: {
        advanced: 3600,
        actors: [{ actorId: "bram", name: "Bram", exhaustion: { before: 0, after: 1 }, fasting: null, thirst: null }],
      },
      undone: false,
      lost: [],
    };
    const card = world.addMessage({
      content:
        '<div class="aventure aventure-card aventure-travel-card"><footer class="aventure-travel-card-footer"></footer></div>',
      author: "gm1",
      flags: { aventure: { travel: v1 } },
    });
    world.click("gm2", footer(world, card, "gm2").undo);
    await world.settle();
    expect(exhaustion(party.bram)).toBe(0);
    expect(world.worldTime).toBe(50_000 - 3600);
    expect(journey(card)).toMatchObject({ v: 2, status: "undone", undoTime: { from: 50_000, to: 46_400 } });
    expect(await forgeRequest(world, "gm2", "travelUndo", { messageId: card.id })).toMatchObject({
      ok: false,
      key: "AVENTURE.Travel.Error.AlreadyUndone",
    });
    expect(world.worldTime).toBe(46_400);
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

describe("Travel: Undo takes back only the world time the journey added (security round)", () => {
  const plain = (id: Hero, km: number) => ({
    pace: "normal",
    terrain: "normal",
    mode: "foot",
    hoursPerDay: 8,
    distance: km * 1000,
    members: [{ actorId: id, food: "full", water: "full", position: "front", activity: "none" }],
  });

  it("a journey whose time step was left alone on Apply (a combat round elapsed meanwhile): Undo leaves world time as it is and says so", async () => {
    const { world } = await boot();
    let once = true;
    world.as("gm1", () =>
      Hooks.on("createChatMessage", (m: ChatMessage) => {
        if (once && (m as { type: string }).type === "aventure.travel") {
          once = false;
          void world.serverAdvanceTime(6, {}, "gm1"); // a combat round elapses right after the card is posted
        }
      }),
    );
    expect(await forgeRequest(world, "gm1", "travelApply", plain("dun", 20))).toMatchObject({ ok: true });
    await world.settle();
    const [card] = journeyCards(world);
    expect(world.worldTime).toBe(1006);
    expect(journey(card!)).toMatchObject({
      status: "applied",
      timeAdded: 0,
      problems: [{ kind: "drifted", what: "time", phase: "apply" }],
    });
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(world.worldTime).toBe(1006); // not 1006 − 15 000 s: the journey never added them
    expect(journey(card!)).toMatchObject({ status: "undone", undoTime: null });
    expect(notes(world, "gm1")).toContain(
      "World time was left as it is: the journey did not move it (the clock had moved meanwhile).",
    );
  });

  it("a card applied before the record (its time drift only in its problems) is undone without rewinding world time", async () => {
    const { world } = await boot();
    expect(await forgeRequest(world, "gm1", "travelApply", plain("dun", 20))).toMatchObject({ ok: true });
    const [card] = journeyCards(world);
    const flag = {
      ...journey(card!),
      timeAdded: null,
      problems: [{ kind: "drifted", what: "time", name: "", phase: "apply" }],
    };
    await world.as("gm1", () => game.messages.get(card!.id)!.update({ system: flag }));
    world.worldTime = 50_000;
    expect(await forgeRequest(world, "gm1", "travelUndo", { messageId: card!.id })).toMatchObject({
      ok: true,
      result: { timeLeft: true },
    });
    expect(world.worldTime).toBe(50_000);
  });

  it("two journeys asked at once (a player's own, the GM's) run one after the other; each Undo takes back its own time", async () => {
    const { world } = await boot();
    await set(world, "travelPlayersApply", true);
    const [a, b] = await Promise.all([
      forgeRequest(world, "p1", "travelApply", plain("aria", 5)),
      forgeRequest(world, "gm1", "travelApply", plain("dun", 20)),
    ]);
    expect([a, b]).toMatchObject([{ ok: true }, { ok: true }]);
    await world.settle();
    const cards = journeyCards(world);
    const times = cards.map((c) => journey(c).journal as { time: { before: number; after: number } });
    expect(cards.map((c) => journey(c).problems)).toEqual([[], []]);
    expect(times[0]!.time.before).toBe(1000);
    expect(times[1]!.time.before).toBe(times[0]!.time.after); // the second read world time after the first moved it
    expect(world.worldTime).toBe(times[1]!.time.after);
    const [first, second] = cards;
    expect(await forgeRequest(world, "gm1", "travelUndo", { messageId: first!.id })).toMatchObject({
      ok: true,
      result: { changedSince: [], timeLeft: false },
    });
    expect(await forgeRequest(world, "gm1", "travelUndo", { messageId: second!.id })).toMatchObject({
      ok: true,
      result: { changedSince: [], timeLeft: false },
    });
    expect(world.worldTime).toBe(1000);
  });

  it("world time moves by whole seconds: 1.4 s moves it 1 s; a journey under half a second moves none", async () => {
    const { world } = await boot();
    const dur = (seconds: number) => ({ ...plain("dun", 1), distance: null, duration: seconds });
    expect(await forgeRequest(world, "gm1", "travelApply", dur(1.4))).toMatchObject({ ok: true });
    expect(world.worldTime).toBe(1001);
    expect(await forgeRequest(world, "gm1", "travelApply", dur(1e-300))).toMatchObject({ ok: true });
    expect(await forgeRequest(world, "gm1", "travelApply", { ...plain("dun", 1), distance: 1e-300 })).toMatchObject({
      ok: true,
    });
    expect(world.worldTime).toBe(1001);
    const cards = journeyCards(world);
    expect(cards.map((c) => (journey(c).journal as { time: unknown }).time)).toEqual([
      { before: 1000, after: 1001 },
      null,
      null,
    ]);
    expect(await forgeRequest(world, "gm1", "travelUndo", { messageId: cards[2]!.id })).toMatchObject({
      ok: true,
      result: { timeLeft: false },
    });
    expect(await forgeRequest(world, "gm1", "travelUndo", { messageId: cards[0]!.id })).toMatchObject({ ok: true });
    expect(world.worldTime).toBe(1000);
  });
});

describe("Travel: players propose, GMs dispose", () => {
  it("a player's journey becomes a proposal for the GMs: nothing rolled or written; the player is told it was sent", async () => {
    const { world } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    expect((d.lastContext as { playerHint: string }).playerHint).toBe(
      "The GMs apply or decline your journey: it is sent to them as a proposal.",
    );
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
    const lines = [...world.renderMessage(proposal!, "gm2").querySelectorAll(".aventure-proposal-lines li")].map(
      (li) => li.textContent,
    );
    expect(lines).toEqual([
      "Party: Aria, Bram.",
      "Normal · Difficult terrain · On foot",
      "67.5 km in 2 d 10 h · 3 travel days",
      "Conditions: Hours of march per day: 10 (default: 8) · Survival DC (navigate, track, forage): 10 · Daily chance of getting lost (%): 0 · Hot weather: no · Travel stealthily: no.",
      "Aria: Position: Front · Activity: Keep watch · Food: Full · Water: Full.",
      "Bram: Position: Middle · Activity: Navigate · Food: Half (default: Full) · Water: Half (default: Full).",
      "World time moves on by 2 d 10 h.",
      "Rolls to make: 18.",
    ]);
  });

  it("the proposal shows what the player chose, each value not the default with its default (in both languages)", async () => {
    for (const lang of ["en", "fr"] as const) {
      const { world } = await boot({ lang });
      const member = { actorId: "aria", food: "none", water: "half", position: "rear", activity: "forage" };
      const req = {
        pace: "slow",
        terrain: "normal",
        mode: "foot",
        hoursPerDay: 8,
        distance: 12000,
        hot: true,
        stealth: true,
        lostChance: 5,
        survivalDC: 15,
        members: [member],
      };
      expect(await forgeRequest(world, "p1", "travelApply", req)).toMatchObject({
        ok: true,
        result: { proposed: true },
      });
      const [proposal] = proposalCards(world);
      const lines = [...world.renderMessage(proposal!, "gm1").querySelectorAll(".aventure-proposal-lines li")].map(
        (li) => li.textContent,
      );
      const nb = "\u00a0";
      expect(lines.slice(3, 5)).toEqual(
        lang === "en"
          ? [
              "Conditions: Hours of march per day: 8 · Survival DC (navigate, track, forage): 15 (default: 10) · Daily chance of getting lost (%): 5 (default: 0) · Hot weather: yes (default: no) · Travel stealthily: yes (default: no).",
              "Aria: Position: Rear · Activity: Forage · Food: None (default: Full) · Water: Half (default: Full).",
            ]
          : [
              `Conditions${nb}: Heures de marche par jour${nb}: 8 · DD de Survie (s’orienter, pister, chercher de la nourriture)${nb}: 15 (par défaut${nb}: 10) · Risque quotidien de se perdre (%)${nb}: 5 (par défaut${nb}: 0) · Forte chaleur${nb}: oui (par défaut${nb}: non) · Voyager discrètement${nb}: oui (par défaut${nb}: non).`,
              `Aria${nb}: Rang${nb}: Arrière · Activité${nb}: Chercher de la nourriture · Nourriture${nb}: Rien (par défaut${nb}: Entière) · Eau${nb}: Moitié (par défaut${nb}: Entière).`,
            ],
      );
    }
  });

  it("a GM applies the proposal: rolled and applied once on the active GM, the card names the proposer, the player is told", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    await world.as("p1", () => d.apply());
    await world.settle();
    const [proposal] = proposalCards(world);
    queuePairRolls(world);
    world.click(
      "gm2",
      world.renderMessage(proposal!, "gm2").querySelector("[data-action='aventure-proposal'][data-accept='true']"),
    );
    await world.settle();
    expect(rollCalls(party.bram).map((c) => c.user)).toEqual(Array(9).fill("gm1"));
    expect(levels(party, ["aria", "bram"])).toEqual([0, 1]);
    expect(counters(party.bram)).toEqual({ fastingDays: 1.5, thirstDays: 0 });
    expect(world.worldTime).toBe(AFTER_FOREST);
    const [card] = journeyCards(world);
    expect(card!.author!.id).toBe("gm1");
    expect(journey(card!)).toMatchObject({ status: "applied", proposer: "p1" });
    expect(footer(world, card!, "gm1").text).toEqual(["Asked by p1."]);
    expect(cardOf(proposal!, "proposal")).toMatchObject({
      status: "applied",
      decidedBy: "gm2",
    });
    const told = world.visibleMessages("p1").map((m) => m.content);
    expect(told.some((c) => c.includes("Your proposal (Proposed journey) was applied by the GM."))).toBe(true);
    // Deciding again is refused: the proposal was applied once.
    expect(await forgeRequest(world, "gm1", "proposalDecide", { messageId: proposal!.id, accept: true })).toMatchObject(
      { ok: false, key: "AVENTURE.Proposal.alreadyDecided" },
    );
    expect(journeyCards(world)).toHaveLength(1);
  });

  it("a GM declines the proposal: nothing rolled, nothing written", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    await world.as("p1", () => d.apply());
    await world.settle();
    const [proposal] = proposalCards(world);
    const mark = world.writes.length;
    world.click(
      "gm1",
      world.renderMessage(proposal!, "gm1").querySelector("[data-action='aventure-proposal'][data-accept='false']"),
    );
    await world.settle();
    expect(world.rollsMade).toEqual([]);
    expect(actorWrites(world, mark)).toEqual([]);
    expect(world.writesSince(mark).filter((w) => w.action === "time")).toEqual([]);
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    expect(journeyCards(world)).toEqual([]);
    expect(world.visibleMessages("p1").some((m) => m.content.includes("was declined by the GM"))).toBe(true);
  });

  it("'Players may apply journeys of their own characters' on: the player's own characters are applied at once", async () => {
    const { world, party } = await boot();
    await set(world, "travelPlayersApply", true);
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    expect((d.lastContext as { playerHint: string }).playerHint).toBe(
      "Your journey is applied at once: the party holds only your own characters.",
    );
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
    expect(footer(world, journeyCards(world)[0]!, "gm1").text).toEqual(["Asked by p1."]);
    // The player cannot undo it: Undo is the GMs' (no button, and the request is refused).
    expect(footer(world, journeyCards(world)[0]!, "p1").undo).toBeNull();
    expect(await forgeRequest(world, "p1", "travelUndo", { messageId: journeyCards(world)[0]!.id })).toMatchObject({
      ok: false,
      key: "AVENTURE.Error.GMOnly",
    });
  });

  it("with the setting on, a party with someone else's character is still a proposal, listing who is not the player's", async () => {
    const { world, party } = await boot();
    await set(world, "travelPlayersApply", true);
    const d = await forestDialog(world, "p1", ["aria", "cyl"]);
    expect((d.lastContext as { playerHint: string; canApply: boolean }).playerHint).toBe(
      "The GMs apply or decline your journey: it is sent to them as a proposal.",
    );
    const mark = world.writes.length;
    expect(await world.as("p1", () => d.apply())).toEqual({ ok: true, messageId: null, proposed: true });
    await world.settle();
    expect(actorWrites(world, mark)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    const lines = [
      ...world.renderMessage(proposalCards(world)[0]!, "gm1").querySelectorAll(".aventure-proposal-lines li"),
    ].map((li) => li.textContent);
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
    const [a, b] = await Promise.all([
      world.as("p1", () => api(world, "p1").applyTravel(request)),
      world.as("p1", () => api(world, "p1").applyTravel(request)),
    ]);
    await world.settle();
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect(notes(world, "p1", "error")).toEqual([
      "This is already in progress: wait for the answer before asking again.",
    ]);
    expect(proposalCards(world)).toHaveLength(1);
  });
});

describe("Travel: attacks from a player's console change nothing", () => {
  const GM_CLAIMS = { userId: "gm1", user: "gm1", sender: "gm1", isGM: true };

  it("travelApply: a forged identity is ignored; someone else's characters are never applied directly", async () => {
    const { world, party } = await boot();
    await set(world, "travelPlayersApply", true);
    const request = await pairRequest(world);
    const mark = world.writes.length;
    // p2 claims to be the GM and names p1's characters: p2 cannot even see them.
    expect(await forgeRequest(world, "p2", "travelApply", { ...request, ...GM_CLAIMS })).toEqual({
      status: "done",
      ok: false,
      key: "AVENTURE.Travel.Error.UnknownActor",
      data: { id: "aria" },
    });
    // p1 claims to be the GM and adds Cyl (visible, not theirs): a proposal for the GMs, nothing applied.
    const withCyl = {
      ...request,
      members: [request.members[0]!, { ...request.members[1]!, actorId: "cyl" }],
      ...GM_CLAIMS,
    };
    expect(await forgeRequest(world, "p1", "travelApply", withCyl)).toMatchObject({
      ok: true,
      result: { messageId: null, proposed: true },
    });
    expect(world.rollsMade).toEqual([]);
    expect(actorWrites(world, mark)).toEqual([]);
    expect(world.writesSince(mark).filter((w) => w.action === "time")).toEqual([]);
    expect(journeyCards(world)).toEqual([]);
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    // The old query path is gone: nothing answers it.
    await expect(
      world.as("p1", () =>
        (game.users.activeGM as unknown as { query(n: string, d: unknown): Promise<unknown> }).query(
          "aventure.travelApply",
          request,
        ),
      ),
    ).rejects.toThrow(/not registered/);
  });

  it("travelApply: out-of-range and malformed values are refused with the field's error; nothing rolls", async () => {
    const { world } = await boot();
    await set(world, "travelPlayersApply", true);
    const base = await pairRequest(world);
    const member = base.members[0]!;
    const bad: [unknown, string][] = [
      [{ ...base, distance: -1000 }, "AVENTURE.Error.Negative"],
      [{ ...base, distance: 0 }, "AVENTURE.Error.OutOfRange"],
      [{ ...base, distance: 1e12 }, "AVENTURE.Error.OutOfRange"],
      [{ ...base, distance: Number.NaN }, "AVENTURE.Error.NotANumber"],
      [{ ...base, distance: "67500" }, "AVENTURE.Error.NotANumber"],
      [{ ...base, distance: null, duration: 1001 * 86400 }, "AVENTURE.Error.OutOfRange"],
      [{ ...base, duration: 3600 }, "AVENTURE.Error.Missing"], // a distance and a duration
      [{ ...base, hoursPerDay: 25 }, "AVENTURE.Error.OutOfRange"],
      [{ ...base, hoursPerDay: 0 }, "AVENTURE.Error.OutOfRange"],
      [{ ...base, hoursPerDay: "10" }, "AVENTURE.Error.NotANumber"],
      [{ ...base, lostChance: 101 }, "AVENTURE.Error.OutOfRange"],
      [{ ...base, mode: "boat", speedKmh: -5 }, "AVENTURE.Error.Negative"],
      [{ ...base, mode: "boat", speedKmh: 1e6 }, "AVENTURE.Error.OutOfRange"],
      [{ ...base, pace: "warp" }, "AVENTURE.Error.UnknownValue"],
      [{ ...base, hot: "yes" }, "AVENTURE.Error.UnknownValue"],
      [{ ...base, members: [{ ...member, conMod: 1.5 }] }, "AVENTURE.Error.NotAnInteger"],
      [{ ...base, members: [{ ...member, conMod: 99 }] }, "AVENTURE.Error.OutOfRange"],
      [{ ...base, members: [{ ...member, passivePerception: -1 }] }, "AVENTURE.Error.Negative"],
      [{ ...base, members: [{ ...member, food: "feast" }] }, "AVENTURE.Error.UnknownValue"],
      [{ ...base, members: [{ ...member, actorId: { $ne: 1 } }] }, "AVENTURE.Error.Missing"],
      [{ ...base, members: [{ ...member, actorId: "../../x" }] }, "AVENTURE.Error.Missing"],
      [{ ...base, members: [member, member] }, "AVENTURE.Error.UnknownValue"],
      [
        { ...base, members: Array.from({ length: 501 }, (_, i) => ({ ...member, actorId: `a${i}` })) },
        "AVENTURE.Error.OutOfRange",
      ],
      [{ ...base, members: [] }, "AVENTURE.Error.EmptyParty"],
      [{ ...base, members: "aria" }, "AVENTURE.Error.Missing"],
      [{ ...base, members: [{ ...member, actorId: "ghost" }] }, "AVENTURE.Travel.Error.UnknownActor"],
      ["nonsense", "AVENTURE.Error.Missing"],
      [null, "AVENTURE.Error.Missing"],
    ];
    const mark = world.writes.length;
    // Shared between both players: the channel takes at most 20 requests per 10 s from one user (a flood limit).
    for (const [i, [data, key]] of bad.entries()) {
      expect(
        await forgeRequest(world, i % 2 ? "p2" : "p1", "travelApply", data),
        JSON.stringify(data).slice(0, 80),
      ).toMatchObject({ ok: false, key });
    }
    expect(world.rollsMade).toEqual([]);
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.worldTime).toBe(1000);
  });

  it("attack: travelApply's payload is read through its model: a value of the wrong type or an oversized part is refused with the field's error; nothing rolls", async () => {
    const { world } = await boot();
    await set(world, "travelPlayersApply", true);
    const base = await pairRequest(world);
    const member = base.members[0]!;
    const route = {
      sceneId: "scene1",
      points: [
        { x: 0, y: 0 },
        { x: 100, y: 0 },
      ],
      tokenIds: [],
      days: null,
    };
    const ose = { openTerrain: "forest", baseMetres: null, animals: 0 };
    const bad: [unknown, string, Record<string, unknown>][] = [
      [{ ...base, members: [{ ...member, conMod: "2" }] }, "AVENTURE.Error.NotANumber", { name: "party[0].conMod" }],
      [
        { ...base, members: [member, { ...member, actorId: "bram", water: 3 }] },
        "AVENTURE.Error.UnknownValue",
        { name: "party[1].water" },
      ],
      [{ ...base, stealth: 1 }, "AVENTURE.Error.UnknownValue", { name: "stealth" }],
      [{ ...base, survivalDC: 15.5 }, "AVENTURE.Error.NotAnInteger", { name: "survivalDC" }],
      [
        { ...base, distance: null, route: { ...route, points: [{ x: "0", y: 0 }] } },
        "AVENTURE.Error.NotANumber",
        { name: "route.points[0].x" },
      ],
      [
        { ...base, distance: null, route: { ...route, tokenIds: Array(51).fill("tAria") } },
        "AVENTURE.Error.Missing",
        { name: "route.tokenIds" },
      ],
      [
        { ...base, distance: null, route: { ...route, days: 1001 } },
        "AVENTURE.Error.OutOfRange",
        { name: "route.days" },
      ],
      [{ ...base, ose: { ...ose, forcedMarch: "yes" } }, "AVENTURE.Error.UnknownValue", { name: "ose.forcedMarch" }],
      [{ ...base, ose: { ...ose, rations: 100_001 } }, "AVENTURE.Error.OutOfRange", { name: "ose.rations" }],
      [{ ...base, ose: [ose] }, "AVENTURE.Error.Missing", { name: "ose" }],
    ];
    const mark = world.writes.length;
    for (const [i, [data, key, named]] of bad.entries()) {
      expect(
        await forgeRequest(world, i % 2 ? "p2" : "p1", "travelApply", data),
        JSON.stringify(data).slice(0, 80),
      ).toMatchObject({ ok: false, key, data: named });
    }
    expect(world.rollsMade).toEqual([]);
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.worldTime).toBe(1000);
  });

  it("travelApply: a replayed request id is refused; the journey is applied once", async () => {
    const { world, party } = await boot();
    await set(world, "travelPlayersApply", true);
    const request = await pairRequest(world);
    queuePairRolls(world, 2);
    expect(await forgeRequest(world, "p1", "travelApply", request, "replayedTravel01")).toMatchObject({
      ok: true,
      result: { proposed: false },
    });
    expect(await forgeRequest(world, "p1", "travelApply", request, "replayedTravel01")).toEqual({
      status: "done",
      ok: false,
      key: "AVENTURE.Request.replayed",
      data: {},
    });
    expect(journeyCards(world)).toHaveLength(1);
    expect(exhaustionWrites(world, "bram")).toHaveLength(1);
    expect(levels(party, ["aria", "bram"])).toEqual([0, 1]);
    expect(world.worldTime).toBe(AFTER_FOREST);
  });

  it("travelApply: more rolls than one Apply makes is refused before rolling, even from a forged request", async () => {
    const { world } = await boot();
    await set(world, "travelPlayersApply", true);
    const base = await pairRequest(world);
    // 40 days, 12 h a day: 4 forced-march saves a day each for 2 members and Bram's water save: 9 × 40 = 360 saves;
    // with a daily lost check: 400. 60 days: 540 saves and Bram's 60 Survival checks (he navigates): 600 > 500.
    expect(
      await forgeRequest(world, "p1", "travelApply", {
        ...base,
        distance: null,
        duration: 60 * 86400,
        hoursPerDay: 12,
      }),
    ).toEqual({
      status: "done",
      ok: false,
      key: "AVENTURE.Travel.Error.TooManySaves",
      data: { count: 600, max: 500 },
    });
    expect(world.rollsMade).toEqual([]);
  });

  it("travelUndo: players are refused whatever they claim; bad ids name no journey; a replay is refused", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    const mark = world.writes.length;
    expect(await forgeRequest(world, "p1", "travelUndo", { messageId: card!.id, ...GM_CLAIMS })).toEqual({
      status: "done",
      ok: false,
      key: "AVENTURE.Error.GMOnly",
      data: {},
    });
    for (const bad of [
      { messageId: 42 },
      { messageId: "nope" },
      { messageId: "../x" },
      { messageId: ["x"] },
      {},
      null,
      "x",
    ]) {
      expect(await forgeRequest(world, "gm2", "travelUndo", bad)).toMatchObject({
        ok: false,
        key: "AVENTURE.Travel.Error.NoJourney",
      });
    }
    expect(gameWrites(world, mark)).toEqual([]);
    expect(await forgeRequest(world, "gm2", "travelUndo", { messageId: card!.id }, "replayedUndo0001")).toMatchObject({
      ok: true,
      result: { changedSince: [], missing: [] },
    });
    expect(await forgeRequest(world, "gm2", "travelUndo", { messageId: card!.id }, "replayedUndo0001")).toMatchObject({
      ok: false,
      key: "AVENTURE.Request.replayed",
    });
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    expect(world.worldTime).toBe(1000);
  });

  it("a player-authored card carrying a journey gets no Undo button, and an Undo naming it is refused; nothing is written", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    const [real] = journeyCards(world);
    // The player copies a real card (content with an Undo button, flags) and puts their own values in: an Undo would
    // put Dun at exhaustion 0 and rewind the clock by a year.
    const flag = structuredClone(journey(real!)) as {
      journal: { time: { before: number; after: number }; actors: { exhaustion: unknown }[] };
    };
    flag.journal.time = { before: 0, after: 365 * 86400 };
    flag.journal.actors[3]!.exhaustion = { before: 0, after: 5 };
    const content = real!.content.replace(
      "</footer>",
      '<button type="button" data-action="aventure-travel-undo">Undo</button></footer>',
    );
    const forged = await forgeCard(world, "p1", { travel: flag }, content);
    const v1 = await forgeCard(
      world,
      "p1",
      { travel: { journal: { advanced: 365 * 86400, actors: [] }, undone: false } },
      content,
    );
    for (const card of [forged, v1]) {
      expect(footer(world, card, "gm1").undo).toBeNull();
      expect(footer(world, card, "gm2").undo).toBeNull();
    }
    const mark = world.writes.length;
    for (const card of [forged, v1]) {
      expect(await forgeRequest(world, "gm2", "travelUndo", { messageId: card.id })).toMatchObject({
        ok: false,
        key: "AVENTURE.Travel.Error.NoJourney",
      });
    }
    expect(gameWrites(world, mark)).toEqual([]);
    expect(levels(party)).toEqual([0, 3, 3, 5]);
    expect(world.worldTime).toBe(AFTER_FOREST);
    // A GM's card with a malformed journal is not trusted either.
    const broken = (await world.as("gm1", () =>
      ChatMessage.implementation.create({
        content,
        flags: {
          aventure: {
            travel: {
              ...flag,
              v: 2,
              status: "applied",
              journal: { actors: [{ actorId: "dun", name: "Dun", exhaustion: { before: -3, after: 99 } }], time: null },
            },
          },
        },
      } as never),
    )) as unknown as FakeChatMessage;
    expect(footer(world, broken, "gm1").undo).toBeNull();
    expect(await forgeRequest(world, "gm2", "travelUndo", { messageId: broken.id })).toMatchObject({
      ok: false,
      key: "AVENTURE.Travel.Error.NoJourney",
    });
  });

  it("proposalDecide (travel): players are refused whatever they claim; a player's forged proposal is not decided; bad values; a replay", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    await world.as("p1", () => d.apply());
    await world.settle();
    const [proposal] = proposalCards(world);
    const mark = world.writes.length;
    expect(
      await forgeRequest(world, "p1", "proposalDecide", { messageId: proposal!.id, accept: true, ...GM_CLAIMS }),
    ).toEqual({ status: "done", ok: false, key: "AVENTURE.Error.GMOnly", data: {} });
    // A proposal card the player wrote, asking for a journey of Dun and a year's drift: no buttons, not decided.
    const stored = cardOf(proposal!, "proposal") as { data: { request: TravelRequest } };
    expect(proposal!.type).toBe("aventure.proposal");
    const forgedProposal = await forgeCard(
      world,
      "p1",
      {
        proposal: {
          ...stored,
          data: {
            request: { ...stored.data.request, members: [{ ...stored.data.request.members[0]!, actorId: "dun" }] },
            foreign: [],
          },
        },
      },
      proposal!.content,
    );
    // The same as the player's own message of the card's sub-type (any user may create one).
    const typedProposal = (await world.as("p1", () =>
      ChatMessage.implementation.create({
        content: proposal!.content,
        type: "aventure.proposal",
        system: cardOf(forgedProposal, "proposal"),
      } as never),
    )) as unknown as FakeChatMessage;
    expect((cardOf(typedProposal, "proposal") as { status: string }).status).toBe("pending");
    for (const forged of [forgedProposal, typedProposal]) {
      expect(world.renderMessage(forged, "gm1").querySelector("[data-action='aventure-proposal']")).toBeNull();
      expect(await forgeRequest(world, "gm2", "proposalDecide", { messageId: forged.id, accept: true })).toMatchObject({
        ok: false,
        key: "AVENTURE.Proposal.notPending",
      });
    }
    for (const bad of [{ messageId: 42, accept: true }, { messageId: "nope", accept: true }, {}, null]) {
      expect(await forgeRequest(world, "gm2", "proposalDecide", bad)).toMatchObject({
        ok: false,
        key: "AVENTURE.Proposal.notPending",
      });
    }
    expect(
      await forgeRequest(world, "gm2", "proposalDecide", { messageId: proposal!.id, accept: "yes" }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Error.Missing" });
    // Attack: the payload is read through its model, taken as sent: a decision Foundry would cast ("true", 1) or a
    // card id in a list is refused, not cast.
    for (const bad of [
      { messageId: proposal!.id, accept: "true" },
      { messageId: proposal!.id, accept: 1 },
    ])
      expect(await forgeRequest(world, "gm2", "proposalDecide", bad)).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.Missing",
        data: { name: "accept" },
      });
    expect(
      await forgeRequest(world, "gm2", "proposalDecide", { messageId: [proposal!.id], accept: true }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Proposal.notPending" });
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    // A GM decides once; the same request id again is refused as a replay.
    queuePairRolls(world);
    expect(
      await forgeRequest(world, "gm2", "proposalDecide", { messageId: proposal!.id, accept: true }, "replayedDecide01"),
    ).toMatchObject({ ok: true, result: { status: "applied" } });
    expect(
      await forgeRequest(world, "gm2", "proposalDecide", { messageId: proposal!.id, accept: true }, "replayedDecide01"),
    ).toMatchObject({ ok: false, key: "AVENTURE.Request.replayed" });
    expect(journeyCards(world)).toHaveLength(1);
    expect(levels(party)).toEqual([0, 1, 1, 0]);
  });

  it("a name put into a roll's flavor is escaped", async () => {
    const { world } = await boot();
    const rogue = addDnd5eActor(world, {
      id: "rogue",
      name: 'Bram <img src=x onerror="alert(1)">',
      abilities: { con: 10 },
      passive: 10,
    });
    const d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["rogue"] }));
    await world.as("gm1", () => d.change("hoursPerDay", "9")); // one forced-march save, DC 11 (§2.4)
    world.queueRolls(15);
    await world.as("gm1", () => d.apply());
    expect(rollCalls(rogue)[0]!.message.data!.flavor).toBe(
      "Bram &#60;img src=x onerror=&#34;alert(1)&#34;&#62;: forced march, day 1, hour 9 (Constitution save DC 11)",
    );
  });
});

/** The journey of Aria and Bram as p1's own (before → after): Bram's exhaustion 0 → 1, both counters set. */
const PAIR_BEFORE = { levels: [0, 0], aria: {}, bram: {}, time: 1000 };
const PAIR_AFTER = {
  levels: [0, 1],
  aria: { fastingDays: 0, thirstDays: 0 },
  bram: { fastingDays: 1.5, thirstDays: 0 },
  time: AFTER_FOREST,
};
function pairState(world: FakeWorld, party: Record<Hero, FakeActor>) {
  return {
    levels: levels(party, ["aria", "bram"]),
    aria: counters(party.aria),
    bram: counters(party.bram),
    time: world.worldTime,
  };
}
const leftovers = (world: FakeWorld) =>
  world.messages.filter((m) => {
    const f = m.flags.aventure as { request?: unknown; receipt?: unknown } | undefined;
    return f?.request !== undefined || f?.receipt !== undefined;
  });
const RESUMED = "Interrupted by a reload, then finished by the GM's client.";

describe("Travel: exactly once across a crash at any write (recovery on ready)", () => {
  /**
   * p1 applies their own characters' journey (setting on); the active GM's client crashes just before its k-th
   * write. gm2 takes over as active GM, then gm1 reloads. Whatever k: either nothing happened and the player was
   * told, or the journey is applied exactly once, its card says applied (and that it was finished after a stop).
   */
  async function applyCrash(k: number) {
    const { world, party } = await boot();
    await set(world, "travelPlayersApply", true);
    const request = await pairRequest(world);
    queuePairRolls(world, 2);
    const mark = world.writes.length;
    world.crashAt(k, (w) => w.user === "gm1");
    expectJourneyCrashLogs(k, { firstUndoable: 4, lastApplyWrite: 8 });
    const result = await world.as("p1", () => api(world, "p1").applyTravel(request));
    await world.settle({ allowErrors: true });
    if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
    await world.settle();
    return { world, party, result, mark };
  }

  it("the executor is loaded when first needed: by the active GM's first Apply, and by the GM who reloads to finish a journey left applying", async () => {
    // As in a browser, nothing loaded on demand is loaded before it is needed. The GM connects last: in this fake
    // world an on-demand import binds to the module instance of the client that connected last (test/world/world.ts).
    const { world, party } = await boot({ users: [PLAYER, GM], onDemand: "when used" });
    await set(world, "travelPlayersApply", true);
    const request = await pairRequest(world);
    queuePairRolls(world, 2);
    const mark = world.writes.length;
    // gm1 stops after posting the card "applying" and before marking it applied: its new page finishes the journey.
    world.crashAt(5, (w) => w.user === "gm1");
    expectJourneyCrashLogs(5, { firstUndoable: 4, lastApplyWrite: 8 });
    void world.as("p1", () => api(world, "p1").applyTravel(request)); // p1 waits: no GM answers
    // world.settle() does not wait for a file being loaded (real I/O): settle until the step the test waits for.
    const settleUntil = async (done: () => boolean) => {
      for (let i = 0; i < 500 && !done(); i++) {
        await new Promise((r) => setTimeout(r, 10));
        await world.settle({ allowErrors: true });
      }
      await world.settle({ allowErrors: true });
    };
    await settleUntil(() => !world.clients.get("gm1")?.alive);
    expect(world.clients.get("gm1")?.alive).toBeFalsy(); // stopped
    expect(journey(journeyCards(world)[0]!).status).toBe("applying");
    await world.reload("gm1");
    await settleUntil(() => journey(journeyCards(world)[0]!).status !== "applying");
    const cards = journeyCards(world);
    expect(cards).toHaveLength(1);
    expect(journey(cards[0]!)).toMatchObject({ status: "applied", resumed: true, problems: [] });
    expect(pairState(world, party)).toEqual(PAIR_AFTER);
    expect(exhaustionWrites(world, "bram", mark)).toHaveLength(1);
    expect(leftovers(world)).toEqual([]);
  });

  it("counts the active GM's writes of a player's journey (so the loop below covers every crash point)", async () => {
    const { world } = await boot();
    await set(world, "travelPlayersApply", true);
    const request = await pairRequest(world);
    queuePairRolls(world);
    const mark = world.writes.length;
    await world.as("p1", () => api(world, "p1").applyTravel(request));
    await world.settle();
    // receipt (working), card (applying), Aria's two counters, Bram's exhaustion and two counters, world time, card
    // (applied), receipt (reply), delete the request, delete the receipt
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage",
      "create ChatMessage",
      "update Actor",
      "update Actor",
      "update Actor",
      "update Actor",
      "update Actor",
      "time Setting",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (let k = 1; k <= 12; k++) {
    it(`Apply: crash before the active GM's write ${k}: applied once or reported, never twice`, async () => {
      const { world, party, result, mark } = await applyCrash(k);
      const cards = journeyCards(world);
      expect(cards.length).toBeLessThanOrEqual(1);
      if (cards.length === 0) {
        expect(pairState(world, party)).toEqual(PAIR_BEFORE);
        expect(result).toMatchObject({ ok: false, key: "AVENTURE.Request.interrupted" });
        expect(notes(world, "p1", "error")).toEqual([
          world.as("p1", () => game.i18n.localize("AVENTURE.Request.interrupted")),
        ]);
      } else {
        expect(pairState(world, party)).toEqual(PAIR_AFTER);
        expect(exhaustionWrites(world, "bram", mark)).toHaveLength(1);
        expect(world.writesSince(mark).filter((w) => w.action === "time")).toHaveLength(1);
        expect(journey(cards[0]!)).toMatchObject({ status: "applied", problems: [] });
        // Finished by the recovery when the stop fell between the card and its "applied" mark: the card says so.
        expect(journey(cards[0]!).resumed).toBe(k >= 3 && k <= 9);
        if (k >= 3 && k <= 9) expect(footer(world, cards[0]!, "gm1").text).toContain(RESUMED);
        if (!result.ok) expect(result.key).toBe("AVENTURE.Request.interrupted");
      }
      expect(leftovers(world)).toEqual([]);
    });
  }

  /** gm1 applied the journey; gm2 clicks Undo and the active GM (gm1) crashes just before its k-th write. */
  async function undoCrash(k: number) {
    const { world, party } = await boot();
    const d = await forestDialog(world, "gm1", ["aria", "bram"]);
    queuePairRolls(world);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    const mark = world.writes.length;
    world.crashAt(k, (w) => w.user === "gm1");
    expectUndoCrashLogs(k, 8);
    world.click("gm2", footer(world, card!, "gm2").undo);
    await world.settle({ allowErrors: true });
    if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
    await world.settle();
    return { world, party, card: card!, mark };
  }

  it("counts the active GM's writes of an Undo asked by the other GM", async () => {
    const { world } = await boot();
    const d = await forestDialog(world, "gm1", ["aria", "bram"]);
    queuePairRolls(world);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    const mark = world.writes.length;
    world.click("gm2", footer(world, card!, "gm2").undo);
    await world.settle();
    // receipt, card (undoing, with the world time to come back to), five values, world time, card (undone), receipt
    // (reply), delete the request, delete the receipt
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage",
      "update ChatMessage",
      "update Actor",
      "update Actor",
      "update Actor",
      "update Actor",
      "update Actor",
      "time Setting",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (let k = 1; k <= 12; k++) {
    it(`Undo: crash before the active GM's write ${k}: undone once or still applied and offered, never rewound twice`, async () => {
      const { world, party, card, mark } = await undoCrash(k);
      const status = journey(card).status;
      expect(world.writesSince(mark).filter((w) => w.action === "time").length).toBeLessThanOrEqual(1);
      expect(exhaustionWrites(world, "bram", mark).length).toBeLessThanOrEqual(1);
      if (status === "applied") {
        // Stopped before the card said "undoing": nothing was undone, the GM was told, and Undo is still offered.
        expect(k).toBeLessThanOrEqual(2);
        expect(pairState(world, party)).toEqual(PAIR_AFTER);
        expect(notes(world, "gm2", "error")).toEqual([
          world.as("gm2", () => game.i18n.localize("AVENTURE.Request.interrupted")),
        ]);
        world.click("gm2", footer(world, card, "gm2").undo);
        await world.settle();
      } else {
        expect(status).toBe("undone");
        expect(journey(card).resumed).toBe(k >= 3 && k <= 9);
        if (k >= 3 && k <= 9) expect(footer(world, card, "p1").text).toContain(RESUMED);
      }
      expect(journey(card)).toMatchObject({ status: "undone", undoTime: { from: AFTER_FOREST, to: 1000 } });
      expect(pairState(world, party)).toEqual(PAIR_BEFORE);
      expect(world.writesSince(mark).filter((w) => w.action === "time")).toHaveLength(1);
      expect(leftovers(world)).toEqual([]);
    });
  }

  it("the world time comes back to the value recorded when Undo started, after a reload before or after its write", async () => {
    for (const k of [7, 8]) {
      // One GM: nobody recovers until gm1 reloads. Time went on by 10 minutes after the journey (another scene).
      const { world, party } = await boot({ users: [GM, PLAYER] });
      const d = await forestDialog(world, "gm1", ["aria", "bram"]);
      queuePairRolls(world);
      await world.as("gm1", () => d.apply());
      await world.as("gm1", () => game.time.advance(600));
      const [card] = journeyCards(world);
      // Undo on gm1: card (undoing) 1, five values 2–6, world time 7, card (undone) 8.
      world.crashAt(k, (w) => w.user === "gm1");
      // gm1's own Undo: before the time (7), the Undo fails and cannot re-apply; before the card (8), it fails.
      if (k === 7) expectCrashLog("travel undo failed");
      if (k === 7) expectCrashLog("travel undo: could not re-apply");
      if (k === 8) expectCrashLog("request failed");
      world.click("gm1", footer(world, card!, "gm1").undo);
      await world.settle({ allowErrors: true });
      expect(world.clients.get("gm1")?.alive ?? false).toBe(false);
      expect(journey(card!)).toMatchObject({ status: "undoing", undoTime: { from: AFTER_FOREST + 600, to: 1600 } });
      expect(world.worldTime).toBe(k === 7 ? AFTER_FOREST + 600 : 1600);
      await world.reload("gm1");
      await world.settle();
      // 1000 + 600: the journey's 2 d 10 h are taken back once, the 10 minutes after it are kept.
      expect(world.worldTime, `k=${k}`).toBe(1600);
      expect(journey(card!)).toMatchObject({ status: "undone", resumed: true });
      expect(levels(party, ["aria", "bram"])).toEqual([0, 0]);
      expect(footer(world, card!, "gm1").text).toEqual([
        "Undone: the values from before the journey were put back.",
        RESUMED,
      ]);
      expect(await forgeRequest(world, "gm1", "travelUndo", { messageId: card!.id })).toMatchObject({
        ok: false,
        key: "AVENTURE.Travel.Error.AlreadyUndone",
      });
      expect(world.worldTime).toBe(1600);
    }
  });

  it("counts the active GM's writes of a GM's decision on a travel proposal", async () => {
    const { world } = await boot();
    const d = await forestDialog(world, "p1", ["aria", "bram"]);
    await world.as("p1", () => d.apply());
    await world.settle();
    const [proposal] = proposalCards(world);
    queuePairRolls(world);
    const mark = world.writes.length;
    world.click(
      "gm2",
      world.renderMessage(proposal!, "gm2").querySelector("[data-action='aventure-proposal'][data-accept='true']"),
    );
    await world.settle();
    // receipt, proposal (the decision claimed), proposal (applying), journey card (applying), five values, world time,
    // journey card (applied), proposal (applied), the proposer's answer, receipt (reply), delete the request, delete
    // the receipt
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage",
      "update ChatMessage",
      "update ChatMessage",
      "create ChatMessage",
      ...Array<string>(5).fill("update Actor"),
      "time Setting",
      "update ChatMessage",
      "update ChatMessage",
      "create ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  it("a proposal applied by a GM: a crash at any write of the decision applies the journey once or reports it", async () => {
    const seen = new Set<string>();
    // Over the crashes at every write: the request, the decision and the journey each fail, and are logged.
    for (const what of [
      "could not answer a request",
      "request failed",
      "proposal failed",
      "travel apply failed",
      "travel rollback failed",
      "could not mark the journey card failed",
    ])
      expectCrashLog(what);
    for (let k = 1; k <= 16; k++) {
      const { world, party } = await boot();
      const d = await forestDialog(world, "p1", ["aria", "bram"]);
      await world.as("p1", () => d.apply());
      await world.settle();
      const [proposal] = proposalCards(world);
      queuePairRolls(world, 2);
      const mark = world.writes.length;
      world.crashAt(k, (w) => w.user === "gm1");
      world.click(
        "gm2",
        world.renderMessage(proposal!, "gm2").querySelector("[data-action='aventure-proposal'][data-accept='true']"),
      );
      await world.settle({ allowErrors: true });
      if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
      await world.settle();
      const status = (cardOf(proposal!, "proposal") as { status: string }).status;
      const cards = journeyCards(world);
      expect(cards.length, `k=${k}`).toBeLessThanOrEqual(1);
      expect(exhaustionWrites(world, "bram", mark).length, `k=${k}`).toBeLessThanOrEqual(1);
      if (cards.length) {
        expect(journey(cards[0]!), `k=${k}`).toMatchObject({ status: "applied" });
        expect(pairState(world, party), `k=${k}`).toEqual(PAIR_AFTER);
        expect(["applied", "interrupted"], `k=${k}`).toContain(status);
      } else {
        // Nothing applied: the proposal still waits for a decision, or says it was interrupted.
        expect(pairState(world, party), `k=${k}`).toEqual(PAIR_BEFORE);
        expect(["pending", "interrupted"], `k=${k}`).toContain(status);
      }
      expect(leftovers(world), `k=${k}`).toEqual([]);
      seen.add(`${cards.length}:${status}`);
    }
    // Every outcome happened somewhere in the loop: still pending, interrupted with nothing applied, applied and
    // interrupted (the journey card says what was done), applied.
    expect([...seen].sort()).toEqual(["0:interrupted", "0:pending", "1:applied", "1:interrupted"]);
  });
});

describe("Travel: a write the server refuses", () => {
  it("during Apply: what was written is put back, the card says so, the GM is told (each write in turn)", async () => {
    // A GM's own journey: card 1, Aria's counters 2–3, Bram's exhaustion and counters 4–6, world time 7, card 8.
    for (let k = 2; k <= 7; k++) {
      const { world, party } = await boot();
      const d = await forestDialog(world, "gm1", ["aria", "bram"]);
      queuePairRolls(world);
      world.failWrite(k, (w) => w.user === "gm1");
      expectRefusalLog(
        "travel apply failed",
        k <= 3 ? "update of Actor aria" : k <= 6 ? "update of Actor bram" : "time of Setting core.time",
      );
      const result = await world.as("gm1", () => d.apply());
      await world.settle();
      expect(result, `k=${k}`).toMatchObject({ ok: false, key: "AVENTURE.Travel.Error.RolledBack" });
      expect(pairState(world, party), `k=${k}`).toEqual(PAIR_BEFORE);
      const [card] = journeyCards(world);
      expect(journey(card!), `k=${k}`).toMatchObject({
        status: "failed",
        rolledBack: true,
        error: { key: "AVENTURE.Travel.Error.RolledBack" },
      });
      const shown = footer(world, card!, "gm2");
      expect(shown.text[0]).toMatch(
        /^The journey could not be applied \(Fake server: .* was refused \(injected failure\)\): everything already written was put back\.$/,
      );
      expect(shown.undo).toBeNull();
      expect(notes(world, "gm1", "error")).toEqual([shown.text[0]]);
      expect(d.rendered).toBe(true); // the dialog stays open
      expect(await forgeRequest(world, "gm2", "travelUndo", { messageId: card!.id })).toMatchObject({
        ok: false,
        key: "AVENTURE.Travel.Error.NotApplied",
      });
    }
  });

  it("when the card cannot be posted, nothing is written", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "gm1", ["aria", "bram"]);
    queuePairRolls(world);
    const mark = world.writes.length;
    world.failWrite(1, (w) => w.user === "gm1");
    expectRefusalLog("request failed", "create of ChatMessage chat000000000001");
    const result = await world.as("gm1", () => d.apply());
    expect(result).toMatchObject({ ok: false });
    expect(journeyCards(world)).toEqual([]);
    expect(world.writesSince(mark)).toEqual([]);
    expect(pairState(world, party)).toEqual(PAIR_BEFORE);
  });

  it("when the card cannot be marked applied: the journey stands, the card says 'being applied' until the recovery marks it", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world, "gm1", ["aria", "bram"]);
    queuePairRolls(world);
    world.failWrite(8, (w) => w.user === "gm1");
    expectRefusalLog("request failed", "update of ChatMessage chat000000000001");
    expect(await world.as("gm1", () => d.apply())).toMatchObject({ ok: false });
    const [card] = journeyCards(world);
    expect(pairState(world, party)).toEqual(PAIR_AFTER);
    expect(footer(world, card!, "gm1").text).toEqual(["Being applied…"]);
    await world.reload("gm1");
    await world.settle();
    expect(journey(card!)).toMatchObject({ status: "applied", resumed: true });
    expect(pairState(world, party)).toEqual(PAIR_AFTER);
    expect(exhaustionWrites(world, "bram")).toHaveLength(1);
  });

  it("during Undo: what Undo restored is applied again and the journey stays applied (each write in turn)", async () => {
    // Undo on gm1: card (undoing) 1, five values 2–6, world time 7, card (undone) 8.
    for (let k = 2; k <= 7; k++) {
      const { world, party } = await boot();
      const d = await forestDialog(world, "gm1", ["aria", "bram"]);
      queuePairRolls(world);
      await world.as("gm1", () => d.apply());
      const [card] = journeyCards(world);
      world.failWrite(k, (w) => w.user === "gm1");
      expectRefusalLog(
        "travel undo failed",
        k <= 3 ? "update of Actor aria" : k <= 6 ? "update of Actor bram" : "time of Setting core.time",
      );
      world.click("gm1", footer(world, card!, "gm1").undo);
      await world.settle();
      expect(pairState(world, party), `k=${k}`).toEqual(PAIR_AFTER);
      expect(journey(card!), `k=${k}`).toMatchObject({ status: "applied", undoTime: null });
      expect(notes(world, "gm1", "error")[0]).toMatch(/^Undo failed \(.*\): the journey is still applied\.$/);
      world.click("gm1", footer(world, card!, "gm1").undo); // and a later Undo works
      await world.settle();
      expect(pairState(world, party), `k=${k}`).toEqual(PAIR_BEFORE);
    }
  });
});

describe("Travel: bad input in the dialog changes nothing", () => {
  it("reports the field in the user's language and disables Apply", async () => {
    const { world } = await boot();
    const d = await forestDialog(world);
    const change = (n: string, v: string) => world.as("gm1", () => d.change(n, v));
    await change("amount", "beaucoup");
    const ctx = d.lastContext as { errors: { amount: string }; canApply: boolean; summary: unknown };
    expect(ctx.errors.amount).toBe("Expected a number for Distance or duration (got beaucoup).");
    expect(ctx.canApply).toBe(false);
    expect(ctx.summary).toBeNull();
    expect(d.element!.querySelector<HTMLButtonElement>('[data-action="apply"]')!.disabled).toBe(true);
    expect(d.lastHTML).toContain('aria-invalid="true"');
    expect(d.request).toBeNull();
    expect(await world.as("gm1", () => d.apply())).toBeNull();
    await change("amount", "-3");
    expect((d.lastContext as { errors: { amount: string } }).errors.amount).toBe(
      "A negative value is not allowed for Distance or duration (got -3).",
    );
    await change("amount", "0");
    expect((d.lastContext as { errors: { amount: string } }).errors.amount).toBe(
      "Distance or duration must be more than 0 (got 0).",
    );
    await change("amount", "3000");
    await change("unit", "days");
    expect((d.lastContext as { errors: { amount: string } }).errors.amount).toBe(
      "Expected a value between 0 and 1000 for number of days (got 3000).",
    );
    await change("amount", "2");
    await change("mode", "boat");
    await change("speed", "0");
    expect((d.lastContext as { errors: { speed: string } }).errors.speed).toBe(
      "Speed (km/h) must be more than 0 (got 0).",
    );
    expect(world.rollsMade).toEqual([]);
    expect(world.writes.filter((w) => w.id !== "aventure.searchingMarksMigrated")).toEqual([]); // the one-time mark of the active GM's ready
    expect(world.worldTime).toBe(1000);
  });

  it("asks for a CON modifier the sheet does not give, on that member's field", async () => {
    const { world } = await boot();
    world.addUserActor({
      _id: "npc",
      name: "Mule",
      type: "npc",
      system: { skills: { prc: { passive: 9 } }, attributes: { exhaustion: 0 } },
    });
    const d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["aria", "npc"] }));
    await world.settle();
    let ctx = d.lastContext as { members: { conModError: string }[]; canApply: boolean };
    expect(ctx.members[1]!.conModError).toBe("Expected a number for Constitution modifier (got —).");
    expect(ctx.canApply).toBe(false);
    await world.as("gm1", () => d.change("members.1.conModInput", "1.5"));
    ctx = d.lastContext as typeof ctx;
    expect(ctx.members[1]!.conModError).toBe("Expected a whole number for Constitution modifier (got 1.5).");
    await world.as("gm1", () => d.change("members.1.conModInput", "1"));
    ctx = d.lastContext as typeof ctx;
    expect(ctx.canApply).toBe(true);
  });
});

describe("Travel: the daily lost check (pmt, RULES.md §2.7)", () => {
  it("rolls 1d100 at the start of each day on Apply and reports it on the card: lost on the chance or less", async () => {
    const { world } = await boot();
    await set(world, "ruleset", "pmt");
    await set(world, "borrowTravel", "rnp"); // pmt has only the lost check: the journey is borrowed (docs/rules.md §0)
    const d = await forestDialog(world, "gm2");
    await world.as("gm2", () => d.change("lostChance", "30"));
    expect((d.lastContext as { summary: { warnings: string[] } }).summary.warnings).toContain(
      "Apply rolls 1d100 at the start of each day: the group gets lost on 30 or less (shown in the journey's chat message).",
    );
    queueForestRolls(world);
    world.queueRolls(50, 30, 31); // days 1, 2, 3 (rolled after the saves): 30 ≤ 30 is lost, 31 is not
    const result = await world.as("gm2", () => d.apply()); // sent by the second GM, rolled once on the first
    await world.settle();
    expect(result).toMatchObject({ ok: true });
    expect(world.rollQueue).toHaveLength(0);
    expect(world.rollsMade.filter((r) => (r as { formula: string }).formula === "1d100")).toHaveLength(3);
    expect(world.messages.contents).toHaveLength(1);
    const [card] = journeyCards(world);
    expect(card!.rolls).toHaveLength(33);
    expect(journey(card!)).toMatchObject({
      lost: [
        { day: 1, chance: 30, roll: 50, lost: false },
        { day: 2, chance: 30, roll: 30, lost: true },
        { day: 3, chance: 30, roll: 31, lost: false },
      ],
    });
    // The d100 and the navigator's Wisdom (Survival) checks are two rules: two lists, each under its own heading.
    const html = world.renderMessage(card!, "gm1");
    const list = (cls: string) => [...html.querySelectorAll(`.${cls} li`)].map((li) => li.textContent);
    expect(html.querySelector(".aventure-travel-card-lost h4")!.textContent).toBe(
      "Getting lost (1d100, lost on 30 or less)",
    );
    expect(list("aventure-travel-card-lost")).toEqual([
      "Day 1 · 1d100: 50, on course",
      "Day 2 · 1d100: 30, the group goes astray",
      "Day 3 · 1d100: 31, on course",
    ]);
    expect(html.querySelector(".aventure-travel-card-navigation h4")!.textContent).toBe("Finding the way");
    expect(list("aventure-travel-card-navigation")[0]).toBe("Day 1 · Bram finds the way (20 vs DC 10)");
    expect(html.querySelector(".aventure-travel-card-lost li.aventure-failure")!.textContent).toBe(
      "Day 2 · 1d100: 30, the group goes astray",
    );
    // What went wrong reads at a glance, above the folded details.
    expect([...html.querySelectorAll(".aventure-travel-card-alert")].map((p) => p.textContent)).toContain(
      "Day 2: the group goes astray (1d100: 30).",
    );
    expect(html.querySelector(".aventure-travel-card-journey")!.tagName).toBe("DETAILS");
  });

  it("rolls no 1d100 with a chance of 0 (the default)", async () => {
    const { world } = await boot();
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    expect(world.rollsMade.filter((r) => (r as { formula: string }).formula === "1d100")).toHaveLength(0);
    expect(journey(journeyCards(world)[0]!)).toMatchObject({ lost: [] });
  });

  it("says it in French", async () => {
    const { world } = await boot({ lang: "fr" });
    const d = await forestDialog(world);
    await world.as("gm1", () => d.change("lostChance", "25"));
    queueForestRolls(world);
    world.queueRolls(7, 99, 26);
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    expect(card!.content).toContain("Se perdre (1d100, perdu sur 25 ou moins)");
    expect(card!.content).toContain("<strong>Jour 1</strong> · 1d100\u00a0: 7, le groupe s’égare");
    expect(card!.content).toContain("<strong>Jour 3</strong> · 1d100\u00a0: 26, bonne route");
  });
});

describe("Travel: older dnd5e and systems without a built-in adapter", () => {
  it("dnd5e before 4.1 (rollAbilitySave): asks for no chat message of its own and shows the roll on the card", async () => {
    const { world } = await boot();
    const olaf = addDnd5eActor(world, { id: "old", name: "Olaf", abilities: { con: 14 }, passive: 10 });
    const seen: unknown[] = [];
    // dnd5e < 4.1: rollAbilitySave(abilityId, options) with d20Roll's `chatMessage` option.
    const legacy = olaf as unknown as Record<string, unknown>;
    delete legacy.rollSavingThrow;
    legacy.rollAbilitySave = async (ability: string, options: { chatMessage?: boolean; targetValue?: number }) => {
      seen.push([ability, options.targetValue, options.chatMessage]);
      const roll = new Roll("1d20 + 2");
      await roll.evaluate();
      if (options.chatMessage !== false)
        await (roll as unknown as { toMessage(d: object): Promise<unknown> }).toMessage({});
      return roll;
    };
    const d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["old"] }));
    await world.as("gm1", () => d.change("hoursPerDay", "9"));
    world.queueRolls(8); // 8 + 2 = 10 < DC 11: one level
    expect(await world.as("gm1", () => d.apply())).toMatchObject({ ok: true });
    expect(seen).toEqual([["con", 11, false]]);
    expect(world.messages.contents).toHaveLength(1);
    expect(journeyCards(world)[0]!.rolls).toHaveLength(1);
    expect(exhaustion(olaf)).toBe(1);
  });

  it("rolls the Survival checks with Foundry dice through the generic adapter's Wisdom (Survival) data path", async () => {
    const world = await bootWorld({ system: "worldbuilding", users: [GM] });
    const { EMPTY_PATHS } = await import("../../src/core/core-settings.js");
    await set(world, "actorData", {
      ...EMPTY_PATHS,
      conMod: "system.con",
      passivePerception: "system.pp",
      survival: "system.survival",
    });
    world.addUserActor({ _id: "kai", name: "Kai", system: { con: 1, pp: 13, survival: 4 } });
    const d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["kai"] }));
    await world.as("gm1", () => d.change("members.0.activity", "track"));
    await world.as("gm1", () => d.change("survivalDC", "12"));
    world.queueRolls(7); // 7 + 4 = 11 < DC 12: the trail is lost
    expect(await world.as("gm1", () => d.apply())).toMatchObject({ ok: true });
    expect(world.rollsMade.map((r) => [(r as { formula: string }).formula, (r as { total: number }).total])).toEqual([
      ["1d20 + 4", 11],
    ]);
    const [card] = journeyCards(world);
    expect(journey(card!).survival).toEqual([
      { memberId: "kai", day: 1, activity: "track", total: 11, dc: 12, success: false, natural: 7 },
    ]);
    expect(card!.content).toContain("Track: Wisdom (Survival) DC 12: 11");
  });

  it("rolls the saves with Foundry dice through the generic adapter and leaves exhaustion it cannot change to the GM", async () => {
    const world = await bootWorld({ system: "worldbuilding", users: [GM] });
    const { EMPTY_PATHS } = await import("../../src/core/core-settings.js");
    await set(world, "actorData", { ...EMPTY_PATHS, conMod: "system.con", passivePerception: "system.pp" });
    world.addUserActor({ _id: "kai", name: "Kai", system: { con: 1, pp: 13 } });
    const d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["kai"] }));
    await world.as("gm1", () => d.change("hoursPerDay", "9")); // one forced-march save, DC 11 (§2.4)
    world.queueRolls(5); // 5 + 1 = 6: failure
    expect(await world.as("gm1", () => d.apply())).toMatchObject({ ok: true });
    expect(world.rollsMade.map((r) => [(r as { formula: string }).formula, (r as { total: number }).total])).toEqual([
      ["1d20 + 1", 6],
    ]);
    const [card] = journeyCards(world);
    expect(card!.content).toContain("Apply 1 level of exhaustion by hand");
    expect(journey(card!)).toMatchObject({ journal: { actors: [{ actorId: "kai", exhaustion: null }] } });
    // No message of the save's own: the one card carries the roll.
    expect(world.messages.contents).toHaveLength(1);
    expect(card!.rolls).toHaveLength(1);
    expect(card!.content).toContain('data-tooltip="d20: 5"');
  });
});

describe("Travel: settings, API and HUD", () => {
  it("does not move the world clock when 'Apply advances world time' is off (and Undo leaves it alone)", async () => {
    const { world } = await boot();
    await set(world, "travelAdvanceTime", false);
    const d = await forestDialog(world);
    queueForestRolls(world);
    await world.as("gm1", () => d.apply());
    expect(world.worldTime).toBe(1000);
    const [card] = journeyCards(world);
    expect(card!.content).toContain("World time was not changed.");
    expect(journey(card!)).toMatchObject({ journal: { time: null } });
    await world.as("gm1", () => game.time.advance(60));
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(world.worldTime).toBe(1060);
  });

  it("a preTravel handler returning false cancels the journey before any roll: no card, nothing changed", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    listen(world, "aventure.preTravel", () => false);
    const mark = world.writes.length;
    await world.as("gm1", () => d.apply());
    await world.settle();
    expect(journeyCards(world)).toEqual([]);
    expect(saveCount(party)).toBe(0);
    expect(world.writesSince(mark)).toEqual([]);
  });

  it("without food and water tracking: no water saves, no hunger, no counters", async () => {
    const { world, party } = await boot();
    await set(world, "travelTrackFood", false);
    const d = await forestDialog(world);
    world.queueRolls(...Array<number>(24).fill(20), 20, 20, 20); // 24 forced-march saves, then Bram's Survival (navigating), once a day
    await world.as("gm1", () => d.apply());
    const [card] = journeyCards(world);
    expect(journey(card!).status).toBe("applied");
    expect(saveCount(party)).toBe(24); // forced march only
    expect(levels(party)).toEqual([0, 0, 1, 0]);
    expect(counters(party.bram)).toEqual({});
    expect(counters(party.cyl)).toEqual({ fastingDays: 1 });
  });

  it("'Players may apply journeys of their own characters' is a world setting, off by default, named in both languages", async () => {
    const { world } = await boot();
    const def = world.clientOf("p1").settingDefs.get("aventure.travelPlayersApply")!;
    expect(def).toMatchObject({ scope: "world", config: true, default: false });
    expect(def.type).toBeInstanceOf(world.as("p1", () => foundry.data.fields.BooleanField));
    expect(world.as("p1", () => game.i18n.localize(def.name!))).toBe(
      "Travel: players may apply journeys of their own characters",
    );
    const fr = await boot({ lang: "fr" });
    expect(fr.world.as("gm1", () => game.i18n.localize(def.name!))).toBe(
      "Voyage\u00a0: les joueurs peuvent appliquer les voyages de leurs propres personnages",
    );
    await expect(
      world.as("p1", () => game.settings.set("aventure" as never, "travelPlayersApply" as never, true as never)),
    ).rejects.toThrow(/lacks permission/);
  });

  it("prefills the hours per day from the setting, adds and removes members", async () => {
    const { world } = await boot();
    await set(world, "travelHoursPerDay", 10);
    const d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["aria"] }));
    expect(d.formState.hoursPerDay).toBe("10");
    await world.as("gm1", () => d.addActor("dun"));
    expect(d.formState.members.map((m) => m.actorId)).toEqual(["aria", "dun"]);
    await world.as("gm1", () => d.removeActor("aria"));
    expect(d.formState.members.map((m) => m.actorId)).toEqual(["dun"]);
    await world.as("gm1", () => d.removeActor("dun"));
    expect((d.lastContext as { errors: { members: string } }).errors.members).toBe(
      "The party is empty: add at least one character.",
    );
  });

  it("refuses a journey with more saves than one Apply rolls, before rolling anything", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    const change = (n: string, v: string) => world.as("gm1", () => d.change(n, v));
    await change("amount", "40");
    await change("unit", "days");
    await change("hoursPerDay", "12"); // 4 forced-march saves a day × 4 members × 40 days = 640, + 40 water saves, + 40 Survival checks
    const result = await world.as("gm1", () => d.apply());
    expect(result).toEqual({ ok: false, key: "AVENTURE.Travel.Error.TooManySaves", data: { count: 720, max: 500 } });
    expect(notes(world, "gm1")).toEqual([
      "This journey would make 720 rolls, saves and checks (at most 500 at once): split it into shorter journeys.",
    ]);
    expect(saveCount(party)).toBe(0);
    expect(world.worldTime).toBe(1000);
  });

  it("counts the daily lost checks in the same limit (they are attached to the card too)", async () => {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    const change = (n: string, v: string) => world.as("gm1", () => d.change(n, v));
    await change("amount", "29");
    await change("unit", "days");
    await change("hoursPerDay", "12"); // 16 forced-march saves + Bram's water save = 17 a day: 493 saves in 29 days
    expect((d.lastContext as { summary: { saveCount: number } }).summary.saveCount).toBe(493);
    await change("lostChance", "10"); // + 29 lost checks + Bram's 29 Survival checks = 551 rolls
    expect(await world.as("gm1", () => d.apply())).toEqual({
      ok: false,
      key: "AVENTURE.Travel.Error.TooManySaves",
      data: { count: 551, max: 500 },
    });
    expect(world.rollsMade).toEqual([]);
    expect(saveCount(party)).toBe(0);
  });

  it("api.openTravel() (the compendium macro) takes the selected tokens, else the players' characters on the scene", async () => {
    const { world, party } = await boot();
    const scene = world.addScene({ _id: "s1" });
    for (const [i, id] of IDS.entries())
      world.addToken(scene, { _id: `t${id}`, name: party[id].name, actorId: id, actorLink: true, x: i * 100 });
    addDnd5eActor(world, { id: "wolf", name: "Wolf", type: "npc" });
    world.addToken(scene, { _id: "twolf", name: "Wolf", actorId: "wolf", actorLink: true, x: 500 });
    const gm = world.clientOf("gm1");
    viewScene(world, gm, scene);
    control(gm, "tcyl", "twolf");
    expect(
      await world.as("gm1", async () => (await api(world).openTravel()).formState.members.map((m) => m.actorId)),
    ).toEqual(["cyl", "wolf"]);
    control(gm);
    // Aria and Bram belong to player p1; Cyl and Dun to nobody but the GM; the wolf is no character.
    expect(
      await world.as("gm1", async () => (await api(world).openTravel()).formState.members.map((m) => m.actorId)),
    ).toEqual(["aria", "bram"]);
  });

  it("the GM's token HUD button opens the dialog for the token and the selection; players have none", async () => {
    const { world } = await boot();
    const scene = world.addScene({ _id: "s1" });
    const token = world.addToken(scene, { _id: "tdun", name: "Dun", actorId: "dun", actorLink: true });
    world.addToken(scene, { _id: "taria", name: "Aria", actorId: "aria", actorLink: true, x: 100 });
    for (const c of world.liveClients()) viewScene(world, c, scene);
    control(world.clientOf("gm1"), "taria");
    const before = world.window.document.querySelectorAll(".aventure-travel").length;
    world.click("gm1", world.renderTokenHUD(token, "gm1").querySelector("[data-action='aventure-travel']"));
    await world.settle();
    const windows = world.window.document.querySelectorAll(".aventure-travel");
    expect(windows.length).toBe(before + 1);
    expect(
      [...windows.item(windows.length - 1)!.querySelectorAll("tr[data-actor-id]")].map((tr) =>
        tr.getAttribute("data-actor-id"),
      ),
    ).toEqual(["dun", "aria"]);
    const aria = world.scenes.get("s1")!.tokens.get("taria")!;
    expect(world.renderTokenHUD(aria, "p1").querySelector("[data-action='aventure-travel']")).toBeNull();
  });

  it("registers the requests, not queries", async () => {
    const { world } = await boot();
    const queries = world.as("gm1", () => Object.keys(CONFIG.queries as object));
    expect(queries.filter((q) => q.startsWith("aventure.travel"))).toEqual([]);
    expect(world.clientOf("gm1").hooks.registered()).toContain("renderChatMessageHTML");
  });
});

/**
 * Issue 12 item 4 ("numbers that agree between dialog, summary and card"): for the same journey the dialog's summary,
 * the card and the levels written on the actors give the same exhaustion, hunger and thirst figures. The summary
 * forecasts before the dice (a range from "every save succeeds" to "every save fails"); the card and the actors say
 * what happened, inside that range, and equal to its low end for a member whose saves all succeeded.
 */
describe("Travel: the summary, the card and the actors agree (issue 12 item 4)", () => {
  const num = (re: RegExp, text: string) => {
    const m = re.exec(text);
    return m
      ? m
          .slice(1)
          .filter((x) => x !== undefined)
          .map(Number)
      : null;
  };
  /** "+5 levels" → [5, 5]; "+5 to +6 levels" → [5, 6]; absent → [0, 0]. */
  const range = (what: "hunger" | "thirst", food: string) => {
    const r = num(new RegExp(`${what}: \\+(\\d+)(?: to \\+(\\d+))? level`), food) ?? [0, 0];
    return [r[0]!, r[1] ?? r[0]!] as const;
  };

  async function journeyFigures(rolls: number[]) {
    const { world, party } = await boot();
    const d = await forestDialog(world);
    // What the GM reads in the dialog before Apply (the rendered summary table, not only its context).
    const rows = [...d.element!.querySelectorAll(".aventure-travel-members tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => td.textContent!.trim()),
    );
    expect(rows.map((r) => r[0]!.split(" ")[0])).toEqual(["Aria", "Bram", "Cyl", "Dun"]);
    const before = levels(party);
    world.queueRolls(...rolls);
    expect(await world.as("gm1", () => d.apply())).toMatchObject({ ok: true });
    await world.settle();
    expect(world.rollQueue).toHaveLength(0);
    const [card] = journeyCards(world);
    const lines = [...world.renderMessage(card!, "gm1").querySelectorAll(".aventure-travel-card-member")].map((li) => ({
      line: li.querySelector("summary, .aventure-travel-card-line")!.textContent!,
      why: li.querySelector(".aventure-travel-card-why")?.textContent ?? "",
    }));
    return IDS.map((id, i) => {
      const [, , , food, ex] = rows[i]!;
      const exRange = num(/^(\d+) → (\d+)(?: to (\d+))?/, ex!)!;
      const gained = num(/exhaustion (\d+) → (\d+) \(\+(\d+)\)/, lines[i]!.line);
      const same = num(/exhaustion (\d+), unchanged/, lines[i]!.line);
      return {
        id,
        summary: {
          hunger: range("hunger", food!),
          thirst: range("thirst", food!),
          before: exRange[0]!,
          min: exRange[1]!,
          max: exRange[2] ?? exRange[1]!,
        },
        card: {
          before: gained ? gained[0]! : same![0]!,
          after: gained ? gained[1]! : same![0]!,
          gained: gained ? gained[2]! : 0,
          forced: num(/forced march \+(\d+)/, lines[i]!.why)?.[0] ?? 0,
          hunger: num(/hunger \+(\d+)/, lines[i]!.why)?.[0] ?? 0,
          thirst: num(/thirst \+(\d+)/, lines[i]!.why)?.[0] ?? 0,
        },
        actor: { before: before[i]!, after: exhaustion(party[id]) },
      };
    });
  }

  function agree(f: Awaited<ReturnType<typeof journeyFigures>>[number]) {
    const { summary: s, card: c, actor: a } = f;
    expect(c.before, f.id).toBe(a.before);
    expect(s.before, f.id).toBe(a.before);
    expect(c.after, f.id).toBe(a.after);
    expect(c.gained, f.id).toBe(a.after - a.before);
    expect(c.forced + c.hunger + c.thirst, `${f.id}: the causes add up to the levels gained`).toBe(c.gained);
    expect(a.after, f.id).toBeGreaterThanOrEqual(s.min);
    expect(a.after, f.id).toBeLessThanOrEqual(s.max);
    for (const k of ["hunger", "thirst"] as const) {
      expect(c[k], `${f.id} ${k}`).toBeGreaterThanOrEqual(s[k][0]);
      expect(c[k], `${f.id} ${k}`).toBeLessThanOrEqual(s[k][1]);
    }
  }

  it("every save made but Bram's two: Dun's no water is +5 in the summary, +5 on the card, 0 → 5 on the sheet", async () => {
    const figures = await journeyFigures([20, 20, 1, 20, 1, 20, 20, 20, 20, ...Array<number>(18).fill(20), 20, 20, 20]);
    for (const f of figures) agree(f);
    const [aria, bram, cyl, dun] = figures;
    // RULES.md §4.4: no water, 1 level then 2 a day once exhausted: 1 + 2 + 2.
    expect(dun!.summary).toMatchObject({ thirst: [5, 6], before: 0, min: 5, max: 6 });
    expect(dun!.card).toMatchObject({ before: 0, after: 5, gained: 5, forced: 0, hunger: 0, thirst: 5 });
    expect(dun!.actor).toEqual({ before: 0, after: 5 });
    // Cyl: no food, CON −1 (2 fasting days), 1 already: days 2, 3, 4 → +2, whatever the dice.
    expect(cyl!.summary).toMatchObject({ hunger: [2, 2], before: 1, min: 3 });
    expect(cyl!.card).toMatchObject({ after: 3, gained: 2, hunger: 2, thirst: 0 });
    // Bram: the day-1 forced march (+1), then half water failed while exhausted (1 + 1).
    expect(bram!.card).toMatchObject({ after: 3, gained: 3, forced: 1, thirst: 2 });
    expect(aria!.card).toMatchObject({ after: 0, gained: 0 });
    expect(aria!.summary).toMatchObject({ min: 0 });
  });

  it("Dun also fails his first forced-march save: +6, and the card's causes still add up to it (capped at 6)", async () => {
    const figures = await journeyFigures([20, 20, 1, 20, 1, 20, 20, 1, 20, ...Array<number>(18).fill(20), 20, 20, 20]);
    for (const f of figures) agree(f);
    const dun = figures[3]!;
    // Day 1: forced march 1, thirst 2 (exhausted) → 3; day 2: 5; day 3: 7, capped at 6 (the character dies).
    expect(dun.card).toMatchObject({ before: 0, after: 6, gained: 6, forced: 1, thirst: 5 });
    expect(dun.actor).toEqual({ before: 0, after: 6 });
    expect(dun.summary).toMatchObject({ thirst: [5, 6], min: 5, max: 6 });
  });
});
