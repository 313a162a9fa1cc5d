/**
 * In-world tests of Polaris (Quench batch "aventure.polaris"): tests rolled through the module's API and its window,
 * a countdown, a combat in action phases (Hasten from the combatant's menu, a delay, a change of intention), and a
 * character made from the shipped template (the "Aventure — Polaris" compendium) read by the test window and the
 * phases.
 * Dice are real: every expectation is derived from the card's own roll through the rules (api.rules), never from a
 * fixed die. Everything is made in a throwaway scene and deleted afterwards (the combat first).
 */
import { MODULE_ID } from "../core/constants.js";
import type { AventureApi } from "../api.js";
import { cardOf, Sandbox, waitFor } from "./sandbox.js";
import { POLARIS_IDS, POLARIS_PACK_NAME } from "../../packs-src/polaris.mjs";
import type { Batch, BatchContext } from "./types.js";

interface QCombatant {
  id: string | null;
  name: string;
  initiative: number | null;
  parent: { id: string | null } | null;
}
interface QCombat {
  id: string | null;
  round: number;
  turn: number | null;
  started: boolean;
  turns: QCombatant[];
  combatants: {
    get(id: string): (QCombatant & { update(d: object): Promise<unknown> }) | undefined;
    contents: QCombatant[];
  };
  getFlag(scope: "aventure", key: string): unknown;
  createEmbeddedDocuments(type: "Combatant", data: object[]): Promise<unknown>;
  startCombat(): Promise<unknown>;
  rollAll(): Promise<unknown>;
  nextRound(): Promise<unknown>;
  delete(): Promise<unknown>;
}
/** An entry of the combatant menu: v13 `{name, icon, condition, callback}`, v14 `{label, icon, visible, onClick}`. */
interface MenuEntry {
  name: string;
  icon?: string;
  callback?(li: HTMLElement): unknown;
  onClick?(event: Event, li: HTMLElement): unknown;
}

const api = (): AventureApi => {
  const a = game.modules.get(MODULE_ID)?.api;
  if (!a) throw new Error("aventure | the module's API is missing");
  return a;
};
const dieOf = (m: ChatMessage): number => (m.rolls?.[0]?.total as number | undefined) ?? NaN;

/** Builds a combat with Foundry's own API and hands it to the sandbox (deleted before the scene). */
async function newCombat(box: Sandbox): Promise<QCombat> {
  const Combat = CONFIG.Combat.documentClass as { create(data: object): Promise<unknown> };
  const combat = (await Combat.create({ scene: box.scene!.id, active: true })) as QCombat | undefined;
  if (!combat) throw new Error("aventure | could not create a test combat");
  box.adopt(combat as QCombat & { delete(): Promise<unknown> });
  return combat;
}

/** The combatant menu's entries as core gathers them (getCombatTrackerContextOptions), run on a combatant's row. */
function menuEntry(iconClass: string): (combatantId: string) => Promise<unknown> {
  const entries: foundry.applications.ux.ContextMenu.Entry<HTMLElement | JQuery>[] = [];
  Hooks.callAll("getCombatTrackerContextOptions", ui.combat, entries);
  const entry: MenuEntry | undefined = entries.find((e) => e.icon?.includes(iconClass));
  if (!entry) throw new Error(`aventure | no ${iconClass} entry in the combatant menu`);
  return async (combatantId) => {
    const li = document.createElement("li");
    li.classList.add("combatant");
    li.dataset.combatantId = combatantId;
    return entry.onClick
      ? entry.onClick(new (li.ownerDocument.defaultView ?? window).Event("click"), li)
      : entry.callback?.(li);
  };
}

function polarisTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Polaris tests, countdowns and action phases", () => {
    const box = new Sandbox();
    const testCards = () => box.messages().filter((m) => cardOf(m, "polarisTest"));
    /** The combat of the phases test, used by the next ones. */
    let fight: QCombat | null = null;
    before(async () => {
      await box.open();
      await box.setting("ruleset", "polaris");
      await box.setting("sideInitiative", false);
    });
    after(() => box.close());

    it("a test through the API posts one card whose outcome is the rules' for its own die (a critical success adds the mastery)", async () => {
      const before = testCards().length;
      const out = (await api().polarisTest({ chance: 12, difficulty: "average", mastery: 4, label: "Aventure test" }))!;
      const card = await waitFor(() => testCards()[before], "the test card");
      assert.equal(testCards().length, before + 1, "one card");
      const die = dieOf(card);
      assert.equal(die, out.die, "the card's die is the one rolled");
      const expected = api().rules.polarisTest({ chance: 12, difficulty: "average", roll: die, mastery: 4 });
      assert.deepEqual(cardOf(card, "polarisTest"), {
        success: expected.success,
        margin: expected.margin,
        degree: expected.degree,
        countdown: null,
      });
      if (die === 12) assert.equal(expected.margin, 4, "die = chance: a critical success, margin 0 + 4");
    });

    it("harder by 2 degrees: Moyenne becomes Difficile (−5), so chance 12 gives a final chance of 7", async () => {
      const out = (await api().polarisTest({ chance: 12, difficulty: "average", harder: 2 }))!;
      assert.equal(out.difficulty, "hard");
      assert.equal(out.result.finalChance, 7);
    });

    it("a countdown of 2 attempts: the retry penalty comes by itself, it ends on a success or when none is left, then rolls nothing", async () => {
      const tests: ReturnType<AventureApi["rules"]["polarisTest"]>[] = [];
      for (let i = 0; i < 2; i++) {
        const before = testCards().length;
        const out = (await api().polarisTest({
          chance: 10,
          difficulty: "average",
          countdown: { maxAttempts: 2, tests },
        }))!;
        await waitFor(() => testCards()[before], "the countdown's card");
        assert.equal(out.result.finalChance, 10 - i, `attempt ${i + 1}: −${i}`);
        tests.push(out.result);
        const expected = api().rules.countdownLeft(2, tests);
        assert.deepEqual(out.countdown, expected);
        assert.deepEqual((cardOf(testCards().at(-1)!, "polarisTest") as { countdown: unknown }).countdown, expected);
        if (expected.succeeded || expected.exhausted) break;
      }
      const rolled = testCards().length;
      let refused = false;
      await api()
        .polarisTest({ chance: 10, difficulty: "average", countdown: { maxAttempts: 2, tests } })
        .catch(() => (refused = true));
      assert.isTrue(refused, "an ended countdown is refused");
      assert.equal(testCards().length, rolled, "and posts nothing");
    });

    it("the test window rolls once however often Roll is clicked, and shows the roll", async () => {
      const app = await api().openPolarisTest();
      if (!app?.element) throw new Error("aventure | the Polaris window did not open");
      try {
        const chance = app.element.querySelector<HTMLInputElement>("[name='chance']")!;
        chance.value = "11";
        // The window's own Event class (the page's, as a user's typing fires it).
        const View = chance.ownerDocument.defaultView ?? window;
        chance.dispatchEvent(new View.Event("change", { bubbles: true }));
        const before = testCards().length;
        const button = app.element.querySelector<HTMLButtonElement>("[data-action='roll']")!;
        button.click();
        button.click();
        await waitFor(() => testCards()[before], "the window's card");
        await waitFor(() => app.element?.querySelector(".aventure-polaris-last"), "the roll shown in the window");
        assert.equal(testCards().length, before + 1, "one card for two clicks");
        const card = testCards().at(-1)!;
        const expected = api().rules.polarisTest({ chance: 11, difficulty: "average", roll: dieOf(card) });
        assert.equal(
          (cardOf(card, "polarisTest") as { success: boolean }).success,
          expected.success,
          "the chance typed in the window",
        );
      } finally {
        await app.close();
      }
    });

    it("phases: order by phase; Hasten (+3) from the combatant menu and a delay reorder; the next round clears both", async () => {
      const names = ["Aventure merc", "Aventure diver", "Aventure shark"];
      const tokens: string[] = [];
      for (const name of names) {
        const actor = await box.actor({ name, type: "npc" });
        tokens.push(
          (
            await box.embedded<{ id: string }>("Token", {
              name,
              actorId: actor.id,
              actorLink: true,
              x: 100 * tokens.length,
              y: 0,
            })
          ).id,
        );
      }
      const combat = await newCombat(box);
      fight = combat;
      await combat.createEmbeddedDocuments(
        "Combatant",
        tokens.map((tokenId, i) => ({ tokenId, sceneId: box.scene!.id, initiative: [12, 9, 7][i] })),
      );
      await combat.startCombat();
      const order = () => combat.turns.map((c) => c.name);
      assert.deepEqual(order(), names, "12, 9, 7");
      const shark = combat.turns[2]!;
      await menuEntry("fa-forward")(shark.id!);
      await waitFor(() => order()[1] === "Aventure shark", "the shark hastened to phase 10");
      assert.deepEqual(order(), ["Aventure merc", "Aventure shark", "Aventure diver"]);
      // A delay, as the Delay dialog writes it (docs/api/polaris.md): the mercenary acts at phase 5.
      await combat.combatants
        .get(combat.turns[0]!.id!)!
        .update({ [`flags.${MODULE_ID}.polaris`]: { round: combat.round, hasten: false, delayTo: 5 } });
      await waitFor(() => order()[2] === "Aventure merc", "the mercenary delayed to phase 5");
      assert.deepEqual(order(), ["Aventure shark", "Aventure diver", "Aventure merc"]);
      await combat.nextRound();
      await waitFor(() => combat.round === 2 && order()[0] === "Aventure merc", "round 2 in the plain order");
      assert.deepEqual(order(), names);
    });

    it("changing intention: one Adaptation test per combatant and round; a catastrophe (here margin = the die ≥ 15) confuses it until the next round", async () => {
      const combat = fight;
      if (!combat) throw new Error("aventure | the previous test's combat is gone");
      const diver = combat.turns.find((c) => c.name === "Aventure diver")!;
      const cards = () => box.messages().filter((m) => cardOf(m, "polarisIntention"));
      const before = cards().length;
      // A final chance below 1 fails whatever the die, and the die is the margin of failure: a catastrophe from 15 up.
      const combatant = combat.combatants.get(diver.id!)!;
      const out = await api().changeIntention(combatant, { chance: -20 });
      const card = await waitFor(() => cards()[before], "the intention card");
      const die = dieOf(card);
      assert.equal(out?.die, die);
      const confusedNow = () =>
        (
          (combat.getFlag(MODULE_ID, "polarisConfused") as { round?: number; ids?: string[] } | undefined)?.ids ?? []
        ).includes(diver.id!);
      assert.equal(out?.confused, die >= 15, "a catastrophe exactly when the die is 15 or more");
      assert.equal(confusedNow(), die >= 15, "confused on the combat exactly then");
      let refused = false;
      await api()
        .changeIntention(combatant, { chance: 10 })
        .catch(() => (refused = true));
      assert.isTrue(refused, "a second test in the same round is refused");
      assert.equal(cards().length, before + 1);
      await combat.nextRound();
      await waitFor(() => combat.round === 3, "round 3");
      await waitFor(() => !confusedNow(), "the confusion cleared");
    });

    it("a character from the shipped template: its skills and attributes in the test window, its Initiative and Réaction in the phases", async () => {
      // The compendium's English adventure holds the template; its actor data is created as importing it would.
      // cast: the compendiums, with only the Adventure compendium's getDocument() and the actors this test reads
      const packs: {
        get(id: string):
          | {
              getDocument(
                id: string,
              ): Promise<{ actors: Iterable<{ _id: string | null; toObject(): object }> } | null | undefined>;
            }
          | undefined;
        // cast: the compendiums, with only the Adventure compendium's getDocument() and the actors this test reads
      } = game.packs as never;
      const pack = packs.get(`${MODULE_ID}.${POLARIS_PACK_NAME}`);
      if (!pack) throw new Error("aventure | the Polaris compendium is missing");
      const adventure = await pack.getDocument(POLARIS_IDS.en.adventure);
      const template = [...(adventure?.actors ?? [])].find((a) => a._id === POLARIS_IDS.en.character);
      if (!template) throw new Error("aventure | the character template is missing");
      const actor = await box.actor({
        ...template.toObject(),
        _id: undefined,
        folder: null,
        name: "Aventure template",
      });
      assert.equal(actor.type, `${MODULE_ID}.polaris`, "the module's own type");
      const update = actor.update as (changes: object) => Promise<unknown>;
      // Typed as a GM would on the sheet: Climbing 12 (mastery 3), Coordination 15, Initiative 11, Réaction 13.
      await update.call(actor, {
        "system.skills.climbing.level": 12,
        "system.skills.climbing.mastery": 3,
        "system.attributes.coo.value": 15,
        "system.initiative": 11,
        "system.reaction": 13,
      });
      // cast: the sandbox's actor is a Foundry Actor
      const app = await api().openPolarisTest({ actor: actor as never });
      if (!app?.element) throw new Error("aventure | the Polaris window did not open");
      try {
        const skills = [...app.element.querySelectorAll<HTMLOptionElement>("[name='skill'] option")].map(
          (o) => o.value,
        );
        assert.include(skills, "climbing", "the template's skill is offered");
      } finally {
        await app.close();
      }
      const token = await box.embedded<{ id: string }>("Token", {
        name: "Aventure template",
        actorId: actor.id,
        actorLink: true,
        x: 0,
        y: 100,
      });
      const combat = await newCombat(box);
      await combat.createEmbeddedDocuments("Combatant", [{ tokenId: token.id, sceneId: box.scene!.id }]);
      await combat.rollAll();
      await waitFor(() => combat.turns[0]?.initiative === 11, "the initiative score read from the actor");
      await combat.delete();
    });

    it("the combat is deleted with Foundry's API", async () => {
      const combat = fight;
      if (!combat) throw new Error("aventure | the combat is gone");
      const id = combat.id!;
      await combat.delete();
      await waitFor(() => !game.combats?.get(id), "the combat deleted");
    });
  });
}

export const POLARIS_BATCH: Batch = {
  key: `${MODULE_ID}.polaris`,
  displayName: "Aventure: Polaris tests and action phases",
  fn: polarisTests,
};
