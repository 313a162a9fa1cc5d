/**
 * Side initiative in the combat tracker (RULES.md §7.3) against the fake world (test/world): each client runs its own
 * module and its own Combat object; the active GM rolls every round once, through the trusted request channel for
 * anyone else. Three sides over three rounds with fixed dice, ties simultaneous and reroll, one card per round, one
 * Combatant update per round with turnEvents false; two GMs advancing at once; a player ending the last turn;
 * forged and replayed requests; player-authored cards; a crash before every write of the active GM, then recovery;
 * core's nextTurn options and "skip defeated" setting; dnd5e's grouped tracker rows and its initiative dialog.
 * Expected values come from RULES.md §7, not from the code.
 */
import { listen } from "../world/listen.js";
import { describe, expect, it } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  forgeCard,
  forgeRequest,
  gameWrites,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  setSkipDefeated,
  viewScene,
  type FakeCombat,
  type FakeWorld,
} from "../world/index.js";
import { sideHeadersContext } from "../../src/combat/tracker-context.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectCrashLog, expectRequestCrashLogs } from "./crash-logs.js";

const USERS = [GM, GM2, PLAYER, PLAYER2];
const T = { timeout: 60_000 };

type Plain = Record<string, unknown>;

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));

/** The world of the old side-initiative tests: two friendly characters of p1, a neutral merchant, an orc and a secret lurker. */
async function boot(
  opts: { ruleset?: string; ties?: string; system?: string; users?: typeof USERS; generation?: number } = {},
) {
  const world = await bootWorld({
    system: opts.system ?? "ose",
    users: opts.users ?? USERS,
    generation: opts.generation,
  });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await set(world, "ruleset", opts.ruleset ?? "ose");
  await set(world, "sideTies", opts.ties ?? "simultaneous");
  const actors: [string, string, number, Record<string, number>][] = [
    ["hero", "Aldric", 1, { p1: 3 }],
    ["scout", "Brune", 1, { p1: 3 }],
    ["merchant", "Colporteur", 0, {}],
    ["orc", "Orc", -1, {}],
    ["lurker", "Rôdeur", -2, {}], // secret → hostile
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
  return { world, scene };
}

/** A combat (not started) with these tokens, made by the active GM; returns its id. */
async function newCombat(
  world: FakeWorld,
  tokens = ["tHero", "tScout", "tMerchant", "tOrc", "tLurker"],
  flags: Plain = {},
): Promise<string> {
  const id = await world.as("gm1", async () => {
    const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
    const c = await Combat.create({ scene: "s1", active: true, flags });
    await c.createEmbeddedDocuments(
      "Combatant",
      tokens.map((tokenId) => ({ tokenId, sceneId: "s1" })),
    );
    return c.id;
  });
  await world.settle(); // the active GM records the combatants' sides (createCombatant)
  return id;
}

/** The combat as a user's client holds it. */
const combatOf = (world: FakeWorld, user: string, id: string) =>
  world.as(user, () => game.combats.get(id) as unknown as FakeCombat);
/** Runs a method of the combat on a user's client (that client's own Combat object), then lets the world settle. */
async function act(
  world: FakeWorld,
  user: string,
  id: string,
  fn: (c: FakeCombat) => Promise<unknown>,
  allowErrors = false,
): Promise<void> {
  await world.as(user, () => fn(combatOf(world, user, id)));
  await world.settle({ allowErrors });
}

const initiatives = (c: FakeCombat) => Object.fromEntries(c.combatants.contents.map((x) => [x.name, x.initiative]));
const order = (c: FakeCombat) => c.turns.map((x) => x.name);
const sideCards = (world: FakeWorld) => cardsOf(world.messages.contents, "sideRound");
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
const text = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim();
const sidesFlag = (c: FakeCombat) =>
  (c.flags.aventure as { sides?: { round: number; started: boolean; op: Plain | null } } | undefined)?.sides;

/** Spies on the active GM's Combat object: every updateEmbeddedDocuments call (one call = one update for the world). */
function spyEmbedded(world: FakeWorld, id: string): { user: string; updates: Plain[]; options: Plain }[] {
  const calls: { user: string; updates: Plain[]; options: Plain }[] = [];
  for (const user of ["gm1", "gm2"]) {
    if (!world.clients.get(user)?.alive) continue;
    const c = combatOf(world, user, id) as unknown as {
      updateEmbeddedDocuments(t: string, u: Plain[], o?: Plain): Promise<unknown>;
    };
    const original = c.updateEmbeddedDocuments.bind(c);
    c.updateEmbeddedDocuments = (t, u, o = {}) => {
      calls.push({ user, updates: u, options: o });
      return original(t, u, o);
    };
  }
  return calls;
}

describe("tied sides by ruleset (RULES.md §7.3)", () => {
  it("pmt: tied sides act simultaneously even with the reroll option (the pmt rules give no reroll)", T, async () => {
    const { world } = await boot({ ruleset: "pmt", ties: "reroll" });
    const id = await newCombat(world, ["tHero", "tOrc"]);
    world.queueRolls(4, 4);
    await act(world, "gm1", id, (c) => c.startCombat());
    expect(initiatives(combatOf(world, "gm1", id))).toEqual({ Aldric: 4, Orc: 4 });
    expect(world.rollsMade).toHaveLength(1); // no reroll
    expect(world.rollQueue).toEqual([]);
    expect(sideCards(world)[0]!.content).toContain("simultaneous");
  });
});

describe("side initiative over three rounds (ose, three sides)", () => {
  it(
    "rolls 1d6 per side each round, gives every combatant its side's value in one update, one message per round",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world);
      const calls = spyEmbedded(world, id);
      const combat = combatOf(world, "gm1", id);
      expect(combat.constructor.name).toBe("AventureCombat"); // the module's subclass of the system's class
      expect(Object.getPrototypeOf(combat.constructor).name).toBe("FakeCombat");

      const announced = listen(world, "aventure.sideRound");
      // Round 1: friendly 5, neutral 2, hostile 5 → friendly and hostile tie (simultaneous), neutral last.
      world.queueRolls(5, 2, 5);
      await act(world, "gm1", id, (c) => c.startCombat());
      expect(announced.map((c) => [c.user, c.data.round])).toEqual([["gm1", 1]]); // once, on the executing GM
      expect(initiatives(combat)).toEqual({ Aldric: 5, Brune: 5, Colporteur: 2, Orc: 5, Rôdeur: 5 });
      expect(order(combat)).toEqual(["Aldric", "Brune", "Orc", "Rôdeur", "Colporteur"]); // friendly, then hostile, then neutral
      expect(combat.round).toBe(1);
      expect(combat.turn).toBe(0);
      expect(sideCards(world)).toHaveLength(1);
      expect(sideCards(world)[0]!.content).toContain("round\u00a01"); // never "round" at the end of a line, "1" alone on the next
      expect(sideCards(world)[0]!.content).toContain("simultaneous");
      expect(sideCards(world)[0]!.rolls).toHaveLength(1); // one 3d6 roll, one die per side
      expect(calls).toHaveLength(1);
      expect(calls[0]!.options).toEqual({ turnEvents: false });
      expect(calls[0]!.updates).toHaveLength(5);

      // Tracker headers: the two sides at 5 carry the "simultaneous" badge.
      const headers = world.as(
        "gm1",
        () =>
          sideHeadersContext(
            combat.turns.map((c) => ({
              id: c.id,
              side: (["Aldric", "Brune"].includes(c.name)
                ? "friendly"
                : c.name === "Colporteur"
                  ? "neutral"
                  : "hostile") as never,
              initiative: c.initiative,
              skipped: false,
            })),
            (k, d) => game.i18n.format(k, d as never),
          ).headers,
      );
      expect(headers.map((h) => [h.label, h.value, h.simultaneous])).toEqual([
        ["Friendly", 5, true],
        ["Hostile", 5, true],
        ["Neutral", 2, false],
      ]);

      // Round 2: friendly 1, neutral 6, hostile 3 → neutral, hostile, friendly.
      world.queueRolls(1, 6, 3);
      await act(world, "gm1", id, (c) => c.nextRound());
      expect(initiatives(combat)).toEqual({ Aldric: 1, Brune: 1, Colporteur: 6, Orc: 3, Rôdeur: 3 });
      expect(order(combat)).toEqual(["Colporteur", "Orc", "Rôdeur", "Aldric", "Brune"]);
      expect(combat.turn).toBe(0);
      expect(combat.combatant!.name).toBe("Colporteur");
      expect(sideCards(world)).toHaveLength(2);
      expect(calls).toHaveLength(2);

      // Round 3 with the reroll option: friendly 4, neutral 4, hostile 2; friendly and neutral reroll 3 / 6.
      await set(world, "sideTies", "reroll");
      world.queueRolls(4, 4, 2, 3, 6);
      await act(world, "gm1", id, (c) => c.nextRound());
      expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Colporteur: 4.1, Orc: 2, Rôdeur: 2 });
      expect(order(combat)).toEqual(["Colporteur", "Aldric", "Brune", "Orc", "Rôdeur"]);
      expect(sideCards(world)).toHaveLength(3);
      expect(sideCards(world)[2]!.rolls).toHaveLength(2); // the first roll and the reroll of the tied pair
      expect(sideCards(world)[2]!.content).toContain("→: rerolled to break a tie."); // the arrow has its legend
      expect(sideCards(world)[1]!.content).not.toContain("rerolled"); // only where a side was rerolled
      expect(calls).toHaveLength(3);
      expect(calls.every((c) => c.options.turnEvents === false && c.user === "gm1")).toBe(true);

      // Two GMs were connected for all of it: every die queued was used once, nothing else was rolled.
      expect(world.rollQueue).toEqual([]);
      expect(world.rollsMade).toHaveLength(4); // 3d6, 3d6, 3d6 + 2d6
      expect(world.notifications.filter((n) => n.type === "error")).toEqual([]);
      expect(sideCards(world).every((m) => m.author!.id === "gm1")).toBe(true);
    },
  );

  it("another GM advancing the round: the active GM rolls, once", T, async () => {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tOrc"]);
    world.queueRolls(3, 6);
    await act(world, "gm1", id, (c) => c.startCombat());
    const calls = spyEmbedded(world, id);
    world.queueRolls(6, 1);
    await act(world, "gm2", id, (c) => c.nextRound());
    const combat = combatOf(world, "gm2", id);
    expect(combat.round).toBe(2);
    expect(initiatives(combat)).toEqual({ Aldric: 6, Orc: 1 });
    expect(combat.combatant!.name).toBe("Aldric");
    expect(calls.map((c) => c.user)).toEqual(["gm1"]);
    expect(sideCards(world).map((m) => m.author!.id)).toEqual(["gm1", "gm1"]);
    expect(world.rollsMade).toHaveLength(2);
    // The round itself was moved by the active GM, with core's own nextRound.
    expect(
      world.writes.filter((w) => w.documentName === "Combat" && (w.data as Plain).round === 2).map((w) => w.user),
    ).toEqual(["gm1"]);
  });

  it("a combatant added mid-combat takes its side's value; whoever has the turn keeps it", T, async () => {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tOrc"]);
    world.queueRolls(3, 6);
    await act(world, "gm1", id, (c) => c.startCombat());
    const combat = combatOf(world, "gm1", id);
    expect(initiatives(combat)).toEqual({ Aldric: 3, Orc: 6 });
    await act(world, "gm1", id, (c) => c.nextTurn()); // Orc (6) has acted: Aldric's turn
    expect(combat.combatant!.name).toBe("Aldric");
    const calls = spyEmbedded(world, id);
    await act(world, "gm2", id, (c) => c.createEmbeddedDocuments("Combatant", [{ tokenId: "tLurker", sceneId: "s1" }]));
    expect(initiatives(combat)).toEqual({ Aldric: 3, Orc: 6, Rôdeur: 6 });
    expect(order(combat)).toEqual(["Orc", "Rôdeur", "Aldric"]);
    expect(combat.combatant!.name).toBe("Aldric"); // the newcomer's value does not steal the turn
    expect(calls).toEqual([
      { user: "gm1", updates: [{ _id: expect.any(String), initiative: 6 }], options: { turnEvents: false } },
    ]);
    expect(world.rollsMade).toHaveLength(1); // no die for the newcomer
  });

  it("the tracker's roll buttons roll for sides, not individuals (GM and player)", T, async () => {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tScout", "tOrc"]);
    const combat = combatOf(world, "gm1", id);
    const byName = (n: string) => combat.turns.find((c) => c.name === n)!.id;
    // Before the start: the player's roll button (their tracker, a real click) goes to the active GM, who rolls
    // for the player's side.
    await world.as("p1", () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
    const tracker = world.as("p1", () => (ui.combat as unknown as { element: HTMLElement }).element);
    const rowOf = (n: string) => tracker.querySelector(`li.combatant[data-combatant-id="${byName(n)}"]`)!;
    expect(rowOf("Orc").querySelector("[data-action='rollInitiative']")).toBeNull(); // not the player's
    world.queueRolls(4);
    world.click("p1", rowOf("Brune").querySelector("[data-action='rollInitiative']"));
    await world.settle();
    expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: null });
    expect(
      world.writes.filter((w) => w.documentName === "Combatant" && w.action === "update").map((w) => w.user),
    ).toEqual(["gm1", "gm1"]);
    expect(sideCards(world)).toHaveLength(1);
    // rollAll (GM): only the hostile side is left.
    world.queueRolls(2);
    await act(world, "gm1", id, (c) => c.rollAll());
    expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: 2 });
    // Round 1 starts with every side rolled: the rolls made before the start count, nothing is rolled again.
    await act(world, "gm1", id, (c) => c.startCombat());
    expect(combat.round).toBe(1);
    expect(world.rollsMade).toHaveLength(2);
    expect(sideCards(world)).toHaveLength(2);
    // The player cannot roll their side again (core shows the button only without an initiative)...
    await act(world, "p1", id, (c) => c.rollInitiative(byName("Aldric")));
    expect(errors(world, "p1")).toEqual([
      "Initiative has already been rolled for this side this round: only the GM can roll it again.",
    ]);
    // ...nor roll for a side through a combatant they do not own: nothing changes, no die rolled.
    await act(world, "p1", id, (c) => c.rollInitiative(byName("Orc")));
    expect(errors(world, "p1").at(-1)).toBe("You do not own Orc.");
    expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: 2 });
    expect(world.rollsMade).toHaveLength(2);
    expect(sideCards(world)).toHaveLength(2);
    // The GM may roll a side again during the round; whoever has the turn keeps it (Orc, last in the order).
    await act(world, "gm1", id, (c) => c.nextTurn());
    await act(world, "gm1", id, (c) => c.nextTurn());
    expect(combat.combatant!.name).toBe("Orc");
    world.queueRolls(1);
    await act(world, "gm2", id, (c) => c.rollInitiative(byName("Aldric")));
    expect(initiatives(combat)).toEqual({ Aldric: 1, Brune: 1, Orc: 2 });
    expect(order(combat)).toEqual(["Orc", "Aldric", "Brune"]);
    expect(combat.combatant!.name).toBe("Orc");
    expect(world.rollQueue).toEqual([]);
  });

  it("a side whose combatants are all hidden is left out of the public card; the GMs get its roll", T, async () => {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tOrc", "tLurker"]);
    const combat = combatOf(world, "gm1", id);
    for (const c of combat.combatants.contents.filter((x) => x.name !== "Aldric"))
      await world.as("gm1", () => c.update({ hidden: true }));
    world.queueRolls(5, 3); // friendly 5, hostile 3
    await act(world, "gm1", id, (c) => c.startCombat());
    expect(initiatives(combat)).toEqual({ Aldric: 5, Orc: 3, Rôdeur: 3 });
    const [pub, gm] = sideCards(world);
    expect(sideCards(world)).toHaveLength(2);
    expect(pub!.whisper).toEqual([]);
    expect(pub!.content).toContain("Friendly");
    expect(pub!.content).not.toContain("Hostile");
    expect(pub!.rolls).toHaveLength(0); // the dice would show how many sides rolled
    expect(gm!.whisper).toEqual(["gm1", "gm2"]);
    expect(gm!.content).toContain("Hostile");
    expect(gm!.rolls).toHaveLength(1);
    expect(world.visibleMessages("p1")).not.toContain(gm);
    // Once one of them is revealed, the side is public again: one card for everyone.
    await world.as("gm1", () => combat.turns.find((c) => c.name === "Orc")!.update({ hidden: false }));
    world.queueRolls(2, 6);
    await act(world, "gm1", id, (c) => c.nextRound());
    expect(sideCards(world)).toHaveLength(3);
    expect(sideCards(world)[2]!.whisper).toEqual([]);
    expect(sideCards(world)[2]!.content).toContain("Hostile");
  });

  it("works with any ruleset when the side initiative setting is on, and not otherwise", T, async () => {
    const { world } = await boot({ ruleset: "dnd5e" });
    const id = await newCombat(world, ["tHero", "tOrc"]);
    const combat = combatOf(world, "gm1", id);
    world.queueRolls(17, 9); // core's 1d20 each
    await act(world, "gm1", id, (c) => c.rollAll());
    expect(initiatives(combat)).toEqual({ Aldric: 17, Orc: 9 });
    await set(world, "sideInitiative", true);
    world.queueRolls(2, 5);
    await act(world, "gm1", id, (c) => c.startCombat());
    expect(initiatives(combat)).toEqual({ Aldric: 2, Orc: 5 });
  });
});

describe("the end of the combat (pmt, ose)", () => {
  it("advances the world clock so that the encounter took one turn, once with two GMs", T, async () => {
    const { world } = await boot({ ruleset: "pmt" });
    const id = await newCombat(world, ["tHero", "tOrc"]);
    world.queueRolls(3, 4);
    await act(world, "gm1", id, (c) => c.startCombat());
    await world.as("gm1", () => game.time.advance(20)); // two rounds of 10 s counted by the core clock
    await act(world, "gm2", id, (c) => c.delete());
    expect(world.worldTime).toBe(600);
    expect(world.writes.filter((w) => w.action === "time").map((w) => w.user)).toEqual(["gm1", "gm1"]);
    expect(world.notifications.filter((n) => n.type === "info").map((n) => [n.user, n.message])).toEqual([
      ["gm1", "The encounter took one turn: world time advanced by 10 min."],
    ]);
  });

  it("leaves the clock alone when the setting is off", T, async () => {
    const { world } = await boot();
    await set(world, "encounterTurn", false);
    const id = await newCombat(world, ["tHero", "tOrc"]);
    world.queueRolls(3, 4);
    await act(world, "gm1", id, (c) => c.startCombat());
    await act(world, "gm1", id, (c) => c.delete());
    expect(world.worldTime).toBe(0);
  });
});

describe("exactly once: two GMs, a player ending the last turn, forged and replayed requests", () => {
  it(
    "two GMs advancing the round at once (their clicks interleave): the round is rolled once and moves by one",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tOrc"]);
      world.queueRolls(3, 6);
      await act(world, "gm1", id, (c) => c.startCombat());
      world.queueRolls(6, 1); // exactly one round's dice: a second roll would find none
      const mark = world.writes.length;
      await Promise.all([
        world.as("gm1", () => combatOf(world, "gm1", id).nextRound()),
        world.as("gm2", () => combatOf(world, "gm2", id).nextRound()),
      ]);
      await world.settle();
      const combat = combatOf(world, "gm1", id);
      expect(combat.round).toBe(2);
      expect(initiatives(combat)).toEqual({ Aldric: 6, Orc: 1 });
      expect(sideCards(world)).toHaveLength(2);
      expect(world.rollsMade).toHaveLength(2);
      expect(
        gameWrites(world, mark).filter((w) => w.documentName === "Combat" && (w.data as Plain).round !== undefined),
      ).toHaveLength(1);
      expect(world.notifications.filter((n) => n.type === "error")).toEqual([]);
    },
  );

  it(
    "a player ending the last turn (core lets the current combatant's owner do it): the active GM rolls the next round once",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tOrc"]);
      world.queueRolls(3, 6); // Aldric (p1) 3, Orc 6
      await act(world, "gm1", id, (c) => c.startCombat());
      await act(world, "gm1", id, (c) => c.nextTurn()); // Orc has acted: Aldric's turn, the last one
      const combat = combatOf(world, "p1", id);
      expect(combat.combatant!.name).toBe("Aldric");
      world.queueRolls(2, 5);
      const mark = world.writes.length;
      await act(world, "p1", id, (c) => c.nextTurn());
      expect(combat.round).toBe(2);
      expect(initiatives(combat)).toEqual({ Aldric: 2, Orc: 5 });
      expect(combat.combatant!.name).toBe("Orc");
      expect(sideCards(world)).toHaveLength(2);
      expect(world.rollsMade).toHaveLength(2);
      // The player wrote only their request; the active GM wrote the rest, the round with core's nextRound.
      expect(gameWrites(world, mark).filter((w) => w.user !== "gm1")).toEqual([]);
      expect(
        gameWrites(world, mark).filter((w) => w.documentName === "Combat" && (w.data as Plain).round === 2),
      ).toHaveLength(1);
      expect(errors(world, "p1")).toEqual([]);
    },
  );

  it(
    "attack: sideRound — a forged identity, someone else's turn, bad values; nothing is written, nothing rolls",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tOrc"]);
      world.queueRolls(6, 3); // Aldric (p1) 6, Orc 3: Aldric's turn
      await act(world, "gm1", id, (c) => c.startCombat());
      const mark = world.writes.length;
      const made = world.rollsMade.length;
      // p2 owns nothing; the payload claims a GM: the sender is the server's.
      expect(
        await forgeRequest(world, "p2", "sideRound", {
          combatId: id,
          round: 2,
          userId: "gm1",
          user: "gm1",
          sender: "gm1",
        }),
      ).toEqual({ status: "done", ok: false, key: "AVENTURE.Error.NotOwner", data: { name: "Aldric" } });
      // A player may never start a combat (round 1) nor move it when the current combatant is not theirs.
      await act(world, "gm1", id, (c) => c.nextTurn()); // the Orc's turn
      const mark2 = world.writes.length;
      expect(await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.NotOwner",
      });
      expect(await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 1 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.GMOnly",
      });
      const bad: [unknown, string][] = [
        [{ combatId: id, round: 0 }, "AVENTURE.Combat.badRequest"],
        [{ combatId: id, round: -1 }, "AVENTURE.Combat.badRequest"],
        [{ combatId: id, round: 2.5 }, "AVENTURE.Combat.badRequest"],
        [{ combatId: id, round: "2" }, "AVENTURE.Combat.badRequest"],
        [{ combatId: id, round: 1e9 }, "AVENTURE.Combat.badRequest"],
        [{ combatId: id, round: 7 }, "AVENTURE.Combat.badRequest"], // not the next round
        [{ combatId: "nope", round: 2 }, "AVENTURE.Combat.noCombat"],
        [{ combatId: { $ne: 1 }, round: 2 }, "AVENTURE.Combat.badRequest"],
        [{ round: 2 }, "AVENTURE.Combat.badRequest"],
        ["sideRound", "AVENTURE.Combat.badRequest"],
        [null, "AVENTURE.Combat.badRequest"],
      ];
      for (const [data, key] of bad)
        expect(await forgeRequest(world, "gm2", "sideRound", data), JSON.stringify(data)).toMatchObject({
          ok: false,
          key,
        });
      expect(combatOf(world, "gm1", id).round).toBe(1);
      expect(world.rollsMade.length).toBe(made);
      // Only the GM's own nextTurn was written meanwhile, and its record that the orc's turn started.
      expect(gameWrites(world, mark).map((w) => `${w.user} ${w.action} ${w.documentName}`)).toEqual([
        "gm1 update Combat",
        "gm1 update Combat",
      ]);
      expect(gameWrites(world, mark2)).toEqual([]);
    },
  );

  it(
    'attack: a repeated or replayed "next round" for the same round changes nothing (no second card, no turn moved)',
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tOrc"]);
      world.queueRolls(3, 6); // Orc 6, Aldric (p1) 3
      await act(world, "gm1", id, (c) => c.startCombat());
      await act(world, "gm1", id, (c) => c.nextTurn()); // Aldric's turn: p1 may end the round
      world.queueRolls(2, 5);
      expect(
        await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 }, "roundTwoRequest1"),
      ).toMatchObject({ ok: true, result: { rolled: true, round: 2 } });
      const combat = combatOf(world, "gm1", id);
      expect(combat.round).toBe(2);
      expect(initiatives(combat)).toEqual({ Aldric: 2, Orc: 5 });
      const mark = world.writes.length;
      // Again, with a new id (three times, as the old query allowed): nothing more happens.
      for (const n of [2, 3, 4])
        expect(
          await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 }, `roundTwoRequest${n}`),
        ).toMatchObject({ ok: false });
      for (const n of [5, 6])
        expect(
          await forgeRequest(world, "gm2", "sideRound", { combatId: id, round: 2 }, `roundTwoRequest${n}`),
        ).toMatchObject({ ok: true, result: { rolled: false, round: 2 } });
      // The same id again: refused by the channel.
      expect(await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 }, "roundTwoRequest1")).toEqual({
        status: "done",
        ok: false,
        key: "AVENTURE.Request.replayed",
        data: {},
      });
      expect(gameWrites(world, mark)).toEqual([]);
      expect(sideCards(world)).toHaveLength(2);
      expect(combat.round).toBe(2);
      expect(combat.combatant!.name).toBe("Orc");
      expect(world.rollsMade).toHaveLength(2);
    },
  );

  it(
    "attack: rollSides — someone else's combatants, a forged identity, bad values, a replay; nothing is written",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tScout", "tOrc"]);
      const combat = combatOf(world, "gm1", id);
      const byName = (n: string) => combat.combatants.contents.find((c) => c.name === n)!.id;
      const mark = world.writes.length;
      expect(
        await forgeRequest(world, "p2", "rollSides", { combatId: id, combatantIds: [byName("Aldric")], userId: "gm1" }),
      ).toEqual({ status: "done", ok: false, key: "AVENTURE.Error.NotOwner", data: { name: "Aldric" } });
      expect(
        await forgeRequest(world, "p1", "rollSides", { combatId: id, combatantIds: [byName("Aldric"), byName("Orc")] }),
      ).toEqual({ status: "done", ok: false, key: "AVENTURE.Error.NotOwner", data: { name: "Orc" } });
      const bad: unknown[] = [
        { combatId: id, combatantIds: [] },
        { combatId: id, combatantIds: byName("Aldric") },
        { combatId: id, combatantIds: [byName("Aldric"), byName("Aldric")] },
        { combatId: id, combatantIds: [42] },
        { combatId: id, combatantIds: ["nope"] },
        { combatId: id, combatantIds: Array.from({ length: 201 }, (_, i) => `c${i}`) },
        { combatId: 7, combatantIds: [byName("Aldric")] },
        {},
        null,
      ];
      for (const data of bad)
        expect(await forgeRequest(world, "p1", "rollSides", data), JSON.stringify(data)?.slice(0, 80)).toMatchObject({
          ok: false,
          key: "AVENTURE.Combat.badRequest",
        });
      expect(gameWrites(world, mark)).toEqual([]);
      expect(world.rollsMade).toEqual([]);
      // The player's own side, once; the same id again is refused; a new id for a rolled side is refused too.
      world.queueRolls(4);
      expect(
        await forgeRequest(
          world,
          "p1",
          "rollSides",
          { combatId: id, combatantIds: [byName("Brune")] },
          "rollSidesOnce1",
        ),
      ).toMatchObject({ ok: true });
      const after = world.writes.length;
      expect(
        await forgeRequest(
          world,
          "p1",
          "rollSides",
          { combatId: id, combatantIds: [byName("Brune")] },
          "rollSidesOnce1",
        ),
      ).toMatchObject({ ok: false, key: "AVENTURE.Request.replayed" });
      expect(
        await forgeRequest(
          world,
          "p1",
          "rollSides",
          { combatId: id, combatantIds: [byName("Aldric")] },
          "rollSidesOnce2",
        ),
      ).toMatchObject({ ok: false, key: "AVENTURE.Combat.alreadyRolled" });
      expect(gameWrites(world, after)).toEqual([]);
      expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: null });
      expect(world.rollsMade).toHaveLength(1);
    },
  );

  it(
    "attack: player-authored cards with Aventure's flags (sideRound, encounter, polarisTest) change nothing",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tOrc"]);
      // Cards claiming that rounds 1 and 2 were rolled, an encounter state, a Polaris result: a player wrote them.
      await forgeCard(world, "p1", {
        sideRound: { v: 2, combat: id, round: 1, op: "forgedOperation1", kind: "public" },
      });
      await forgeCard(world, "p1", {
        sideRound: { v: 2, combat: id, round: 2, op: "forgedOperation2", kind: "public" },
      });
      await forgeCard(world, "p1", {
        encounter: { where: "dungeon", distance: 9999, surprised: ["hostile", "neutral", "friendly"] },
      });
      await forgeCard(world, "p1", { polarisTest: { success: true, margin: 99, degree: "exceptionnel" } });
      for (const m of world.messages.contents) {
        for (const u of ["gm1", "p1"]) expect(world.renderMessage(m, u).querySelector("button")).toBeNull();
      }
      const mark = world.writes.length;
      world.queueRolls(3, 6);
      await act(world, "gm1", id, (c) => c.startCombat());
      const combat = combatOf(world, "gm1", id);
      expect(combat.round).toBe(1);
      expect(initiatives(combat)).toEqual({ Aldric: 3, Orc: 6 });
      expect(combat.combatant!.name).toBe("Orc"); // nobody was skipped as "surprised"
      expect(sideCards(world).filter((m) => m.author!.isGM)).toHaveLength(1);
      expect(gameWrites(world, mark).every((w) => w.user === "gm1")).toBe(true);
    },
  );

  it(
    "attack: a player's own aventure.sideRound messages claiming rounds 1 and 2 were rolled change nothing",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tOrc"]);
      for (const [round, op] of [
        [1, "forgedOperation1"],
        [2, "forgedOperation2"],
      ] as const)
        await world.as("p1", () =>
          ChatMessage.implementation.create({
            content: "<p>x</p>",
            type: "aventure.sideRound",
            system: { v: 2, combat: id, round, op, kind: "public" },
          } as never),
        );
      expect(sideCards(world).filter((m) => m.type === "aventure.sideRound")).toHaveLength(2);
      const mark = world.writes.length;
      world.queueRolls(3, 6);
      await act(world, "gm1", id, (c) => c.startCombat());
      const combat = combatOf(world, "gm1", id);
      expect(combat.round).toBe(1);
      expect(initiatives(combat)).toEqual({ Aldric: 3, Orc: 6 });
      expect(sideCards(world).filter((m) => m.author!.isGM)).toHaveLength(1);
      expect(gameWrites(world, mark).every((w) => w.user === "gm1")).toBe(true);
    },
  );
});

describe("exactly once across a crash of the active GM at any write of a side round (recovery on ready)", () => {
  /**
   * Round 1 rolled (Orc 6, Aldric 3); it is Aldric's turn (p1). p1 ends it: the active GM's client crashes just
   * before its k-th write. gm2 takes over as active GM (userConnected), then gm1 reloads. Whatever k, afterwards:
   * either nothing happened (round 1 still, the initiatives of round 1, p1 told "interrupted"), or round 2 was rolled
   * exactly once: one card for it, written by a GM, the combatants at the values on that card's operation, round 2.
   */
  async function crashRun(k: number) {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tScout", "tOrc"]);
    world.queueRolls(3, 6); // friendly 3, hostile 6
    await act(world, "gm1", id, (c) => c.startCombat());
    await act(world, "gm1", id, (c) => c.nextTurn());
    await act(world, "gm1", id, (c) => c.nextTurn()); // Brune's turn (p1), the last one
    world.queueRolls(2, 5, 4, 1); // enough for a second roll: a double roll would show as a second card
    const mark = world.writes.length;
    world.crashAt(k, (w) => w.user === "gm1");
    await world.as("p1", () => combatOf(world, "p1", id).nextTurn());
    await world.settle({ allowErrors: true });
    if (!world.clientOf("gm2")) throw new Error("gm2 should be connected");
    if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
    await world.settle();
    return { world, id, mark };
  }

  it("counts the active GM's writes of one round (so the loop below covers every crash point)", T, async () => {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tScout", "tOrc"]);
    world.queueRolls(3, 6);
    await act(world, "gm1", id, (c) => c.startCombat());
    await act(world, "gm1", id, (c) => c.nextTurn());
    await act(world, "gm1", id, (c) => c.nextTurn());
    world.queueRolls(2, 5);
    const mark = world.writes.length;
    await act(world, "p1", id, (c) => c.nextTurn());
    // receipt (working), the operation recorded (the key), 3 initiatives (one update), the card, the round (core's
    // nextRound), the operation done, the record of round 2's first turn, the receipt's reply, delete the request,
    // delete the receipt
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage",
      "update Combat",
      "update Combatant",
      "update Combatant",
      "update Combatant",
      "create ChatMessage",
      "update Combat",
      "update Combat",
      "update Combat",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (let k = 1; k <= 12; k++) {
    it(
      `crash before the active GM's write ${k}: round 2 rolled once, or not at all and the player told`,
      T,
      async () => {
        // The run is writes 2 to 8 (the list above); a stop before writes 8 to 10, once the round moved, also fails
        // the record of its first turn, reported as such.
        expectRequestCrashLogs(k, 8);
        if (k >= 8 && k <= 10) expectCrashLog("");
        const { world, id } = await crashRun(k);
        const combat = combatOf(world, "gm2", id);
        const round2 = sideCards(world).filter((m) => (cardOf(m, "sideRound") as { round: number }).round === 2);
        expect(round2.every((m) => m.author!.isGM)).toBe(true);
        // Before write 2 (the operation, the key) nothing was recorded: nothing happens and the player is told. Before
        // write 1 the request was not picked up yet: the next active GM answers it. Later: recovery finishes it.
        expect(round2).toHaveLength(k === 2 ? 0 : 1);
        const state = sidesFlag(combat)!;
        if (round2.length === 0) {
          expect(combat.round).toBe(1);
          expect(initiatives(combat)).toEqual({ Aldric: 3, Brune: 3, Orc: 6 });
          expect(state.round).toBe(1);
          expect(errors(world, "p1")).toEqual([
            world.as("p1", () => game.i18n.localize("AVENTURE.Request.interrupted")),
          ]);
        } else {
          expect(combat.round).toBe(2);
          expect(state).toMatchObject({ round: 2, started: true, op: { status: "done", kind: "round" } });
          const after = Object.fromEntries(
            (state.op!.after as [string, number][]).map(([cid, v]) => [combat.combatants.get(cid)!.name, v]),
          );
          expect(initiatives(combat)).toEqual(after);
          expect([after.Aldric, after.Orc].sort()).toEqual([2, 5]); // the first two dice queued, once
          expect(combat.combatant!.name).toBe(after.Orc === 5 ? "Orc" : "Aldric");
          expect(world.writes.filter((w) => w.documentName === "Combat" && (w.data as Plain).round === 2)).toHaveLength(
            1,
          );
        }
        // No request or receipt left behind; nothing half done.
        expect(
          world.messages.filter((m) => {
            const f = m.flags.aventure as Plain | undefined;
            return f?.request !== undefined || f?.receipt !== undefined;
          }),
        ).toEqual([]);
        expect(state.op?.status ?? "done").toBe("done");
      },
    );
  }

  for (let k = 1; k <= 9; k++) {
    it(
      `the tracker's roll button (a player's side, before the start): crash before the active GM's write ${k}, rolled once or not at all`,
      T,
      async () => {
        const { world } = await boot();
        const id = await newCombat(world, ["tHero", "tScout", "tOrc"]);
        const combat = combatOf(world, "gm2", id);
        const brune = combat.combatants.contents.find((c) => c.name === "Brune")!.id;
        world.queueRolls(4, 2, 6);
        world.crashAt(k, (w) => w.user === "gm1");
        expectRequestCrashLogs(k, 6);
        await world.as("p1", () => combatOf(world, "p1", id).rollInitiative(brune));
        await world.settle({ allowErrors: true });
        if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
        await world.settle();
        const cards = sideCards(world);
        expect(cards.every((m) => m.author!.isGM)).toBe(true);
        expect(cards).toHaveLength(k === 2 ? 0 : 1);
        const values = Object.values(initiatives(combat));
        if (k === 2) expect(values).toEqual([null, null, null]);
        else {
          const state = sidesFlag(combat)!;
          expect(state).toMatchObject({ round: 1, started: false, op: { status: "done", kind: "sides" } });
          expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: null }); // the first die, once
        }
        expect(world.rollQueue.length).toBeGreaterThanOrEqual(2);
      },
    );
  }

  it(
    "a card forged by a player for the interrupted operation does not stop the GM's card being posted",
    T,
    async () => {
      const { world } = await boot({ users: [GM, PLAYER] });
      const id = await newCombat(world, ["tHero", "tOrc"]);
      world.queueRolls(3, 6);
      await act(world, "gm1", id, (c) => c.startCombat());
      world.queueRolls(2, 5);
      // The GM advances; its client crashes just before posting the card (after the operation and the initiatives).
      world.crashAt(3, (w) => w.user === "gm1");
      expectCrashLog("request failed");
      await world.as("gm1", () => combatOf(world, "gm1", id).nextRound()).catch(() => undefined);
      await world.settle({ allowErrors: true });
      const combat = combatOf(world, "p1", id);
      const op = sidesFlag(combat)!.op!;
      expect(op).toMatchObject({ status: "applying", round: 2 });
      await forgeCard(
        world,
        "p1",
        { sideRound: { v: 2, combat: id, round: 2, op: op.id, kind: "public" } },
        "<p>Round 2: the players win</p>",
      );
      await world.reload("gm1");
      await world.settle();
      const cards = sideCards(world).filter((m) => (cardOf(m, "sideRound") as { round: number }).round === 2);
      expect(cards.map((m) => m.author!.id).sort()).toEqual(["gm1", "p1"]);
      expect(cards.find((m) => m.author!.isGM)!.content).toContain("Interrupted by a reload");
      expect(combat.round).toBe(2);
      expect(initiatives(combat)).toEqual({ Aldric: 2, Orc: 5 });
      // The GMs are told what happened.
      expect(
        world.messages.filter((m) => m.whisper.includes("gm1") && m.content.includes("interrupted by a reload")),
      ).toHaveLength(1);
    },
  );
});

describe('core\'s nextTurn with surprised sides: its options, its hook and its "skip defeated" setting', () => {
  const SURPRISE = {
    aventure: { encounter: { surprised: ["hostile"], firstRound: ["friendly", "neutral"], marked: false } },
  };
  for (const generation of [13, 14]) {
    for (const skip of [false, true]) {
      it(
        `v${generation}, skip defeated ${skip ? "on" : "off"}: round 1 passes over the surprised side, fires combatTurn with core's options`,
        T,
        async () => {
          const { world } = await boot({ generation });
          setSkipDefeated(world, skip);
          const id = await newCombat(world, ["tHero", "tScout", "tMerchant", "tOrc"], SURPRISE);
          const turnHooks: Plain[] = [];
          world.as("gm1", () =>
            Hooks.on(
              "combatTurn",
              ((_c: unknown, data: Plain, options: Plain) =>
                void turnHooks.push({ data: { ...data }, options: JSON.parse(JSON.stringify(options)) })) as never,
            ),
          );
          world.queueRolls(5, 2); // round 1: friendly 5, neutral 2; the hostile side is surprised and does not roll
          await act(world, "gm1", id, (c) => c.startCombat());
          const combat = combatOf(world, "gm1", id);
          expect(order(combat)).toEqual(["Aldric", "Brune", "Colporteur", "Orc"]);
          expect(initiatives(combat)).toEqual({ Aldric: 5, Brune: 5, Colporteur: 2, Orc: null });
          expect(combat.combatant!.name).toBe("Aldric");
          await act(world, "gm1", id, (c) => c.nextTurn());
          expect(combat.combatant!.name).toBe("Brune");
          const options =
            generation >= 14 ? { direction: 1, worldTime: { delta: 0 } } : { advanceTime: 0, direction: 1 };
          expect(turnHooks).toEqual([{ data: { round: 1, turn: 1 }, options }]);
          // The merchant is defeated: skipped only when core's setting says so; the orc (surprised) always is.
          await world.as("gm1", () => combat.turns[2]!.update({ defeated: true }));
          world.queueRolls(3, 4, 1); // round 2: every side rolls
          await act(world, "gm1", id, (c) => c.nextTurn());
          if (skip) {
            expect(combat.round).toBe(2);
            expect(turnHooks).toHaveLength(1); // no turn change in round 1: the next round started
          } else {
            expect(combat.round).toBe(1);
            expect(combat.combatant!.name).toBe("Colporteur");
            expect(turnHooks.at(-1)).toEqual({ data: { round: 1, turn: 2 }, options });
            await act(world, "gm1", id, (c) => c.nextTurn()); // the orc is surprised: round 2
            expect(combat.round).toBe(2);
          }
          expect(initiatives(combat)).toEqual({ Aldric: 3, Brune: 3, Colporteur: 4, Orc: 1 });
          // Round 2: the surprised side acts; a defeated combatant is skipped only with the setting on.
          expect(combat.combatant!.name).toBe(skip ? "Aldric" : "Colporteur");
        },
      );
    }
  }

  it(
    "without side initiative, round 1 starts with the first combatant who may act (core's combatStart data)",
    T,
    async () => {
      const { world } = await boot({ ruleset: "dnd5e" });
      const id = await newCombat(world, ["tHero", "tOrc"], SURPRISE);
      const starts: Plain[] = [];
      world.as("gm1", () =>
        Hooks.on("combatStart", ((_c: unknown, data: Plain) => void starts.push({ ...data })) as never),
      );
      world.queueRolls(5, 20); // core's 1d20: Aldric 5, Orc 20
      await act(world, "gm1", id, (c) => c.rollAll());
      await act(world, "gm1", id, (c) => c.startCombat());
      const combat = combatOf(world, "gm1", id);
      expect(order(combat)).toEqual(["Orc", "Aldric"]);
      expect(starts).toEqual([{ round: 1, turn: 1 }]);
      expect(combat.combatant!.name).toBe("Aldric");
    },
  );
});

describe("the combat tracker (renderCombatTracker)", () => {
  /** Renders a user's combat tracker and reads its list: rows by name, headers as "[text]", groups as {…}. */
  async function trackerList(world: FakeWorld, user: string): Promise<{ root: HTMLElement; items: unknown[] }> {
    await world.as(user, () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
    const root = world.as(user, () => (ui.combat as unknown as { element: HTMLElement }).element);
    const read = (el: Element): unknown => {
      if (el.matches(".combatant-group"))
        return {
          group: [...el.querySelectorAll("li.combatant[data-combatant-id]")].map((r) =>
            text(r.querySelector(".name")!),
          ),
          collapsed: el.classList.contains("collapsed"),
          header: text(el.querySelector(".group-header .name")!),
        };
      if (el.matches("li.combatant")) return text(el.querySelector(".name")!);
      return `[${text(el)}]`;
    };
    return { root, items: [...root.querySelector("ol.combat-tracker")!.children].map(read) };
  }

  it(
    "draws a header before each side with its roll and the simultaneous badge, and the GM's Encounter button",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world);
      world.queueRolls(5, 2, 5);
      await act(world, "gm1", id, (c) => c.startCombat());
      const { root, items } = await trackerList(world, "gm1");
      expect(items).toEqual([
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
      world.as("gm1", () =>
        (Hooks.callAll as unknown as (...a: unknown[]) => void)("renderCombatTracker", ui.combat, root, {}),
      );
      await world.settle();
      expect(root.querySelectorAll(".aventure-side-header")).toHaveLength(3);
      expect(root.querySelectorAll(".aventure-encounter-button")).toHaveLength(1);
      expect(text(root.querySelector(".aventure-encounter-button")!)).toContain("Encounter");
    },
  );

  it("shows the surprised side in round 1; players get no Encounter button", T, async () => {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tOrc"], {
      aventure: { encounter: { surprised: ["hostile"], firstRound: ["friendly"], marked: false } },
    });
    await act(world, "gm1", id, (c) => c.startCombat()); // one side may act: no die
    expect(world.rollsMade).toEqual([]);
    const { root, items } = await trackerList(world, "p1");
    expect(items).toEqual(["[Friendly 1]", "Aldric", "[Hostile surprised —]", "Orc"]);
    expect(root.querySelectorAll(".aventure-encounter-button")).toHaveLength(0);
  });

  /** dnd5e: two linked heroes of p1 and four goblins, unlinked tokens of one base actor (dnd5e groups them); a GM may move goblins to another side (GM state on the combat). */
  async function dnd5eBoot(goblinSides: (string | null)[] = [null, null, null, null]) {
    const world = await bootWorld({ system: "dnd5e", users: USERS });
    const scene = world.addScene({ _id: "s1" });
    for (const c of world.liveClients()) viewScene(world, c, scene);
    await set(world, "ruleset", "dnd5e");
    await set(world, "sideInitiative", true);
    addDnd5eActor(world, { id: "hero", name: "Aldric", owner: "p1", abilities: { dex: 14 } });
    addDnd5eActor(world, { id: "scout", name: "Brune", owner: "p1" });
    addDnd5eActor(world, { id: "goblin", name: "Gobelin", type: "npc" });
    world.addToken(scene, { _id: "tHero", name: "Aldric", actorId: "hero", actorLink: true, disposition: 1 });
    world.addToken(scene, { _id: "tScout", name: "Brune", actorId: "scout", actorLink: true, disposition: 1 });
    for (let i = 1; i <= 4; i++)
      world.addToken(scene, {
        _id: `tGob${i}`,
        name: `Gobelin ${i}`,
        actorId: "goblin",
        actorLink: false,
        disposition: -1,
      });
    const id = await world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments("Combatant", [
        { tokenId: "tHero", sceneId: "s1" },
        { tokenId: "tScout", sceneId: "s1" },
        ...goblinSides.map((_side, i) => ({ tokenId: `tGob${i + 1}`, sceneId: "s1" })),
      ]);
      return c.id;
    });
    await world.settle();
    const combat = world.as("gm1", () => game.combats.get(id) as unknown as FakeCombat);
    const moved = Object.fromEntries(
      goblinSides.flatMap((side, i) =>
        side ? [[combat.combatants.contents.find((x) => x.tokenId === `tGob${i + 1}`)!.id, side]] : [],
      ),
    );
    if (Object.keys(moved).length) await world.as("gm1", () => combat.setFlag("aventure", "sideOf", moved));
    return { world, scene, id };
  }

  const visible = (el: Element) => !el.closest(".combatant-group.collapsed .collapsible-content");

  it(
    "dnd5e groups a side's goblins (one initiative): the headers and badges stay outside the collapsed group",
    T,
    async () => {
      const { world, id } = await dnd5eBoot();
      world.queueRolls(4, 4); // friendly 4, hostile 4: simultaneous
      await act(world, "gm1", id, (c) => c.startCombat());
      const { root, items } = await trackerList(world, "gm1");
      expect(items).toEqual([
        "[Friendly simultaneous 4]",
        "Aldric",
        "Brune",
        "[Hostile simultaneous 4]",
        { group: ["Gobelin 1", "Gobelin 2", "Gobelin 3", "Gobelin 4"], collapsed: true, header: "Gobelin 1" },
      ]);
      const headers = [...root.querySelectorAll(".aventure-side-header")];
      expect(headers).toHaveLength(2);
      expect(headers.every(visible)).toBe(true);
      expect([...root.querySelectorAll(".aventure-side-header .aventure-badge")].map(text)).toEqual([
        "simultaneous",
        "simultaneous",
      ]);
    },
  );

  it(
    "dnd5e: a group that spans two sides (a goblin moved to another side, tied) is taken apart, rows in turn order",
    T,
    async () => {
      const { world, id } = await dnd5eBoot([null, null, null, "neutral"]);
      world.queueRolls(6, 4, 4); // friendly 6, neutral 4, hostile 4: neutral and hostile simultaneous
      await act(world, "gm1", id, (c) => c.startCombat());
      const combat = combatOf(world, "gm1", id);
      expect(order(combat)).toEqual(["Aldric", "Brune", "Gobelin 4", "Gobelin 1", "Gobelin 2", "Gobelin 3"]);
      const { root, items } = await trackerList(world, "p1");
      expect(items).toEqual([
        "[Friendly 6]",
        "Aldric",
        "Brune",
        "[Neutral simultaneous 4]",
        "Gobelin 4",
        "[Hostile simultaneous 4]",
        "Gobelin 1",
        "Gobelin 2",
        "Gobelin 3",
      ]);
      expect([...root.querySelectorAll(".aventure-side-header")].every(visible)).toBe(true);
    },
  );

  it(
    "dnd5e's roll button with side initiative: no d20 dialog, the side is rolled, dnd5e's hooks and use recovery still run",
    T,
    async () => {
      const { world, id } = await dnd5eBoot();
      const seen: string[] = [];
      world.as("p1", () =>
        Hooks.on("dnd5e.rollInitiative" as never, ((actor: { name: string }) => void seen.push(actor.name)) as never),
      );
      await world.as("p1", () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
      const tracker = world.as("p1", () => (ui.combat as unknown as { element: HTMLElement }).element);
      const combat = combatOf(world, "gm1", id);
      const aldric = combat.combatants.contents.find((c) => c.name === "Aldric")!;
      world.queueRolls(5);
      world.click("p1", tracker.querySelector(`li[data-combatant-id="${aldric.id}"] [data-action='rollInitiative']`));
      await world.settle();
      expect(world.dialogsShown).toEqual([]); // dnd5e's initiative dialog would have asked for a d20 nobody rolls
      expect(initiatives(combat)).toMatchObject({ Aldric: 5, Brune: 5 });
      expect(world.rollsMade.map((r) => (r as { formula: string }).formula)).toEqual(["1d6"]);
      expect(seen).toEqual(["Aldric"]); // dnd5e's own Actor5e#rollInitiative ran
      // Combat5e#rollInitiative recovers "initiative" uses: so does the side roll, for each combatant that got one.
      expect(combat.record.recoveries).toEqual([
        { user: "gm1", combatant: "Aldric", periods: ["initiative"] },
        { user: "gm1", combatant: "Brune", periods: ["initiative"] },
      ]);
    },
  );

  it("dnd5e's roll button without side initiative: dnd5e's dialog and d20, untouched", T, async () => {
    const { world, id } = await dnd5eBoot();
    await set(world, "sideInitiative", false);
    await world.as("p1", () => (ui.combat as unknown as { render(): Promise<unknown> }).render());
    const tracker = world.as("p1", () => (ui.combat as unknown as { element: HTMLElement }).element);
    const combat = combatOf(world, "gm1", id);
    const aldric = combat.combatants.contents.find((c) => c.name === "Aldric")!;
    world.answerDialog("p1", {});
    world.queueRolls(11);
    world.click("p1", tracker.querySelector(`li[data-combatant-id="${aldric.id}"] [data-action='rollInitiative']`));
    await world.settle();
    expect(world.dialogsShown.map((d) => [d.user, d.kind])).toEqual([["p1", "dnd5e-initiative"]]);
    expect(initiatives(combat)).toMatchObject({ Aldric: 13, Brune: null }); // 11 + Dex 14 (+2)
    expect(combat.record.recoveries).toEqual([{ user: "p1", combatant: "Aldric", periods: ["initiative"] }]);
  });
});
