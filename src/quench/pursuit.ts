/**
 * In-world tests of flight and pursuit (Quench batch "aventure.pursuit"): a real scene with a party and its pursuers,
 * the Pursuit window driven through the module's API (api.openPursuit: the same calls as its buttons), the chase cards
 * and their rolls, world time, the running exhaustion effect and a combat. Dice are real: every expectation is read
 * from the card's own roll or the chase it records, never from a fixed die; texts are compared in the world's language
 * (game.i18n). What a test changes is put back: settings, world time, the documents and the chat cards it created.
 */
import { MODULE_ID } from "../core/constants.js";
import { chaseOfMessage } from "../pursuit/chase.js";
import type { ChaseRecord } from "../pursuit/pursuit-context.js";
import type { PursuitDialog } from "../pursuit/PursuitDialog.js";
import { Sandbox, waitFor } from "./sandbox.js";
import type { Batch, BatchContext } from "./types.js";

/** The token documents the batch creates and reads. */
interface TokenDoc {
  id: string | null;
  name: string;
  disposition: number;
  actor: ActorDoc | null;
  parent?: { id: string | null } | null;
}
interface EffectDoc {
  id: string | null;
  flags: Record<string, Record<string, unknown> | undefined>;
  duration?: {
    seconds?: number | null;
    startTime?: number | null;
    value?: number | null;
    units?: string | null;
  } | null;
}
interface ActorDoc {
  id: string | null;
  name: string;
  effects: Iterable<EffectDoc>;
}

const DAY = 86_400;

function api() {
  const mod = game.modules.get(MODULE_ID);
  if (!mod?.api) throw new Error("aventure | the module's API is missing");
  return mod.api;
}

/** A chat card's text as a reader sees it (markup and escapes gone, spaces collapsed). */
function textOf(m: ChatMessage): string {
  const div = document.createElement("div");
  div.innerHTML = String(m.content ?? "");
  return (div.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** The same for a lang string of the module in the world's language. */
function said(key: string, data?: Record<string, string | number>): string {
  const s = data
    ? game.i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])))
    : game.i18n.localize(key);
  return s.replace(/\s+/g, " ").trim();
}

const runEffects = (actor: ActorDoc | null): EffectDoc[] =>
  [...(actor?.effects ?? [])].filter((e) => e.flags?.[MODULE_ID]?.runExhaustion === true);
const isV14 = (): boolean => (game.release?.generation ?? 13) >= 14;

function pursuitTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Flight and pursuit", () => {
    const box = new Sandbox();
    let startTime = 0;
    let n = 0;
    const dialogs: PursuitDialog[] = [];

    /** A creature and its token: friendly (the party) or hostile (the pursuers). */
    const creature = async (name: string, disposition: 1 | -1): Promise<TokenDoc> => {
      n++;
      const actor = await box.actor({
        name: `${name} (Aventure test ${n})`,
        type: disposition === 1 ? "character" : "npc",
      });
      return box.embedded<TokenDoc>("Token", {
        name,
        actorId: actor.id,
        actorLink: true,
        disposition,
        x: 100 * n,
        y: 100,
      });
    };
    /** The chase cards of the sandbox, oldest first, read back as the module reads them (a GM's card only). */
    const chaseCards = (): { message: ChatMessage; record: ChaseRecord }[] =>
      box.messages().flatMap((message) => {
        const record = chaseOfMessage(message);
        return record ? [{ message, record }] : [];
      });
    const cardsOf = (id: string) => chaseCards().filter((c) => c.record.id === id);
    /** The Pursuit window on these tokens, with fields set as the GM would type them. */
    const open = async (tokens: TokenDoc[], fields: Record<string, string | boolean>): Promise<PursuitDialog> => {
      const d = (await api().openPursuit({ tokens }))!;
      dialogs.push(d);
      for (const [k, v] of Object.entries(fields)) await d.change(k, v);
      return d;
    };
    const started = (r: ChaseRecord | null, what: string): ChaseRecord => {
      if (!r) throw new Error(`aventure | ${what}: the chase did not start`);
      return r;
    };

    before(async () => {
      await box.open();
      startTime = game.time.worldTime;
      await box.setting("pursuitAdvanceTime", true);
      // Deleting a combat would move the clock on to a full turn (pmt, ose): not what these tests look at.
      await box.setting("encounterTurn", false);
    });
    after(async () => {
      for (const d of dialogs) await d.close().catch(() => undefined);
      await box.close();
      // World time is put back where it was (the chase days and the rest moved it on).
      if (game.time.worldTime !== startTime) await game.time.advance(startTime - game.time.worldTime);
    });

    it("outdoors: a day of the chase shows the escape chance on its card and moves the world clock on by one day", async () => {
      await box.setting("ruleset", "pmt");
      const party = [await creature("Aldric", 1), await creature("Brune", 1)];
      const wolf = await creature("Loup", -1);
      // 30 fleeing against 1 pursuer: base 10 %, no band bonus; pursuers twice as fast −25: kept at the 5 % floor. The
      // pursuers are not faster (same speed), so they never catch: the chase goes on while the 5 % roll fails.
      const fields = {
        place: "outdoors",
        "groups.party.count": "30",
        "groups.party.speed": "12",
        "groups.opponents.count": "1",
        "groups.opponents.speed": "12",
        twiceFast: true,
        fastBonus: "25",
      };
      const expected = api().rules.evasionChance({ fleeing: 30, pursuers: 1, pursuerBonus: 25 }).chance;
      assert.equal(expected, 5, "the rules' floor");
      let d = await open([...party, wolf], fields);
      let r = started(await d.start(), "day 1");
      // Day 1 escapes on 1 to 5 on 1d100: start again (a new chase) until one goes on to a second day.
      for (let tries = 0; r.over && tries < 5; tries++) {
        d = await open([...party, wolf], fields);
        r = started(await d.start(), "day 1");
      }
      assert.isFalse(r.over, "a chase that goes on after day 1");
      const first = cardsOf(r.id)[0]!;
      assert.equal(first.record.outdoors!.log[0]!.chance, expected);
      assert.include(
        textOf(first.message),
        said("AVENTURE.Pursuit.log.chance", { chance: expected, pursuers: 1, fleeing: 30, ratio: 3 }),
      );
      assert.lengthOf(first.message.rolls ?? [], 1, "the 1d100 escape roll on the card");
      const roll = first.message.rolls[0]!.total as number;
      assert.equal(first.record.outdoors!.log[0]!.evasionRoll, roll, "the card's own roll decided day 1");
      assert.isAbove(roll, expected, "day 1 failed: the chase goes on");

      const before = game.time.worldTime;
      const next = started(await d.nextDay(), "day 2");
      assert.equal(next.outdoors!.day, 2);
      const second = await waitFor(
        () => cardsOf(r.id).find((c) => c.record.step === 2 && c.record.apply?.status === "applied"),
        "the day 2 card, applied",
      );
      assert.equal(game.time.worldTime, before + DAY, "one day later");
      assert.deepEqual(second.record.apply!.time, { before, after: before + DAY });
      assert.include(
        textOf(second.message),
        said("AVENTURE.Pursuit.log.chance", { chance: expected, pursuers: 1, fleeing: 30, ratio: 3 }),
      );
    });

    it("outdoors: surprised pursuers let the fleeing side go at once, without dice or time", async () => {
      await box.setting("ruleset", "pmt");
      const party = await creature("Aldric", 1);
      const wolf = await creature("Loup", -1);
      const before = game.time.worldTime;
      const d = await open([party, wolf], {
        place: "outdoors",
        surprise: "pursuers",
        "groups.party.speed": "9",
        "groups.opponents.speed": "12",
      });
      const r = started(await d.start(), "surprise");
      assert.equal(r.outdoors!.outcome, "escaped");
      const [card] = cardsOf(r.id);
      assert.lengthOf(card!.message.rolls ?? [], 0, "no dice");
      assert.include(textOf(card!.message), said("AVENTURE.Pursuit.log.pursuersSurprised"));
      assert.equal(game.time.worldTime, before, "no day passed");
    });

    it("dungeon (ose): 30 rounds of running, then the running exhaustion on each runner, which ends after three turns of rest", async () => {
      await box.setting("ruleset", "ose");
      const runners = [await creature("Aldric", 1), await creature("Brune", 1)];
      const orc = await creature("Orque", -1);
      const d = await open([...runners, orc], { "groups.party.speed": "7.5", "groups.opponents.speed": "12" });
      let r = started(await d.start(), "the flight");
      assert.equal(r.dungeon!.outcome, "continues", "ose: the GM decides whether they pursue; the chase goes on");
      for (let round = 1; round <= 29; round++) r = started(await d.dungeon("round"), `round ${round}`);
      assert.equal(r.dungeon!.rounds, 29);
      for (const t of [...runners, orc]) assert.lengthOf(runEffects(t.actor), 0, `${t.name}: not yet exhausted`);
      r = started(await d.dungeon("round"), "round 30");
      assert.isTrue(r.dungeon!.exhausted, "exhausted at round 30");
      const last = await waitFor(
        () => cardsOf(r.id).find((c) => c.record.step === r.step && c.record.apply?.status === "applied"),
        "the round 30 card, applied",
      );
      assert.deepEqual(
        last.record.exhaustedActors,
        [...runners, orc].map((t) => t.actor!.name),
      );
      assert.include(
        textOf(last.message),
        said("AVENTURE.Pursuit.log.effectOn", { names: last.record.exhaustedActors.join(", ") }),
      );
      const effects = [...runners, orc].map((t) => runEffects(t.actor));
      for (const e of effects) assert.lengthOf(e, 1, "one effect per runner");
      if (isV14()) {
        // v14: core expires it from its duration (30 minutes); Aventure leaves it to core.
        assert.deepEqual([effects[0]![0]!.duration?.value, effects[0]![0]!.duration?.units], [30, "minutes"]);
        return;
      }
      // v13: three turns of rest (docs/rules.md §1: a turn is 10 minutes); the active GM deletes it once they are over.
      assert.equal(effects[0]![0]!.duration?.seconds, 1800);
      await game.time.advance(1799);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.lengthOf(runEffects(runners[0]!.actor), 1, "one second short of three turns: still exhausted");
      await game.time.advance(1);
      await waitFor(
        () => [...runners, orc].every((t) => runEffects(t.actor).length === 0),
        "the end of the running exhaustion",
      );
    });

    it("dungeon: treasure dropped during the chase — 3 to 6 on the card's 1d6 and the pursuers stop for it", async () => {
      await box.setting("ruleset", "pmt");
      const party = await creature("Aldric", 1);
      const orc = await creature("Orque", -1);
      // A reaction of 9 already rolled: they pursue (pmt 7–12); faster, they could catch the party.
      const d = await open([party, orc], {
        "groups.party.speed": "9",
        "groups.opponents.speed": "12",
        reactionTotal: "9",
      });
      const r = started(await d.start(), "the flight");
      assert.equal(r.dungeon!.outcome, "continues");
      const after = started(await d.dungeon("drop"), "the drop");
      const card = cardsOf(r.id).find((c) => c.record.step === after.step)!;
      assert.lengthOf(card.message.rolls ?? [], 1, "the 1d6 on the card");
      const roll = card.message.rolls[0]!.total as number;
      const event = after.dungeon!.log.at(-1)!;
      assert.equal(event.dropRoll, roll, "the card's own roll decided");
      const distracted = roll >= 3;
      assert.equal(event.reason, distracted ? "distracted" : "notDistracted");
      assert.equal(after.dungeon!.outcome, distracted ? "escaped" : "continues");
      assert.include(textOf(card.message), said(`AVENTURE.Pursuit.log.drop.${event.reason}`, { roll }));
    });

    it("a flight once a combat with these tokens has started is impossible: the window says so, and so does the card", async () => {
      await box.setting("ruleset", "pmt");
      const party = await creature("Aldric", 1);
      const orc = await creature("Orque", -1);
      const sceneId = box.scene!.id;
      const combat = await CONFIG.Combat.documentClass.create({ scene: sceneId, active: true });
      if (!combat) throw new Error("aventure | could not create the test combat");
      try {
        await combat.createEmbeddedDocuments(
          "Combatant",
          [party, orc].map((t) => ({ tokenId: t.id, sceneId, actorId: t.actor?.id })),
        );
        await combat.startCombat();
        const d = await open([party, orc], { "groups.party.speed": "12", "groups.opponents.speed": "9" });
        assert.isTrue(d.setup.combatStarted, "the window sees the fight");
        // Unticked by hand: the GM still refuses the flight.
        await d.change("combatStarted", false);
        const r = started(await d.start(), "the flight");
        assert.equal(r.dungeon!.outcome, "impossible");
        assert.isTrue(r.over);
        const [card] = cardsOf(r.id);
        assert.include(textOf(card!.message), said("AVENTURE.Pursuit.log.start.combatStarted"));
      } finally {
        await combat.delete();
      }
    });
  });
}

export const PURSUIT_BATCH: Batch = {
  key: `${MODULE_ID}.pursuit`,
  displayName: "Aventure: flight and pursuit",
  fn: pursuitTests,
};
