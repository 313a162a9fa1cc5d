/**
 * Polaris (RULES.md §9): the test with Foundry's d20 and its chat card (secret difficulty, retries,
 * criticals, automatic failure), and the action phases in the combat tracker: initiative from the actor's
 * score, order by phase then Réaction, Hasten and Delay, both reset at the next round.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { bootWithCombat, FakeCombatBase, type CombatWorld } from "../fake/combat.js";
import { rollPolarisTest } from "../../src/foundry/polaris/test.js";
import { delayChoices, setDelay, setHasten } from "../../src/foundry/polaris/phases.js";
import { phaseHeadersContext } from "../../src/foundry/combat/tracker-context.js";
import { actingPhase, polarisFlags } from "../../src/foundry/polaris/phases.js";
import { parseChance } from "../../src/apps/polaris-context.js";
import { EMPTY_PATHS } from "../../src/foundry/settings-schema.js";

const USERS = [
  { id: "gm1", isGM: true },
  { id: "gm2", isGM: true },
  { id: "p1", isGM: false },
];

let cw: CombatWorld;

async function setup(lang: "en" | "fr" = "en", generation = 13) {
  cw = await bootWithCombat({ systemId: "worldbuilding", users: USERS, lang, generation });
  const w = cw.world;
  await w.game.settings.set("aventure", "ruleset", "polaris");
  await w.game.settings.set("aventure", "actorData", { ...EMPTY_PATHS, polarisInitiative: "system.init", polarisReaction: "system.reaction" });
}

/** A combat (not started) with one combatant whose initiative comes from its actor's score; the menu entries. */
async function soloCombat(id: string, name: string, init: number, reaction: number) {
  const w = cw.world;
  const a = w.addActor({ _id: id, name, system: { init, reaction } });
  cw.addToken({ id: `t${id}`, name, disposition: 1, actor: a });
  const c = await cw.combatClass().create({ scene: "scene1", active: true });
  await c.createEmbeddedDocuments("Combatant", [{ tokenId: `t${id}`, sceneId: "scene1" }]);
  await c.rollAll();
  const entries: Record<string, unknown>[] = [];
  w.hooks.callAll("getCombatTrackerContextOptions", {}, entries);
  const li = { dataset: { combatantId: c.turns[0]!.id } } as unknown as HTMLElement;
  return { c, entries, li };
}

describe("Polaris test card", () => {
  beforeEach(() => setup());

  it("rolls 1d20 against chance + difficulty and posts success, margin, degree and modifier", async () => {
    const w = cw.world;
    w.rolls.push(4);
    const { die, result } = await rollPolarisTest({ chance: 14, difficulty: "hard", label: "Pilotage" });
    expect(die).toBe(4);
    expect(result).toMatchObject({ finalChance: 9, success: true, margin: 5, degree: "assezBon", modifier: 2, critical: null });
    expect(w.messages).toHaveLength(1);
    const c = w.messages[0]!.content!;
    expect(c).toContain("Polaris test: Pilotage");
    expect(c).toContain("Hard (−5)");
    expect(c).toContain("Success");
    expect(c).toContain("Fairly good (+2)");
    expect(c).toContain("Margin: 5");
    expect(w.messages[0]!.rolls).toHaveLength(1);
  });

  it("shows a critical success (die = final chance) and a critical failure (natural 20 below 20)", async () => {
    const w = cw.world;
    w.rolls.push(9, 20);
    expect((await rollPolarisTest({ chance: 14, difficulty: "hard" })).result.critical).toBe("success");
    expect((await rollPolarisTest({ chance: 14, difficulty: "hard" })).result.critical).toBe("failure");
    expect(w.messages[0]!.content).toContain("Critical success!");
    expect(w.messages[1]!.content).toContain("Critical failure!");
    expect(w.messages[1]!.content).toContain("Very bad (−4)"); // margin 20 − 9 = 11
  });

  it("applies the cumulative retry penalty (−1, or −3 pressed) and reports an automatic failure below 1", async () => {
    const w = cw.world;
    w.rolls.push(10, 3);
    const third = await rollPolarisTest({ chance: 12, difficulty: "average", attempt: 3 });
    expect(third.result.finalChance).toBe(10); // 12 − 2
    const pressed = await rollPolarisTest({ chance: 5, difficulty: "average", attempt: 3, pressed: true });
    expect(pressed.result).toMatchObject({ finalChance: -1, automaticFailure: true, margin: 3, success: false });
    expect(w.messages[1]!.content).toContain("automatic failure");
  });

  it("a secret difficulty hides it on the public card and whispers the details to the GMs; players cannot set it", async () => {
    const w = cw.world;
    w.rolls.push(11);
    await rollPolarisTest({ chance: 15, difficulty: "veryHard", secret: true });
    expect(w.messages).toHaveLength(2);
    expect(w.messages[0]!.whisper).toBeUndefined();
    expect(w.messages[0]!.content).not.toContain("Very hard");
    expect(w.messages[0]!.content).toContain("The difficulty is secret.");
    expect(w.messages[1]!.whisper).toEqual(["gm1", "gm2"]);
    expect(w.messages[1]!.content).toContain("Very hard (−7)");
    await w.asUser("p1", async () => {
      await expect(rollPolarisTest({ chance: 15, difficulty: "easy", secret: true })).rejects.toThrow(/GMOnly/);
    });
    expect(w.messages).toHaveLength(2);
  });

  it("bad input changes nothing: no die rolled, no card", async () => {
    const w = cw.world;
    await expect(rollPolarisTest({ chance: parseChance("douze"), difficulty: "easy" })).rejects.toThrow(/NotANumber/);
    await expect(rollPolarisTest({ chance: 10, difficulty: "tricky" as never })).rejects.toThrow(/UnknownValue/);
    expect(w.rolls.made).toEqual([]);
    expect(w.messages).toEqual([]);
    expect(parseChance(" x ")).toBe("X");
  });

  it("in French", async () => {
    await setup("fr");
    const w = cw.world;
    w.rolls.push(20);
    await rollPolarisTest({ chance: 20, difficulty: "average" });
    expect(w.messages[0]!.content).toContain("Réussite critique !");
    expect(w.messages[0]!.content).toContain("Moyen (0)");
  });
});

describe("Polaris action phases in the tracker", () => {
  beforeEach(() => setup());

  async function combat() {
    const w = cw.world;
    const people = [
      ["merc", "Mercenaire", 12, 14],
      ["shark", "Requin", 9, 10],
      ["diver", "Plongeuse", 9, 12],
      ["novice", "Novice", null, 8],
    ] as const;
    for (const [id, name, init, reaction] of people) {
      const a = w.addActor({ _id: id, name, system: { ...(init === null ? {} : { init }), reaction } }, id === "diver" ? { p1: 3 } : {});
      cw.addToken({ id: `t${id}`, name, disposition: id === "shark" ? -1 : 1, actor: a });
    }
    const c = await cw.combatClass().create({ scene: "scene1", active: true });
    await c.createEmbeddedDocuments("Combatant", people.map(([id]) => ({ tokenId: `t${id}`, sceneId: "scene1" })));
    return c;
  }
  const names = (c: FakeCombatBase) => c.turns.map((x) => x.name);
  const byName = (c: FakeCombatBase, n: string) => c.turns.find((x) => x.name === n)!;

  it("takes initiative from the actor's score (no dice), orders by phase then Réaction, shows Phase N", async () => {
    const w = cw.world;
    const c = await combat();
    await c.rollAll();
    expect(w.rolls.made).toEqual([]);
    expect(Object.fromEntries(c.turns.map((x) => [x.name, x.initiative]))).toEqual({ Mercenaire: 12, Plongeuse: 9, Requin: 9, Novice: null });
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin", "Novice"]); // 9 vs 9: Réaction 12 before 10
    expect(w.notifications.at(-1)).toEqual({ type: "warn", message: "No initiative score for Novice: type it in the combat tracker." });
    // Typed in by the GM.
    await byName(c, "Novice").update({ initiative: 9 });
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin", "Novice"]); // Réaction 8 last among phase 9
    await c.startCombat();
    const headers = phaseHeadersContext(
      c.turns.map((x) => ({ id: x.id, phase: actingPhase(x as never, c.round), ...polarisFlags(x as never, c.round) })),
      (k, d) => w.i18n.format(k, d),
    ).headers;
    expect(headers.map((h) => h.label)).toEqual(["Phase 12", "Phase 9"]);
  });

  it("Hasten (+3 this round) and Delay (a later phase) reorder, and both reset at the next round", async () => {
    const w = cw.world;
    const c = await combat();
    await c.rollAll();
    await byName(c, "Novice").update({ initiative: 2 });
    await c.startCombat();
    // The shark hastens: 9 + 3 = 12, after the mercenary (Réaction 14 > 10).
    await setHasten(c as never, byName(c, "Requin") as never, true);
    expect(names(c)).toEqual(["Mercenaire", "Requin", "Plongeuse", "Novice"]);
    expect(actingPhase(byName(c, "Requin") as never, 1)).toBe(12);
    // The mercenary delays to phase 5.
    expect(delayChoices(byName(c, "Mercenaire") as never, 1)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    await setDelay(c as never, byName(c, "Mercenaire") as never, 5);
    expect(names(c)).toEqual(["Requin", "Plongeuse", "Mercenaire", "Novice"]);
    // Not to a phase that is not later: refused, nothing changes.
    await expect(setDelay(c as never, byName(c, "Plongeuse") as never, 9)).rejects.toThrow(/OutOfRange/);
    expect(polarisFlags(byName(c, "Plongeuse") as never, 1)).toEqual({ hasten: false, delayTo: null });
    // A player may hasten their own combatant, not another.
    await w.asUser("p1", () => setHasten(c as never, byName(c, "Plongeuse") as never, true));
    await w.asUser("p1", async () => {
      await expect(setHasten(c as never, byName(c, "Requin") as never, false)).rejects.toThrow(/cannot update/);
    });
    expect(names(c)).toEqual(["Plongeuse", "Requin", "Mercenaire", "Novice"]); // both at phase 12: Réaction 12 before 10
    // Next round: everything back to the plain initiative, in one Combatant update.
    const before = FakeCombatBase.embeddedCalls.length;
    await c.nextRound();
    expect(names(c)).toEqual(["Mercenaire", "Plongeuse", "Requin", "Novice"]);
    const calls = FakeCombatBase.embeddedCalls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.options).toEqual({ turnEvents: false });
    expect(calls[0]!.updates.map((u) => u._id).length).toBe(3);
    expect(w.rolls.made).toEqual([]);
  });
});

describe("the combatant context menu (Hasten, Delay)", () => {
  for (const generation of [13, 14]) {
    it(`adds Hasten and Delay in the v${generation} entry shape; Hasten toggles for the owner`, async () => {
      await setup("en", generation);
      const w = cw.world;
      const { c, entries, li } = await soloCombat("merc", "Mercenaire", 8, 10);
      expect(entries).toHaveLength(2);
      const label = generation >= 14 ? "label" : "name";
      expect(entries.map((e) => e[label])).toEqual(["Hasten (+3 this round)", "Delay"]);
      const visible = (e: Record<string, unknown>) =>
        (generation >= 14 ? (e.visible as (t: HTMLElement) => boolean) : (e.condition as (t: HTMLElement) => boolean))(li);
      expect(visible(entries[0]!)).toBe(false); // the combat has not started
      await c.startCombat();
      expect(visible(entries[0]!)).toBe(true);
      await w.asUser("p1", async () => expect(visible(entries[0]!)).toBe(false)); // not the player's combatant
      if (generation >= 14) (entries[0]!.onClick as (e: Event, t: HTMLElement) => void)({} as Event, li);
      else (entries[0]!.callback as (t: HTMLElement) => void)(li);
      await new Promise((r) => setTimeout(r, 0));
      expect(actingPhase(c.turns[0]! as never, 1)).toBe(11);
      // The tracker may view another combat than the active one: its rows are found in the viewed combat.
      const other = await cw.combatClass().create({ scene: "scene1", active: true });
      expect(cw.combat()).toBe(other);
      const viewed: Record<string, unknown>[] = [];
      w.hooks.callAll("getCombatTrackerContextOptions", { viewed: c }, viewed);
      expect(visible(viewed[0]!)).toBe(true);
    });
  }
});

describe("the Delay dialog (context menu)", () => {
  it("offers the later phases, delays to the phase picked, can take the delay back; closing changes nothing", async () => {
    await setup("fr");
    const w = cw.world;
    const { c, entries, li } = await soloCombat("merc", "Mercenaire", 5, 10);
    await c.startCombat();
    const delay = entries[1]!.callback as (li: HTMLElement) => void;
    const settle = () => new Promise((r) => setTimeout(r, 5));

    cw.prompts.answers.push({ name: "phase", value: "2" });
    delay(li);
    await settle();
    expect(cw.prompts.calls[0]!.title).toBe("Retarder");
    expect(cw.prompts.calls[0]!.content).toContain("Mercenaire");
    // Phases 4 to 1 (later than 5), no "no delay" option yet.
    expect([...cw.prompts.calls[0]!.content.matchAll(/<option value="(\d*)"/g)].map((m) => m[1])).toEqual(["4", "3", "2", "1"]);
    expect(actingPhase(c.turns[0]! as never, 1)).toBe(2);

    // Again: the current delay is selected and "no delay" is offered; picking it takes the delay back.
    cw.prompts.answers.push({ name: "phase", value: "" });
    delay(li);
    await settle();
    expect(cw.prompts.calls[1]!.content).toMatch(/<option value="2" selected>/);
    expect(actingPhase(c.turns[0]! as never, 1)).toBe(5);

    // Closed: nothing changes, no error.
    cw.prompts.answers.push(null);
    delay(li);
    await settle();
    expect(actingPhase(c.turns[0]! as never, 1)).toBe(5);
    expect(w.notifications.filter((n) => n.type === "error")).toEqual([]);
  });

  it("at phase 1 there is no later phase: a localized message, no dialog", async () => {
    await setup();
    const w = cw.world;
    const { c, entries, li } = await soloCombat("slow", "Lambin", 1, 3);
    await c.startCombat();
    (entries[1]!.callback as (li: HTMLElement) => void)(li);
    await new Promise((r) => setTimeout(r, 5));
    expect(cw.prompts.calls).toEqual([]);
    expect(w.notifications.at(-1)!.type).toBe("error");
    expect(w.notifications.at(-1)!.message).toContain("Lambin");
  });
});

describe("the tracker in Polaris", () => {
  it("shows Phase N headers and the hasten/delay badges in the rows", async () => {
    await setup();
    const w = cw.world;
    const people = [
      ["merc", "Mercenaire", 12, 14],
      ["shark", "Requin", 9, 10],
      ["diver", "Plongeuse", 9, 12],
    ] as const;
    for (const [id, name, init, reaction] of people) {
      const a = w.addActor({ _id: id, name, system: { init, reaction } });
      cw.addToken({ id: `t${id}`, name, disposition: 1, actor: a });
    }
    const c = await cw.combatClass().create({ scene: "scene1", active: true });
    await c.createEmbeddedDocuments("Combatant", people.map(([id]) => ({ tokenId: `t${id}`, sceneId: "scene1" })));
    await c.rollAll();
    await c.startCombat();
    await setHasten(c as never, c.turns.find((x) => x.name === "Requin")! as never, true);
    await setDelay(c as never, c.turns.find((x) => x.name === "Mercenaire")! as never, 4);
    const { FakeDocument } = await import("../fake/dom.js");
    const root = new FakeDocument().createElement("section");
    root.innerHTML =
      `<ol class="combat-tracker">` +
      c.turns.map((x) => `<li class="combatant" data-combatant-id="${x.id}"><div class="token-name"><strong class="name">${x.name}</strong></div></li>`).join("") +
      `</ol>`;
    w.hooks.callAll("renderCombatTracker", { viewed: c }, root);
    await new Promise((r) => setTimeout(r, 5));
    expect(root.querySelector("ol")!.children.map((el) => el.textContent.replace(/\s+/g, " ").trim())).toEqual([
      "Phase 12",
      "Requin hastened +3",
      "Phase 9",
      "Plongeuse",
      "Phase 4",
      "Mercenaire delayed to phase 4",
    ]);
  });
});
