/**
 * Polaris against the fake world (test/world): the test card (RULES.md §9.1) and the action phases in the combat
 * tracker (§9.2): initiative from the actor's score, order by phase then Réaction, Hasten and Delay (its dialog, names
 * escaped), reset at the next round in one update; the context menu in the v13 and v14 shapes; the tracker's headers
 * and badges, also with dnd5e's grouped rows; dnd5e's initiative button (no d20 dialog); one roll per click.
 * Expected values come from RULES.md §9, not from the code.
 */
import { describe, expect, it } from "vitest";
import {
  bootWorld,
  forgeCard,
  GM,
  GM2,
  PLAYER,
  viewScene,
  type FakeCombat,
  type FakeWorld,
} from "../world/index.js";
import { delayChoices, setDelay, setHasten, actingPhase, polarisFlags } from "../../src/foundry/polaris/phases.js";
import { phaseHeadersContext } from "../../src/foundry/combat/tracker-context.js";
import { parseChance } from "../../src/apps/polaris-context.js";
import { EMPTY_PATHS } from "../../src/foundry/settings-schema.js";

const USERS = [GM, GM2, PLAYER];
const T = { timeout: 60_000 };
type Plain = Record<string, unknown>;
type Api = {
  polarisTest(req: Plain): Promise<{ die: number; result: Plain } | undefined>;
  openPolarisTest(): Promise<{ element: HTMLElement; click(s: string): Promise<void>; setField(n: string, v: string | boolean): Promise<void> } | undefined>;
};

const set = (world: FakeWorld, key: string, value: unknown) => world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));

async function boot(opts: { lang?: "en" | "fr"; generation?: number; system?: string } = {}) {
  const world = await bootWorld({ system: opts.system ?? "worldbuilding", users: USERS, lang: opts.lang, generation: opts.generation });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await set(world, "ruleset", "polaris");
  await set(world, "actorData", { ...EMPTY_PATHS, polarisInitiative: "system.init", polarisReaction: "system.reaction" });
  return { world, scene };
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const test = (world: FakeWorld, req: Plain, user = "gm1") => world.as(user, () => api(world, user).polarisTest(req));
const cards = (world: FakeWorld) => world.messages.contents;
const combatOf = (world: FakeWorld, user: string, id: string) => world.as(user, () => game.combats.get(id) as unknown as FakeCombat);
const names = (c: FakeCombat) => c.turns.map((x) => x.name);
const byName = (c: FakeCombat, n: string) => c.turns.find((x) => x.name === n)!;
const text = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim();
const errors = (world: FakeWorld, user: string) => world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);

/** Actors with a Polaris initiative score and Réaction, one token each; returns a combat (not started) with them. */
async function combatWith(world: FakeWorld, people: readonly (readonly [string, string, number | null, number, Record<string, number>?, number?])[]): Promise<string> {
  const scene = world.scenes.get("s1")!;
  for (const [id, name, init, reaction, ownership, disposition] of people) {
    world.addUserActor({ _id: id, name, ownership: ownership ?? {}, system: { ...(init === null ? {} : { init }), reaction } });
    world.addToken(scene, { _id: `t${id}`, name, actorId: id, actorLink: true, disposition: disposition ?? 1 });
  }
  return world.as("gm1", async () => {
    const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
    const c = await Combat.create({ scene: "s1", active: true });
    await c.createEmbeddedDocuments("Combatant", people.map(([id]) => ({ tokenId: `t${id}`, sceneId: "s1" })));
    return c.id;
  });
}
async function act(world: FakeWorld, user: string, id: string, fn: (c: FakeCombat) => Promise<unknown>): Promise<void> {
  await world.as(user, () => fn(combatOf(world, user, id)));
  await world.settle();
}
/** The rendered tracker of a user: its rows by combatant id, and the context-menu entries core would show. */
async function tracker(world: FakeWorld, user: string) {
  await world.as(user, () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
  const root = world.as(user, () => (ui.combat as unknown as { element: HTMLElement }).element);
  const entries = world.as(user, () => (ui.combat as unknown as { contextOptions(): Plain[] }).contextOptions());
  const row = (id: string) => root.querySelector(`li.combatant[data-combatant-id="${id}"]`) as HTMLElement;
  return { root, entries, row };
}

describe("Polaris test card", () => {
  it("rolls 1d20 against chance + difficulty and posts success, margin, degree and modifier", T, async () => {
    const { world } = await boot();
    world.queueRolls(4);
    const { die, result } = (await test(world, { chance: 14, difficulty: "hard", label: "Pilotage" }))!;
    expect(die).toBe(4);
    expect(result).toMatchObject({ finalChance: 9, success: true, margin: 5, degree: "assezBon", modifier: 2, critical: null });
    expect(cards(world)).toHaveLength(1);
    const c = cards(world)[0]!.content;
    expect(c).toContain("Polaris test: Pilotage");
    expect(c).toContain("Hard (−5)");
    expect(c).toContain("Success");
    expect(c).toContain("Fairly good (+2)");
    expect(c).toContain("Margin 5");
    expect(cards(world)[0]!.rolls).toHaveLength(1);
  });

  it("shows a critical success (die = final chance) and a critical failure (natural 20 below 20)", T, async () => {
    const { world } = await boot();
    world.queueRolls(9, 20);
    expect((await test(world, { chance: 14, difficulty: "hard" }))!.result.critical).toBe("success");
    expect((await test(world, { chance: 14, difficulty: "hard" }))!.result.critical).toBe("failure");
    expect(cards(world)[0]!.content).toContain("Critical success!");
    expect(cards(world)[1]!.content).toContain("Critical failure!");
    expect(cards(world)[1]!.content).toContain("Very bad (−4)"); // margin 20 − 9 = 11
  });

  it("applies the cumulative retry penalty (−1, or −3 pressed) and reports an automatic failure below 1", T, async () => {
    const { world } = await boot();
    world.queueRolls(10, 3);
    const third = (await test(world, { chance: 12, difficulty: "average", attempt: 3 }))!;
    expect(third.result.finalChance).toBe(10); // 12 − 2
    const pressed = (await test(world, { chance: 5, difficulty: "average", attempt: 3, pressed: true }))!;
    expect(pressed.result).toMatchObject({ finalChance: -1, automaticFailure: true, margin: 3, success: false });
    expect(cards(world)[1]!.content).toContain("automatic failure");
  });

  it("a secret difficulty hides it on the public card and whispers the details to the GMs; players cannot set it", T, async () => {
    const { world } = await boot();
    world.queueRolls(11);
    await test(world, { chance: 15, difficulty: "veryHard", secret: true });
    expect(cards(world)).toHaveLength(2);
    expect(cards(world)[0]!.whisper).toEqual([]);
    expect(cards(world)[0]!.content).not.toContain("Very hard");
    expect(cards(world)[0]!.content).toContain("The difficulty is secret.");
    expect(cards(world)[1]!.whisper).toEqual(["gm1", "gm2"]);
    expect(cards(world)[1]!.content).toContain("Very hard (−7)");
    expect(world.visibleMessages("p1")).toEqual([cards(world)[0]]);
    await expect(test(world, { chance: 15, difficulty: "easy", secret: true }, "p1")).rejects.toThrow(/GMOnly/);
    expect(cards(world)).toHaveLength(2);
  });

  it("bad input changes nothing: no die rolled, no card", T, async () => {
    const { world } = await boot();
    await expect(test(world, { chance: parseChance("douze"), difficulty: "easy" })).rejects.toThrow(/NotANumber/);
    await expect(test(world, { chance: 10, difficulty: "tricky" })).rejects.toThrow(/UnknownValue/);
    expect(world.rollsMade).toEqual([]);
    expect(cards(world)).toEqual([]);
    expect(parseChance(" x ")).toBe("X");
  });

  it("in French", T, async () => {
    const { world } = await boot({ lang: "fr" });
    world.queueRolls(20);
    await test(world, { chance: 20, difficulty: "average" });
    expect(cards(world)[0]!.content).toContain("Réussite critique\u202f!");
    expect(cards(world)[0]!.content).toContain("Moyenne (0)");
  });

  it("the dialog's Roll rolls once however often it is clicked; a label that is HTML stays text", T, async () => {
    const { world } = await boot();
    const app = (await world.as("p1", () => api(world, "p1").openPolarisTest()))!;
    await world.as("p1", () => app.setField("label", `<img src=x onerror="alert(1)">`));
    await world.as("p1", () => app.setField("chance", "12"));
    world.queueRolls(5);
    const button = app.element.querySelector("[data-action='roll']") as HTMLButtonElement;
    world.as("p1", () => {
      button.click();
      button.click(); // disabled while the first runs
    });
    await world.settle();
    expect(cards(world)).toHaveLength(1);
    expect(world.rollsMade).toHaveLength(1);
    const html = world.renderMessage(cards(world)[0]!, "gm1");
    expect(html.querySelector("img")).toBeNull();
    expect(text(html)).toContain(`Polaris test: <img src=x onerror="alert(1)">`);
    // A player-authored card with Polaris flags is only a message: no button, nothing read from it.
    const forged = await forgeCard(world, "p1", { polarisTest: { success: true, margin: 99, degree: "exceptionnel" } });
    expect(world.renderMessage(forged, "gm1").querySelector("button")).toBeNull();
  });
});

describe("Polaris action phases in the tracker", () => {
  const PEOPLE = [
    ["merc", "Mercenaire", 12, 14],
    ["shark", "Requin", 9, 10, {}, -1],
    ["diver", "Plongeuse", 9, 12, { p1: 3 }],
    ["novice", "Novice", null, 8],
  ] as const;

  it("takes initiative from the actor's score (no dice), orders by phase then Réaction, shows Phase N", T, async () => {
    const { world } = await boot();
    const id = await combatWith(world, PEOPLE);
    await act(world, "gm1", id, (c) => c.rollAll());
    const c = combatOf(world, "gm1", id);
    expect(world.rollsMade).toEqual([]);
    expect(Object.fromEntries(c.turns.map((x) => [x.name, x.initiative]))).toEqual({ Mercenaire: 12, Plongeuse: 9, Requin: 9, Novice: null });
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin", "Novice"]); // 9 vs 9: Réaction 12 before 10
    expect(world.notifications.at(-1)).toEqual({ user: "gm1", type: "warn", message: "No initiative score for Novice: type it in the combat tracker." });
    // Typed in by the GM.
    await world.as("gm1", () => byName(c, "Novice").update({ initiative: 9 }));
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin", "Novice"]); // Réaction 8 last among phase 9
    await act(world, "gm1", id, (x) => x.startCombat());
    const headers = world.as("gm1", () =>
      phaseHeadersContext(
        c.turns.map((x) => ({ id: x.id, phase: actingPhase(x as never, c.round), ...polarisFlags(x as never, c.round) })),
        (k, d) => game.i18n.format(k, d as never),
      ).headers,
    );
    expect(headers.map((h) => h.label)).toEqual(["Phase 12", "Phase 9"]);
  });

  it("Hasten (+3 this round) and Delay (a later phase) reorder, and both reset at the next round", T, async () => {
    const { world } = await boot();
    const id = await combatWith(world, PEOPLE);
    await act(world, "gm1", id, (c) => c.rollAll());
    const c = combatOf(world, "gm1", id);
    await world.as("gm1", () => byName(c, "Novice").update({ initiative: 2 }));
    await act(world, "gm1", id, (x) => x.startCombat());
    // The shark hastens: 9 + 3 = 12, after the mercenary (Réaction 14 > 10).
    await world.as("gm1", () => setHasten(c as never, byName(c, "Requin") as never, true));
    expect(names(c)).toEqual(["Mercenaire", "Requin", "Plongeuse", "Novice"]);
    expect(actingPhase(byName(c, "Requin") as never, 1)).toBe(12);
    // The mercenary delays to phase 5.
    expect(delayChoices(byName(c, "Mercenaire") as never, 1)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    await world.as("gm1", () => setDelay(c as never, byName(c, "Mercenaire") as never, 5));
    expect(names(c)).toEqual(["Requin", "Plongeuse", "Mercenaire", "Novice"]);
    // Not to a phase that is not later: refused, nothing changes.
    await expect(world.as("gm1", () => setDelay(c as never, byName(c, "Plongeuse") as never, 9))).rejects.toThrow(/OutOfRange/);
    expect(polarisFlags(byName(c, "Plongeuse") as never, 1)).toEqual({ hasten: false, delayTo: null });
    // A player may hasten their own combatant, not another (Foundry refuses the write).
    const pc = combatOf(world, "p1", id);
    await world.as("p1", () => setHasten(pc as never, byName(pc, "Plongeuse") as never, true));
    await expect(world.as("p1", () => setHasten(pc as never, byName(pc, "Requin") as never, false))).rejects.toThrow(/lacks permission/);
    await world.settle();
    expect(names(c)).toEqual(["Plongeuse", "Requin", "Mercenaire", "Novice"]); // both at phase 12: Réaction 12 before 10
    // Next round: everything back to the plain initiative, in one Combatant update (the active GM's).
    const calls: Plain[] = [];
    const original = c.updateEmbeddedDocuments.bind(c);
    (c as unknown as { updateEmbeddedDocuments: unknown }).updateEmbeddedDocuments = (t: string, u: Plain[], o: Plain = {}) => {
      calls.push({ updates: u, options: o });
      return original(t, u, o);
    };
    await act(world, "gm2", id, (x) => x.nextRound());
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin", "Novice"]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.options).toEqual({ turnEvents: false });
    expect((calls[0]!.updates as Plain[]).length).toBe(3);
    expect(world.rollsMade).toEqual([]);
  });
});

describe("the combatant context menu (Hasten, Delay, Change intention)", () => {
  for (const generation of [13, 14]) {
    it(`adds Hasten and Delay in the v${generation} entry shape; Hasten toggles for the owner`, T, async () => {
      const { world } = await boot({ generation });
      const id = await combatWith(world, [["merc", "Mercenaire", 8, 10]]);
      await act(world, "gm1", id, (c) => c.rollAll());
      const c = combatOf(world, "gm1", id);
      const { entries, row } = await tracker(world, "gm1");
      expect(entries).toHaveLength(3);
      const label = generation >= 14 ? "label" : "name";
      expect(entries.map((e) => e[label])).toEqual(["Hasten (+3 this round)", "Delay", "Change intention (Adaptation)"]);
      const li = row(c.turns[0]!.id);
      const visible = (e: Plain, user = "gm1") => world.as(user, () => (generation >= 14 ? (e.visible as (t: HTMLElement) => boolean) : (e.condition as (t: HTMLElement) => boolean))(li));
      expect(visible(entries[0]!)).toBe(false); // the combat has not started
      await act(world, "gm1", id, (x) => x.startCombat());
      expect(visible(entries[0]!)).toBe(true);
      const p1Entries = (await tracker(world, "p1")).entries;
      expect(visible(p1Entries[0]!, "p1")).toBe(false); // not the player's combatant
      world.as("gm1", () => (generation >= 14 ? (entries[0]!.onClick as (e: Event, t: HTMLElement) => void)({} as Event, li) : (entries[0]!.callback as (t: HTMLElement) => void)(li)));
      await world.settle();
      expect(actingPhase(c.turns[0]! as never, 1)).toBe(11);
    });
  }
});

describe("the Delay dialog (context menu)", () => {
  it("offers the later phases, delays to the phase picked, can take the delay back; closing changes nothing; the name stays text", T, async () => {
    const { world } = await boot({ lang: "fr" });
    const evil = `<img src=x onerror="alert(1)">`;
    const id = await combatWith(world, [["merc", evil, 5, 10]]);
    await act(world, "gm1", id, (c) => c.rollAll());
    await act(world, "gm1", id, (c) => c.startCombat());
    const c = combatOf(world, "gm1", id);
    const { entries, row } = await tracker(world, "gm1");
    const li = row(c.turns[0]!.id);
    const delay = () => world.as("gm1", () => (entries[1]!.callback as (li: HTMLElement) => void)(li));

    world.answerDialog("gm1", { phase: "2" });
    delay();
    await world.settle();
    const first = world.dialogsShown[0]!;
    expect(first.title).toBe("Retarder");
    expect(first.content).toContain("&lt;img src");
    expect(first.content).not.toContain("<img");
    // Phases 4 to 1 (later than 5), no "no delay" option yet.
    expect([...first.content.matchAll(/<option value="(\d*)"/g)].map((m) => m[1])).toEqual(["4", "3", "2", "1"]);
    expect(actingPhase(c.turns[0]! as never, 1)).toBe(2);

    // Again: the current delay is selected and "no delay" is offered; picking it takes the delay back.
    world.answerDialog("gm1", { phase: "" });
    delay();
    await world.settle();
    expect(world.dialogsShown[1]!.content).toMatch(/<option value="2" selected>/);
    expect(actingPhase(c.turns[0]! as never, 1)).toBe(5);

    // Closed: nothing changes, no error.
    world.answerDialog("gm1", null);
    delay();
    await world.settle();
    expect(actingPhase(c.turns[0]! as never, 1)).toBe(5);
    expect(world.notifications.filter((n) => n.type === "error")).toEqual([]);
  });

  it("at phase 1 there is no later phase: a localized message, no dialog", T, async () => {
    const { world } = await boot();
    const id = await combatWith(world, [["slow", "Lambin", 1, 3]]);
    await act(world, "gm1", id, (c) => c.rollAll());
    await act(world, "gm1", id, (c) => c.startCombat());
    const c = combatOf(world, "gm1", id);
    const { entries, row } = await tracker(world, "gm1");
    world.as("gm1", () => (entries[1]!.callback as (li: HTMLElement) => void)(row(c.turns[0]!.id)));
    await world.settle();
    expect(world.dialogsShown).toEqual([]);
    expect(errors(world, "gm1")).toHaveLength(1);
    expect(errors(world, "gm1")[0]).toContain("Lambin");
  });
});

describe("the tracker in Polaris", () => {
  it("shows Phase N headers and the hasten/delay badges in the rows", T, async () => {
    const { world } = await boot();
    const id = await combatWith(world, [
      ["merc", "Mercenaire", 12, 14],
      ["shark", "Requin", 9, 10],
      ["diver", "Plongeuse", 9, 12],
    ]);
    await act(world, "gm1", id, (c) => c.rollAll());
    await act(world, "gm1", id, (c) => c.startCombat());
    const c = combatOf(world, "gm1", id);
    await world.as("gm1", () => setHasten(c as never, byName(c, "Requin") as never, true));
    await world.as("gm1", () => setDelay(c as never, byName(c, "Mercenaire") as never, 4));
    await world.settle();
    const { root } = await tracker(world, "p1");
    expect([...root.querySelector("ol.combat-tracker")!.children].map((el) => text(el.querySelector(".token-name") ?? el))).toEqual([
      "Phase 12",
      "Requin hastened +3",
      "Phase 9",
      "Plongeuse",
      "Phase 4",
      "Mercenaire delayed to phase 4",
    ]);
  });

  /** dnd5e with Polaris phases: three sharks, unlinked tokens of one base actor (dnd5e groups equal initiatives). */
  async function dnd5eSharks(hastened: number[]) {
    const { world } = await boot({ system: "dnd5e" });
    const scene = world.scenes.get("s1")!;
    world.addUserActor({ _id: "shark", name: "Requin", system: {} });
    world.addUserActor({ _id: "merc", name: "Mercenaire", system: {} });
    world.addToken(scene, { _id: "tMerc", name: "Mercenaire", actorId: "merc", actorLink: true, disposition: 1 });
    for (let i = 1; i <= 3; i++) world.addToken(scene, { _id: `tShark${i}`, name: `Requin ${i}`, actorId: "shark", actorLink: false, disposition: -1 });
    const id = await world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments("Combatant", ["tMerc", "tShark1", "tShark2", "tShark3"].map((tokenId) => ({ tokenId, sceneId: "s1" })));
      // dnd5e has no Polaris score: the GM types the initiatives in the tracker.
      await c.updateEmbeddedDocuments("Combatant", c.combatants.contents.map((x) => ({ _id: x.id, initiative: x.name === "Mercenaire" ? 10 : 9 })));
      return c.id;
    });
    await act(world, "gm1", id, (c) => c.startCombat());
    const c = combatOf(world, "gm1", id);
    for (const i of hastened) await world.as("gm1", () => setHasten(c as never, byName(c, `Requin ${i}`) as never, true));
    await world.settle();
    return { world, id, c };
  }
  const visible = (el: Element) => !el.closest(".combatant-group.collapsed .collapsible-content");

  it("dnd5e groups the sharks: the phase header goes before the group, the badges show on the group's header", T, async () => {
    const { world } = await dnd5eSharks([1, 2, 3]);
    const { root } = await tracker(world, "gm1");
    const top = [...root.querySelector("ol.combat-tracker")!.children];
    expect(top.map((el) => (el.matches(".combatant-group") ? `{${[...el.querySelectorAll("li.combatant[data-combatant-id] .name")].map(text).join(", ")}}` : el.matches("li.combatant") ? text(el.querySelector(".name")!) : `[${text(el)}]`))).toEqual([
      "[Phase 12]",
      "{Requin 1, Requin 2, Requin 3}",
      "[Phase 10]",
      "Mercenaire",
    ]);
    expect([...root.querySelectorAll(".aventure-phase-header")].every(visible)).toBe(true);
    const groupBadges = [...root.querySelectorAll(".combatant-group .group-header .aventure-badge")];
    expect(groupBadges.map(text)).toEqual(["hastened +3"]);
    expect(groupBadges.every(visible)).toBe(true);
  });

  it("dnd5e: a group whose sharks act at different phases (one hastened) is taken apart, each badge visible", T, async () => {
    const { world } = await dnd5eSharks([2]);
    const { root } = await tracker(world, "gm1");
    expect([...root.querySelector("ol.combat-tracker")!.children].map((el) => (el.matches("li.combatant") ? text(el.querySelector(".name")!) : `[${text(el)}]`))).toEqual([
      "[Phase 12]",
      "Requin 2",
      "[Phase 10]",
      "Mercenaire",
      "[Phase 9]",
      "Requin 1",
      "Requin 3",
    ]);
    expect([...root.querySelectorAll(".aventure-badge")].filter(visible).map(text)).toEqual(["hastened +3"]);
  });

  it("dnd5e's roll button with Polaris phases: no d20 dialog, nothing rolled; without a score the player is asked to type it", T, async () => {
    const { world } = await boot({ system: "dnd5e" });
    const scene = world.scenes.get("s1")!;
    const { addDnd5eActor } = await import("../world/index.js");
    const hero = addDnd5eActor(world, { id: "diver", name: "Plongeuse", owner: "p1" });
    (hero.system as Plain).init = 11; // a world whose actors carry a Polaris score at system.init (Actor data menu)
    world.addToken(scene, { _id: "tDiver", name: "Plongeuse", actorId: "diver", actorLink: true, disposition: 1 });
    const id = await world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments("Combatant", [{ tokenId: "tDiver", sceneId: "s1" }]);
      return c.id;
    });
    const c = combatOf(world, "gm1", id);
    const { row } = await tracker(world, "p1");
    world.click("p1", row(c.turns[0]!.id).querySelector("[data-action='rollInitiative']"));
    await world.settle();
    expect(world.dialogsShown).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    // dnd5e's adapter has no Polaris score path: the player is asked to type it.
    expect(world.notifications.at(-1)).toEqual({ user: "p1", type: "warn", message: "No initiative score for Plongeuse: type it in the combat tracker." });
    expect(c.record.recoveries).toEqual([]);
  });
});
