/**
 * In-world checks of what Aventure's declared state assumes of Foundry's data models (Quench batch "aventure.models";
 * the test world models the same behaviours from the v13 API pages, test/world/models.ts): the module's ChatMessage
 * sub-types (a card's state cleaned, migrated and validated by its model on creation and on update, a key of a
 * TypedObjectField inside `system` deleted in the running generation's form), a flag model's reading (cleaning casts,
 * an exact model refuses what cleaning would change, strict validation, migrateData first, the failing field named),
 * the maps read entry by entry, and the on-demand chunks served. Nothing here depends on a die.
 */
import { MODULE_ID } from "../core/constants.js";
import { cardData, cardDeletion, cardState } from "../core/card-model.js";
import { entryMap, flagModel, valueMap, type Fields } from "../core/flag-model.js";
import { loadAllOnDemand } from "../core/on-demand.js";
import { PROPOSAL_CARD } from "../core/proposals.js";
import { FALL_CARD } from "../movement/fall-card.js";
import { Sandbox } from "./sandbox.js";
import type { Batch, BatchContext } from "./types.js";

interface Message {
  id: string | null;
  type: string;
  system: { toObject?(): unknown };
  update(data: object): Promise<unknown>;
  delete(): Promise<unknown>;
}

/** Creates a chat message (GM) with data the pinned create data does not know (a module's sub-type). */
async function create(data: object): Promise<Message> {
  // cast: ChatMessage.create with a module sub-type's data, checked by Foundry (what this batch tests)
  const Messages: { create(d: object): Promise<Message | undefined> } = ChatMessage.implementation as never;
  const m = await Messages.create({ content: "Aventure — in-world model check", whisper: [game.user.id], ...data });
  if (!m) throw new Error("aventure | the message was not created");
  return m;
}

/** Whether `run` was refused (rejected or threw). */
async function refused(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return false;
  } catch {
    return true;
  }
}

const source = (m: Message): Record<string, unknown> =>
  (typeof m.system.toObject === "function" ? m.system.toObject() : m.system) as Record<string, unknown>;

const FALL = {
  status: "pending",
  ref: { actorId: "aventureHero01" },
  name: "Aldric",
  metres: 10,
  dice: 3,
  damage: 8,
  source: "api",
};

function modelTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("the module's ChatMessage sub-types (module.json documentTypes, CONFIG.ChatMessage.dataModels)", () => {
    const box = new Sandbox();
    before(() => box.open());
    after(() => box.close());
    const count = () => game.messages.size;

    it("a card of a sub-type: its system cleaned by its model (defaults filled, unknown keys dropped)", async () => {
      const m = await create(cardData(FALL_CARD, { ...FALL, stray: 1 }));
      assert.equal(m.type, `${MODULE_ID}.fall`);
      const s = source(m);
      assert.equal(s.v, 2, "the version's default");
      assert.equal(s.executor, null, "the executor's default");
      assert.deepEqual(s.problems, [], "the problems' default");
      assert.isFalse("stray" in s, "an unknown key is dropped");
      assert.ok(cardState(m, FALL_CARD), "the card reads through its model");
    });

    it("a system its model refuses creates nothing; nor does a namespaced type nobody declared", async () => {
      const before = count();
      assert.isTrue(await refused(() => create(cardData(FALL_CARD, { ...FALL, damage: 500 }))), "damage over 120");
      assert.isTrue(await refused(() => create(cardData(FALL_CARD, { ...FALL, status: "done" }))), "not a status");
      assert.isTrue(await refused(() => create({ type: `${MODULE_ID}.nope` })), "an undeclared sub-type");
      assert.equal(count(), before);
    });

    it("migrateData runs before validation: a version 1 fall card is brought up to date", async () => {
      const m = await create(
        cardData(FALL_CARD, { pending: true, damage: 6, name: "Aldric", actorId: "aventureHero01" }),
      );
      const s = source(m);
      assert.equal(s.status, "pending");
      assert.deepEqual(s.ref, { actorId: "aventureHero01" });
    });

    it("an update of the system is merged and validated; one its model refuses writes nothing", async () => {
      const m = await create(cardData(FALL_CARD, FALL));
      await m.update({ system: { status: "applied" } });
      assert.equal(source(m).status, "applied");
      assert.equal(source(m).damage, 8, "the rest kept");
      assert.isTrue(await refused(() => m.update({ "system.damage": 500 })), "damage over 120");
      assert.equal(source(m).damage, 8);
    });

    it("a key of a TypedObjectField inside the system is deleted by the module's deletion form (v13 -=, v14 _del)", async () => {
      const claims = { aventureClientA1: game.user.id, aventureClientB1: game.user.id };
      const m = await create(
        cardData(PROPOSAL_CARD, { v: 1, kind: "travel", data: {}, proposer: game.user.id, status: "declined", claims }),
      );
      assert.deepEqual(source(m).claims, claims);
      await m.update(cardDeletion(m, PROPOSAL_CARD, "claims.aventureClientA1"));
      assert.deepEqual(source(m).claims, { aventureClientB1: game.user.id });
    });
  });

  describe("a flag model (foundry.abstract.DataModel): what Aventure's reading assumes", () => {
    const schema = (f: Fields) => ({
      id: new f.StringField({ required: true, blank: false }),
      count: new f.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: 0 }),
      tags: new f.ArrayField(new f.StringField({ required: true, blank: false }), { max: 3 }),
    });
    const Sample = flagModel({
      name: "AventureQuenchSample",
      schema,
      migrate: (s) => {
        if ("n" in s && !("count" in s)) s.count = s.n;
      },
    });
    const Exact = flagModel({ name: "AventureQuenchExact", schema, exact: true });

    it("cleaning casts (a number sent as text, a lone value to a list); an exact model refuses what it would change", () => {
      assert.deepEqual(Sample.read({ id: "a", count: "2" }), { id: "a", count: 2, tags: [] });
      assert.deepEqual(Sample.read({ id: "a", tags: "x" })?.tags, ["x"]);
      assert.equal(Exact.read({ id: "a", count: "2" }), null);
      assert.equal(Exact.read({ id: "a", tags: "x" }), null);
      assert.deepEqual(Exact.read({ id: "a", count: 2, other: 1 }), { id: "a", count: 2, tags: [] });
    });

    it("strict validation refuses the whole value and names the failing field; migrateData runs first", () => {
      assert.equal(Sample.read({ id: "a", count: -1 }), null);
      assert.equal(Sample.read({ id: "a", tags: ["x", "y", "z", "w"] }), null);
      assert.deepEqual(Sample.failures({ id: "a", count: -1 }), ["count"]);
      assert.equal(Sample.read({ id: "a", n: 4 })?.count, 4);
    });

    it("a map of entries: each entry read on its own, one bad entry left out", () => {
      const Marks = valueMap({ name: "AventureQuenchMarks", value: (f) => new f.BooleanField({ required: true }) });
      assert.deepEqual(Object.fromEntries(Marks.read({ a: true, b: "true", c: false, "no!": true })), {
        a: true,
        c: false,
      });
      const Entries = entryMap({ name: "AventureQuenchEntries", schema, exact: true });
      assert.deepEqual([...Entries.read({ a: { id: "x" }, b: { id: "" } }).keys()], ["a"]);
    });
  });

  describe("settings declared with Foundry's field types (a NumberField with a step)", () => {
    const box = new Sandbox();
    after(() => box.close());
    it("a value on the step, as the settings form's slider gives it, is kept as set", async () => {
      for (const [key, value] of [
        ["lightThresholdBright", 0.15],
        ["lightThresholdBright", 0.35],
        ["travelHoursPerDay", 7.5],
      ] as const) {
        await box.setting(key, value);
        assert.strictEqual(game.settings.get(MODULE_ID, key), value, `${key} ${value}`);
      }
    });
  });

  describe("the chunks loaded on demand (windows, executors)", () => {
    it("the server serves every one of them", async () => {
      await loadAllOnDemand();
    });
  });
}

export const MODELS_BATCH: Batch = {
  key: "aventure.models",
  displayName: "Aventure: Foundry's data models as the module assumes them",
  fn: modelTests,
};
