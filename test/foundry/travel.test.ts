/**
 * Travel glue: the dialog (live summary, field errors), Apply on the active GM (a player's Apply through the
 * query), the saves rolled through the adapter, exhaustion, counters, world time, the card and its Undo,
 * rollback on a failed write. Expected values come from RULES.md §2.4, §4.3–4.4, worked by hand below.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { bootModule } from "../fake/boot.js";
import { installChatDocuments, travelCardElement, type FakeChatMessage } from "../fake/chat.js";
import type { FakeActor, FakeWorld } from "../fake/foundry.js";
import { drawScene } from "../fake/canvas.js";
import type { TravelApplyResult } from "../../src/foundry/travel/apply.js";
import type { TravelRequest } from "../../src/foundry/travel/request.js";

const USERS = [
  { id: "gm1", isGM: true },
  { id: "gm2", isGM: true },
  { id: "p1", isGM: false },
];

interface Api {
  openTravel(o?: { actorIds?: string[] }): Dialog;
  applyTravel(r: TravelRequest): Promise<TravelApplyResult>;
}
interface Dialog {
  formState: { hoursPerDay: string; members: { actorId: string }[] };
  request: TravelRequest | null;
  lastContext: Record<string, unknown>;
  lastHTML: string;
  rendered: boolean;
  change(name: string, value: string | boolean): Promise<unknown>;
  _onChangeForm(config: unknown, event: unknown): void;
  apply(): Promise<TravelApplyResult | null>;
  addActor(id: string): Promise<unknown>;
  removeActor(id: string): Promise<unknown>;
}

/**
 * dnd5e-shaped actors whose rollSavingThrow rolls 1d20 + the ability modifier and posts it unless the message
 * config says `create: false` (dnd5e's BasicRollMessageConfiguration: `create` defaults to true).
 */
function addHero(world: FakeWorld, id: string, name: string, con: number, pp: number, exhaustion: number, ownership: Record<string, number> = {}) {
  const actor = world.addActor(
    { _id: id, name, system: { abilities: { con: { value: 10 + 2 * con, mod: con } }, skills: { prc: { passive: pp } }, attributes: { exhaustion } } },
    ownership,
  );
  const calls: { user: string; ability: string; target: number; configure: unknown; flavor: unknown }[] = [];
  (actor as unknown as Record<string, unknown>).rollSavingThrow = async (
    config: { ability: string; target: number },
    dialog: { configure?: boolean },
    message: { create?: boolean; data?: { flavor?: string } },
  ) => {
    calls.push({ user: world.game.user.id, ability: config.ability, target: config.target, configure: dialog?.configure, flavor: message?.data?.flavor });
    const mod = (actor.system.abilities as Record<string, { mod: number }>)[config.ability]!.mod;
    const roll = new Roll("1d20 + @mod", { mod });
    await roll.evaluate();
    if (message?.create !== false) await (roll as unknown as { toMessage(d: object): Promise<unknown> }).toMessage({ flavor: message?.data?.flavor });
    return [roll];
  };
  return { actor, calls };
}

let world: FakeWorld;
let api: Api;
let cards: () => FakeChatMessage[];
let party: Record<"aria" | "bram" | "cyl" | "dun", { actor: FakeActor; calls: { user: string; ability: string; target: number; configure: unknown; flavor: unknown }[] }>;

async function boot(systemId = "dnd5e", lang: "en" | "fr" = "en") {
  world = await bootModule({ systemId, users: USERS, lang });
  const docs = installChatDocuments(world);
  cards = () => docs.filter((m) => m.flags.aventure?.travel);
  api = world.modules.get("aventure")!.api as unknown as Api;
  party = {
    aria: addHero(world, "aria", "Aria", 2, 14, 0, { p1: 3 }),
    bram: addHero(world, "bram", "Bram", 0, 12, 0, { p1: 3 }),
    cyl: addHero(world, "cyl", "Cyl", -1, 16, 1),
    dun: addHero(world, "dun", "Dun", 1, 11, 0),
  };
  await party.cyl.actor.setFlag("aventure", "fastingDays", 1);
  world.worldTime = 1000;
}

const IDS = ["aria", "bram", "cyl", "dun"];
const tick = () => new Promise((r) => setTimeout(r, 0));

/** 67.5 km through a forest at normal pace, 10 h a day: 3 days of 22.5 km, forced march DC 11 and 12 daily. */
async function forestDialog(ids = IDS): Promise<Dialog> {
  const d = api.openTravel({ actorIds: ids });
  await d.change("terrain", "difficult");
  await d.change("unit", "km");
  await d.change("amount", "67,5");
  await d.change("hoursPerDay", "10");
  const rows: Record<string, [string, string, string, string]> = {
    aria: ["full", "full", "front", "watch"],
    bram: ["half", "half", "middle", "navigate"],
    cyl: ["none", "full", "middle", "map"],
    dun: ["full", "none", "rear", "none"],
  };
  for (const [i, id] of ids.entries()) {
    const [food, water, position, activity] = rows[id]!;
    await d.change(`members.${i}.food`, food);
    await d.change(`members.${i}.water`, water);
    await d.change(`members.${i}.position`, position);
    await d.change(`members.${i}.activity`, activity);
  }
  return d;
}

/**
 * Save order (rules): per day, per member, forced-march hours then the water save: 9 saves a day, 27 in all.
 * Every d20 is a 20 except Bram's first forced-march save (day 1, hour 9) and his first water save: 1.
 */
function queueForestRolls() {
  const day1 = [20, 20, 1, 20, 1, 20, 20, 20, 20];
  const later = [20, 20, 20, 20, 20, 20, 20, 20, 20];
  world.rolls.push(...day1, ...later, ...later);
}

function exhaustion(id: keyof typeof party): number {
  return (party[id].actor.system.attributes as { exhaustion: number }).exhaustion;
}
const flags = (id: keyof typeof party) => ({ ...party[id].actor.flags.aventure });
const saveCalls = () => Object.values(party).reduce((n, p) => n + p.calls.length, 0);

describe("Travel: a GM plans, applies and undoes a three-day journey for a party of four", () => {
  beforeEach(() => boot());

  it("shows the live summary on every change, without submitting", async () => {
    const d = api.openTravel({ actorIds: IDS });
    await tick();
    expect(d.rendered).toBe(true);
    expect(d.formState.hoursPerDay).toBe("8"); // the setting's default
    let ctx = d.lastContext as { summary: { distance: string; duration: string; saveCount: number } };
    expect(ctx.summary.distance).toBe("36 km"); // 1 day at normal pace (§2.1)
    d._onChangeForm({}, { target: { name: "terrain", value: "difficult", type: "select-one" } });
    await tick();
    ctx = d.lastContext as typeof ctx;
    expect(ctx.summary.distance).toBe("18 km"); // §2.3: a forest at normal pace, 18 km a day
    const f = await forestDialog();
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
  });

  it("applies: 27 saves rolled once through the adapter, exhaustion, counters, time and one card", async () => {
    const d = await forestDialog();
    queueForestRolls();
    const result = await d.apply();
    expect(result).toMatchObject({ ok: true });
    expect(world.rolls.queue).toHaveLength(0);
    expect(saveCalls()).toBe(27);
    expect(party.bram.calls.map((c) => c.target)).toEqual([11, 12, 15, 11, 12, 15, 11, 12, 15]);
    expect(party.aria.calls.every((c) => c.ability === "con" && c.user === "gm1")).toBe(true);
    // Aria: every save made. Bram: day-1 forced march failed (1), then half water failed while already exhausted:
    // 1 + 1 extra (§4.4) = 3. Cyl (CON −1: 2 fasting days, 1 already): no food → 2, 3, 4: two levels, 1 → 3.
    // Dun: no water: 1, then 2 levels a day (already exhausted): 1, 3, 5.
    expect(IDS.map((id) => exhaustion(id as keyof typeof party))).toEqual([0, 3, 3, 5]);
    expect(flags("aria")).toEqual({ fastingDays: 0, thirstDays: 0 });
    expect(flags("bram")).toEqual({ fastingDays: 1.5, thirstDays: 0 });
    expect(flags("cyl")).toEqual({ fastingDays: 4, thirstDays: 0 });
    expect(flags("dun")).toEqual({ fastingDays: 0, thirstDays: 3 });
    expect(world.worldTime).toBe(1000 + 2 * 86400 + 10 * 3600);
    expect(cards()).toHaveLength(1);
    // One message in all: the system's own save messages are not created, the card carries the 27 rolls.
    expect(world.messages).toHaveLength(1);
    const card = cards()[0]!;
    expect(card.rolls).toHaveLength(27);
    expect(party.bram.calls[0]).toMatchObject({ configure: false, flavor: "Bram: forced march, day 1, hour 9 (Constitution save DC 11)" });
    expect(card.content).toContain('data-tooltip="d20: 1"'); // Bram's failed saves show the natural d20
    expect(card.content).not.toContain("aventure-travel-card-lost"); // no lost chance given
    expect(card.content).toContain("67.5 km");
    expect(card.content).toContain("exhaustion 0 → 3");
    expect(card.content).toMatch(/water: 1 vs DC 15 <span title="Failure"/); // Bram's failed water save: d20 1 + CON 0
    expect(d.rendered).toBe(false); // closed after a successful Apply
  });

  it("undoes exactly: time, counters and exhaustion as they were; a second Undo is refused", async () => {
    const d = await forestDialog();
    queueForestRolls();
    await d.apply();
    const card = cards()[0]!;
    const { requestUndo } = await import("../../src/foundry/travel/api.js");
    expect(await requestUndo(card.id)).toEqual({ ok: true, changedSince: [] });
    expect(world.notifications.at(-1)).toEqual({ type: "info", message: "The journey was undone." });
    expect(IDS.map((id) => exhaustion(id as keyof typeof party))).toEqual([0, 0, 1, 0]);
    expect(flags("aria")).toEqual({});
    expect(flags("bram")).toEqual({});
    expect(flags("cyl")).toEqual({ fastingDays: 1 });
    expect(flags("dun")).toEqual({});
    expect(world.worldTime).toBe(1000);
    expect(card.flags.aventure!.travel).toMatchObject({ undone: true });
    expect(await requestUndo(card.id)).toMatchObject({ ok: false, key: "AVENTURE.Travel.Error.AlreadyUndone" });
    expect(world.worldTime).toBe(1000);
  });

  it("says which characters changed since the journey when Undo overwrites them", async () => {
    const d = await forestDialog();
    queueForestRolls();
    await d.apply();
    await party.dun.actor.update({ "system.attributes.exhaustion": 4 }); // a long rest, by hand
    const { requestUndo } = await import("../../src/foundry/travel/api.js");
    expect(await requestUndo(cards()[0]!.id)).toEqual({ ok: true, changedSince: ["Dun"] });
    expect(exhaustion("dun")).toBe(0);
    expect(world.notifications.at(-1)).toEqual({
      type: "warn",
      message: "Changed since the journey: Dun. Undo put back the values from before the journey.",
    });
  });

  it("works in French: the summary, the errors and the card", async () => {
    await boot("dnd5e", "fr");
    const d = await forestDialog();
    const ctx = d.lastContext as { summary: { distance: string; duration: string } };
    expect(ctx.summary.distance).toBe("67,5 km");
    expect(ctx.summary.duration).toBe("2\u00a0j 10\u00a0h");
    expect(d.lastHTML).toContain("DD 11 ×3, DD 12 ×3");
    await d.change("hoursPerDay", "30");
    expect((d.lastContext as { errors: { hoursPerDay: string } }).errors.hoursPerDay).toBe(
      "Il faut une valeur entre 0 et 24 pour Heures de marche par jour (reçu : 30).",
    );
    await d.change("hoursPerDay", "10");
    queueForestRolls();
    await d.apply();
    const card = cards()[0]!;
    expect(card.content).toContain("épuisement 0 → 3");
    expect(card.content).toContain("Jour 1");
  });
});

describe("Travel: two GMs connected", () => {
  beforeEach(() => boot());

  it("the second GM's Apply runs once, on the active GM: saves rolled and exhaustion applied exactly once", async () => {
    const d = await world.asUser("gm2", () => forestDialog());
    queueForestRolls();
    const result = await world.asUser("gm2", () => d.apply());
    expect(result).toMatchObject({ ok: true });
    expect(saveCalls()).toBe(27);
    expect(Object.values(party).flatMap((p) => p.calls.map((c) => c.user))).toEqual(Array(27).fill("gm1"));
    const exhaustionWrites = (a: FakeActor) => a.updates.filter((u) => "system.attributes.exhaustion" in u).length;
    expect(Object.values(party).map((p) => exhaustionWrites(p.actor))).toEqual([0, 1, 1, 1]);
    expect(cards()).toHaveLength(1);
    expect(cards()[0]!.author).toBe("gm1");
    expect(world.worldTime).toBe(1000 + 208800);
  });

  it("the card shows Undo to GMs only; clicked on both GMs' clients, the journey is undone once", async () => {
    const d = await forestDialog();
    queueForestRolls();
    await d.apply();
    const card = cards()[0]!;
    const rendered: Record<string, ReturnType<typeof travelCardElement>> = {};
    for (const u of ["gm1", "gm2", "p1"]) {
      rendered[u] = travelCardElement();
      await world.asUser(u, () => world.hooks.callAll("renderChatMessageHTML", card, rendered[u]!.html));
    }
    expect(rendered.p1!.button.removed).toBe(true);
    expect(rendered.gm1!.button.removed).toBe(false);
    expect(rendered.gm2!.button.removed).toBe(false);
    expect(rendered.gm1!.undone.hidden).toBe(true);
    const writesBefore = party.dun.actor.updates.length;
    // Both GMs click at once: both requests reach the active GM, which undoes once and refuses the other.
    await world.asUser("gm2", async () => rendered.gm2!.button.click());
    await world.asUser("gm1", async () => rendered.gm1!.button.click());
    expect(rendered.gm1!.button.disabled && rendered.gm2!.button.disabled).toBe(true);
    for (let i = 0; i < 200 && (rendered.gm1!.button.disabled || rendered.gm2!.button.disabled); i++) await tick();
    expect(rendered.gm1!.button.disabled || rendered.gm2!.button.disabled).toBe(false);
    expect(party.dun.actor.updates.length - writesBefore).toBe(1); // exhaustion put back once
    expect(card.updatedBy).toEqual(["gm1"]); // gm2 clicked first, but the active GM ran the Undo
    expect(IDS.map((id) => exhaustion(id as keyof typeof party))).toEqual([0, 0, 1, 0]);
    expect(world.worldTime).toBe(1000);
    expect(world.notifications.filter((n) => n.type === "error").map((n) => n.message)).toEqual(["This journey was already undone."]);
    // Re-rendered after the update: the label shows, the button is gone everywhere.
    const again = travelCardElement();
    world.hooks.callAll("renderChatMessageHTML", card, again.html);
    expect(again.button.removed).toBe(true);
    expect(again.undone.hidden).toBe(false);
  });

  it("refuses an Undo sent by a player (a macro calling the query) or naming no journey card, and changes nothing", async () => {
    const d = await forestDialog();
    queueForestRolls();
    await d.apply();
    const card = cards()[0]!;
    const { requestUndo } = await import("../../src/foundry/travel/api.js");
    expect(await world.asUser("p1", () => requestUndo(card.id))).toMatchObject({ ok: false, key: "AVENTURE.Error.GMOnly" });
    expect(await requestUndo("nope")).toMatchObject({ ok: false, key: "AVENTURE.Travel.Error.NoJourney" });
    expect(world.worldTime).toBe(1000 + 208800);
    expect(exhaustion("dun")).toBe(5);
    expect(card.flags.aventure!.travel).toMatchObject({ undone: false });
  });
});

describe("Travel: a player's Apply goes through the query", () => {
  beforeEach(() => boot());

  it("is applied by the GM for the player's own characters", async () => {
    const d = await world.asUser("p1", () => forestDialog(["aria", "bram"]));
    // Two members, 2 saves a day each + Bram's water save: 5 a day. Aria makes them all; Bram fails day 1, hour 9.
    world.rolls.push(20, 20, 1, 20, 20, ...Array(10).fill(20));
    const result = await world.asUser("p1", () => d.apply());
    expect(result).toMatchObject({ ok: true });
    expect(party.bram.calls.every((c) => c.user === "gm1")).toBe(true);
    expect([exhaustion("aria"), exhaustion("bram")]).toEqual([0, 1]);
    expect(cards()).toHaveLength(1);
  });

  it("is refused for an actor the player does not own, and nothing changes", async () => {
    // The dialog already says so on the member's row and keeps Apply disabled…
    const d = await world.asUser("p1", () => forestDialog(["aria", "cyl"]));
    const ctx = d.lastContext as { members: { error: string }[]; canApply: boolean };
    expect(ctx.members.map((m) => m.error)).toEqual(["", "You do not own Cyl."]);
    expect(ctx.canApply).toBe(false);
    expect(await world.asUser("p1", () => d.apply())).toBeNull();
    // …and the GM refuses a request sent anyway (a macro, a modified client).
    const request = { ...(d.request ?? (await world.asUser("p1", () => forestDialog(["aria", "bram"]))).request!) };
    request.members = [request.members[0]!, { ...request.members[1]!, actorId: "cyl" }];
    const result = await world.asUser("p1", () => api.applyTravel(request));
    expect(result).toEqual({ ok: false, key: "AVENTURE.Error.NotOwner", data: { name: "Cyl" } });
    expect(world.notifications.at(-1)).toEqual({ type: "error", message: "You do not own Cyl." });
    expect(saveCalls()).toBe(0);
    expect(world.rolls.made).toHaveLength(0);
    expect(Object.values(party).every((p) => p.actor.updates.length === 0)).toBe(true);
    expect(flags("aria")).toEqual({});
    expect(world.worldTime).toBe(1000);
    expect(world.messages).toHaveLength(0);
    expect(d.rendered).toBe(true); // the dialog stays open
  });

  it("validates what a player sends on the GM", async () => {
    const base: TravelRequest = {
      pace: "normal", terrain: "normal", mode: "foot", speedKmh: null, distance: 1000, duration: null, hoursPerDay: 8,
      hot: false, stealth: false, lostChance: 0,
      members: [{ actorId: "aria", food: "full", water: "full", position: "front", activity: "none", conMod: null, passivePerception: null }],
    };
    const send = (r: unknown) => world.asUser("p1", () => api.applyTravel(r as TravelRequest));
    expect(await send({ ...base, pace: "warp" })).toMatchObject({ ok: false, key: "AVENTURE.Error.UnknownValue" });
    expect(await send({ ...base, distance: 1000, duration: 60 })).toMatchObject({ ok: false, key: "AVENTURE.Error.Missing" });
    expect(await send({ ...base, hoursPerDay: 25 })).toMatchObject({ ok: false, key: "AVENTURE.Error.OutOfRange" });
    expect(await send({ ...base, members: [{ ...base.members[0], actorId: "ghost" }] })).toMatchObject({
      ok: false,
      key: "AVENTURE.Travel.Error.UnknownActor",
    });
    expect(await send({ ...base, members: [base.members[0], base.members[0]] })).toMatchObject({ ok: false, key: "AVENTURE.Error.UnknownValue" });
    expect(await send({ ...base, members: Array.from({ length: 51 }, (_, i) => ({ ...base.members[0], actorId: `a${i}` })) })).toMatchObject({
      ok: false,
      key: "AVENTURE.Error.OutOfRange",
    });
    expect(await send("nonsense")).toMatchObject({ ok: false, key: "AVENTURE.Error.Missing" });
    expect(saveCalls()).toBe(0);
    expect(world.worldTime).toBe(1000);
    expect(world.messages).toHaveLength(0);
  });
});

describe("Travel: bad input changes nothing", () => {
  beforeEach(() => boot());

  it("reports the field in the user's language and disables Apply", async () => {
    const d = await forestDialog();
    await d.change("amount", "beaucoup");
    const ctx = d.lastContext as { errors: { amount: string }; canApply: boolean; summary: unknown };
    expect(ctx.errors.amount).toBe("Expected a number for Distance or duration (got beaucoup).");
    expect(ctx.canApply).toBe(false);
    expect(ctx.summary).toBeNull();
    expect(d.lastHTML).toMatch(/<button type="button" data-action="apply" disabled>/);
    expect(d.lastHTML).toContain('aria-invalid="true"');
    expect(d.request).toBeNull();
    expect(await d.apply()).toBeNull();
    await d.change("amount", "-3");
    expect((d.lastContext as { errors: { amount: string } }).errors.amount).toBe(
      "A negative value is not allowed for Distance or duration (got -3).",
    );
    await d.change("amount", "0");
    expect((d.lastContext as { errors: { amount: string } }).errors.amount).toBe("Distance or duration must be more than 0 (got 0).");
    await d.change("amount", "3000");
    await d.change("unit", "days");
    expect((d.lastContext as { errors: { amount: string } }).errors.amount).toBe(
      "Expected a value between 0 and 1000 for number of days (got 3000).",
    );
    await d.change("amount", "2");
    await d.change("mode", "boat");
    await d.change("speed", "0");
    expect((d.lastContext as { errors: { speed: string } }).errors.speed).toBe("Speed (km/h) must be more than 0 (got 0).");
    expect(saveCalls()).toBe(0);
    expect(world.rolls.made).toHaveLength(0);
    expect(Object.values(party).every((p) => p.actor.updates.length === 0)).toBe(true);
    expect(world.worldTime).toBe(1000);
    expect(world.messages).toHaveLength(0);
  });

  it("asks for a CON modifier the sheet does not give, on that member's field", async () => {
    world.addActor({ _id: "npc", name: "Mule", system: { skills: { prc: { passive: 9 } }, attributes: { exhaustion: 0 } } });
    const d = api.openTravel({ actorIds: ["aria", "npc"] });
    await tick();
    let ctx = d.lastContext as { members: { conModError: string }[]; canApply: boolean };
    expect(ctx.members[1]!.conModError).toBe("Expected a number for Constitution modifier (got —).");
    expect(ctx.canApply).toBe(false);
    await d.change("members.1.conModInput", "1.5");
    ctx = d.lastContext as typeof ctx;
    expect(ctx.members[1]!.conModError).toBe("Expected a whole number for Constitution modifier (got 1.5).");
    await d.change("members.1.conModInput", "1");
    ctx = d.lastContext as typeof ctx;
    expect(ctx.canApply).toBe(true);
  });

  it("rolls back every write when one fails, and tells the GM", async () => {
    const d = await forestDialog();
    queueForestRolls();
    const dun = party.dun.actor as unknown as { setFlag: (...a: unknown[]) => Promise<unknown> };
    dun.setFlag = async () => {
      throw new Error("the server refused the update");
    };
    const result = await d.apply();
    expect(result).toMatchObject({ ok: false, key: "AVENTURE.Travel.Error.RolledBack" });
    expect(IDS.map((id) => exhaustion(id as keyof typeof party))).toEqual([0, 0, 1, 0]);
    expect(flags("aria")).toEqual({});
    expect(flags("bram")).toEqual({});
    expect(flags("cyl")).toEqual({ fastingDays: 1 });
    expect(world.worldTime).toBe(1000);
    expect(cards()).toHaveLength(0);
    expect(world.notifications.at(-1)!.message).toBe(
      "The journey could not be applied (the server refused the update): everything already written was put back.",
    );
  });

  it("rolls back when the card cannot be posted (time included)", async () => {
    const d = await forestDialog();
    queueForestRolls();
    const create = world.ChatMessage.create;
    world.ChatMessage.create = async (data: Record<string, unknown>) => {
      if ((data.flags as { aventure?: object } | undefined)?.aventure) throw new Error("chat is down");
      return create(data as never);
    };
    const result = await d.apply();
    expect(result).toMatchObject({ ok: false, key: "AVENTURE.Travel.Error.RolledBack" });
    expect(world.worldTime).toBe(1000);
    expect(IDS.map((id) => exhaustion(id as keyof typeof party))).toEqual([0, 0, 1, 0]);
    expect(flags("dun")).toEqual({});
  });
});

describe("Travel: the daily lost check (pmt, RULES.md §2.7)", () => {
  beforeEach(() => boot());

  it("rolls 1d100 at the start of each day on Apply and reports it on the card: lost on the chance or less", async () => {
    await world.game.settings.set("aventure", "ruleset", "pmt");
    const d = await forestDialog();
    await d.change("lostChance", "30");
    expect((d.lastContext as { summary: { warnings: string[] } }).summary.warnings).toContain(
      "Apply rolls 1d100 at the start of each day: the group gets lost on 30 or less (shown in the journey's chat message).",
    );
    queueForestRolls();
    world.rolls.push(50, 30, 31); // days 1, 2, 3: 30 ≤ 30 is lost, 31 is not
    const result = await world.asUser("gm2", () => d.apply()); // sent by the second GM, rolled once on the first
    expect(result).toMatchObject({ ok: true });
    expect(world.rolls.queue).toHaveLength(0);
    expect(world.rolls.made.filter((r) => r.formula === "1d100")).toHaveLength(3);
    expect(world.messages).toHaveLength(1);
    const card = cards()[0]!;
    expect(card.rolls).toHaveLength(30);
    expect(card.flags.aventure!.travel).toMatchObject({
      lost: [
        { day: 1, chance: 30, roll: 50, lost: false },
        { day: 2, chance: 30, roll: 30, lost: true },
        { day: 3, chance: 30, roll: 31, lost: false },
      ],
    });
    expect(card.content).toContain("Getting lost (1d100, lost on 30 or less)");
    expect(card.content).toContain("Day 1: 50, on course");
    expect(card.content).toMatch(/aventure-failure">Day 2: 30, lost</);
  });

  it("rolls no 1d100 with a chance of 0 (the default)", async () => {
    const d = await forestDialog();
    queueForestRolls();
    await d.apply();
    expect(world.rolls.made.filter((r) => r.formula === "1d100")).toHaveLength(0);
    expect(cards()[0]!.flags.aventure!.travel).toMatchObject({ lost: [] });
  });

  it("says it in French", async () => {
    await boot("dnd5e", "fr");
    const d = await forestDialog();
    await d.change("lostChance", "25");
    queueForestRolls();
    world.rolls.push(7, 99, 26);
    await d.apply();
    const card = cards()[0]!;
    expect(card.content).toContain("Se perdre (1d100, perdu sur 25 ou moins)");
    expect(card.content!.replaceAll("&#x27;", "'")).toContain("Jour 1 : 7, le groupe s'égare");
    expect(card.content).toContain("Jour 3 : 26, bonne route");
  });
});

describe("Travel: older dnd5e (rollAbilitySave)", () => {
  beforeEach(() => boot());

  it("asks the legacy API for no chat message of its own and shows the roll on the card", async () => {
    const actor = world.addActor({ _id: "old", name: "Olaf", system: { abilities: { con: { value: 14, mod: 2 } }, skills: { prc: { passive: 10 } }, attributes: { exhaustion: 0 } } });
    const seen: unknown[] = [];
    // dnd5e < 4.1: rollAbilitySave(abilityId, options) with d20Roll's `chatMessage` option.
    (actor as unknown as Record<string, unknown>).rollAbilitySave = async (ability: string, options: { chatMessage?: boolean; targetValue?: number }) => {
      seen.push([ability, options.targetValue, options.chatMessage]);
      const roll = new Roll("1d20 + 2");
      await roll.evaluate();
      if (options.chatMessage !== false) await (roll as unknown as { toMessage(d: object): Promise<unknown> }).toMessage({});
      return roll;
    };
    const d = api.openTravel({ actorIds: ["old"] });
    await d.change("hoursPerDay", "9");
    world.rolls.push(8); // 8 + 2 = 10 < DC 11: one level
    expect(await d.apply()).toMatchObject({ ok: true });
    expect(seen).toEqual([["con", 11, false]]);
    expect(world.messages).toHaveLength(1);
    expect(cards()[0]!.rolls).toHaveLength(1);
    expect((actor.system.attributes as { exhaustion: number }).exhaustion).toBe(1);
  });
});

describe("Travel: a system without a built-in adapter", () => {
  it("rolls the saves with Foundry dice through the generic adapter and leaves exhaustion it cannot change to the GM", async () => {
    world = await bootModule({ systemId: "worldbuilding", users: USERS });
    const docs = installChatDocuments(world);
    api = world.modules.get("aventure")!.api as unknown as Api;
    const { EMPTY_PATHS } = await import("../../src/foundry/settings-schema.js");
    await world.game.settings.set("aventure", "actorData", { ...EMPTY_PATHS, conMod: "system.con", passivePerception: "system.pp" });
    world.addActor({ _id: "kai", name: "Kai", system: { con: 1, pp: 13 } });
    const d = api.openTravel({ actorIds: ["kai"] });
    await d.change("hoursPerDay", "9"); // one forced-march save, DC 11 (§2.4)
    world.rolls.push(5); // 5 + 1 = 6: failure
    const result = await d.apply();
    expect(result).toMatchObject({ ok: true });
    expect(world.rolls.made.map((r) => [r.formula, r.total])).toEqual([["1d20 + 1", 6]]);
    const card = docs.find((m) => m.flags.aventure?.travel)!;
    expect(card.content).toContain("Apply 1 level(s) of exhaustion by hand");
    expect(card.flags.aventure!.travel).toMatchObject({ journal: { actors: [{ actorId: "kai", exhaustion: null }] } });
    // No message of the save's own: the one card carries the roll.
    expect(docs).toHaveLength(1);
    expect(card.rolls).toHaveLength(1);
    expect(card.content).toContain('data-tooltip="d20: 5"');
  });
});

describe("Travel: settings, API and HUD", () => {
  beforeEach(() => boot());

  it("does not move the world clock when 'Apply advances world time' is off", async () => {
    await world.game.settings.set("aventure", "travelAdvanceTime", false);
    const d = await forestDialog();
    queueForestRolls();
    await d.apply();
    expect(world.worldTime).toBe(1000);
    expect(cards()[0]!.content).toContain("World time was not changed.");
  });

  it("without food and water tracking: no water saves, no hunger, no counters", async () => {
    await world.game.settings.set("aventure", "travelTrackFood", false);
    const d = await forestDialog();
    world.rolls.push(...Array(24).fill(20));
    await d.apply();
    expect(saveCalls()).toBe(24); // forced march only
    expect(IDS.map((id) => exhaustion(id as keyof typeof party))).toEqual([0, 0, 1, 0]);
    expect(flags("bram")).toEqual({});
    expect(flags("cyl")).toEqual({ fastingDays: 1 });
  });

  it("prefills the hours per day from the setting, adds and removes members", async () => {
    await world.game.settings.set("aventure", "travelHoursPerDay", 10);
    const d = api.openTravel({ actorIds: ["aria"] });
    expect(d.formState.hoursPerDay).toBe("10");
    await d.addActor("dun");
    expect(d.formState.members.map((m) => m.actorId)).toEqual(["aria", "dun"]);
    await d.removeActor("aria");
    expect(d.formState.members.map((m) => m.actorId)).toEqual(["dun"]);
    await d.removeActor("dun");
    expect((d.lastContext as { errors: { members: string } }).errors.members).toBe("The party is empty: add at least one character.");
  });

  it("refuses a journey with more saves than one Apply rolls, before rolling anything", async () => {
    const d = await forestDialog();
    await d.change("amount", "40");
    await d.change("unit", "days");
    await d.change("hoursPerDay", "12"); // 4 forced-march saves a day × 4 members × 40 days = 640, + 40 water saves
    const result = await d.apply();
    expect(result).toEqual({ ok: false, key: "AVENTURE.Travel.Error.TooManySaves", data: { count: 680, max: 500 } });
    expect(world.notifications.at(-1)!.message).toBe(
      "This journey would roll 680 saving throws (at most 500 at once): split it into shorter journeys.",
    );
    expect(saveCalls()).toBe(0);
    expect(world.worldTime).toBe(1000);
  });

  it("counts the daily lost checks in the same limit (they are attached to the card too)", async () => {
    const d = await forestDialog();
    await d.change("amount", "29");
    await d.change("unit", "days");
    await d.change("hoursPerDay", "12"); // 16 forced-march saves + Bram's water save = 17 a day: 493 saves in 29 days
    expect((d.lastContext as { summary: { saveCount: number } }).summary.saveCount).toBe(493);
    await d.change("lostChance", "10"); // + 29 lost checks = 522 rolls
    expect(await d.apply()).toEqual({ ok: false, key: "AVENTURE.Travel.Error.TooManySaves", data: { count: 522, max: 500 } });
    expect(world.rolls.made).toHaveLength(0);
    expect(saveCalls()).toBe(0);
    expect(world.worldTime).toBe(1000);
  });

  it("api.openTravel() (the compendium macro) takes the selected tokens, else the players' characters on the scene", async () => {
    const scene = drawScene(world);
    for (const [i, id] of IDS.entries()) scene.addToken({ id: `t-${id}`, name: id, at: [i, 0], actor: party[id as keyof typeof party].actor });
    world.addActor({ _id: "wolf", name: "Wolf", type: "npc" });
    scene.addToken({ id: "t-wolf", name: "Wolf", at: [5, 0], actor: world.actors.getStrict("wolf") });
    scene.control("t-cyl", "t-wolf");
    expect(api.openTravel().formState.members.map((m) => m.actorId)).toEqual(["cyl", "wolf"]);
    scene.control();
    // Aria and Bram belong to player p1; Cyl and Dun to nobody, the wolf is no character.
    expect(api.openTravel().formState.members.map((m) => m.actorId)).toEqual(["aria", "bram"]);
  });

  it("the GM's token HUD button opens the dialog for the token and the selection", async () => {
    const { hudButtons } = await import("../../src/foundry/token-hud.js");
    const { openWindowCount } = await import("../../src/foundry/windows.js");
    const scene = drawScene(world);
    const t = scene.addToken({ id: "t-dun", name: "Dun", at: [0, 0], actor: party.dun.actor });
    const before = openWindowCount();
    hudButtons().find((x) => x.id === "travel")!.onClick(t as never, {} as MouseEvent);
    await tick();
    expect(openWindowCount()).toBe(before + 1);
  });

  it("registers the GM's token HUD button and the query", async () => {
    const { hudButtons } = await import("../../src/foundry/token-hud.js");
    const b = hudButtons().find((x) => x.id === "travel")!;
    expect(b.gmOnly).toBe(true);
    expect(world.i18n.has(b.title)).toBe(true);
    expect(world.CONFIG.queries["aventure.travelApply"]).toBeTypeOf("function");
    expect(world.hooks.registered()).toContain("renderChatMessageHTML");
  });
});
