/**
 * In-world tests of exploration time (Quench batch "aventure.exploration"): a real scene and a token carrying a light,
 * the module's API (api.exploration) driving turns, lights, checks and rests, asserted on world time, the token's
 * light, the chat cards and the stored exploration. Dice are real: a card's verdict is checked against its own roll.
 * The exploration under way in the world (if any), the settings and world time are put back afterwards.
 */
import { MODULE_ID } from "../core/constants.js";
import { EXPLORATION_DEFAULTS, restPenaltyOf } from "../rules/index.js";
import { EMPTY_RECORD } from "../exploration/record.js";
import { OPTION_SETTINGS } from "../exploration/options.js";
import { explorationCardFlag } from "../exploration/exploration.js";
import { getSetting } from "../core/settings.js";
import { Sandbox, waitFor } from "./sandbox.js";
import type { Batch, BatchContext } from "./types.js";

interface TokenDoc {
  id: string | null;
  light: { dim: number; bright: number };
}

function moduleApi() {
  const x = game.modules.get(MODULE_ID)?.api;
  if (!x) throw new Error("aventure | the module's API is missing");
  return x;
}
const api = () => moduleApi().exploration;
const status = () => api().status();
const turn = () => status().state?.turn ?? -1;

function explorationTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Exploration time", () => {
    const box = new Sandbox();
    let startTime = 0;
    let token: TokenDoc;
    const cards = () => box.messages().filter((m) => explorationCardFlag(m));

    before(async () => {
      await box.open();
      startTime = game.time.worldTime;
      // The world's own exploration and settings are kept aside (and put back by close()).
      await box.setting("explorationState", { ...EMPTY_RECORD, rev: status().rev + 1 });
      await box.setting("ruleset", "ose");
      for (const [option, key] of OPTION_SETTINGS) await box.setting(key, EXPLORATION_DEFAULTS[option]);
      const actor = await box.actor({ name: "Aventure test explorer", type: "character" });
      token = await box.embedded<TokenDoc>("Token", {
        name: "Aventure test explorer",
        actorId: actor.id,
        actorLink: true,
        x: 0,
        y: 0,
        light: { dim: 6, bright: 3 },
      });
      const started = await api().start([token]);
      assert.ok(started, "the exploration starts with the token as the party");
    });

    after(async () => {
      if (status().state) await api().end();
      await game.time.advance(startTime - game.time.worldTime);
      await box.close();
    });

    it("advancing a turn moves world time by 10 minutes, once", async () => {
      const t0 = game.time.worldTime;
      const n = turn();
      await api().advance(1);
      assert.equal(game.time.worldTime, t0 + 600, "world time +600 s");
      assert.equal(turn(), n + 1, "one turn more");
      assert.equal(status().time, t0 + 600, "the turn count is synced to world time");
    });

    it("a torch carried by a token goes out after 6 turns, and comes back when relit", async () => {
      await api().light(token, "torch");
      assert.deepEqual(
        status().state!.lights.map((l) => [l.kind, l.turnsLeft]),
        [["torch", 6]],
      );
      await api().advance(5);
      assert.equal(token.light.dim, 6, "still lit after 5 turns");
      await api().advance(1);
      assert.equal(token.light.dim, 0, "out after 6 turns: dim 0");
      assert.equal(token.light.bright, 0, "out after 6 turns: bright 0");
      assert.lengthOf(status().state!.lights, 0);
      await api().light(token, "lantern");
      assert.equal(token.light.dim, 6, "relit: the radii come back");
      assert.equal(token.light.bright, 3);
      await api().putOut(token);
    });

    it("wandering checks are rolled in chat: one d6 per check, monsters on a 1", async () => {
      const before = cards().length;
      await api().advance(2);
      const card = await waitFor(() => cards()[before], "the exploration card");
      const roll = card.rolls?.[0];
      assert.lengthOf(card.rolls ?? [], 1, "one check in two turns");
      const result = roll?.total ?? 0;
      assert.isTrue(result >= 1 && result <= 6, "a d6");
      assert.equal(explorationCardFlag(card)?.encounter, result === 1, "monsters exactly on a 1");
      assert.equal(
        card.content.includes("aventure-exploration-encounter"),
        result === 1,
        "the Encounter dialog offered on an encounter",
      );
    });

    it("rest: more than 5 turns without rest give −1 to attacks, a turn of rest takes it away", async () => {
      const since = status().state!.turnsSinceRest;
      if (since <= 5) await api().advance(6 - since);
      assert.equal(restPenaltyOf(status().state!), -1, "−1 once the rest is overdue");
      await api().advance(1, { rest: true });
      assert.equal(status().state!.turnsSinceRest, 0);
      assert.equal(restPenaltyOf(status().state!), 0, "rested: no penalty");
    });

    it("Rôle'n Play (docs/rules.md §0): its book has no wandering monsters — two turns roll no check, the card says so", async () => {
      await box.setting("ruleset", "rnp");
      const before = cards().length;
      await api().advance(2);
      const card = await waitFor(() => cards()[before], "the exploration card");
      assert.lengthOf(card.rolls ?? [], 0, "no check rolled");
      assert.isFalse(explorationCardFlag(card)?.encounter ?? true, "no encounter");
      const line = game.i18n.format("AVENTURE.Feature.noRule", {
        game: game.i18n.localize("AVENTURE.Ruleset.rnp"),
        feature: game.i18n.localize("AVENTURE.Feature.name.wandering"),
      });
      assert.include(
        card.content.replaceAll("&#x27;", "'").replaceAll("&#39;", "'"),
        line.replaceAll("&#x27;", "'"),
        "the card's plain line",
      );
      await box.setting("ruleset", "ose");
    });

    it("world time moved by something else is counted in turns", async () => {
      const n = turn();
      await game.time.advance(1200);
      await waitFor(() => turn() === n + 2, "two turns counted");
      assert.equal(status().time, game.time.worldTime);
      assert.equal(getSetting("explorationState").op, null, "nothing left applying");
    });

    it("the panel: one window, found by its id in Foundry's registry, with the window base's options merged in", async () => {
      const open = () => moduleApi().openExploration();
      const panel = await open();
      assert.ok(panel, "the panel opens");
      assert.equal(await open(), panel, "opened again: the same panel");
      assert.equal(foundry.applications.instances.get("aventure-exploration"), panel, "in the registry by its id");
      // ApplicationV2 merged the base's DEFAULT_OPTIONS with the panel's (core/application.ts).
      const { classes, tag, position, window, form } = panel!.options;
      assert.include(classes, "aventure", "the base's class");
      assert.include(classes, "aventure-exploration", "the panel's class");
      assert.equal(tag, "form");
      assert.equal(position.height, "auto");
      assert.equal(position.width, 460, "the panel's width");
      assert.isTrue(window.resizable === true, "resizable");
      assert.isFalse(form?.closeOnSubmit === true, "Enter closes nothing");
      assert.isTrue(panel!.element.classList.contains("aventure"), "the module's CSS scope");
      await panel!.close();
      assert.equal(
        foundry.applications.instances.get("aventure-exploration"),
        undefined,
        "closed: out of the registry",
      );
      const next = await open();
      assert.ok(next && next !== panel, "opened after close: a new panel");
      await next!.close();
    });
  });
}

export const EXPLORATION_BATCH: Batch = {
  key: `${MODULE_ID}.exploration`,
  displayName: "Aventure: exploration time",
  fn: explorationTests,
};
