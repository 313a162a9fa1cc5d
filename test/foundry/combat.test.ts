/**
 * Side initiative in the combat tracker (RULES.md §7.3) with the strict combat fake: three sides over three
 * rounds with fixed dice, ties simultaneous and reroll, one message per round, one Combatant update per
 * round with turnEvents:false, nothing rolled twice with two GMs connected, a combatant added mid-combat,
 * the tracker's roll buttons (GM and player), and the world clock when the combat ends.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { bootWithCombat, FakeCombatBase, type CombatWorld } from "../fake/combat.js";
import type { FakeActor } from "../fake/foundry.js";
import { sideHeadersContext } from "../../src/foundry/combat/tracker-context.js";

const USERS = [
  { id: "gm1", isGM: true },
  { id: "gm2", isGM: true },
  { id: "p1", isGM: false },
];

let cw: CombatWorld;
let hero: FakeActor;

async function setup(ruleset: "ose" | "pmt" | "dnd5e" = "ose", ties: "simultaneous" | "reroll" = "simultaneous") {
  cw = await bootWithCombat({ systemId: "ose", users: USERS });
  const w = cw.world;
  await w.game.settings.set("aventure", "ruleset", ruleset);
  await w.game.settings.set("aventure", "sideTies", ties);
  hero = w.addActor({ _id: "hero", name: "Aldric", system: {} }, { p1: 3 });
  const scout = w.addActor({ _id: "scout", name: "Brune", system: {} }, { p1: 3 });
  const merchant = w.addActor({ _id: "merchant", name: "Colporteur", system: {} });
  const orc = w.addActor({ _id: "orc", name: "Orc", system: {} });
  const lurker = w.addActor({ _id: "lurker", name: "Rôdeur", system: {} });
  cw.addToken({ id: "tHero", name: "Aldric", disposition: 1, actor: hero });
  cw.addToken({ id: "tScout", name: "Brune", disposition: 1, actor: scout });
  cw.addToken({ id: "tMerchant", name: "Colporteur", disposition: 0, actor: merchant });
  cw.addToken({ id: "tOrc", name: "Orc", disposition: -1, actor: orc });
  cw.addToken({ id: "tLurker", name: "Rôdeur", disposition: -2, actor: lurker }); // secret → hostile
}

async function newCombat(tokens = ["tHero", "tScout", "tMerchant", "tOrc", "tLurker"]) {
  const combat = await cw.combatClass().create({ scene: "scene1", active: true });
  await combat.createEmbeddedDocuments(
    "Combatant",
    tokens.map((tokenId) => ({ tokenId, sceneId: "scene1" })),
  );
  return combat;
}

const initiatives = (c: FakeCombatBase) => Object.fromEntries(c.combatants.contents.map((x) => [x.name, x.initiative]));
const order = (c: FakeCombatBase) => c.turns.map((x) => x.name);
const roundCalls = () => FakeCombatBase.embeddedCalls;

describe("side initiative over three rounds (ose, three sides)", () => {
  beforeEach(() => setup("ose", "simultaneous"));

  it("rolls 1d6 per side each round, gives every combatant its side's value in one update, one message per round", async () => {
    const w = cw.world;
    const combat = await newCombat();
    expect(combat).toBeInstanceOf(FakeCombatBase);
    expect(combat.constructor).not.toBe(FakeCombatBase); // the module's subclass

    // Round 1: friendly 5, neutral 2, hostile 5 → friendly and hostile tie (simultaneous), neutral last.
    w.rolls.push(5, 2, 5);
    await combat.startCombat();
    expect(initiatives(combat)).toEqual({ Aldric: 5, Brune: 5, Colporteur: 2, Orc: 5, Rôdeur: 5 });
    expect(order(combat)).toEqual(["Aldric", "Brune", "Orc", "Rôdeur", "Colporteur"]); // friendly, then hostile, then neutral
    expect(w.messages).toHaveLength(1);
    expect(w.messages[0]!.content).toContain("round 1");
    expect(w.messages[0]!.content).toContain("simultaneous");
    expect(w.messages[0]!.rolls).toHaveLength(1); // one 3d6 roll, one die per side
    expect(roundCalls()).toHaveLength(1);
    expect(roundCalls()[0]!.options).toEqual({ turnEvents: false });
    expect(roundCalls()[0]!.updates).toHaveLength(5);
    expect(combat.turn).toBe(0);

    // Tracker headers: the two sides at 5 carry the "simultaneous" badge.
    const headers = sideHeadersContext(
      combat.turns.map((c) => ({ id: c.id, side: (["Aldric", "Brune"].includes(c.name) ? "friendly" : c.name === "Colporteur" ? "neutral" : "hostile") as never, initiative: c.initiative, skipped: false })),
      (k, d) => w.i18n.format(k, d),
    ).headers;
    expect(headers.map((h) => [h.label, h.value, h.simultaneous])).toEqual([
      ["Friendly", 5, true],
      ["Hostile", 5, true],
      ["Neutral", 2, false],
    ]);

    // Round 2: friendly 1, neutral 6, hostile 3 → neutral, hostile, friendly.
    w.rolls.push(1, 6, 3);
    await combat.nextRound();
    expect(initiatives(combat)).toEqual({ Aldric: 1, Brune: 1, Colporteur: 6, Orc: 3, Rôdeur: 3 });
    expect(order(combat)).toEqual(["Colporteur", "Orc", "Rôdeur", "Aldric", "Brune"]);
    expect(combat.turn).toBe(0);
    expect(combat.combatant!.name).toBe("Colporteur");
    expect(w.messages).toHaveLength(2);
    expect(roundCalls()).toHaveLength(2);

    // Round 3 with the reroll option: friendly 4, neutral 4, hostile 2; friendly and neutral reroll 3 / 6.
    await w.game.settings.set("aventure", "sideTies", "reroll");
    w.rolls.push(4, 4, 2, 3, 6);
    await combat.nextRound();
    expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Colporteur: 4.1, Orc: 2, Rôdeur: 2 });
    expect(order(combat)).toEqual(["Colporteur", "Aldric", "Brune", "Orc", "Rôdeur"]);
    expect(w.messages).toHaveLength(3);
    expect(w.messages[2]!.rolls).toHaveLength(2); // the first roll and the reroll of the tied pair
    expect(roundCalls()).toHaveLength(3);
    expect(roundCalls().every((c) => c.options.turnEvents === false && c.user === "gm1")).toBe(true);

    // Two GMs were connected for all of it: every die queued was used once, nothing else was rolled.
    expect(w.rolls.queue).toEqual([]);
    expect(w.rolls.made).toHaveLength(4); // 3d6, 3d6, 3d6 + 2d6
    expect(w.rolls.made.flatMap((r) => r.dice.flatMap((d) => d.results))).toHaveLength(11);
    expect(w.notifications.filter((n) => n.type === "error")).toEqual([]);
  });

  it("pmt: tied sides act simultaneously even with the reroll option (seed 002 gives pmt no reroll)", async () => {
    await setup("pmt", "reroll");
    const w = cw.world;
    const combat = await newCombat(["tHero", "tOrc"]);
    w.rolls.push(4, 4);
    await combat.startCombat();
    expect(initiatives(combat)).toEqual({ Aldric: 4, Orc: 4 });
    expect(w.rolls.made).toHaveLength(1); // no reroll
    expect(w.rolls.queue).toEqual([]);
    expect(w.messages[0]!.content).toContain("simultaneous");
  });

  it("another GM advancing the round: the active GM rolls, once", async () => {
    const w = cw.world;
    const combat = await newCombat(["tHero", "tOrc"]);
    w.rolls.push(3, 6);
    await combat.startCombat();
    w.rolls.push(6, 1);
    await w.asUser("gm2", () => combat.nextRound());
    expect(combat.round).toBe(2);
    expect(initiatives(combat)).toEqual({ Aldric: 6, Orc: 1 });
    expect(combat.combatant!.name).toBe("Aldric");
    expect(roundCalls().map((c) => c.user)).toEqual(["gm1", "gm1"]);
    expect(w.messages.map((m) => m.author)).toEqual(["gm1", "gm1"]);
    expect(w.rolls.made).toHaveLength(2);
  });

  it("a combatant added mid-combat takes its side's value", async () => {
    const w = cw.world;
    // The createCombatant work is not awaited by the hook; the fake has one game.user for all clients, so
    // keep only the active GM connected for the continuation to run as that GM.
    w.users.get("gm2")!.active = false;
    w.users.get("p1")!.active = false;
    const combat = await newCombat(["tHero", "tOrc"]);
    w.rolls.push(3, 6);
    await combat.startCombat();
    expect(initiatives(combat)).toEqual({ Aldric: 3, Orc: 6 });
    await combat.nextTurn(); // Orc (6) has acted: Aldric's turn
    expect(combat.combatant!.name).toBe("Aldric");
    await combat.createEmbeddedDocuments("Combatant", [{ tokenId: "tLurker", sceneId: "scene1" }]);
    await new Promise((r) => setTimeout(r, 0)); // the createCombatant hook's work is not awaited by core
    expect(initiatives(combat)).toEqual({ Aldric: 3, Orc: 6, Rôdeur: 6 });
    expect(order(combat)).toEqual(["Orc", "Rôdeur", "Aldric"]);
    expect(combat.combatant!.name).toBe("Aldric"); // the newcomer's value does not steal the turn
    expect(roundCalls().at(-1)!.options).toEqual({ turnEvents: false });
    expect(w.rolls.made).toHaveLength(1); // no die for the newcomer
  });

  it("the tracker's roll buttons roll for sides, not individuals (GM and player)", async () => {
    const w = cw.world;
    const combat = await newCombat(["tHero", "tScout", "tOrc"]);
    // Before the start: a player's button goes to the active GM (query), who rolls for the player's side.
    w.rolls.push(4);
    await w.asUser("p1", () => combat.rollInitiative(combat.turns.find((c) => c.name === "Brune")!.id));
    expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: null });
    expect(roundCalls().at(-1)!.user).toBe("gm1");
    expect(w.messages).toHaveLength(1);
    // rollAll (GM): only the hostile side is left.
    w.rolls.push(2);
    await combat.rollAll();
    expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: 2 });
    // Round 1 starts with every side rolled: the rolls made before the start count, nothing is rolled again.
    await combat.startCombat();
    expect(w.rolls.made).toHaveLength(2);
    expect(w.messages).toHaveLength(2);
    // The player cannot roll their side again (core shows the button only without an initiative)...
    await w.asUser("p1", () => combat.rollInitiative(combat.turns.find((c) => c.name === "Aldric")!.id));
    expect(w.notifications.at(-1)).toEqual({
      type: "error",
      message: "Initiative has already been rolled for this side this round: only the GM can roll it again.",
    });
    // ...nor roll for a side through a combatant they do not own: nothing changes, no die rolled.
    await w.asUser("p1", () => combat.rollInitiative(combat.turns.find((c) => c.name === "Orc")!.id));
    expect(w.notifications.at(-1)).toEqual({ type: "error", message: "You do not own Orc." });
    expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: 2 });
    expect(w.rolls.made).toHaveLength(2);
    expect(w.messages).toHaveLength(2);
    // The GM may roll a side again during the round; whoever has the turn keeps it (Orc, last in the order).
    await combat.nextTurn();
    await combat.nextTurn();
    expect(combat.combatant!.name).toBe("Orc");
    w.rolls.push(1);
    await combat.rollInitiative(combat.turns.find((c) => c.name === "Aldric")!.id);
    expect(initiatives(combat)).toEqual({ Aldric: 1, Brune: 1, Orc: 2 });
    expect(order(combat)).toEqual(["Orc", "Aldric", "Brune"]);
    expect(combat.combatant!.name).toBe("Orc");
    expect(w.rolls.queue).toEqual([]);
  });

  it("a side whose combatants are all hidden is left out of the public card; the GMs get its roll", async () => {
    const w = cw.world;
    const combat = await newCombat(["tHero", "tOrc", "tLurker"]);
    for (const c of combat.combatants.contents.filter((x) => x.name !== "Aldric")) await c.update({ hidden: true });
    w.rolls.push(5, 3); // friendly 5, hostile 3
    await combat.startCombat();
    expect(initiatives(combat)).toEqual({ Aldric: 5, Orc: 3, Rôdeur: 3 });
    expect(w.messages).toHaveLength(2);
    const [pub, gm] = w.messages;
    expect(pub!.whisper ?? []).toEqual([]);
    expect(pub!.content).toContain("Friendly");
    expect(pub!.content).not.toContain("Hostile");
    expect(pub!.rolls ?? []).toHaveLength(0); // the dice would show how many sides rolled
    expect(gm!.whisper).toEqual(["gm1", "gm2"]);
    expect(gm!.content).toContain("Hostile");
    expect(gm!.rolls).toHaveLength(1);
    // Once one of them is revealed, the side is public again: one card for everyone.
    await combat.turns.find((c) => c.name === "Orc")!.update({ hidden: false });
    w.rolls.push(2, 6);
    await combat.nextRound();
    expect(w.messages).toHaveLength(3);
    expect(w.messages[2]!.whisper ?? []).toEqual([]);
    expect(w.messages[2]!.content).toContain("Hostile");
  });

  it("works with any ruleset when the side initiative setting is on, and not otherwise", async () => {
    const w = cw.world;
    await w.game.settings.set("aventure", "ruleset", "dnd5e");
    const combat = await newCombat(["tHero", "tOrc"]);
    w.rolls.push(17, 9); // core's 1d20 each
    await combat.rollAll();
    expect(initiatives(combat)).toEqual({ Aldric: 17, Orc: 9 });
    await w.game.settings.set("aventure", "sideInitiative", true);
    w.rolls.push(2, 5);
    await combat.startCombat();
    expect(initiatives(combat)).toEqual({ Aldric: 2, Orc: 5 });
  });
});

describe("the end of the combat (pmt, ose)", () => {
  it("advances the world clock so that the encounter took one turn, once with two GMs", async () => {
    await setup("pmt");
    const w = cw.world;
    const combat = await newCombat(["tHero", "tOrc"]);
    w.rolls.push(3, 4);
    await combat.startCombat();
    w.worldTime += 20; // two rounds of 10 s counted by the core clock
    await combat.delete();
    expect(w.worldTime).toBe(600);
    expect(w.notifications.at(-1)!.message).toBe("The encounter took one turn: world time advanced by 10 min.");
  });

  it("leaves the clock alone when the setting is off", async () => {
    await setup("ose");
    const w = cw.world;
    await w.game.settings.set("aventure", "encounterTurn", false);
    const combat = await newCombat(["tHero", "tOrc"]);
    w.rolls.push(3, 4);
    await combat.startCombat();
    await combat.delete();
    expect(w.worldTime).toBe(0);
  });
});

describe("the combat tracker (renderCombatTracker)", () => {
  const flush = () => new Promise((r) => setTimeout(r, 5));

  async function tracker(combat: FakeCombatBase) {
    const { FakeDocument } = await import("../fake/dom.js");
    const doc = new FakeDocument();
    const root = doc.createElement("section");
    root.innerHTML =
      `<header class="combat-tracker-header"><h3>Round</h3></header><ol class="combat-tracker">` +
      combat.turns.map((c) => `<li class="combatant" data-combatant-id="${c.id}"><div class="token-name"><strong class="name">${c.name}</strong></div></li>`).join("") +
      `</ol>`;
    return root;
  }
  const rowsAndHeaders = (root: Awaited<ReturnType<typeof tracker>>) =>
    root.querySelector("ol.combat-tracker")!.children.map((el) =>
      el.classList.contains("combatant") ? el.querySelector(".name")!.textContent : `[${el.textContent}]`,
    );

  it("draws a header before each side with its roll and the simultaneous badge, and the GM's Encounter button", async () => {
    await setup("ose");
    const w = cw.world;
    const combat = await newCombat();
    w.rolls.push(5, 2, 5);
    await combat.startCombat();
    const root = await tracker(combat);
    await w.callAllClients("renderCombatTracker", { viewed: combat }, root);
    await flush();
    expect(rowsAndHeaders(root)).toEqual([
      "[Friendly simultaneous 5]",
      "Aldric",
      "Brune",
      "[Hostile simultaneous 5]",
      "Orc",
      "Rôdeur",
      "[Neutral 2]",
      "Colporteur",
    ]);
    // Drawn again on the next render, never twice.
    w.hooks.callAll("renderCombatTracker", { viewed: combat }, root);
    await flush();
    expect(root.querySelectorAll(".aventure-side-header")).toHaveLength(3);
    expect(root.querySelectorAll(".aventure-encounter-button")).toHaveLength(1);
    expect(root.querySelector(".aventure-encounter-button")!.textContent).toContain("Encounter");
  });

  it("shows the surprised side in round 1; players get no Encounter button", async () => {
    await setup("ose");
    const w = cw.world;
    const combat = await cw.combatClass().create({
      scene: "scene1",
      active: true,
      flags: { aventure: { encounter: { surprised: ["hostile"], firstRound: ["friendly"], marked: false } } },
    });
    await combat.createEmbeddedDocuments("Combatant", ["tHero", "tOrc"].map((tokenId) => ({ tokenId, sceneId: "scene1" })));
    await combat.startCombat();
    const root = await tracker(combat);
    await w.asUser("p1", () => w.hooks.callAll("renderCombatTracker", { viewed: combat }, root));
    await flush();
    expect(rowsAndHeaders(root)).toEqual(["[Friendly 1]", "Aldric", "[Hostile surprised —]", "Orc"]);
    expect(root.querySelectorAll(".aventure-encounter-button")).toHaveLength(0);
  });
});
