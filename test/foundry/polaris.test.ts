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
  forgeRequest,
  gameWrites,
  GM,
  GM2,
  PLAYER,
  viewScene,
  type FakeCombat,
  type FakeWorld,
} from "../world/index.js";
import { delayChoices, setDelay, setHasten, actingPhase, polarisFlags } from "../../src/combat/polaris-phases.js";
import { phaseHeadersContext } from "../../src/combat/tracker-context.js";
import { parseChance } from "../../src/polaris/polaris-context.js";
import { EMPTY_PATHS } from "../../src/core/core-settings.js";
import { cardOf } from "./card-state.js";
import { expectRequestCrashLogs } from "./crash-logs.js";

const USERS = [GM, GM2, PLAYER];
const T = { timeout: 60_000 };
type Plain = Record<string, unknown>;
type Api = {
  polarisTest(
    req: Plain,
  ): Promise<{ die: number; result: Plain; difficulty: unknown; countdown: Plain | null } | undefined>;
  openPolarisTest(): Promise<
    | { element: HTMLElement; click(s: string): Promise<void>; setField(n: string, v: string | boolean): Promise<void> }
    | undefined
  >;
};

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));

async function boot(opts: { lang?: "en" | "fr"; generation?: number; system?: string } = {}) {
  const world = await bootWorld({
    system: opts.system ?? "worldbuilding",
    users: USERS,
    lang: opts.lang,
    generation: opts.generation,
  });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await set(world, "ruleset", "polaris");
  await set(world, "actorData", {
    ...EMPTY_PATHS,
    polarisInitiative: "system.init",
    polarisReaction: "system.reaction",
  });
  return { world, scene };
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const test = (world: FakeWorld, req: Plain, user = "gm1") => world.as(user, () => api(world, user).polarisTest(req));
const cards = (world: FakeWorld) => world.messages.contents;
const combatOf = (world: FakeWorld, user: string, id: string) =>
  world.as(user, () => game.combats.get(id) as unknown as FakeCombat);
const names = (c: FakeCombat) => c.turns.map((x) => x.name);
const byName = (c: FakeCombat, n: string) => c.turns.find((x) => x.name === n)!;
const text = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim();
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);

/** Actors with a Polaris initiative score and Réaction, one token each; returns a combat (not started) with them. */
async function combatWith(
  world: FakeWorld,
  people: readonly (readonly [string, string, number | null, number, Record<string, number>?, number?])[],
): Promise<string> {
  const scene = world.scenes.get("s1")!;
  for (const [id, name, init, reaction, ownership, disposition] of people) {
    world.addUserActor({
      _id: id,
      name,
      ownership: ownership ?? {},
      system: { ...(init === null ? {} : { init }), reaction },
    });
    world.addToken(scene, { _id: `t${id}`, name, actorId: id, actorLink: true, disposition: disposition ?? 1 });
  }
  return world.as("gm1", async () => {
    const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
    const c = await Combat.create({ scene: "s1", active: true });
    await c.createEmbeddedDocuments(
      "Combatant",
      people.map(([id]) => ({ tokenId: `t${id}`, sceneId: "s1" })),
    );
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
    expect(result).toMatchObject({
      finalChance: 9,
      success: true,
      margin: 5,
      degree: "assezBon",
      modifier: 2,
      critical: null,
    });
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

  it(
    "applies the cumulative retry penalty (−1, or −3 pressed) and reports an automatic failure below 1",
    T,
    async () => {
      const { world } = await boot();
      world.queueRolls(10, 3);
      const third = (await test(world, { chance: 12, difficulty: "average", attempt: 3 }))!;
      expect(third.result.finalChance).toBe(10); // 12 − 2
      const pressed = (await test(world, { chance: 5, difficulty: "average", attempt: 3, pressed: true }))!;
      expect(pressed.result).toMatchObject({ finalChance: -1, automaticFailure: true, margin: 3, success: false });
      expect(cards(world)[1]!.content).toContain("automatic failure");
    },
  );

  it(
    "a secret difficulty hides it on the public card and whispers the details to the GMs; players cannot set it",
    T,
    async () => {
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
    },
  );

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
    expect(Object.fromEntries(c.turns.map((x) => [x.name, x.initiative]))).toEqual({
      Mercenaire: 12,
      Plongeuse: 9,
      Requin: 9,
      Novice: null,
    });
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin", "Novice"]); // 9 vs 9: Réaction 12 before 10
    expect(world.notifications.at(-1)).toEqual({
      user: "gm1",
      type: "warn",
      message: "No initiative score for Novice: type it in the combat tracker.",
    });
    // Typed in by the GM.
    await world.as("gm1", () => byName(c, "Novice").update({ initiative: 9 }));
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin", "Novice"]); // Réaction 8 last among phase 9
    await act(world, "gm1", id, (x) => x.startCombat());
    const headers = world.as(
      "gm1",
      () =>
        phaseHeadersContext(
          c.turns.map((x) => ({
            id: x.id,
            phase: actingPhase(x as never, c.round),
            ...polarisFlags(x as never, c.round),
          })),
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
    await expect(world.as("gm1", () => setDelay(c as never, byName(c, "Plongeuse") as never, 9))).rejects.toThrow(
      /OutOfRange/,
    );
    expect(polarisFlags(byName(c, "Plongeuse") as never, 1)).toEqual({ hasten: false, delayTo: null });
    // A player may hasten their own combatant, not another (Foundry refuses the write).
    const pc = combatOf(world, "p1", id);
    await world.as("p1", () => setHasten(pc as never, byName(pc, "Plongeuse") as never, true));
    await expect(world.as("p1", () => setHasten(pc as never, byName(pc, "Requin") as never, false))).rejects.toThrow(
      /lacks permission/,
    );
    await world.settle();
    expect(names(c)).toEqual(["Plongeuse", "Requin", "Mercenaire", "Novice"]); // both at phase 12: Réaction 12 before 10
    // Next round: everything back to the plain initiative, in one Combatant update (the active GM's).
    const calls: Plain[] = [];
    const original = c.updateEmbeddedDocuments.bind(c);
    (c as unknown as { updateEmbeddedDocuments: unknown }).updateEmbeddedDocuments = (
      t: string,
      u: Plain[],
      o: Plain = {},
    ) => {
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
      expect(entries.map((e) => e[label])).toEqual([
        "Hasten (+3 this round)",
        "Delay",
        "Change intention (Adaptation)",
      ]);
      const li = row(c.turns[0]!.id);
      const visible = (e: Plain, user = "gm1") =>
        world.as(user, () =>
          (generation >= 14
            ? (e.visible as (t: HTMLElement) => boolean)
            : (e.condition as (t: HTMLElement) => boolean))(li),
        );
      expect(visible(entries[0]!)).toBe(false); // the combat has not started
      await act(world, "gm1", id, (x) => x.startCombat());
      expect(visible(entries[0]!)).toBe(true);
      const p1Entries = (await tracker(world, "p1")).entries;
      expect(visible(p1Entries[0]!, "p1")).toBe(false); // not the player's combatant
      world.as("gm1", () =>
        generation >= 14
          ? (entries[0]!.onClick as (e: Event, t: HTMLElement) => void)({} as Event, li)
          : (entries[0]!.callback as (t: HTMLElement) => void)(li),
      );
      await world.settle();
      expect(actingPhase(c.turns[0]! as never, 1)).toBe(11);
    });
  }
});

describe("the Delay dialog (context menu)", () => {
  it(
    "offers the later phases, delays to the phase picked, can take the delay back; closing changes nothing; the name stays text",
    T,
    async () => {
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
    },
  );

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
    expect(
      [...root.querySelector("ol.combat-tracker")!.children].map((el) => text(el.querySelector(".token-name") ?? el)),
    ).toEqual(["Phase 12", "Requin hastened +3", "Phase 9", "Plongeuse", "Phase 4", "Mercenaire delayed to phase 4"]);
  });

  /** dnd5e with Polaris phases: three sharks, unlinked tokens of one base actor (dnd5e groups equal initiatives). */
  async function dnd5eSharks(hastened: number[]) {
    const { world } = await boot({ system: "dnd5e" });
    const scene = world.scenes.get("s1")!;
    world.addUserActor({ _id: "shark", name: "Requin", system: {} });
    world.addUserActor({ _id: "merc", name: "Mercenaire", system: {} });
    world.addToken(scene, { _id: "tMerc", name: "Mercenaire", actorId: "merc", actorLink: true, disposition: 1 });
    for (let i = 1; i <= 3; i++)
      world.addToken(scene, {
        _id: `tShark${i}`,
        name: `Requin ${i}`,
        actorId: "shark",
        actorLink: false,
        disposition: -1,
      });
    const id = await world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments(
        "Combatant",
        ["tMerc", "tShark1", "tShark2", "tShark3"].map((tokenId) => ({ tokenId, sceneId: "s1" })),
      );
      // dnd5e has no Polaris score: the GM types the initiatives in the tracker.
      await c.updateEmbeddedDocuments(
        "Combatant",
        c.combatants.contents.map((x) => ({ _id: x.id, initiative: x.name === "Mercenaire" ? 10 : 9 })),
      );
      return c.id;
    });
    await act(world, "gm1", id, (c) => c.startCombat());
    const c = combatOf(world, "gm1", id);
    for (const i of hastened)
      await world.as("gm1", () => setHasten(c as never, byName(c, `Requin ${i}`) as never, true));
    await world.settle();
    return { world, id, c };
  }
  const visible = (el: Element) => !el.closest(".combatant-group.collapsed .collapsible-content");

  it(
    "dnd5e groups the sharks: the phase header goes before the group, the badges show on the group's header",
    T,
    async () => {
      const { world } = await dnd5eSharks([1, 2, 3]);
      const { root } = await tracker(world, "gm1");
      const top = [...root.querySelector("ol.combat-tracker")!.children];
      expect(
        top.map((el) =>
          el.matches(".combatant-group")
            ? `{${[...el.querySelectorAll("li.combatant[data-combatant-id] .name")].map(text).join(", ")}}`
            : el.matches("li.combatant")
              ? text(el.querySelector(".name")!)
              : `[${text(el)}]`,
        ),
      ).toEqual(["[Phase 12]", "{Requin 1, Requin 2, Requin 3}", "[Phase 10]", "Mercenaire"]);
      expect([...root.querySelectorAll(".aventure-phase-header")].every(visible)).toBe(true);
      const groupBadges = [...root.querySelectorAll(".combatant-group .group-header .aventure-badge")];
      expect(groupBadges.map(text)).toEqual(["hastened +3"]);
      expect(groupBadges.every(visible)).toBe(true);
    },
  );

  it(
    "dnd5e: a group whose sharks act at different phases (one hastened) is taken apart, each badge visible",
    T,
    async () => {
      const { world } = await dnd5eSharks([2]);
      const { root } = await tracker(world, "gm1");
      expect(
        [...root.querySelector("ol.combat-tracker")!.children].map((el) =>
          el.matches("li.combatant") ? text(el.querySelector(".name")!) : `[${text(el)}]`,
        ),
      ).toEqual(["[Phase 12]", "Requin 2", "[Phase 10]", "Mercenaire", "[Phase 9]", "Requin 1", "Requin 3"]);
      expect([...root.querySelectorAll(".aventure-badge")].filter(visible).map(text)).toEqual(["hastened +3"]);
    },
  );

  it(
    "dnd5e's roll button with Polaris phases: no d20 dialog, nothing rolled; without a score the player is asked to type it",
    T,
    async () => {
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
      expect(world.notifications.at(-1)).toEqual({
        user: "p1",
        type: "warn",
        message: "No initiative score for Plongeuse: type it in the combat tracker.",
      });
      expect(c.record.recoveries).toEqual([]);
    },
  );
});

// ------------------------------------------------------------------------------------------------ issue 13 (items 7–9)

type Dialog = {
  element: HTMLElement;
  click(s: string): Promise<void>;
  setField(n: string, v: string | boolean): Promise<void>;
  test: Plain;
};
const open = async (world: FakeWorld, user = "gm1", options: Plain = {}) =>
  (await world.as(user, () =>
    (world.api(user) as unknown as { openPolarisTest(o: Plain): Promise<Dialog | undefined> }).openPolarisTest(options),
  ))!;
const field = (app: Dialog, name: string) =>
  app.element.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement | null;
const rollButton = (app: Dialog) => app.element.querySelector("[data-action='roll']") as HTMLButtonElement;
const roll = async (world: FakeWorld, app: Dialog, user = "gm1") => {
  await world.as(user, () => app.click("[data-action='roll']"));
  await world.settle();
};
/** A card's words, tags as spaces (no-break spaces kept: French typography is checked). */
const words = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t\r\n]+/g, " ")
    .trim();
const lastCard = (world: FakeWorld) => words(world.renderMessage(cards(world).at(-1)!, "gm1").innerHTML);

describe("the Polaris dialog: skill or attribute, mastery, harder by N degrees, the critical success explained (RULES.md §9.1)", () => {
  it(
    "chance 12, Moyenne, die 12, mastery 4 → margin 4, Fair (+1): the card shows the improved margin, never a bare Barely (0)",
    T,
    async () => {
      const { world } = await boot();
      const app = await open(world);
      await world.as("gm1", async () => {
        await app.setField("chance", "12");
        await app.setField("mastery", "4");
      });
      expect(text(app.element)).toContain("Critical success: margin +4 (mastery).");
      world.queueRolls(12);
      await roll(world, app);
      const card = lastCard(world);
      expect(card).toContain("Critical success!");
      expect(card).toContain("Success — Fair (+1)");
      expect(card).toContain("Margin 4 (0 + 4: mastery)");
      expect(card).not.toContain("Barely");
      // Announced once in what the card shows; the explanation is the margin line's tooltip.
      const shown = card.replace(/<[^>]*>/g, " ");
      expect(shown.match(/critical success/gi)).toHaveLength(1);
      expect(world.messages.contents.at(-1)!.content).toContain(
        'title="A critical success improves the margin by the skill&#x27;s mastery level: +4.',
      );
      // The dialog shows the same, under the form.
      expect(text(app.element.querySelector(".aventure-polaris-last")!)).toBe(
        "Die 12: Success — Fair (+1) Critical success! Margin 4 (0 + 4: mastery)",
      );
    },
  );

  it(
    "an attribute test: chance 14, die 14 → margin 7 (half of 14), Good (+3); the field is the attribute's level",
    T,
    async () => {
      const { world } = await boot();
      const app = await open(world);
      await world.as("gm1", async () => {
        await app.setField("kind", "attribute");
        await app.setField("chance", "14");
      });
      expect(field(app, "mastery")).toBeNull();
      expect(text(app.element)).toContain("Attribute level");
      expect(text(app.element)).toContain("Critical success: margin +7 (half of 14, rounded down).");
      world.queueRolls(14);
      await roll(world, app);
      expect(lastCard(world)).toContain("Success — Good (+3)");
      expect(lastCard(world)).toContain("Margin 7 (0 + 7: half the attribute)");
    },
  );

  it(
    "harder by 1 degree: Moyenne → Assez difficile (−3); by 20: clamped at Héroïque (−20); shown before the roll and on the card",
    T,
    async () => {
      const { world } = await boot({ lang: "fr" });
      const app = await open(world);
      await world.as("gm1", async () => {
        await app.setField("chance", "12");
        await app.setField("harder", "1");
      });
      expect(words(app.element.innerHTML)).toContain(
        "Difficulté du jet\u00a0: Assez difficile (−3), relevée d’un degré depuis Moyenne",
      );
      world.queueRolls(9);
      await roll(world, app);
      expect(lastCard(world)).toContain("Assez difficile (−3)");
      expect(lastCard(world)).toContain("relevée d’un degré depuis Moyenne");
      expect(lastCard(world)).toContain("Chance finale 9"); // 12 − 3; attempt 2 would add −1, but this is the first roll
      world.queueRolls(1);
      const heroic = (await test(world, { chance: 12, difficulty: "average", harder: 20 }))!;
      expect(heroic.difficulty).toBe("heroic");
      expect(heroic.result.finalChance).toBe(-8); // 12 − 20: automatic failure
      // A plain modifier has no degrees: refused before anything is rolled.
      await expect(test(world, { chance: 12, difficulty: -4, harder: 1 })).rejects.toThrow(/UnknownValue/);
    },
  );

  it(
    "the actor's skills come from the keyed Actor data paths: picking one fills its level, its mastery and the label",
    T,
    async () => {
      const { world } = await boot();
      await set(world, "actorData", {
        ...EMPTY_PATHS,
        polarisSkillLevel: "system.skills.*.value",
        polarisSkillMastery: "system.skills.*.mastery",
        polarisAttributeLevel: "system.attributes.*.value",
      });
      const scene = world.scenes.get("s1")!;
      const a = world.addUserActor({
        _id: "diver",
        name: "Plongeuse",
        ownership: { p1: 3 },
        system: {
          skills: {
            pilotage: { label: "Pilotage", value: 14, mastery: 4 },
            plongee: { label: "Plongée", value: 12, mastery: 3 },
          },
          attributes: { coo: { label: "Coordination", value: 11 } },
        },
      });
      world.addToken(scene, { _id: "tDiver", name: "Plongeuse", actorId: "diver", actorLink: true });
      const app = await open(world, "p1", { actor: world.as("p1", () => game.actors.get(a.id)) });
      const options = [...(field(app, "skill") as HTMLSelectElement).options].map((o) => o.textContent);
      expect(options).toEqual(["— typed by hand —", "Pilotage (14)", "Plongée (12)"]);
      await world.as("p1", () => app.setField("skill", "plongee"));
      expect(field(app, "chance")!.value).toBe("12");
      expect(field(app, "mastery")!.value).toBe("3");
      expect(field(app, "label")!.value).toBe("Plongeuse — Plongée");
      await world.as("p1", () => app.setField("kind", "attribute"));
      expect([...(field(app, "attribute") as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
        "— typed by hand —",
        "Coordination (11)",
      ]);
      // A player has no countdown and no secret difficulty.
      expect(field(app, "countdownMax")).toBeNull();
      expect(field(app, "secret")).toBeNull();
    },
  );

  it("the window has the guide's ? button; its labels wrap (nothing is cut)", T, async () => {
    const { world } = await boot({ lang: "fr" });
    const app = await open(world);
    expect(app.element.querySelector(".window-header .aventure-guide-button")).not.toBeNull();
    expect(text(app.element)).toContain("Sous pression (−3 par nouvelle tentative)");
    const css = (await import("node:fs")).readFileSync(new URL("../../styles/polaris.css", import.meta.url), "utf8");
    expect(css).toMatch(/\.aventure-polaris-body \.form-group > label \{[^}]*white-space: normal/);
    expect(css).not.toMatch(/aventure-inline \{[^}]*nowrap/);
  });
});

describe("the Polaris countdown (RULES.md §9.1)", () => {
  it(
    "3 attempts, a catastrophe costs 1 more: a failure, then a catastrophe → none left, the planned event happens (shown, not applied)",
    T,
    async () => {
      const { world } = await boot();
      const app = await open(world);
      await world.as("gm1", async () => {
        await app.setField("chance", "3");
        await app.setField("countdownMax", "3");
      });
      expect(text(app.element)).toContain("Attempt 1: 3 attempts left out of 3.");
      expect(field(app, "attempt")).toBeNull(); // the countdown counts the attempts
      world.queueRolls(4); // final 3, die 4: failure by 1 (Barely)
      await roll(world, app);
      expect(lastCard(world)).toContain("Countdown: 2 attempts left out of 3.");
      expect(text(app.element)).toContain("Attempt 2: 2 attempts left out of 3.");
      expect(text(app.element)).toContain("Retry penalty −1 (attempt 2)");
      const mark = world.writes.length;
      world.queueRolls(17); // final 3 − 1 = 2, die 17: failure by 15, Catastrophique: 1 + 1 more
      await roll(world, app);
      const card = lastCard(world);
      expect(card).toContain("Retry penalty −1");
      expect(card).toContain("Final chance 2");
      expect(card).toContain("Failure — Catastrophic (−6)");
      expect(card).toContain("Catastrophe: it uses 1 more attempt.");
      expect(card).toContain("The countdown runs out: the planned event happens.");
      expect(cardOf(cards(world).at(-1)!, "polarisTest")).toMatchObject({
        countdown: { left: 0, exhausted: true, succeeded: false },
      });
      // Shown, not applied: one chat card and nothing else was written.
      expect(gameWrites(world, mark).map((w) => `${w.action} ${w.documentName}`)).toEqual(["create ChatMessage"]);
      expect(rollButton(app).disabled).toBe(true);
      expect(text(app.element)).toContain("The countdown runs out: the planned event happens.");
      // New test: the countdown starts again.
      await world.as("gm1", () => app.click("[data-action='reset']"));
      expect(rollButton(app).disabled).toBe(false);
      expect(text(app.element)).toContain("Attempt 1: 3 attempts left out of 3.");
    },
  );

  it(
    "a catastrophe costing 2 more uses 3 of 4; a success stops the countdown; an ended countdown rolls nothing",
    T,
    async () => {
      const { world } = await boot();
      world.queueRolls(17);
      const first = (await test(world, {
        chance: 2,
        difficulty: "average",
        countdown: { maxAttempts: 4, catastropheCost: 2 },
      }))!;
      expect(first).toMatchObject({ countdown: { left: 1, succeeded: false, exhausted: false } });
      world.queueRolls(1);
      const second = (await test(world, {
        chance: 10,
        difficulty: "average",
        countdown: { maxAttempts: 4, catastropheCost: 2, tests: [first.result] },
      }))!;
      expect(second.result.finalChance).toBe(9); // attempt 2: −1
      expect(second).toMatchObject({ countdown: { left: 0, succeeded: true, exhausted: false } });
      expect(cards(world).at(-1)!.content).toContain("The countdown stops here: this test succeeded.");
      const rolled = world.rollsMade.length;
      await expect(
        test(world, {
          chance: 10,
          difficulty: "average",
          countdown: { maxAttempts: 4, tests: [first.result, second.result] },
        }),
      ).rejects.toThrow(/countdown\.over/);
      await expect(test(world, { chance: 10, difficulty: "average", countdown: { maxAttempts: 0 } })).rejects.toThrow(
        /OutOfRange/,
      );
      await expect(
        test(world, { chance: 10, difficulty: "average", countdown: { maxAttempts: 3, catastropheCost: 3 } }),
      ).rejects.toThrow(/OutOfRange/);
      expect(world.rollsMade.length).toBe(rolled);
    },
  );

  it("in French", T, async () => {
    const { world } = await boot({ lang: "fr" });
    world.queueRolls(20);
    await test(world, { chance: 5, difficulty: "average", countdown: { maxAttempts: 2 } });
    const c = lastCard(world);
    expect(c).toContain("Catastrophe\u00a0: elle coûte 1 tentative de plus.");
    expect(c).toContain("Le compte à rebours est écoulé\u00a0: l’événement prévu se produit.");
  });
});

describe("the token HUD's Polaris test button", () => {
  it(
    "shows to the token's owners with the Polaris ruleset only, with its own icon and a localized tooltip; opens the dialog for its actor",
    T,
    async () => {
      const { world, scene } = await boot({ lang: "fr" });
      world.addUserActor({ _id: "diver", name: "Plongeuse", ownership: { p1: 3 }, system: {} });
      world.addUserActor({ _id: "shark", name: "Requin", system: {} });
      const mine = world.addToken(scene, { _id: "tDiver", name: "Plongeuse", actorId: "diver", actorLink: true });
      const theirs = world.addToken(scene, { _id: "tShark", name: "Requin", actorId: "shark", actorLink: true });
      const button = (token: typeof mine, user: string) =>
        world.renderTokenHUD(token, user).querySelector<HTMLButtonElement>("[data-action='aventure-polaris-test']");
      const b = button(mine, "p1")!;
      expect(b.dataset.tooltip).toBe("Test Polaris");
      expect(b.querySelector("i")!.className).toBe("fa-solid fa-dice-d20");
      // Its own icon: no other Aventure button of the HUD (all of them, as the GM sees them, every feature borrowed) uses it.
      for (const [key, from] of [
        ["borrowTravel", "rnp"],
        ["borrowHiding", "rnp"],
        ["borrowJumps", "rnp"],
        ["borrowFalls", "rnp"],
        ["borrowSuffocation", "rnp"],
        ["borrowPursuit", "pmt"],
      ])
        await set(world, key!, from);
      const icons = [...world.renderTokenHUD(mine, "gm1").querySelectorAll("[data-action^='aventure-'] i")].map(
        (i) => i.className,
      );
      expect(icons.length).toBeGreaterThan(3);
      expect(icons.filter((c) => c === "fa-solid fa-dice-d20")).toHaveLength(1);
      expect(button(theirs, "p1")).toBeNull();
      expect(button(theirs, "gm1")).not.toBeNull();
      const opened: Dialog[] = [];
      world.as("p1", () =>
        Hooks.on("renderPolarisTestDialog" as never, ((app: Dialog) => void opened.push(app)) as never),
      );
      world.click("p1", b);
      await world.settle();
      expect(opened).toHaveLength(1);
      expect(field(opened[0]!, "label")!.value).toBe("Plongeuse");
      await set(world, "ruleset", "rnp");
      expect(button(mine, "p1")).toBeNull();
    },
  );
});

describe("changing intention (RULES.md §9.2): an Adaptation test from the tracker, confusion on a catastrophe", () => {
  /**
   * Mercenaire (12, Réaction 14), Plongeuse (9, Réaction 12, p1's), Requin (9, Réaction 10); Adaptation levels read
   * through the keyed Actor data paths (none for Requin when `sharkAsks`: the user is asked). Round 1, Mercenaire's turn.
   */
  async function intentionCombat(
    opts: { adaptation?: Record<string, number>; sharkAsks?: boolean; lang?: "en" | "fr" } = {},
  ) {
    const { world } = await boot({ lang: opts.lang });
    await set(world, "actorData", {
      ...EMPTY_PATHS,
      polarisInitiative: "system.init",
      polarisReaction: "system.reaction",
      polarisSkillLevel: "system.skills.*.value",
      polarisSkillMastery: "system.skills.*.mastery",
    });
    const adaptation = { merc: 11, diver: 11, shark: 11, ...opts.adaptation };
    const scene = world.scenes.get("s1")!;
    const people = [
      ["merc", "Mercenaire", 12, 14, {}],
      ["diver", "Plongeuse", 9, 12, { p1: 3 }],
      ["shark", "Requin", 9, 10, {}],
    ] as const;
    for (const [id, name, init, reaction, ownership] of people) {
      const skills =
        id === "shark" && opts.sharkAsks ? {} : { skills: { adaptation: { value: adaptation[id], mastery: 2 } } };
      world.addUserActor({ _id: id, name, ownership, system: { init, reaction, ...skills } });
      world.addToken(scene, { _id: `t${id}`, name, actorId: id, actorLink: true });
    }
    const id = await world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments(
        "Combatant",
        people.map(([a]) => ({ tokenId: `t${a}`, sceneId: "s1" })),
      );
      return c.id;
    });
    await act(world, "gm1", id, (c) => c.rollAll());
    await act(world, "gm1", id, (c) => c.startCombat());
    const c = combatOf(world, "gm1", id);
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin"]);
    return { world, id, c };
  }
  const intentionEntry = (entries: Plain[]) =>
    entries.find((e) => e.name === "Change intention (Adaptation)" || e.name === "Changer d’intention (Adaptation)")!;
  /** `user` right-clicks `name` in the tracker: whether the entry shows, and its click. */
  async function menu(world: FakeWorld, user: string, c: FakeCombat, name: string) {
    const { entries, row } = await tracker(world, user);
    const e = intentionEntry(entries);
    const li = row(byName(c, name).id);
    return {
      visible: world.as(user, () => (e.condition as (li: HTMLElement) => boolean)(li)),
      click: async () => {
        world.as(user, () => (e.callback as (li: HTMLElement) => void)(li));
        await world.settle();
      },
    };
  }
  const intentionCards = (world: FakeWorld) => cards(world).filter((m) => cardOf(m, "polarisIntention") !== undefined);
  const confused = (c: FakeCombat) =>
    c.getFlag("aventure", "polarisConfused") as { round: number; ids: string[] } | undefined;
  const badges = async (world: FakeWorld, user = "gm1") =>
    [...(await tracker(world, user)).root.querySelectorAll(".aventure-badge")].map(text);

  it("the owner's success (Adaptation 11, die 5): may change the action; a GM's card; once per round", T, async () => {
    const { world, c } = await intentionCombat();
    expect((await menu(world, "p1", c, "Requin")).visible).toBe(false); // not the player's
    const m = await menu(world, "p1", c, "Plongeuse");
    expect(m.visible).toBe(true);
    world.queueRolls(5);
    await m.click();
    expect(intentionCards(world)).toHaveLength(1);
    const card = intentionCards(world)[0]!;
    expect(card.author!.id).toBe("gm1");
    expect(card.type).toBe("aventure.polarisIntention");
    expect(cardOf(card, "polarisIntention")).toMatchObject({
      v: 1,
      combatant: byName(c, "Plongeuse").id,
      round: 1,
      success: true,
      confused: false,
      status: "done",
    });
    const t = lastCard(world);
    expect(t).toContain("Change of intention — Plongeuse");
    expect(t).toContain("Adaptation level 11");
    expect(t).toContain("Success — Fairly good (+2)"); // margin 11 − 5 = 6
    expect(t).toContain("Success: Plongeuse may change the declared action, with the GM's agreement.");
    expect(confused(c)).toBeUndefined();
    // Once per combatant and round: the entry is gone, and a request (the console) is refused.
    expect((await menu(world, "p1", c, "Plongeuse")).visible).toBe(false);
    const reply = await forgeRequest(world, "p1", "polarisIntention", {
      combatId: c.id,
      combatantId: byName(c, "Plongeuse").id,
      chance: 11,
    });
    expect(reply).toMatchObject({ ok: false, key: "AVENTURE.Polaris.intention.already" });
    expect(intentionCards(world)).toHaveLength(1);
    expect(world.rollsMade).toHaveLength(1);
  });

  it(
    "a catastrophe (Adaptation 3, die 18: failure by 15): confused, skipped for the rest of the round, shown, cleared at the next round",
    T,
    async () => {
      const { world, id, c } = await intentionCombat({ adaptation: { shark: 3 } });
      world.queueRolls(18);
      await (await menu(world, "gm1", c, "Requin")).click();
      expect(lastCard(world)).toContain("Failure — Catastrophic (−6)");
      expect(lastCard(world)).toContain(
        "Catastrophe: Requin, confused, does nothing at all this round (skipped in the combat tracker until the next round).",
      );
      expect(confused(c)).toEqual({ round: 1, ids: [byName(c, "Requin").id] });
      expect(cardOf(intentionCards(world)[0]!, "polarisIntention")).toMatchObject({
        confused: true,
        status: "done",
      });
      expect(await badges(world, "p1")).toEqual(["confused"]);
      // The turn passes from Mercenaire to Plongeuse, then over Requin to round 2.
      await act(world, "gm1", id, (x) => x.nextTurn());
      expect(c.combatant!.name).toBe("Plongeuse");
      await act(world, "p1", id, (x) => x.nextTurn()); // the current combatant's owner ends the turn
      expect(c.round).toBe(2);
      expect(c.combatant!.name).toBe("Mercenaire");
      expect(confused(c)).toBeUndefined();
      expect(await badges(world)).toEqual([]);
      await act(world, "gm1", id, (x) => x.nextTurn());
      await act(world, "gm1", id, (x) => x.nextTurn());
      expect(c.combatant!.name).toBe("Requin"); // acts again in round 2
      // A new round, a new test.
      expect((await menu(world, "gm1", c, "Requin")).visible).toBe(true);
    },
  );

  it("a catastrophe on the combatant whose turn it is: its turn ends at once", T, async () => {
    const { world, c } = await intentionCombat({ adaptation: { merc: 3 } });
    expect(c.combatant!.name).toBe("Mercenaire");
    world.queueRolls(20);
    await (await menu(world, "gm1", c, "Mercenaire")).click();
    expect(confused(c)!.ids).toEqual([byName(c, "Mercenaire").id]);
    expect(c.round).toBe(1);
    expect(c.combatant!.name).toBe("Plongeuse");
  });

  it(
    "without the Actor data paths the level is asked (here 4, Difficile −5, die 19); closed, nothing happens",
    T,
    async () => {
      const { world, c } = await intentionCombat({ sharkAsks: true, lang: "fr" });
      world.answerDialog("gm1", null);
      await (await menu(world, "gm1", c, "Requin")).click();
      expect(intentionCards(world)).toHaveLength(0);
      expect(world.dialogsShown[0]!.title).toBe("Changer d’intention (Adaptation)");
      world.answerDialog("gm1", { chance: "4", mastery: "", difficulty: "hard" });
      world.queueRolls(19);
      await (await menu(world, "gm1", c, "Requin")).click();
      const t = lastCard(world);
      expect(t).toContain("Difficile (−5)");
      expect(t).toContain("Chance finale −1"); // 4 − 5: automatic failure, the die (19) is the margin
      expect(t).toContain("Catastrophe\u00a0: confusion, Requin ne fait rien du tout ce round");
      expect(confused(c)!.ids).toEqual([byName(c, "Requin").id]);
    },
  );

  it(
    "refused to a player for a combatant not theirs, with bad fields, before the combat starts: nothing rolled, nothing written",
    T,
    async () => {
      const { world, c } = await intentionCombat();
      const shark = byName(c, "Requin").id;
      const diver = byName(c, "Plongeuse").id;
      const mark = world.writes.length;
      const ask = (data: unknown) => forgeRequest(world, "p1", "polarisIntention", data);
      expect(await ask({ combatId: c.id, combatantId: shark, chance: 11 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.NotOwner",
      });
      // A userId, user or isGM inside the request changes nothing: the sender comes from the server.
      expect(await ask({ combatId: c.id, combatantId: shark, chance: 11, userId: "gm1", isGM: true })).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.NotOwner",
      });
      expect(await ask({ combatId: c.id, combatantId: diver, chance: 1000 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.OutOfRange",
      });
      expect(await ask({ combatId: c.id, combatantId: diver, chance: 11, mastery: 2.5 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.NotAnInteger",
      });
      expect(await ask({ combatId: c.id, combatantId: diver, chance: 11, difficulty: "tricky" })).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.UnknownValue",
      });
      // Wrong-typed or oversized values (the request's model, then the rules): refused, nothing rolled.
      for (const [data, key] of [
        [{ combatId: c.id, combatantId: diver, chance: "11" }, "AVENTURE.Error.NotANumber"],
        [{ combatId: c.id, combatantId: diver, chance: 11, difficulty: null }, "AVENTURE.Error.UnknownValue"],
        [
          { combatId: c.id, combatantId: diver, chance: 11, difficulty: "x".repeat(5000) },
          "AVENTURE.Error.UnknownValue",
        ],
        [{ combatId: c.id, combatantId: [diver], chance: 11 }, "AVENTURE.Combat.badRequest"],
        [{ combatId: c.id, combatantId: "d".repeat(5000), chance: 11 }, "AVENTURE.Combat.badRequest"],
      ] as const)
        expect(await ask(data)).toMatchObject({ ok: false, key });
      expect(await ask({ combatId: c.id, combatantId: "../x", chance: 11 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Combat.badRequest",
      });
      expect(await ask({ combatId: "nope", combatantId: diver, chance: 11 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Combat.noCombat",
      });
      expect(await ask([1, 2])).toMatchObject({ ok: false, key: "AVENTURE.Combat.badRequest" });
      await set(world, "ruleset", "rnp");
      expect(await ask({ combatId: c.id, combatantId: diver, chance: 11 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Polaris.intention.off",
      });
      await set(world, "ruleset", "polaris");
      expect(gameWrites(world, mark).filter((w) => w.documentName !== "Setting")).toEqual([]);
      expect(world.rollsMade).toEqual([]);
      // A combat not started yet.
      const other = await world.as("gm1", async () => {
        const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
        const x = await Combat.create({ scene: "s1", active: false });
        await x.createEmbeddedDocuments("Combatant", [{ tokenId: "tdiver", sceneId: "s1" }]);
        return x;
      });
      expect(
        await ask({ combatId: other.id, combatantId: other.combatants.contents[0]!.id, chance: 11 }),
      ).toMatchObject({ ok: false, key: "AVENTURE.Polaris.intention.notStarted" });
      expect(world.rollsMade).toEqual([]);
    },
  );

  it(
    "a forged card (a player's message with the intention's flags) is never taken for the test: no confusion, the test still possible",
    T,
    async () => {
      const { world, c } = await intentionCombat();
      const diver = byName(c, "Plongeuse").id;
      await forgeCard(world, "p1", {
        polarisIntention: {
          v: 1,
          combat: c.id,
          combatant: diver,
          round: 1,
          success: false,
          confused: true,
          status: "applying",
        },
      });
      await world.reload("gm1"); // the recovery runs on ready
      await world.settle();
      expect(confused(combatOf(world, "gm1", c.id))).toBeUndefined();
      expect((await menu(world, "p1", combatOf(world, "p1", c.id), "Plongeuse")).visible).toBe(true);
    },
  );

  it(
    "attack: a player's own aventure.polarisIntention message is never taken for the test; a GM's card of an earlier version (flags) still counts",
    T,
    async () => {
      const { world, c } = await intentionCombat();
      const diver = byName(c, "Plongeuse").id;
      const state = { v: 1, combat: c.id, combatant: diver, round: 1, success: false, confused: true };
      await world.as("p1", () =>
        ChatMessage.implementation.create({
          content: "<p>x</p>",
          type: "aventure.polarisIntention",
          system: { ...state, status: "applying" },
        } as never),
      );
      await world.reload("gm1"); // the recovery runs on ready
      await world.settle();
      expect(confused(combatOf(world, "gm1", c.id))).toBeUndefined();
      expect((await menu(world, "p1", combatOf(world, "p1", c.id), "Plongeuse")).visible).toBe(true);
      // The same test on a GM's card of an earlier version: made this round, the entry is gone.
      world.addMessage({
        author: "gm1",
        content: "<p>x</p>",
        flags: { aventure: { polarisIntention: { ...state, status: "done" } } },
      });
      expect((await menu(world, "p1", combatOf(world, "p1", c.id), "Plongeuse")).visible).toBe(false);
    },
  );

  it(
    "two GMs click at once (one is not the active GM): one test, one card; the other is told it was made",
    T,
    async () => {
      const { world, c } = await intentionCombat({ adaptation: { shark: 3 } });
      world.queueRolls(18, 2);
      const m1 = await menu(world, "gm1", c, "Requin");
      const m2 = await menu(world, "gm2", combatOf(world, "gm2", c.id), "Requin");
      await Promise.all([m2.click(), m1.click()]);
      await world.settle();
      expect(intentionCards(world)).toHaveLength(1);
      expect(intentionCards(world)[0]!.author!.id).toBe("gm1");
      expect(world.rollsMade).toHaveLength(1);
      expect(confused(c)!.ids).toEqual([byName(c, "Requin").id]);
      expect(errors(world, "gm1").concat(errors(world, "gm2"))).toEqual([
        "Requin already tried to change intention this round.",
      ]);
    },
  );
});

describe("changing intention exactly once across a crash of the active GM at any write", () => {
  /** p1 asks for Plongeuse (Adaptation 3, die 18: a catastrophe); the active GM's client crashes before its k-th write. */
  async function crashRun(k: number | null) {
    const { world } = await boot();
    await set(world, "actorData", {
      ...EMPTY_PATHS,
      polarisInitiative: "system.init",
      polarisReaction: "system.reaction",
      polarisSkillLevel: "system.skills.*.value",
    });
    const scene = world.scenes.get("s1")!;
    for (const [id, name, init, own] of [
      ["merc", "Mercenaire", 12, {}],
      ["diver", "Plongeuse", 9, { p1: 3 }],
    ] as const) {
      world.addUserActor({
        _id: id,
        name,
        ownership: own,
        system: { init, reaction: 10, skills: { adaptation: { value: 3 } } },
      });
      world.addToken(scene, { _id: `t${id}`, name, actorId: id, actorLink: true });
    }
    const id = await world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments("Combatant", [
        { tokenId: "tmerc", sceneId: "s1" },
        { tokenId: "tdiver", sceneId: "s1" },
      ]);
      return c.id;
    });
    await act(world, "gm1", id, (c) => c.rollAll());
    await act(world, "gm1", id, (c) => c.startCombat());
    world.queueRolls(18, 18);
    const mark = world.writes.length;
    if (k !== null) world.crashAt(k, (w) => w.user === "gm1");
    const c = combatOf(world, "p1", id);
    const { entries, row } = await tracker(world, "p1");
    const e = entries.find((x) => x.name === "Change intention (Adaptation)")!;
    world.as("p1", () => (e.callback as (li: HTMLElement) => void)(row(byName(c, "Plongeuse").id)));
    await world.settle({ allowErrors: true });
    if (k !== null) {
      if (world.clients.get("gm1")?.alive) throw new Error(`gm1 made fewer than ${k} writes`);
      await world.reload("gm1");
      await world.settle();
    }
    return { world, id, mark };
  }
  const intentionCards = (world: FakeWorld) => cards(world).filter((m) => cardOf(m, "polarisIntention") !== undefined);

  it("counts the active GM's writes (so the loop below covers every crash point)", T, async () => {
    const { world, mark } = await crashRun(null);
    // receipt (working), the card (the key, applying), the confusion, the card done, the receipt's reply, delete the
    // request, delete the receipt
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage",
      "create ChatMessage",
      "update Combat",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (let k = 1; k <= 7; k++) {
    it(
      `crash before the active GM's write ${k}: one test at most, its confusion applied once and the card done`,
      T,
      async () => {
        expectRequestCrashLogs(k, 4);
        const { world, id } = await crashRun(k);
        const combat = combatOf(world, "gm2", id);
        const made = intentionCards(world);
        // Before write 1 nothing was picked up: the next active GM (gm2) answers the request. Before write 2 (the card,
        // the key) the die was never shown: the player is told "interrupted" and may ask again. From write 3 on, the
        // card exists and the recovery finishes what it says.
        expect(made).toHaveLength(k === 2 ? 0 : 1);
        expect(made.every((m) => m.author!.isGM)).toBe(true);
        const state = combat.getFlag("aventure", "polarisConfused") as { ids: string[] } | undefined;
        if (made.length === 1) {
          expect(cardOf(made[0]!, "polarisIntention")).toMatchObject({ confused: true, status: "done" });
          expect(state!.ids).toEqual([byName(combat, "Plongeuse").id]);
        } else {
          expect(state).toBeUndefined();
          expect(
            errors(world, "p1").length + world.notifications.filter((n) => n.user === "p1").length,
          ).toBeGreaterThan(0);
        }
      },
    );
  }
});
