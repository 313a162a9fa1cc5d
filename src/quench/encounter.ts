/**
 * In-world tests of encounters and side initiative (Quench batch "aventure.encounter", Old-School Essentials rules):
 * the encounter window's roll and its card, Start combat (one combat, each token on its side), a surprised side
 * skipped in round 1, side initiative rolled once per round, the combat deleted. Dice are real: expectations come
 * from the card's own rolls and the rules (api.rules); a surprise is rolled again until one happens (1 in 3 a roll).
 * Everything is made in a throwaway scene and deleted afterwards (the combats first).
 */
import { MODULE_ID } from "../core/constants.js";
import type { AventureApi } from "../api.js";
import type { EncounterDialog } from "../encounter/EncounterDialog.js";
import { cardOf, Sandbox, waitFor } from "./sandbox.js";
import type { Batch, BatchContext } from "./types.js";

interface QCombatant {
  id: string | null;
  name: string;
  flags: Record<string, Record<string, unknown> | undefined>;
  actor: { statuses: Set<string> } | null;
}
interface QCombat {
  id: string | null;
  round: number;
  turn: number | null;
  started: boolean;
  combatant: QCombatant | null;
  turns: QCombatant[];
  flags: Record<string, Record<string, unknown> | undefined>;
  scene: { id: string | null } | null;
  nextTurn(): Promise<unknown>;
  nextRound(): Promise<unknown>;
  delete(): Promise<unknown>;
}

const api = (): AventureApi => {
  const a = game.modules.get(MODULE_ID)?.api;
  if (!a) throw new Error("aventure | the module's API is missing");
  return a;
};
const aventureFlags = (m: { flags: unknown }): Record<string, unknown> =>
  (m.flags as Record<string, Record<string, unknown> | undefined>)[MODULE_ID] ?? {};
/** A combatant's side as the GM recorded it on the combat (GM state: `flags.aventure.sideOf`, combatant id → side). */
const sideOf = (combat: QCombat, c: QCombatant): unknown =>
  (aventureFlags(combat).sideOf as Record<string, unknown> | undefined)?.[c.id ?? ""];

/** Clicks a window's button and waits until its action has finished (the button is enabled again, or gone). */
async function press(app: EncounterDialog, action: string): Promise<void> {
  const button = app.element?.querySelector<HTMLButtonElement>(`[data-action='${action}']`);
  if (!button) throw new Error(`aventure | no ${action} button in the encounter window`);
  button.click();
  await waitFor(() => !button.isConnected || !button.disabled, `the ${action} button`);
}

function encounterTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Encounters, Start combat and side initiative (Old-School Essentials)", () => {
    const box = new Sandbox();
    const tokens: { id: string; side: "friendly" | "hostile" }[] = [];
    const encounterCards = () => box.messages().filter((m) => cardOf(m, "encounter"));
    const roundCards = (combat: QCombat, round: number) =>
      box.messages().filter((m) => {
        const f = cardOf(m, "sideRound") as { combat?: string; round?: number; kind?: string } | undefined;
        return f?.combat === combat.id && f?.round === round && f?.kind === "public";
      });
    /** The encounter's combat on the test scene (the one Start created), handed to the sandbox. */
    const encounterCombat = (): QCombat | null => {
      const found: unknown = game.combats?.contents.find(
        (c) => c.scene?.id === box.scene?.id && aventureFlags(c).encounter,
      );
      return (found as QCombat | undefined) ?? null;
    };
    /** The encounter window on the four tokens (selected on the canvas), the friendly side already aware if asked. */
    const openWindow = async (friendlyAware: boolean): Promise<EncounterDialog> => {
      for (const [i, t] of tokens.entries()) canvas?.tokens?.get(t.id)?.control({ releaseOthers: i === 0 });
      const app = await api().openEncounter();
      if (!app?.element) throw new Error("aventure | the encounter window did not open");
      assert.equal(app.encounter.tokens.length, 4, "the four selected tokens");
      if (friendlyAware) {
        const aware = app.element.querySelector<HTMLInputElement>("[name='aware.friendly']")!;
        aware.checked = true;
        aware.dispatchEvent(new (aware.ownerDocument.defaultView ?? window).Event("change", { bubbles: true }));
        await waitFor(() => app.encounter.aware.friendly === true, "the friendly side aware");
      }
      return app;
    };

    before(async () => {
      await box.open();
      await box.setting("ruleset", "ose");
      await box.setting("encounterTurn", false);
      for (const [i, side] of (["friendly", "friendly", "hostile", "hostile"] as const).entries()) {
        const name = `Aventure ${side} ${i}`;
        const actor = await box.actor({ name, type: "npc" });
        const token = await box.embedded<{ id: string }>("Token", {
          name,
          actorId: actor.id,
          actorLink: true,
          x: 100 * i,
          y: 0,
          disposition: side === "friendly" ? 1 : -1,
        });
        tokens.push({ id: token.id, side });
      }
    });
    after(() => box.close());

    it("an encounter roll posts one card; its distance is within the rules' range for the surprise rolled", async () => {
      const app = await openWindow(false);
      try {
        const before = encounterCards().length;
        await press(app, "roll");
        const card = await waitFor(() => encounterCards()[before], "the encounter card");
        assert.equal(encounterCards().length, before + 1, "one card");
        const result = app.encounter.result!;
        const surprised = (result.surprise?.outcome.surprised.length ?? 0) > 0;
        const range = api().rules.encounterDistance("ose", { where: "dungeon", surprised });
        const metres = cardOf<{ distance: number }>(card, "encounter")!.distance;
        assert.equal(metres, result.distance.metres, "the card's distance is the roll's");
        assert.ok(metres >= range.min && metres <= range.max, `${metres} m within ${range.min}–${range.max} m`);
        assert.equal(metres, result.distance.dice.reduce((a, b) => a + b, 0) * range.multiplier, "dice × multiplier");
      } finally {
        await app.close();
      }
    });

    it("Start combat: one combat with the four tokens, each on its side, its round 1 rolled once", async () => {
      const app = await openWindow(true);
      await press(app, "roll");
      await press(app, "start");
      const combat = await waitFor(() => encounterCombat(), "the encounter's combat");
      box.adopt(combat);
      await waitFor(() => combat.round === 1, "round 1");
      assert.lengthOf(combat.turns, 4);
      for (const t of tokens) {
        const c = combat.turns.find((x) => (x as QCombatant & { tokenId?: string }).tokenId === t.id);
        assert.equal(c && sideOf(combat, c), t.side, "the side picked in the window");
      }
      assert.lengthOf(roundCards(combat, 1), 1, "one side-initiative card for round 1");
      if (!app.rendered) assert.isFalse(app.rendered, "the window closed once the combat started");
      else await app.close();
      await combat.delete();
      await waitFor(() => !encounterCombat(), "the combat deleted");
    });

    it("a surprised side loses round 1: only the other side gets a turn; it acts in round 2, its marker gone", async () => {
      const app = await openWindow(true);
      let hostileSurprised = false;
      for (let i = 0; i < 40 && !hostileSurprised; i++) {
        const before = encounterCards().length;
        await press(app, "roll");
        await waitFor(() => encounterCards()[before], "an encounter card");
        hostileSurprised = app.encounter.result?.surprise?.outcome.surprised.includes("hostile") === true;
      }
      assert.isTrue(hostileSurprised, "the hostile side was surprised within 40 rolls (1 in 3 each)");
      await press(app, "start");
      const combat = await waitFor(() => encounterCombat(), "the encounter's combat");
      box.adopt(combat);
      await waitFor(() => combat.round === 1 && combat.combatant !== null, "round 1");
      const status = api().adapter().statusId("surprised");
      const hostiles = combat.turns.filter((c) => sideOf(combat, c) === "hostile");
      if (status) for (const c of hostiles) assert.isTrue(c.actor?.statuses.has(status), "surprised in round 1");
      const actedInRound1: unknown[] = [];
      for (let guard = 0; combat.round === 1 && guard < 10; guard++) {
        actedInRound1.push(sideOf(combat, combat.combatant!));
        const turn = combat.turn;
        await combat.nextTurn();
        await waitFor(() => combat.round > 1 || combat.turn !== turn, "the next turn");
      }
      assert.deepEqual(actedInRound1, ["friendly", "friendly"], "only the friendly side acts in round 1");
      await waitFor(() => combat.round === 2, "round 2");
      const actedInRound2: unknown[] = [];
      for (let guard = 0; combat.round === 2 && guard < 10; guard++) {
        actedInRound2.push(sideOf(combat, combat.combatant!));
        const turn = combat.turn;
        await combat.nextTurn();
        await waitFor(() => combat.round > 2 || combat.turn !== turn, "the next turn");
      }
      assert.equal(actedInRound2.filter((s) => s === "hostile").length, 2, "both hostile combatants act in round 2");
      if (status)
        for (const c of hostiles) await waitFor(() => !c.actor?.statuses.has(status), "the surprised marker gone");
    });

    it("side initiative is rolled once per round: two next-round calls at once give one card and one new round", async () => {
      const combat = encounterCombat();
      if (!combat) throw new Error("aventure | the previous test's combat is gone");
      const round = combat.round;
      await Promise.all([combat.nextRound(), combat.nextRound()]);
      await waitFor(() => combat.round === round + 1 && roundCards(combat, round + 1).length > 0, "the next round");
      assert.equal(combat.round, round + 1, "one round further, not two");
      assert.lengthOf(roundCards(combat, round + 1), 1, "one side-initiative card for it");
    });

    it("the combat is deleted with Foundry's API, and the same tokens can then start a new encounter", async () => {
      const combat = encounterCombat();
      if (!combat) throw new Error("aventure | the combat is gone");
      await combat.delete();
      await waitFor(() => !encounterCombat(), "the combat deleted");
      const app = await openWindow(true);
      await press(app, "roll");
      await press(app, "start");
      const again = await waitFor(() => encounterCombat(), "a new encounter's combat");
      box.adopt(again);
      assert.lengthOf(again.turns, 4);
      await again.delete();
      await waitFor(() => !encounterCombat(), "the new combat deleted");
      if (app.rendered) await app.close();
    });
  });
}

export const ENCOUNTER_BATCH: Batch = {
  key: `${MODULE_ID}.encounter`,
  displayName: "Aventure: encounters and side initiative",
  fn: encounterTests,
};
