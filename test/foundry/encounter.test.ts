/**
 * The encounter procedure with Foundry rolls (RULES.md §7.1, §7.2, §7.4) and "Start combat" against the fake world
 * (test/world): the sides from the selected tokens, the card (one message, GM-only option), the surprised side skipped
 * in round 1 only with its marker (Aventure's own, flagged in the same write), pmt's "everyone surprised: nobody acts
 * in round 1", one combat however often Start is clicked and by however many GMs, forged requests refused, names
 * escaped. Expected values come from RULES.md §7, not from the code.
 */
import { describe, expect, it } from "vitest";
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
  turnLog,
  viewScene,
  type FakeActor,
  type FakeCombat,
  type FakeWorld,
} from "../world/index.js";
import type { EncounterDialogState } from "../../src/encounter/encounter-context.js";
import { encounterDialogContext, fleeHandOver } from "../../src/encounter/encounter-context.js";
import { fleeOptions, rollEncounter, tokensFromSelection } from "../../src/encounter/encounter.js";
import type { EncounterResult } from "../../src/encounter/run.js";
import { surprisedSides } from "../../src/rules/encounter.js";
import { rollSurprise, sideOfDisposition, tokensToSides } from "../../src/core/sides.js";
import { fixedDice } from "../../src/rules/dice.js";
import { cardsOf } from "./card-state.js";

const USERS = [GM, GM2, PLAYER, PLAYER2];
const T = { timeout: 60_000 };
type Plain = Record<string, unknown>;

interface Dialog {
  encounter: EncounterDialogState;
  element: HTMLElement;
  lastHTML: string;
  closed: boolean;
  options: { actions: Record<string, (this: unknown, event?: Event, target?: HTMLElement) => Promise<void>> };
  render(): Promise<unknown>;
  setField(name: string, value: string | boolean): Promise<void>;
  pursuit: {
    setup: {
      place: string;
      fleeingSide: string;
      surprise: string;
      reactionTotal: number | null;
      groups: Record<string, { names: string[] }>;
    };
  } | null;
  click(selector: string): Promise<void>;
}
type Api = {
  openEncounter(): Promise<Dialog | undefined>;
  openPolarisTest(): Promise<{ lastHTML: string } | undefined>;
};

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));

/** dnd5e: Aldric (p1, CHA 14: +2) and Brune (p1, CHA 8: −1), friendly; an orc, hostile; all selected by both GMs. */
async function boot(ruleset: "ose" | "pmt", opts: { heroName?: string } = {}) {
  const world = await bootWorld({ system: "dnd5e", users: USERS });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await set(world, "ruleset", ruleset);
  addDnd5eActor(world, { id: "hero", name: opts.heroName ?? "Aldric", owner: "p1", abilities: { cha: 14 } });
  addDnd5eActor(world, { id: "monk", name: "Brune", owner: "p1", abilities: { cha: 8 } });
  addDnd5eActor(world, { id: "orc", name: "Orc", type: "npc" });
  world.addToken(scene, {
    _id: "tHero",
    name: opts.heroName ?? "Aldric",
    actorId: "hero",
    actorLink: true,
    disposition: 1,
  });
  world.addToken(scene, { _id: "tMonk", name: "Brune", actorId: "monk", actorLink: true, disposition: 1 });
  world.addToken(scene, { _id: "tOrc", name: "Orc", actorId: "orc", actorLink: true, disposition: -1 });
  for (const gm of ["gm1", "gm2"]) control(world.clientOf(gm), "tHero", "tMonk", "tOrc");
  turnLog.splice(0);
  return { world, scene };
}

function state(world: FakeWorld, patch: Partial<EncounterDialogState> = {}, user = "gm1"): EncounterDialogState {
  return world.as(user, () => ({
    ruleset: game.settings.get("aventure" as never, "ruleset" as never) as "ose",
    where: "wilderness",
    tokens: tokensFromSelection(),
    aware: {},
    speakerId: "tHero",
    rollReaction: true,
    gmOnly: false,
    result: null,
    ...patch,
  }));
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);

/**
 * The GM's encounter dialog (the client's own module), optionally with a place and a rolled result, then its Start
 * combat button. (The module's functions are per client: a test calls them through the client's dialog or API.)
 */
async function openDialog(world: FakeWorld, user = "gm1", where?: string): Promise<Dialog> {
  const app = (await world.as(user, () => api(world, user).openEncounter()))!;
  if (where) await world.as(user, () => app.setField("where", where));
  return app;
}
async function start(
  world: FakeWorld,
  app: Dialog,
  result: EncounterResult | null = null,
  user = "gm1",
): Promise<void> {
  app.encounter.result = result;
  await world.as(user, () => app.click("[data-action='start']"));
  await world.settle();
}
const encounterCards = (world: FakeWorld) => cardsOf(world.messages.contents, "encounter");
const sideCards = (world: FakeWorld) => cardsOf(world.messages.contents, "sideRound");
const combats = (world: FakeWorld) => world.as("gm1", () => game.combats.contents as unknown as FakeCombat[]);
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
const actor = (world: FakeWorld, id: string) => world.actors.get(id) as FakeActor;
const act = async (world: FakeWorld, user: string, fn: (c: FakeCombat) => Promise<unknown>) => {
  await world.as(user, () => fn(game.combat as unknown as FakeCombat));
  await world.settle();
};

describe("sides (reusable helpers)", () => {
  it("groups tokens by disposition; secret tokens join the hostile side; a picked side wins", () => {
    expect([1, 0, -1, -2].map(sideOfDisposition)).toEqual(["friendly", "neutral", "hostile", "hostile"]);
    const tokens = [
      { id: "a", name: "A", disposition: 1 },
      { id: "b", name: "B", disposition: -2 },
      { id: "c", name: "C", disposition: 0 },
    ];
    expect(tokensToSides(tokens).map((s) => [s.id, s.tokens.map((t) => t.id)])).toEqual([
      ["friendly", ["a"]],
      ["neutral", ["c"]],
      ["hostile", ["b"]],
    ]);
    expect(tokensToSides(tokens, { c: "friendly" }).map((s) => [s.id, s.tokens.map((t) => t.id)])).toEqual([
      ["friendly", ["a", "c"]],
      ["hostile", ["b"]],
    ]);
  });

  it("rolls surprise only for the sides that are not aware (1–2 surprised)", async () => {
    const r = await rollSurprise(
      [
        { id: "friendly", aware: true },
        { id: "hostile", aware: false },
      ],
      "ose",
      fixedDice([2]),
    );
    expect(r.rolls).toEqual({ friendly: null, hostile: 2 });
    expect(r.outcome.surprised).toEqual(["hostile"]);
    expect(r.outcome.firstRound).toEqual(["friendly"]);
  });
});

describe("the encounter dialog's rolls (ose)", () => {
  it(
    "rolls surprise, then the distance (1d4 × 10 m outdoors when a side is surprised), then 2d6 + CHA, on one card",
    T,
    async () => {
      const { world } = await boot("ose");
      // friendly 5 (alert), hostile 2 (surprised); distance 1d4 → 3 → 30 m; reaction 4 + 5 + CHA 2 = 11 → indifferent.
      world.queueRolls(5, 2, 3, 4, 5);
      const result = await world.as("gm1", () => rollEncounter(state(world)));
      expect(result.surprise!.outcome.surprised).toEqual(["hostile"]);
      expect(result.distance).toEqual({ metres: 30, dice: [3], formula: "1d4*10", multiplier: 10 });
      expect(result.reaction).toEqual({ dice: [4, 5], modifier: 2, total: 11, result: "indifferent" });
      expect(world.messages.contents).toHaveLength(1);
      const m = world.messages.contents[0]!;
      expect(m.whisper).toEqual([]);
      expect(m.author!.id).toBe("gm1");
      expect(m.rolls).toHaveLength(4);
      // The distance reads as a GM says it: the die, what it gave, then the metres per point.
      expect(m.content.replace(/<[^>]+>/g, "").replace(/\s+/g, " ")).toContain("30 m (1d4 → 3, × 10 m)");
      expect(m.content).toContain("Indifferent, uninterested");
      expect(m.content).toContain("Surprised, cannot act in the first round: Hostile. Acting first: Friendly.");
      expect(world.rollQueue).toEqual([]);
    },
  );

  it(
    "an aware side does not roll; the card can go to the GMs only; pmt rolls the distance first and no CHA",
    T,
    async () => {
      const { world } = await boot("pmt");
      // pmt dungeon: distance 1d6 × 5 (4 → 20 m), then surprise for the hostile side only (6), reaction 2d6 = 12.
      world.queueRolls(4, 6, 6, 6);
      const result = await world.as("gm1", () =>
        rollEncounter(state(world, { where: "dungeon", aware: { friendly: true }, gmOnly: true })),
      );
      expect(result.distance.metres).toBe(20);
      expect(world.messages.contents[0]!.content.replace(/<[^>]+>/g, "").replace(/\s+/g, " ")).toContain(
        "20 m (1d6 → 4, × 5 m)",
      );
      expect(result.surprise!.rolls).toEqual({ friendly: null, hostile: 6 });
      expect(result.reaction).toEqual({ dice: [6, 6], modifier: 0, total: 12, result: "hostile" });
      expect(world.messages.contents[0]!.whisper).toEqual(["gm1", "gm2"]);
      expect(world.messages.contents[0]!.content).toContain("Hostile, attacks");
      expect(world.visibleMessages("p1")).toEqual([]);
    },
  );

  it("refuses players, and nothing is rolled or posted", T, async () => {
    const { world } = await boot("ose");
    await expect(world.as("p1", () => rollEncounter(state(world, {}, "gm1")))).rejects.toThrow(/GMOnly/);
    expect(world.messages.contents).toEqual([]);
    expect(world.rollsMade).toEqual([]);
  });

  it("builds the dialog context: sides by disposition, speakers with their CHA (ose), the rules used", T, async () => {
    const { world } = await boot("ose");
    const ctx = world.as("gm1", () => encounterDialogContext(state(world), (k, d) => game.i18n.format(k, d as never)));
    expect(ctx.sides.map((s) => [s.id, s.tokens.map((t) => t.name)])).toEqual([
      ["friendly", ["Aldric", "Brune"]],
      ["hostile", ["Orc"]],
    ]);
    expect(ctx.speakers.map((s) => s.label)).toEqual(["Aldric (CHA +2)", "Brune (CHA -1)"]);
    expect(ctx.rulesNote).toBe("Rules: Old-School Essentials");
  });

  it("a name that is HTML stays text: on the card, in the dialog", T, async () => {
    const evil = `<img src=x onerror="alert(1)">`;
    const { world } = await boot("ose", { heroName: evil });
    const app = (await world.as("gm1", () => api(world).openEncounter()))!;
    expect(app.element.querySelector("img")).toBeNull();
    expect(app.element.textContent).toContain(evil);
    world.queueRolls(5, 2, 3, 3, 4, 5); // dungeon (ose): surprise 5 / 2, distance 2d6 × 3 m, reaction 2d6
    await world.as("gm1", () => app.click("[data-action='roll']"));
    await world.settle();
    const card = world.renderMessage(encounterCards(world)[0]!, "p1");
    expect(card.querySelector("img")).toBeNull();
    expect(card.textContent).toContain(`${evil} speaks`);
    expect(app.element.querySelector("img")).toBeNull();
  });
});

describe("Start combat", () => {
  it(
    "creates the combat with the tokens, marks the surprised side (Aventure's own, in the same write) and skips it in round 1 only",
    T,
    async () => {
      const { world } = await boot("ose");
      world.queueRolls(4, 1, 2, 3, 3); // friendly 4, hostile 1 (surprised); 1d4 → 2; reaction 3 + 3
      const result = await world.as("gm1", () => rollEncounter(state(world)));
      await start(world, await openDialog(world, "gm1", "wilderness"), result);
      const [combat] = combats(world);
      expect(combats(world)).toHaveLength(1);
      expect(combat!.combatants.contents.map((c) => c.name).sort()).toEqual(["Aldric", "Brune", "Orc"]);
      // Aventure's own marker through the adapter (dnd5e's Surprised would add disadvantage on initiative under its 2024
      // rules: docs/compat.md), flagged as Aventure's in its creation write.
      expect(actor(world, "orc").statuses.has("aventure-surprised")).toBe(true);
      expect(actor(world, "orc").statuses.has("surprised")).toBe(false);
      const creation = world.writes.filter((w) => w.action === "create" && w.documentName === "ActiveEffect");
      expect(creation).toHaveLength(1);
      expect((creation[0]!.data as { flags?: Plain }).flags).toMatchObject({ aventure: { applied: true } });
      expect(world.notifications.filter((n) => n.type === "info").map((n) => n.message)).toEqual([
        "Combat started: side initiative takes over.",
      ]);
      // Round 1: only the friendly side acts (alone: no die rolled); the orc has no initiative and is skipped.
      expect(combat!.round).toBe(1);
      expect(world.rollQueue).toEqual([]);
      expect(combat!.combatant!.name).toBe("Aldric");
      const turnHooks: unknown[] = [];
      world.as("gm1", () =>
        Hooks.on("combatTurn", ((_c: unknown, data: unknown) => void turnHooks.push({ ...(data as Plain) })) as never),
      );
      await act(world, "gm1", (c) => c.nextTurn());
      expect(combat!.combatant!.name).toBe("Brune");
      expect(turnHooks).toEqual([{ round: 1, turn: 1 }]); // core's combatTurn hook still fires for other modules
      world.queueRolls(5, 2); // round 2: friendly 5, hostile 2
      await act(world, "gm1", (c) => c.nextTurn()); // the orc would be next: skipped, round 2 starts
      expect(combat!.round).toBe(2);
      expect(turnLog.filter((x) => x.startsWith("1:"))).toEqual(["1:Aldric", "1:Brune"]);
      expect(actor(world, "orc").statuses.has("aventure-surprised")).toBe(false); // the marker comes off in round 2
      expect(world.messages.contents.filter((m) => !m.whisper.length)).toHaveLength(3); // encounter card, round 1 (friendly alone), round 2 rolls
      expect(sideCards(world)[0]!.content).toContain("Surprised, cannot act this round: Hostile.");
    },
  );

  it("round 2 rolls both sides and the surprised side acts again", T, async () => {
    const { world } = await boot("ose");
    world.queueRolls(4, 1, 2, 3, 3);
    await start(world, await openDialog(world), await world.as("gm1", () => rollEncounter(state(world))));
    world.queueRolls(2, 6); // round 2: friendly 2, hostile 6
    await act(world, "gm1", (c) => c.nextTurn());
    await act(world, "gm1", (c) => c.nextTurn());
    const combat = combats(world)[0]!;
    expect(combat.round).toBe(2);
    expect(combat.turns.map((c) => c.name)).toEqual(["Orc", "Aldric", "Brune"]);
    expect(combat.combatant!.name).toBe("Orc");
    await act(world, "gm1", (c) => c.nextTurn());
    await act(world, "gm1", (c) => c.nextTurn());
    expect(turnLog.filter((x) => x.startsWith("2:"))).toEqual(["2:Orc", "2:Aldric", "2:Brune"]);
  });

  it("pmt, every side surprised: nobody acts in round 1, initiative is rolled in round 2", T, async () => {
    const { world } = await boot("pmt");
    world.queueRolls(3, 1, 2, 2, 5); // distance 3 → 15 m; friendly 1, hostile 2 (both surprised); reaction 2 + 5
    const s = state(world, { where: "dungeon" });
    const result = await world.as("gm1", () => rollEncounter(s));
    expect(result.surprise!.outcome.note).toBe("allSurprised");
    world.queueRolls(5, 3); // round 2 side initiative
    await start(world, await openDialog(world, "gm1", "dungeon"), result);
    const combat = combats(world)[0]!;
    expect(combat.round).toBe(2);
    expect(combat.turns.map((c) => c.initiative)).toEqual([5, 5, 3]);
    expect(world.messages.contents.map((m) => m.content.includes("nobody acts this round"))).toEqual([
      false,
      true,
      false,
    ]);
    expect(world.rollQueue).toEqual([]);
  });

  it("needs tokens on the scene", T, async () => {
    const { world } = await boot("ose");
    const app = await openDialog(world);
    app.encounter.tokens = [];
    await world.as("gm1", () => app.options.actions.start!.call(app));
    expect(errors(world, "gm1")).toEqual(["Select a token first."]);
    expect(combats(world)).toEqual([]);
    expect(app.closed).toBe(false);
  });

  it(
    "a double click on Start combat creates one combat (the button is disabled while it runs; the action runs once)",
    T,
    async () => {
      const { world } = await boot("ose");
      const app = await openDialog(world);
      const button = app.element.querySelector("[data-action='start']") as HTMLButtonElement;
      world.queueRolls(3, 6); // round 1: friendly 3, hostile 6 (nobody surprised: no roll was made in the dialog)
      world.as("gm1", () => {
        button.click();
        button.click(); // disabled: ignored
      });
      expect(button.disabled).toBe(true);
      // The same action again while it runs (a re-rendered button, a macro): ignored too.
      await world.as("gm1", () => app.options.actions.start!.call(app));
      await world.settle();
      expect(combats(world)).toHaveLength(1);
      expect(sideCards(world)).toHaveLength(1);
      expect(app.closed).toBe(true);
      expect(world.notifications.filter((n) => n.type === "error")).toEqual([]);
    },
  );

  it("two GMs clicking Start combat at once with the same tokens: one combat, the other GM is told", T, async () => {
    const { world } = await boot("ose");
    const apps = [
      (await world.as("gm1", () => api(world, "gm1").openEncounter()))!,
      (await world.as("gm2", () => api(world, "gm2").openEncounter()))!,
    ];
    world.queueRolls(3, 6);
    world.as("gm2", () => (apps[1]!.element.querySelector("[data-action='start']") as HTMLElement).click());
    world.as("gm1", () => (apps[0]!.element.querySelector("[data-action='start']") as HTMLElement).click());
    await world.settle();
    expect(combats(world)).toHaveLength(1);
    expect(sideCards(world)).toHaveLength(1);
    const refused = [...errors(world, "gm1"), ...errors(world, "gm2")];
    expect(refused).toHaveLength(1);
    expect([
      "Aldric is already in a combat started from an encounter on this scene.",
      "A combat is already being started on this scene: wait for it.",
    ]).toContain(refused[0]);
    expect(apps.filter((a) => a.closed)).toHaveLength(1);
  });

  it("attack: encounterStart from a player, or with bad values from a GM: refused, nothing written", T, async () => {
    const { world } = await boot("ose");
    const good = {
      sceneId: "s1",
      tokens: [
        { id: "tHero", side: "friendly" },
        { id: "tOrc", side: "hostile" },
      ],
      surprised: [],
      firstRound: ["friendly", "hostile"],
    };
    const mark = world.writes.length;
    expect(await forgeRequest(world, "p1", "encounterStart", { ...good, userId: "gm1", sender: "gm1" })).toEqual({
      status: "done",
      ok: false,
      key: "AVENTURE.Error.GMOnly",
      data: {},
    });
    const bad: [unknown, string][] = [
      [{ ...good, sceneId: "nope" }, "AVENTURE.Encounter.noScene"],
      [{ ...good, sceneId: { $ne: 1 } }, "AVENTURE.Encounter.badRequest"],
      [{ ...good, tokens: [] }, "AVENTURE.Error.NoToken"],
      [
        {
          ...good,
          tokens: [
            { id: "tHero", side: "friendly" },
            { id: "tHero", side: "hostile" },
          ],
        },
        "AVENTURE.Encounter.badRequest",
      ],
      [{ ...good, tokens: [{ id: "tGhost", side: "friendly" }] }, "AVENTURE.Encounter.tokenGone"],
      [{ ...good, tokens: [{ id: "tHero", side: "pirates" }] }, "AVENTURE.Encounter.badRequest"],
      [
        { ...good, tokens: Array.from({ length: 201 }, (_, i) => ({ id: `t${i}`, side: "hostile" })) },
        "AVENTURE.Encounter.badRequest",
      ],
      [{ ...good, surprised: ["everyone"] }, "AVENTURE.Encounter.badRequest"],
      [{ ...good, firstRound: "friendly" }, "AVENTURE.Encounter.badRequest"],
      [{ ...good, tokens: [{ id: ["tHero"], side: "friendly" }] }, "AVENTURE.Encounter.badRequest"],
      [{ ...good, tokens: [{ id: "tHero", side: "friendly".repeat(1000) }] }, "AVENTURE.Encounter.badRequest"],
      [{ ...good, surprised: [42] }, "AVENTURE.Encounter.badRequest"],
      [{ ...good, tokens: "tHero" }, "AVENTURE.Error.NoToken"],
      [null, "AVENTURE.Encounter.badRequest"],
    ];
    for (const [data, key] of bad)
      expect(
        await forgeRequest(world, "gm2", "encounterStart", data),
        JSON.stringify(data)?.slice(0, 80),
      ).toMatchObject({ ok: false, key });
    expect(gameWrites(world, mark)).toEqual([]);
    expect(combats(world)).toEqual([]);
    // A good request once; replayed with its id, or sent again with a new one: still one combat.
    world.queueRolls(3, 6);
    expect(await forgeRequest(world, "gm2", "encounterStart", good, "encounterStart1")).toMatchObject({ ok: true });
    const after = world.writes.length;
    expect(await forgeRequest(world, "gm2", "encounterStart", good, "encounterStart1")).toEqual({
      status: "done",
      ok: false,
      key: "AVENTURE.Request.replayed",
      data: {},
    });
    expect(await forgeRequest(world, "gm2", "encounterStart", good, "encounterStart2")).toMatchObject({
      ok: false,
      key: "AVENTURE.Encounter.alreadyFighting",
    });
    expect(gameWrites(world, after)).toEqual([]);
    expect(combats(world)).toHaveLength(1);
  });

  it("attack: a player's card carrying an encounter's flags changes nothing and gets no button", T, async () => {
    const { world } = await boot("ose");
    const forged = await forgeCard(world, "p1", {
      encounter: { where: "dungeon", distance: 1 },
      sideRound: { v: 2, combat: "x", round: 1, op: "y", kind: "public" },
    });
    for (const u of ["gm1", "gm2", "p1"]) expect(world.renderMessage(forged, u).querySelector("button")).toBeNull();
    world.queueRolls(3, 6);
    await start(world, await openDialog(world));
    expect(combats(world)[0]!.round).toBe(1);
    expect(sideCards(world).filter((m) => m.author!.isGM)).toHaveLength(1);
  });
});

describe("Flee: hand-over to the Pursuit dialog", () => {
  const tokens = [
    { id: "a", name: "Aldric", side: "friendly" as const, chaMod: 2 },
    { id: "n", name: "Colporteur", side: "neutral" as const, chaMod: 0 },
    { id: "o", name: "Orc", side: "hostile" as const, chaMod: null },
  ];
  const result = (
    surprised: ("friendly" | "neutral" | "hostile")[],
    where: "dungeon" | "wilderness" | "water" = "dungeon",
  ): EncounterResult => ({
    ruleset: "ose",
    rules: "ose",
    where,
    surprise: {
      rolls: { friendly: 3, neutral: 3, hostile: 3 },
      outcome: surprisedSides(
        (["friendly", "neutral", "hostile"] as const).map((id) => ({ id, surprised: surprised.includes(id) })),
        "ose",
      ),
    },
    distance: { metres: 6, dice: [1, 1], formula: "2d6*3", multiplier: 3 },
    reaction: { dice: [5, 6], modifier: 2, total: 13, result: "friendly" },
  });

  it("maps the place, who was surprised (the party flees) and the reaction", () => {
    expect(fleeHandOver(tokens, null, "wilderness")).toEqual({
      place: "outdoors",
      fleeingSide: "party",
      surprise: "none",
      reactionTotal: null,
    });
    expect(fleeHandOver(tokens, null, "dungeon").place).toBe("dungeon");
    expect(fleeHandOver(tokens, result([], "water"), "dungeon")).toEqual({
      place: "outdoors",
      fleeingSide: "party",
      surprise: "none",
      reactionTotal: 13,
    });
    expect(fleeHandOver(tokens, result(["friendly"]), "dungeon").surprise).toBe("fleeing");
    expect(fleeHandOver(tokens, result(["neutral", "hostile"]), "dungeon").surprise).toBe("pursuers");
    expect(fleeHandOver(tokens, result(["friendly", "neutral", "hostile"]), "dungeon").surprise).toBe("both");
    // Only some of the pursuing sides surprised: the pursuers as a group were not.
    expect(fleeHandOver(tokens, result(["hostile"]), "dungeon").surprise).toBe("none");
    expect(fleeHandOver(tokens, result(["friendly", "hostile"]), "dungeon").surprise).toBe("fleeing");
  });

  it(
    "the dialog's Flee opens the Pursuit dialog with the encounter's tokens (sides as picked), place, surprise and reaction",
    T,
    async () => {
      const { world } = await boot("ose");
      const app = await openDialog(world, "gm1", "wilderness");
      world.queueRolls(4, 1, 2, 3, 3); // friendly 4, hostile 1 (surprised); 1d4 → 2; reaction 3 + 3 + CHA 2
      await world.as("gm1", () => app.click("[data-action='roll']"));
      await world.settle();
      expect(app.encounter.result!.reaction!.total).toBe(8);
      await world.as("gm1", () => app.setField("side.tMonk", "hostile")); // Brune was moved to the other side
      await world.as("gm1", () => app.click("[data-action='flee']"));
      await world.settle();
      const s = app.pursuit!.setup;
      expect(s.groups.party!.names).toEqual(["Aldric"]);
      expect(s.groups.opponents!.names).toEqual(["Brune", "Orc"]);
      expect([s.place, s.fleeingSide, s.surprise, s.reactionTotal]).toEqual(["outdoors", "party", "pursuers", 8]);
      expect(world.rollQueue).toEqual([]);
      expect(world.messages.contents).toHaveLength(1); // only the encounter card: Flee rolls nothing by itself
    },
  );

  it("refuses players and tokens no longer on the scene; nothing opens", T, async () => {
    const { world, scene } = await boot("ose");
    const s = state(world);
    expect(() => world.as("p1", () => fleeOptions(s))).toThrow(/GMOnly/);
    scene.tokens.remove("tOrc");
    expect(() => world.as("gm1", () => fleeOptions(s))).toThrow("AVENTURE.Encounter.tokenGone"); // a UserError: localized when reported
  });
});

describe("api.openEncounter / api.openPolarisTest", () => {
  it("opens the encounter dialog for a GM with the selected tokens, and refuses players", T, async () => {
    const { world } = await boot("ose");
    const app = await world.as("gm1", () => api(world).openEncounter());
    expect(app!.lastHTML).toContain("Aldric (CHA +2)");
    expect(app!.lastHTML).toContain('name="side.tOrc"');
    expect(app!.lastHTML).toContain("Rules: Old-School Essentials");
    const refused = await world.as("p1", () => api(world, "p1").openEncounter());
    expect(refused).toBeUndefined();
    expect(world.notifications.at(-1)).toEqual({ user: "p1", type: "error", message: "Only a GM can do this." });
  });

  it("opens the Polaris test dialog for anyone; the secret difficulty is offered to GMs only", T, async () => {
    const { world } = await boot("ose");
    await set(world, "borrowPolaris", "polaris"); // Polaris tests in another game are borrowed (docs/rules.md §0)
    expect((await world.as("gm1", () => api(world).openPolarisTest()))!.lastHTML).toContain('name="secret"');
    const player = await world.as("p1", () => api(world, "p1").openPolarisTest());
    expect(player!.lastHTML).not.toContain('name="secret"');
    expect(player!.lastHTML).toContain("Heroic (−20)");
  });
});
