/**
 * Attacks left after issue 20's fixes (docs/security.md), as a player with the browser console open or a timing
 * between two GMs would make them: a player who ends the round by moving their own combatant to the end of the turn
 * order or by jumping the turn index; a 0.1.x side flag planted by a player before the GMs' first ready; a proposal
 * decided by two GMs across a handover; a chase step asked of two GMs; an encounter's Start combat interrupted or
 * raced. Expected values come from core's rules (a player ends their turn, not the round: NOTES.md "Combat") and
 * RULES.md §7.2–§7.3, not from the code.
 */
import { describe, expect, it } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  forgeRequest,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  seedCombat,
  setSkipDefeated,
  viewScene,
  type FakeCombat,
  type FakeWorld,
  type UserSpec,
} from "../world/index.js";
import type { OutgoingWrite } from "../world/world.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectCrashLog } from "./crash-logs.js";

const T = { timeout: 60_000 };
type Plain = Record<string, unknown>;

const set = (world: FakeWorld, user: string, key: string, value: unknown) =>
  world.as(user, () => game.settings.set("aventure" as never, key as never, value as never));

/** Two friendly characters of p1 (Aldric, Brune), a character of p2 (Cara), an orc and a lurker (hostile). */
async function boot(
  users: UserSpec[] = [GM, GM2, PLAYER, PLAYER2],
  gm = "gm1",
  onDemand: "with the module" | "when used" = "with the module",
) {
  const world = await bootWorld({ system: "ose", users, onDemand });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  const actors: [string, string, number, Record<string, number>][] = [
    ["hero", "Aldric", 1, { p1: 3 }],
    ["scout", "Brune", 1, { p1: 3 }],
    ["cara", "Cara", 1, { p2: 3 }],
    ["orc", "Orc", -1, {}],
    ["lurker", "Rôdeur", -1, {}],
  ];
  for (const [id, name, disposition, ownership] of actors) {
    world.addUserActor({ _id: id, name, ownership });
    world.addToken(scene, {
      _id: `t${id[0]!.toUpperCase()}${id.slice(1)}`,
      name,
      actorId: id,
      actorLink: true,
      disposition,
    });
  }
  if (world.clients.get(gm)?.alive) {
    await set(world, gm, "ruleset", "ose");
    await set(world, gm, "sideTies", "simultaneous");
  }
  return { world, scene };
}

async function newCombat(world: FakeWorld, tokens: string[], flags: Plain = {}, gm = "gm1"): Promise<string> {
  const id = await world.as(gm, async () => {
    const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
    const c = await Combat.create({ scene: "s1", active: true, flags });
    await c.createEmbeddedDocuments(
      "Combatant",
      tokens.map((tokenId) => ({ tokenId, sceneId: "s1" })),
    );
    return c.id;
  });
  await world.settle();
  return id;
}

const combatOf = (world: FakeWorld, user: string, id: string) =>
  world.as(user, () => game.combats.get(id) as unknown as FakeCombat);
async function act(world: FakeWorld, user: string, id: string, fn: (c: FakeCombat) => Promise<unknown>): Promise<void> {
  await world.as(user, () => fn(combatOf(world, user, id)));
  await world.settle();
}
const initiatives = (c: FakeCombat) => Object.fromEntries(c.combatants.contents.map((x) => [x.name, x.initiative]));
const byName = (c: FakeCombat, name: string) => c.combatants.contents.find((x) => x.name === name)!;
const sideCards = (world: FakeWorld) => cardsOf(world.messages.contents, "sideRound");
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
const NOT_OVER = "Only a GM can end the round while combatants are still to act: end your turn instead.";

// ------------------------------------------------------------------------------------------------ the round

describe("a player ends their turn, never the round, whatever the turn order says", () => {
  /** Round 1: friendly 6, hostile 3 → Aldric (p1), Brune (p1), then the orc; Aldric has the turn. */
  async function midRound() {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tScout", "tOrc"]);
    world.queueRolls(6, 3);
    await act(world, "gm1", id, (c) => c.startCombat());
    const combat = combatOf(world, "gm1", id);
    expect(combat.turns.map((c) => c.name)).toEqual(["Aldric", "Brune", "Orc"]);
    expect(combat.combatant!.name).toBe("Aldric");
    return { world, id, combat };
  }
  /** Nothing of round 2 happened: same round, nothing rolled, one card, p1 told the round is not over. */
  function refused(world: FakeWorld, combat: FakeCombat) {
    expect(combat.round).toBe(1);
    expect(world.rollQueue).toEqual([1, 6]);
    expect(sideCards(world)).toHaveLength(1);
    expect(initiatives(combat)).toMatchObject({ Orc: 3 });
  }

  it(
    "attack: on their turn a player sets their own initiative to -50 (last in the order), then nextRound: refused",
    T,
    async () => {
      const { world, id, combat } = await midRound();
      await act(world, "p1", id, (c) => byName(c, "Aldric").update({ initiative: -50 }));
      // Core keeps the turn on Aldric, now the last combatant of the order: core's own order says the round ends with him.
      expect(combat.turns.map((c) => c.name)).toEqual(["Brune", "Orc", "Aldric"]);
      expect(combat.combatant!.name).toBe("Aldric");
      world.queueRolls(1, 6);
      await act(world, "p1", id, (c) => c.nextRound());
      refused(world, combat);
      expect(combat.combatant!.name).toBe("Aldric");
      expect(errors(world, "p1")).toEqual([NOT_OVER]);
      expect(await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 })).toEqual({
        status: "done",
        ok: false,
        key: "AVENTURE.SideInit.roundNotOver",
        data: {},
      });
      refused(world, combat);
    },
  );

  it(
    "attack: a player moves their other combatant last, jumps the turn index to it, then ends the round: refused",
    T,
    async () => {
      const { world, id, combat } = await midRound();
      await act(world, "p1", id, (c) => byName(c, "Brune").update({ initiative: -50 }));
      expect(combat.turns.map((c) => c.name)).toEqual(["Aldric", "Orc", "Brune"]);
      // Core lets the current combatant's owner set the turn: p1 jumps over the orc to Brune, the last turn.
      await act(world, "p1", id, (c) => c.update({ turn: 2 }));
      expect(combat.combatant!.name).toBe("Brune");
      world.queueRolls(1, 6);
      await act(world, "p1", id, (c) => c.nextTurn());
      refused(world, combat);
      expect(errors(world, "p1")).toEqual([NOT_OVER]);
      expect(await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 })).toMatchObject({
        ok: false,
        key: "AVENTURE.SideInit.roundNotOver",
      });
      refused(world, combat);
    },
  );

  it(
    "the turns passed on as core passes them: the player ends the round once everyone's turn started; the record starts again each round",
    T,
    async () => {
      const { world, id, combat } = await midRound();
      // p1 ends Aldric's turn, then Brune's: the turn passes to the orc, whose turn starts too.
      await act(world, "p1", id, (c) => c.nextTurn()); // Brune
      await act(world, "p1", id, (c) => c.nextTurn()); // the orc
      expect(combat.combatant!.name).toBe("Orc");
      expect(combat.getFlag("aventure", "turns")).toEqual({
        round: 1,
        ids: ["Aldric", "Brune", "Orc"].map((n) => byName(combat, n).id),
      });
      // The GM moves the turn back to Brune (core's previousTurn): p1 may end the round, every turn started.
      await act(world, "gm1", id, (c) => c.update({ turn: 1 }));
      world.queueRolls(2, 5);
      await act(world, "p1", id, (c) => c.nextRound());
      expect(combat.round).toBe(2);
      expect(initiatives(combat)).toEqual({ Aldric: 2, Brune: 2, Orc: 5 });
      expect(errors(world, "p1")).toEqual([]);
      // Round 2: the orc has the first turn; only its turn started.
      expect(combat.combatant!.name).toBe("Orc");
      expect(combat.getFlag("aventure", "turns")).toEqual({ round: 2, ids: [byName(combat, "Orc").id] });
      // The records are the GMs' (a player cannot write the combat's flags).
      await expect(
        world.as("p1", () => combatOf(world, "p1", id).update({ "flags.aventure.turns": { round: 2, ids: [] } })),
      ).rejects.toThrow(/lacks permission/);
    },
  );

  it("a GM's own nextRound is not affected: mid-round, the GM ends the round", T, async () => {
    const { world, id, combat } = await midRound();
    world.queueRolls(2, 5);
    await act(world, "gm1", id, (c) => c.nextRound());
    expect(combat.round).toBe(2);
    expect(initiatives(combat)).toEqual({ Aldric: 2, Brune: 2, Orc: 5 });
  });

  it("who may act: a defeated orc (core skips defeated) and a surprised side in round 1 need no turn", T, async () => {
    const { world, id, combat } = await midRound();
    setSkipDefeated(world, true);
    await world.as("gm1", () => byName(combat, "Orc").update({ defeated: true }));
    await world.settle();
    await act(world, "p1", id, (c) => c.nextTurn()); // Brune
    world.queueRolls(2, 5);
    await act(world, "p1", id, (c) => c.nextTurn()); // past Brune: nobody left who may act → the round
    expect(combat.round).toBe(2);
    expect(errors(world, "p1")).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------ 0.1.x sides

describe("0.1.x combatant side flags are dropped, never migrated", () => {
  it(
    "attack: a player plants an old side flag before the GMs' first ready, and a GM's later write stamps the combatant: ignored",
    T,
    async () => {
      // A world saved by 0.1.x, no GM connected yet: an encounter's combat where p1 wrote side "hostile" on Brune, then a
      // GM wrote Brune last (rolled its initiative): `_stats.lastModifiedBy` names the GM, the flag is still the player's.
      const { world } = await boot([{ ...GM, active: false }, PLAYER]);
      seedCombat(world, {
        _id: "oldCombat0000001",
        scene: "s1",
        active: true,
        round: 1,
        turn: 0,
        flags: { aventure: { encounter: { surprised: ["hostile"], firstRound: ["friendly"], marked: false } } },
        combatants: [
          {
            _id: "cbScout000000001",
            tokenId: "tScout",
            initiative: 4,
            flags: { aventure: { side: "hostile" } },
            _stats: { lastModifiedBy: "gm1" },
          },
          {
            _id: "cbOrc00000000001",
            tokenId: "tOrc",
            flags: { aventure: { side: "friendly" } },
            _stats: { lastModifiedBy: "p1" },
          },
          { _id: "cbHero0000000001", tokenId: "tHero", initiative: 4 },
        ],
      });
      // And p1, connected before any GM, plants one more on Aldric before the GM's first ready.
      await world.as("p1", () =>
        (game.combats.get("oldCombat0000001") as unknown as FakeCombat).combatants
          .get("cbHero0000000001")!
          .setFlag("aventure", "side", "hostile"),
      );
      await world.connect("gm1");
      await world.settle();
      const combat = combatOf(world, "gm1", "oldCombat0000001");
      // Aldric and Brune are on the friendly side (their tokens' disposition), the orc on the hostile (surprised) one.
      expect(combat.getFlag("aventure", "sideOf")).toEqual({
        cbScout000000001: "friendly",
        cbOrc00000000001: "hostile",
        cbHero0000000001: "friendly",
      });
      for (const c of combat.combatants.contents) expect(c.getFlag("aventure", "side"), c.name).toBeUndefined();
      expect(world.writes.filter((w) => w.user !== "gm1" && w.action !== "setting").map((w) => w.user)).toEqual(["p1"]);
    },
  );
});

// ------------------------------------------------------------------------------------------------ proposals

type TravelDialog = {
  request: unknown;
  change(name: string, value: string): Promise<unknown>;
  close(): Promise<unknown>;
};
type TravelApi = {
  openTravel(o: { actorIds: string[] }): Promise<TravelDialog>;
  applyTravel(r: unknown): Promise<{ ok?: boolean; proposed?: boolean }>;
};
const cardsWith = (world: FakeWorld, key: string) => cardsOf(world.messages.contents, key);
/** gm2 is the active GM; gm1 (who outranks it: Users#activeGM, the lowest id in the fake) is not connected yet. */
const LATE_GM1: UserSpec[] = [{ ...GM, active: false }, GM2, PLAYER];

/** p1 proposes a 9-hour journey for their dnd5e traveller (one forced-march save, DC 11: a 1 fails it, exhaustion 0 → 1). */
async function proposedJourney(generation = 13) {
  const world = await bootWorld({ users: LATE_GM1, generation });
  world.worldTime = 1000;
  const rogue = addDnd5eActor(world, { id: "rogue", name: "Bram", owner: "p1", abilities: { con: 10 } });
  const d = await world.as("gm2", () => world.api<TravelApi>("gm2").openTravel({ actorIds: ["rogue"] }));
  await world.settle();
  await world.as("gm2", () => d.change("hoursPerDay", "9"));
  const request = d.request;
  await world.as("gm2", () => d.close());
  expect(await world.as("p1", () => world.api<TravelApi>("p1").applyTravel(request))).toMatchObject({ proposed: true });
  await world.settle();
  const [proposal] = cardsWith(world, "proposal");
  const exhaustion = () => (rogue.system.attributes as { exhaustion: number }).exhaustion;
  const exhaustionWrites = () =>
    world.writes.filter((w) => w.documentName === "Actor" && JSON.stringify(w.data).includes("exhaustion"));
  const apply = (user: string) =>
    world.click(
      user,
      world.renderMessage(proposal!, user).querySelector("[data-action='aventure-proposal'][data-accept='true']"),
    );
  return { world, proposal: proposal!, exhaustion, exhaustionWrites, apply };
}
const isProposalMark = (user: string) => (w: OutgoingWrite) =>
  w.user === user &&
  w.documentName === "ChatMessage" &&
  w.action === "update" &&
  JSON.stringify(w.data ?? null).includes('"applying"');

describe("a proposal decided across a handover runs once", () => {
  const isClaim = (user: string) => (w: OutgoingWrite) =>
    w.user === user &&
    w.documentName === "ChatMessage" &&
    w.action === "update" &&
    JSON.stringify(w.data ?? null).includes('"claims"');
  for (const [what, held] of [
    ["its decision's first write", isClaim],
    ['its "applying" mark', isProposalMark],
  ] as const) {
    it(
      `attack: gm2's Apply is in flight (${what}) when gm1 connects and clicks Apply too: one journey, one exhaustion`,
      T,
      async () => {
        const { world, proposal, exhaustion, exhaustionWrites, apply } = await proposedJourney();
        world.queueRolls(1, 1, 1, 1); // a second journey would roll (and fail) its save again
        const release = world.holdWrite(held("gm2"));
        apply("gm2");
        await world.settle({ allowErrors: true });
        expect(release.reached).toBe(true);
        await world.connect("gm1"); // gm1 is now the active GM; the card still reads "pending" on every client
        await world.settle();
        apply("gm1");
        await world.settle({ allowErrors: true });
        release();
        await world.settle({ allowErrors: true });
        expect(cardsOf(world.messages.contents, "travel")).toHaveLength(1);
        expect(exhaustionWrites()).toHaveLength(1);
        expect(exhaustion()).toBe(1);
        expect(cardOf(proposal, "proposal")).toMatchObject({ status: "applied" });
        expect(world.messages.filter((m) => m.content.includes("aventure-proposal-answer"))).toHaveLength(1);
        // The GM whose decision came second is told it was already decided.
        expect(world.notifications.filter((n) => n.type === "error").map((n) => n.user)).toHaveLength(1);
      },
    );
  }

  it.each([13, 14])(
    "v%i: a GM's page stops right after claiming the decision: after its reload the claim is deleted from the card's system and the proposal decided once",
    T,
    async (generation) => {
      const { world, proposal, exhaustion, exhaustionWrites, apply } = await proposedJourney(generation);
      expect(proposal.type).toBe("aventure.proposal");
      world.queueRolls(1, 1);
      // gm2, the active GM, runs its own request at once: the claim, then the "applying" mark — its page dies before it.
      world.crashAt(2, (w) => w.user === "gm2");
      expectCrashLog("request failed", "gm2");
      apply("gm2");
      await world.settle({ allowErrors: true });
      expect(cardOf(proposal, "proposal")).toMatchObject({ status: "pending" });
      expect(Object.keys(proposal.systemSource.claims as object)).toHaveLength(1);
      world.clearFaults();
      await world.reload("gm2");
      await world.settle();
      expect(proposal.systemSource.claims).toEqual({}); // its key deleted (v13 "-=", v14 _del)
      apply("gm2");
      await world.settle();
      expect(cardOf(proposal, "proposal")).toMatchObject({ status: "applied" });
      expect(exhaustionWrites()).toHaveLength(1);
      expect(exhaustion()).toBe(1);
    },
  );

  it(
    "a proposal card of an earlier version (a GM's base message, its state in flags.aventure.proposal) is applied once: its claim written and withdrawn in that flag",
    T,
    async () => {
      const { world, proposal, exhaustion, exhaustionWrites } = await proposedJourney();
      const {
        claims: _claims,
        decidedBy: _d,
        outcome: _o,
        error: _e,
        executor: _x,
        ...state
      } = cardOf(proposal, "proposal")!;
      await world.as("gm2", () => proposal.delete());
      const old = world.addMessage({
        author: "gm2",
        content: proposal.content,
        whisper: ["gm1", "gm2"],
        flags: { aventure: { proposal: state } },
      });
      expect(old.type).toBe("base");
      const flag = () => (old.flags.aventure as { proposal: { status: string; claims?: object } }).proposal;
      world.queueRolls(1, 1);
      world.crashAt(2, (w) => w.user === "gm2"); // the claim is written, then the page dies
      expectCrashLog("request failed", "gm2");
      const button = () =>
        world.renderMessage(old, "gm2").querySelector("[data-action='aventure-proposal'][data-accept='true']");
      world.click("gm2", button());
      await world.settle({ allowErrors: true });
      expect(Object.keys(flag().claims ?? {})).toHaveLength(1);
      expect(flag().status).toBe("pending");
      world.clearFaults();
      await world.reload("gm2");
      await world.settle();
      expect(flag().claims).toEqual({});
      world.click("gm2", button());
      await world.settle();
      expect(flag().status).toBe("applied");
      expect(old.systemSource).toEqual({});
      expect(exhaustionWrites()).toHaveLength(1);
      expect(exhaustion()).toBe(1);
    },
  );

  it(
    "the executing GM loses the active role mid-apply: it finishes the proposal (once), not refused as 'no active GM'",
    T,
    async () => {
      const { world, proposal, exhaustion, exhaustionWrites, apply } = await proposedJourney();
      world.queueRolls(1, 1);
      const release = world.holdWrite(isProposalMark("gm2"));
      apply("gm2");
      await world.settle({ allowErrors: true });
      await world.connect("gm1");
      release();
      await world.settle();
      expect(cardOf(proposal, "proposal")).toMatchObject({ status: "applied" });
      expect(cardsOf(world.messages.contents, "travel")).toHaveLength(1);
      expect(exhaustionWrites()).toHaveLength(1);
      expect(exhaustion()).toBe(1);
    },
  );
});

// ------------------------------------------------------------------------------------------------ chases

describe("a chase step asked twice is played once", () => {
  const chaseCards = (world: FakeWorld) =>
    cardsWith(world, "pursuit").map((m) => cardOf(m, "pursuit") as unknown as { id: string; step: number });
  /** A write of `user` creating a chase card (of the sub-type, or its flag), or updating one (a claim). */
  const isChaseWrite = (world: FakeWorld, user: string) => (w: OutgoingWrite) =>
    w.user === user &&
    w.documentName === "ChatMessage" &&
    (/"(aventure\.)?pursuit"/.test(JSON.stringify(w.data ?? null)) ||
      (w.action === "update" && world.messages.get(w.id)?.type === "aventure.pursuit"));
  /** An outdoor chase gm2 started (p1's Aldric flees a goblin), at its first day. */
  async function outdoorChase() {
    const world = await bootWorld({ users: LATE_GM1 });
    await set(world, "gm2", "ruleset", "pmt");
    const scene = world.addScene({ _id: "scene1" });
    for (const c of world.liveClients()) viewScene(world, c, scene);
    addDnd5eActor(world, { id: "aldric", name: "Aldric", owner: "p1", walk: 30 });
    addDnd5eActor(world, { id: "gob", name: "Gobelin", type: "npc", walk: 40 });
    world.addToken(scene, { _id: "tA", name: "Aldric", actorId: "aldric", actorLink: true, disposition: 1 });
    world.addToken(scene, { _id: "g1", name: "Gobelin 1", actorId: "gob", actorLink: true, disposition: -1 });
    const setup = {
      place: "outdoors",
      fleeingSide: "party",
      sceneId: "scene1",
      groups: {
        party: { count: 1, speed: 9, tokenIds: ["tA"], names: [] },
        opponents: { count: 1, speed: 12, tokenIds: ["g1"], names: [] },
      },
      surprise: "none",
      woods: false,
      woodsBonus: 20,
      twiceFast: false,
      fastBonus: 20,
      dropped: false,
      combatStarted: false,
      reactionTotal: null,
    };
    world.queueRolls(99, 99);
    const started = (await forgeRequest(world, "gm2", "pursuit", { op: "start", setup })) as {
      ok: boolean;
      result: { id: string; step: number; over: boolean };
    };
    expect(started).toMatchObject({ ok: true, result: { step: 1, over: false } });
    const day = {
      op: "day",
      chaseId: started.result.id,
      step: 1,
      woods: false,
      woodsBonus: 20,
      twiceFast: false,
      fastBonus: 20,
    };
    return { world, day };
  }

  it("the same step asked of one GM twice at once: played once", T, async () => {
    const { world, day } = await outdoorChase();
    world.queueRolls(99, 99, 99, 99);
    const made = world.rollsMade.length;
    const [a, b] = await Promise.all([
      forgeRequest(world, "p1", "pursuit", day),
      forgeRequest(world, "p1", "pursuit", day),
    ]);
    expect([a, b].filter((r) => (r as { ok: boolean }).ok)).toHaveLength(1);
    expect(chaseCards(world).map((x) => x.step)).toEqual([1, 2]);
    expect(world.rollsMade.length - made).toBe(2);
  });

  for (const what of ["first write (its claim; the card itself before claims existed)", "card (the step claimed)"]) {
    it(
      `attack: gm2's ${what} is in flight, gm1 connects, the same next day asked again: one roll, one card`,
      T,
      async () => {
        const { world, day } = await outdoorChase();
        world.queueRolls(99, 99, 99, 99);
        const made = world.rollsMade.length;
        // The first write of gm2's step (the claim; on old code the card itself), or the card after the claim.
        const skip = what.startsWith("card") ? 1 : 0;
        let seen = 0;
        const release = world.holdWrite((w) => isChaseWrite(world, "gm2")(w) && seen++ === skip);
        void forgeRequest(world, "p1", "pursuit", day);
        await world.settle({ allowErrors: true });
        expect(release.reached).toBe(true);
        await world.connect("gm1");
        await world.settle();
        const second = await forgeRequest(world, "p1", "pursuit", day);
        release();
        await world.settle({ allowErrors: true });
        expect(chaseCards(world).map((x) => x.step)).toEqual([1, 2]);
        expect(world.rollsMade.length - made).toBe(2); // one day's dice (a second day would roll again)
        if (skip) expect(second).toMatchObject({ ok: false, key: "AVENTURE.Pursuit.error.moved" });
      },
    );
  }
});

// ------------------------------------------------------------------------------------------------ encounter start

describe("an encounter's Start combat is a recorded operation", () => {
  const START = {
    sceneId: "s1",
    tokens: [
      { id: "tHero", side: "friendly" },
      { id: "tOrc", side: "hostile" },
    ],
    surprised: [],
    firstRound: ["friendly", "hostile"],
  };
  const combats = (world: FakeWorld, user: string) =>
    world.as(user, () => game.combats.contents as unknown as FakeCombat[]);
  /** One combat, its two combatants, round 1 rolled once (friendly 5, hostile 2), the operation done. */
  function once(world: FakeWorld, user: string, rolled: Record<string, number> = { Aldric: 5, Orc: 2 }) {
    const all = combats(world, user);
    expect(all).toHaveLength(1);
    const combat = all[0]!;
    expect(combat.combatants.contents.map((c) => c.name).sort()).toEqual(["Aldric", "Orc"]);
    expect(combat.round).toBe(1);
    expect(initiatives(combat)).toEqual(rolled);
    expect(sideCards(world)).toHaveLength(1);
    expect(world.writes.filter((w) => w.documentName === "Combatant" && w.action === "create")).toHaveLength(2); // one per combatant
    expect(combat.getFlag("aventure", "encounterStart")).toMatchObject({ status: "done" });
    expect(combat.getFlag("aventure", "sideOf")).toEqual({
      [byName(combat, "Aldric").id]: "friendly",
      [byName(combat, "Orc").id]: "hostile",
    });
    return combat;
  }

  it(
    "the GM's page reloads after the combat is created, before its combatants: its next page finishes the start once",
    T,
    async () => {
      const { world } = await boot([GM, PLAYER]);
      world.queueRolls(5, 2, 6, 6);
      world.crashAt(1, (w) => w.user === "gm1" && w.documentName === "Combatant");
      expectCrashLog("request failed");
      expectCrashLog("could not answer a request");
      await forgeRequest(world, "gm1", "encounterStart", START);
      await world.settle({ allowErrors: true });
      expect(combats(world, "p1")[0]!.combatants.contents).toEqual([]);
      await world.reload("gm1");
      await world.settle();
      once(world, "gm1");
      // The GMs are told it was finished after an interruption.
      const told = world.messages.filter((m) => m.content.includes("aventure-encounter-resumed"));
      expect(told).toHaveLength(1);
      expect(told[0]!.whisper).toEqual(["gm1"]);
    },
  );

  it(
    "what the GM runs is loaded when first needed: by the GM's first start, and by its next page to finish it",
    T,
    async () => {
      // As in a browser, nothing loaded on demand is loaded before it is needed. The GM connects last: in this fake
      // world an on-demand import binds to the module instance of the client that connected last (test/world/world.ts).
      const { world } = await boot([PLAYER, GM], "gm1", "when used");
      // world.settle() does not wait for a file being loaded (real I/O): settle until the step the test waits for.
      const settleUntil = async (done: () => boolean) => {
        for (let i = 0; i < 500 && !done(); i++) {
          await new Promise((r) => setTimeout(r, 10));
          await world.settle({ allowErrors: true });
        }
      };
      world.queueRolls(5, 2, 6, 6);
      world.crashAt(1, (w) => w.user === "gm1" && w.documentName === "Combatant");
      expectCrashLog("request failed");
      expectCrashLog("could not answer a request");
      void forgeRequest(world, "gm1", "encounterStart", START);
      await settleUntil(() => !world.clients.get("gm1")?.alive);
      expect(combats(world, "p1")[0]!.combatants.contents).toEqual([]);
      await world.reload("gm1");
      await settleUntil(() => world.messages.some((m) => m.content.includes("aventure-encounter-resumed")));
      await world.settle();
      once(world, "gm1");
    },
  );

  it(
    "a crash before any of the GM's writes of a start, then its reload: one combat started once, or none and nothing else",
    T,
    async () => {
      const count = await boot([GM, PLAYER]);
      count.world.queueRolls(5, 2);
      const mark = count.world.writes.length;
      await forgeRequest(count.world, "gm1", "encounterStart", START);
      const n = count.world.writesSince(mark).filter((w) => w.user === "gm1").length;
      expect(n).toBeGreaterThan(5);
      // Over the crashes at every write: the start's failure, the answer never written, and the failure reported.
      expectCrashLog("request failed");
      expectCrashLog("could not answer a request");
      expectCrashLog("");
      for (let k = 1; k <= n; k++) {
        const { world } = await boot([GM, PLAYER]);
        world.queueRolls(5, 2, 6, 6);
        world.crashAt(k, (w) => w.user === "gm1");
        await forgeRequest(world, "gm1", "encounterStart", START).catch(() => null); // k = 1: the request itself is lost
        await world.settle({ allowErrors: true });
        if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
        await world.settle();
        if (combats(world, "gm1").length === 0) {
          expect(
            world.writes.filter((w) => w.documentName === "Combatant"),
            `k=${k}`,
          ).toEqual([]);
          expect(sideCards(world), `k=${k}`).toEqual([]);
        } else {
          // Dice rolled but never recorded (the page died before the round's record) are rolled again: nobody saw them.
          const combat = once(world, "gm1", initiatives(combats(world, "gm1")[0]!) as Record<string, number>);
          expect(
            Object.values(initiatives(combat)).every((v) => typeof v === "number"),
            `k=${k}`,
          ).toBe(true);
        }
      }
    },
  );

  it(
    "the executing GM leaves mid-start (its combatants' write lost): the other GM takes it over and finishes it once",
    T,
    async () => {
      const { world } = await boot([GM, GM2, PLAYER]);
      world.queueRolls(5, 2, 6, 6);
      const release = world.holdWrite((w) => w.user === "gm1" && w.documentName === "Combatant");
      void forgeRequest(world, "gm1", "encounterStart", START);
      await world.settle({ allowErrors: true });
      expect(release.reached).toBe(true);
      expectCrashLog("request failed");
      expectCrashLog("could not answer a request");
      await world.disconnect("gm1");
      await world.settle({ allowErrors: true });
      release();
      await world.settle({ allowErrors: true });
      once(world, "gm2");
    },
  );

  it(
    "a GM with a higher claim connects while the combatants' write is in flight: the executing GM finishes it, once",
    T,
    async () => {
      const { world } = await boot(LATE_GM1, "gm2");
      world.queueRolls(5, 2, 6, 6);
      const release = world.holdWrite((w) => w.user === "gm2" && w.documentName === "Combatant");
      void forgeRequest(world, "gm2", "encounterStart", START);
      await world.settle({ allowErrors: true });
      expect(release.reached).toBe(true);
      await world.connect("gm1");
      await world.settle();
      release();
      await world.settle();
      once(world, "gm1");
    },
  );
});
