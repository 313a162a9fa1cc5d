/**
 * The encounter procedure with Foundry rolls (RULES.md §7.1, §7.2, §7.4) and "Start combat": the sides from
 * the selected tokens, the card (one message, GM-only option), the surprised side skipped in round 1 only
 * with its marker, and pmt's "everyone surprised: nobody acts in round 1".
 */
import { describe, expect, it } from "vitest";
import { bootWithCombat, type CombatWorld } from "../fake/combat.js";
import type { EncounterDialogState } from "../../src/apps/encounter-context.js";
import { encounterDialogContext, fleeHandOver } from "../../src/apps/encounter-context.js";
import { fleeOptions, rollEncounter, startEncounterCombat, tokensFromSelection } from "../../src/foundry/encounter/encounter.js";
import type { EncounterResult } from "../../src/foundry/encounter/run.js";
import { surprisedSides } from "../../src/rules/encounter.js";
import { rollSurprise, sideOfDisposition, tokensToSides } from "../../src/foundry/encounter/sides.js";
import { fixedDice } from "../../src/rules/dice.js";

const USERS = [
  { id: "gm1", isGM: true },
  { id: "gm2", isGM: true },
  { id: "p1", isGM: false },
];

async function world(ruleset: "ose" | "pmt") {
  const cw = await bootWithCombat({ systemId: "dnd5e", users: USERS });
  const w = cw.world;
  await w.game.settings.set("aventure", "ruleset", ruleset);
  const hero = w.addActor({ _id: "hero", name: "Aldric", system: { abilities: { cha: { value: 16, mod: 2 } } } }, { p1: 3 });
  const monk = w.addActor({ _id: "monk", name: "Brune", system: { abilities: { cha: { value: 8, mod: -1 } } } }, { p1: 3 });
  const orc = w.addActor({ _id: "orc", name: "Orc", system: {} });
  for (const [id, name, disposition, actor] of [
    ["tHero", "Aldric", 1, hero],
    ["tMonk", "Brune", 1, monk],
    ["tOrc", "Orc", -1, orc],
  ] as const) {
    cw.controlled.push(cw.addToken({ id, name, disposition, actor }));
  }
  return cw;
}

function state(cw: CombatWorld, patch: Partial<EncounterDialogState> = {}): EncounterDialogState {
  return {
    ruleset: cw.world.game.settings.get("aventure", "ruleset") as "ose",
    where: "wilderness",
    tokens: tokensFromSelection(),
    aware: {},
    speakerId: "tHero",
    rollReaction: true,
    gmOnly: false,
    result: null,
    ...patch,
  };
}

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
    const r = await rollSurprise([{ id: "friendly", aware: true }, { id: "hostile", aware: false }], "ose", fixedDice([2]));
    expect(r.rolls).toEqual({ friendly: null, hostile: 2 });
    expect(r.outcome.surprised).toEqual(["hostile"]);
    expect(r.outcome.firstRound).toEqual(["friendly"]);
  });
});

describe("the encounter dialog's rolls (ose)", () => {
  it("rolls surprise, then the distance (1d4 × 10 m outdoors when a side is surprised), then 2d6 + CHA, on one card", async () => {
    const cw = await world("ose");
    const w = cw.world;
    // friendly 5 (alert), hostile 2 (surprised); distance 1d4 → 3 → 30 m; reaction 4 + 5 + CHA 2 = 11 → indifferent.
    w.rolls.push(5, 2, 3, 4, 5);
    const result = await rollEncounter(state(cw));
    expect(result.surprise!.outcome.surprised).toEqual(["hostile"]);
    expect(result.distance).toEqual({ metres: 30, dice: [3], formula: "1d4*10", multiplier: 10 });
    expect(result.reaction).toEqual({ dice: [4, 5], modifier: 2, total: 11, result: "indifferent" });
    expect(w.messages).toHaveLength(1);
    const m = w.messages[0]!;
    expect(m.whisper).toBeUndefined();
    expect(m.rolls).toHaveLength(4);
    expect(m.content).toContain("30 m");
    expect(m.content).toContain("Indifferent, uninterested");
    expect(m.content).toContain("Surprised, cannot act in the first round: Hostile. Acting first: Friendly.");
    expect(w.rolls.queue).toEqual([]);
  });

  it("an aware side does not roll; the card can go to the GMs only; pmt rolls the distance first and no CHA", async () => {
    const cw = await world("pmt");
    const w = cw.world;
    // pmt dungeon: distance 1d6 × 5 (4 → 20 m), then surprise for the hostile side only (6), reaction 2d6 = 12.
    w.rolls.push(4, 6, 6, 6);
    const result = await rollEncounter(state(cw, { where: "dungeon", aware: { friendly: true }, gmOnly: true }));
    expect(result.distance.metres).toBe(20);
    expect(result.surprise!.rolls).toEqual({ friendly: null, hostile: 6 });
    expect(result.reaction).toEqual({ dice: [6, 6], modifier: 0, total: 12, result: "hostile" });
    expect(w.messages[0]!.whisper).toEqual(["gm1", "gm2"]);
    expect(w.messages[0]!.content).toContain("Hostile, attacks");
  });

  it("refuses players, and nothing is rolled or posted", async () => {
    const cw = await world("ose");
    const w = cw.world;
    await w.asUser("p1", async () => {
      await expect(rollEncounter(state(cw))).rejects.toThrow(/GMOnly/);
    });
    expect(w.messages).toEqual([]);
    expect(w.rolls.made).toEqual([]);
  });

  it("builds the dialog context: sides by disposition, speakers with their CHA (ose), the rules used", async () => {
    const cw = await world("ose");
    const ctx = encounterDialogContext(state(cw), (k, d) => cw.world.i18n.format(k, d));
    expect(ctx.sides.map((s) => [s.id, s.tokens.map((t) => t.name)])).toEqual([
      ["friendly", ["Aldric", "Brune"]],
      ["hostile", ["Orc"]],
    ]);
    expect(ctx.speakers.map((s) => s.label)).toEqual(["Aldric (CHA +2)", "Brune (CHA -1)"]);
    expect(ctx.rulesNote).toBe("Rules: Old-School Essentials");
  });
});

describe("Start combat", () => {
  it("creates the combat with the tokens, marks the surprised side and skips it in round 1 only", async () => {
    const cw = await world("ose");
    const w = cw.world;
    w.rolls.push(4, 1, 2, 3, 3); // friendly 4, hostile 1 (surprised); 1d4 → 2; reaction 3 + 3
    const s = state(cw);
    const result = await rollEncounter(s);
    await startEncounterCombat(s, result);
    const combat = cw.combat()!;
    expect(combat.combatants.contents.map((c) => c.name).sort()).toEqual(["Aldric", "Brune", "Orc"]);
    expect(w.actors.getStrict("orc").statuses.has("surprised")).toBe(true); // dnd5e's own status, via the adapter
    // Round 1: only the friendly side acts (no die rolled); the orc has no initiative and is skipped.
    expect(combat.round).toBe(1);
    expect(w.rolls.queue).toEqual([]);
    expect(combat.combatant!.name).toBe("Aldric");
    const turnHooks: unknown[] = [];
    w.hooks.on("combatTurn", (_c: unknown, data: unknown) => void turnHooks.push(data));
    await combat.nextTurn();
    expect(combat.combatant!.name).toBe("Brune");
    expect(turnHooks).toEqual([{ round: 1, turn: 1 }]); // core's combatTurn hook still fires for other modules
    w.rolls.push(5, 2); // round 2: friendly 5, hostile 2
    await combat.nextTurn(); // the orc would be next: skipped, round 2 starts
    expect(combat.round).toBe(2);
    expect(combat.turnLog.filter((x) => x.startsWith("1:"))).toEqual(["1:Aldric", "1:Brune"]);
    expect(w.actors.getStrict("orc").statuses.has("surprised")).toBe(false); // the marker comes off in round 2
    expect(w.messages).toHaveLength(3); // encounter card, round 1 (friendly alone), round 2 rolls
    expect(w.messages[1]!.content).toContain("Surprised, cannot act this round: Hostile.");
  });

  it("round 2 rolls both sides and the surprised side acts again", async () => {
    const cw = await world("ose");
    const w = cw.world;
    w.rolls.push(4, 1, 2, 3, 3);
    const s = state(cw);
    await startEncounterCombat(s, await rollEncounter(s));
    const combat = cw.combat()!;
    w.rolls.push(2, 6); // round 2: friendly 2, hostile 6
    await combat.nextTurn();
    await combat.nextTurn();
    expect(combat.round).toBe(2);
    expect(combat.turns.map((c) => c.name)).toEqual(["Orc", "Aldric", "Brune"]);
    expect(combat.combatant!.name).toBe("Orc");
    await combat.nextTurn();
    await combat.nextTurn();
    expect(combat.turnLog.filter((x) => x.startsWith("2:"))).toEqual(["2:Orc", "2:Aldric", "2:Brune"]);
  });

  it("pmt, every side surprised: nobody acts in round 1, initiative is rolled in round 2", async () => {
    const cw = await world("pmt");
    const w = cw.world;
    w.rolls.push(3, 1, 2, 7 - 5, 5); // distance 3 → 15 m; friendly 1, hostile 2 (both surprised); reaction 2 + 5
    const s = state(cw, { where: "dungeon" });
    const result = await rollEncounter(s);
    expect(result.surprise!.outcome.note).toBe("allSurprised");
    w.rolls.push(5, 3); // round 2 side initiative
    await startEncounterCombat(s, result);
    const combat = cw.combat()!;
    expect(combat.round).toBe(2);
    expect(combat.turns.map((c) => c.initiative)).toEqual([5, 5, 3]);
    expect(w.messages.map((m) => m.content!.includes("nobody acts this round"))).toEqual([false, true, false]);
    expect(w.rolls.queue).toEqual([]);
  });

  it("needs tokens on the scene", async () => {
    const cw = await world("ose");
    await expect(startEncounterCombat(state(cw, { tokens: [] }), null)).rejects.toThrow(/NoToken/);
    expect(cw.combat()).toBeNull();
  });
});

describe("Flee: hand-over to the Pursuit dialog", () => {
  const tokens = [
    { id: "a", name: "Aldric", side: "friendly" as const, chaMod: 2 },
    { id: "n", name: "Colporteur", side: "neutral" as const, chaMod: 0 },
    { id: "o", name: "Orc", side: "hostile" as const, chaMod: null },
  ];
  const result = (surprised: ("friendly" | "neutral" | "hostile")[], where: "dungeon" | "wilderness" | "water" = "dungeon"): EncounterResult => ({
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
    expect(fleeHandOver(tokens, null, "wilderness")).toEqual({ place: "outdoors", fleeingSide: "party", surprise: "none", reactionTotal: null });
    expect(fleeHandOver(tokens, null, "dungeon").place).toBe("dungeon");
    expect(fleeHandOver(tokens, result([], "water"), "dungeon")).toEqual({ place: "outdoors", fleeingSide: "party", surprise: "none", reactionTotal: 13 });
    expect(fleeHandOver(tokens, result(["friendly"]), "dungeon").surprise).toBe("fleeing");
    expect(fleeHandOver(tokens, result(["neutral", "hostile"]), "dungeon").surprise).toBe("pursuers");
    expect(fleeHandOver(tokens, result(["friendly", "neutral", "hostile"]), "dungeon").surprise).toBe("both");
    // Only some of the pursuing sides surprised: the pursuers as a group were not.
    expect(fleeHandOver(tokens, result(["hostile"]), "dungeon").surprise).toBe("none");
    expect(fleeHandOver(tokens, result(["friendly", "hostile"]), "dungeon").surprise).toBe("fleeing");
  });

  it("the dialog's Flee opens the Pursuit dialog with the encounter's tokens (sides as picked), place, surprise and reaction", async () => {
    const cw = await world("ose");
    const w = cw.world;
    const api = w.modules.get("aventure")!.api as { openEncounter: () => Promise<{ encounter: EncounterDialogState } | undefined> };
    const app = (await api.openEncounter())!;
    const { EncounterDialog } = await import("../../src/apps/EncounterDialog.js");
    const actions = EncounterDialog.DEFAULT_OPTIONS.actions as unknown as Record<string, (this: unknown) => Promise<unknown>>;
    app.encounter.where = "wilderness";
    // The Pursuit dialog looks for a chase to resume in the chat log.
    (w.game as unknown as Record<string, unknown>).messages = { contents: w.messages };
    w.rolls.push(4, 1, 2, 3, 3); // friendly 4, hostile 1 (surprised); 1d4 → 2; reaction 3 + 3 + CHA 2
    await actions.roll!.call(app);
    expect(app.encounter.result!.reaction!.total).toBe(8);
    app.encounter.tokens.find((tk) => tk.id === "tMonk")!.side = "hostile"; // Brune was moved to the other side
    await actions.flee!.call(app);
    const pursuit = (app as unknown as { pursuit: unknown }).pursuit as { setup: { place: string; fleeingSide: string; surprise: string; reactionTotal: number | null; groups: Record<string, { names: string[] }> } };
    const s = pursuit.setup;
    expect(s.groups.party!.names).toEqual(["Aldric"]);
    expect(s.groups.opponents!.names).toEqual(["Brune", "Orc"]);
    expect([s.place, s.fleeingSide, s.surprise, s.reactionTotal]).toEqual(["outdoors", "party", "pursuers", 8]);
    expect(w.rolls.queue).toEqual([]);
    expect(w.messages).toHaveLength(1); // only the encounter card: Flee rolls nothing by itself
  });

  it("refuses players and tokens no longer on the scene; nothing opens", async () => {
    const cw = await world("ose");
    const w = cw.world;
    const s = state(cw);
    await w.asUser("p1", async () => expect(() => fleeOptions(s)).toThrow());
    cw.scene.tokens.map.delete("tOrc");
    expect(() => fleeOptions(s)).toThrow("AVENTURE.Encounter.tokenGone"); // a UserError: localized when reported
  });
});

describe("api.openEncounter / api.openPolarisTest", () => {
  it("opens the encounter dialog for a GM with the selected tokens, and refuses players", async () => {
    const cw = await world("ose");
    const w = cw.world;
    const api = w.modules.get("aventure")!.api as { openEncounter: () => Promise<{ lastHTML: string } | undefined> };
    const app = await api.openEncounter();
    expect(app!.lastHTML).toContain("Aldric (CHA +2)");
    expect(app!.lastHTML).toContain('name="side.tOrc"');
    expect(app!.lastHTML).toContain("Rules: Old-School Essentials");
    const refused = await w.asUser("p1", () => api.openEncounter());
    expect(refused).toBeUndefined();
    expect(w.notifications.at(-1)).toEqual({ type: "error", message: "Only a game master can do this." });
  });

  it("opens the Polaris test dialog for anyone; the secret difficulty is offered to GMs only", async () => {
    const cw = await world("ose");
    const w = cw.world;
    const api = w.modules.get("aventure")!.api as { openPolarisTest: () => Promise<{ lastHTML: string } | undefined> };
    expect((await api.openPolarisTest())!.lastHTML).toContain('name="secret"');
    const player = await w.asUser("p1", () => api.openPolarisTest());
    expect(player!.lastHTML).not.toContain('name="secret"');
    expect(player!.lastHTML).toContain("Heroic (−20)");
  });
});
