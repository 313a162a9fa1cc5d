/**
 * Who may move a side-initiative combat and who decides a combatant's side (issue 20, items 1 and 2;
 * docs/security.md), attacked as a player with the browser console open would: `game.combat.nextRound()` on their own
 * turn while monsters are still to act, a forged "sideRound" request, core's own update of the round, and
 * `combatant.setFlag("aventure", "side", …)` / a change of their token's disposition to join the hostile side, leave a
 * surprised side or reveal a hidden side. The expected values come from core's rules (a player ends their turn, not
 * the round; NOTES.md "Combat") and RULES.md §7.2–§7.3, not from the code.
 */
import { describe, expect, it } from "vitest";
import {
  bootWorld,
  forgeRequest,
  gameWrites,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  seedCombat,
  setSkipDefeated,
  viewScene,
  type FakeCombat,
  type FakeWorld,
} from "../world/index.js";
import { cardsOf } from "./card-state.js";

const T = { timeout: 60_000 };
type Plain = Record<string, unknown>;

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));

/** Two friendly characters of p1 (Aldric, Brune), a character of p2 (Cara), an orc and a secret lurker (hostile). */
async function boot(opts: { users?: { id: string; isGM: boolean; active?: boolean }[] } = {}) {
  const world = await bootWorld({ system: "ose", users: opts.users ?? [GM, GM2, PLAYER, PLAYER2] });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  const actors: [string, string, number, Record<string, number>][] = [
    ["hero", "Aldric", 1, { p1: 3 }],
    ["scout", "Brune", 1, { p1: 3 }],
    ["cara", "Cara", 1, { p2: 3 }],
    ["orc", "Orc", -1, {}],
    ["lurker", "Rôdeur", -2, {}],
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
  if (world.clients.get("gm1")?.alive) {
    await set(world, "ruleset", "ose");
    await set(world, "sideTies", "simultaneous");
  }
  return { world, scene };
}

async function newCombat(world: FakeWorld, tokens: string[], flags: Plain = {}): Promise<string> {
  const id = await world.as("gm1", async () => {
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

describe("a player ends their turn, not the round (issue 20, item 1)", () => {
  /** Round 1: friendly 6, hostile 3 → Aldric (p1), Brune (p1), then the orc: p1 has the turn, the orc is still to act. */
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

  it(
    "attack: game.combat.nextRound() on their own turn with the orc still to act: refused, nothing written, nothing rolled",
    T,
    async () => {
      const { world, id, combat } = await midRound();
      const mark = world.writes.length;
      const made = world.rollsMade.length;
      world.queueRolls(1, 6);
      await world.as("p1", () => (game.combat as unknown as FakeCombat).nextRound());
      await world.settle();
      expect(combat.round).toBe(1);
      expect(combat.combatant!.name).toBe("Aldric");
      expect(initiatives(combat)).toEqual({ Aldric: 6, Brune: 6, Orc: 3 });
      expect(world.rollsMade.length).toBe(made);
      expect(sideCards(world)).toHaveLength(1);
      expect(gameWrites(world, mark)).toEqual([]);
      expect(errors(world, "p1")).toEqual([NOT_OVER]);
      // The same through a forged request: refused with the same reason.
      expect(await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 })).toEqual({
        status: "done",
        ok: false,
        key: "AVENTURE.SideInit.roundNotOver",
        data: {},
      });
      // Ending the turn is theirs: the turn passes to Brune, then (still p1's) to the orc; only then may the GM's round come.
      await act(world, "p1", id, (c) => c.nextTurn());
      expect(combat.combatant!.name).toBe("Brune");
      await act(world, "p1", id, (c) => c.nextTurn());
      expect(combat.combatant!.name).toBe("Orc");
      expect(combat.round).toBe(1);
      // The GM wrote only its record of whose turn started (Brune's, the orc's): GM state on the combat.
      expect(
        gameWrites(world, mark)
          .filter((w) => w.user !== "p1")
          .map((w) => Object.keys((w.data as { flags: { aventure: object } }).flags.aventure)),
      ).toEqual([["turns"], ["turns"]]);
      // On the orc's turn p1 owns the current combatant no more: refused as before.
      expect(await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Error.NotOwner",
      });
      expect(world.rollQueue).toEqual([1, 6]);
    },
  );

  it(
    "the last of their combatants to act ends the round when nobody after it would act (core's 'skip defeated' honoured)",
    T,
    async () => {
      for (const skip of [true, false]) {
        const { world, id, combat } = await midRound();
        setSkipDefeated(world, skip);
        await act(world, "gm1", id, (c) => c.nextTurn()); // Brune's turn, the orc after her
        await world.as("gm1", () => byName(combat, "Orc").update({ defeated: true }));
        await world.settle();
        world.queueRolls(2, 5);
        await act(world, "p1", id, (c) => c.nextTurn());
        if (skip) {
          // Core would skip the defeated orc: Brune's turn is the last one, so ending it ends the round.
          expect(combat.round).toBe(2);
          expect(initiatives(combat)).toEqual({ Aldric: 2, Brune: 2, Orc: 5 });
          expect(errors(world, "p1")).toEqual([]);
        } else {
          // Core would give the defeated orc its turn: p1's nextTurn passes it the turn, nothing more.
          expect(combat.round).toBe(1);
          expect(combat.combatant!.name).toBe("Orc");
          expect(world.rollQueue).toEqual([2, 5]);
          expect(await forgeRequest(world, "p1", "sideRound", { combatId: id, round: 2 })).toMatchObject({
            ok: false,
            key: "AVENTURE.Error.NotOwner",
          });
        }
      }
    },
  );

  it(
    "round 1 with the hostile side surprised: ending the last acting turn ends the round (the surprised orc would not act)",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tOrc"], {
        aventure: { encounter: { surprised: ["hostile"], firstRound: ["friendly"], marked: false } },
      });
      await act(world, "gm1", id, (c) => c.startCombat()); // the friendly side acts alone: no die (RULES.md §7.3)
      const combat = combatOf(world, "gm1", id);
      expect(combat.combatant!.name).toBe("Aldric");
      expect(world.rollsMade).toEqual([]);
      world.queueRolls(2, 5);
      await act(world, "p1", id, (c) => c.nextTurn());
      expect(combat.round).toBe(2);
      expect(initiatives(combat)).toEqual({ Aldric: 2, Orc: 5 });
      expect(errors(world, "p1")).toEqual([]);
    },
  );

  it(
    "core itself lets the current combatant's owner change only the round and turn: nothing Aventure rolls follows, and the combat's flags stay the GMs'",
    T,
    async () => {
      const { world, id, combat } = await midRound();
      const mine = combatOf(world, "p1", id);
      const mark = world.writes.length;
      // What core permits (test/world/combat.ts FakeCombat#canUserModify): the owner of the current combatant moves the
      // round. Aventure rolls nothing for it: no card, no initiative written, no GM write at all.
      await world.as("p1", () => mine.update({ round: 2, turn: 0 }));
      await world.settle();
      expect(combat.round).toBe(2);
      // The GM records only that round 2's first turn started (GM state: whose turn started this round).
      expect(gameWrites(world, mark).map((w) => w.user)).toEqual(["p1", "gm1"]);
      expect(combat.getFlag("aventure", "turns")).toEqual({ round: 2, ids: [byName(combat, "Aldric").id] });
      expect(sideCards(world)).toHaveLength(1);
      expect(initiatives(combat)).toEqual({ Aldric: 6, Brune: 6, Orc: 3 });
      // The combat's flags (side state, sides of the combatants) are the GMs': core refuses a player's write.
      await expect(
        world.as("p1", () => mine.update({ [`flags.aventure.sideOf.${byName(mine, "Aldric").id}`]: "hostile" })),
      ).rejects.toThrow(/lacks permission/);
      await expect(
        world.as("p1", () => mine.setFlag("aventure", "sides", { round: 9, values: [], groups: [] })),
      ).rejects.toThrow(/lacks permission/);
    },
  );
});

describe("sides are the GMs' state (issue 20, item 2)", () => {
  it(
    "attack: a player writes side 'hostile' on their combatant, then rolls: the GM rolls their own side, never the monsters'",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tHero", "tScout", "tOrc"]);
      const combat = combatOf(world, "gm1", id);
      const aldric = byName(combatOf(world, "p1", id), "Aldric");
      await world.as("p1", () => aldric.setFlag("aventure", "side", "hostile"));
      await world.settle();
      world.queueRolls(4);
      const mark = world.writes.length;
      await act(world, "p1", id, (c) => c.rollInitiative(aldric.id));
      // The friendly side rolled (Aldric and Brune); the orc's initiative is untouched.
      expect(initiatives(combat)).toEqual({ Aldric: 4, Brune: 4, Orc: null });
      expect(
        gameWrites(world, mark)
          .filter((w) => w.documentName === "Combatant")
          .every((w) => w.id !== byName(combat, "Orc").id),
      ).toBe(true);
      // The tracker's sides: the GM's, not the flag's.
      expect(sideCards(world)[0]!.content).toContain("Friendly");
      expect(sideCards(world)[0]!.content).not.toContain("Hostile");
    },
  );

  it(
    "attack: a player changes their token's disposition after the GM recorded their side: nothing changes",
    T,
    async () => {
      const { world, scene } = await boot();
      const id = await newCombat(world, ["tHero", "tOrc"]);
      const combat = combatOf(world, "gm1", id);
      await world.as("p1", () => scene.tokens.get("tHero")!.update({ disposition: -1 }));
      await world.settle();
      world.queueRolls(3);
      await act(world, "p1", id, (c) => c.rollInitiative(byName(c, "Aldric").id));
      expect(initiatives(combat)).toEqual({ Aldric: 3, Orc: null });
    },
  );

  it("attack: a player moves their combatant off the surprised side: it still waits in round 1", T, async () => {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tScout", "tOrc"], {
      aventure: { encounter: { surprised: ["friendly"], firstRound: ["hostile"], marked: false } },
    });
    const combat = combatOf(world, "gm1", id);
    const aldric = byName(combatOf(world, "p1", id), "Aldric");
    await world.as("p1", () => aldric.setFlag("aventure", "side", "hostile"));
    await world.settle();
    await act(world, "gm1", id, (c) => c.startCombat()); // the hostile side acts alone: no die (RULES.md §7.3)
    expect(initiatives(combat)).toMatchObject({ Aldric: null, Brune: null });
    expect(combat.combatant!.name).toBe("Orc");
    expect(world.rollsMade).toEqual([]);
    // Ending the orc's turn ends round 1: no friendly turn came.
    world.queueRolls(2, 6);
    await act(world, "gm1", id, (c) => c.nextTurn());
    expect(combat.round).toBe(2);
    expect(initiatives(combat)).toEqual({ Aldric: 2, Brune: 2, Orc: 6 });
  });

  it("attack: a player joins the GM's hidden side: its roll stays off the public card", T, async () => {
    const { world } = await boot();
    const id = await newCombat(world, ["tHero", "tOrc", "tLurker"]);
    const combat = combatOf(world, "gm1", id);
    for (const c of combat.combatants.contents.filter((x) => x.name !== "Aldric"))
      await world.as("gm1", () => c.update({ hidden: true }));
    await world.as("p1", () => byName(combatOf(world, "p1", id), "Aldric").setFlag("aventure", "side", "hostile"));
    await world.settle();
    world.queueRolls(5, 3);
    await act(world, "gm1", id, (c) => c.startCombat());
    const [pub] = sideCards(world);
    expect(pub!.whisper).toEqual([]);
    expect(pub!.content).toContain("Friendly");
    expect(pub!.content).not.toContain("Hostile");
    expect(initiatives(combat)).toEqual({ Aldric: 5, Orc: 3, Rôdeur: 3 });
  });

  it(
    "the side is recorded by the active GM from the token's disposition when the combatant joins (a player's combatant too)",
    T,
    async () => {
      const { world } = await boot();
      const id = await newCombat(world, ["tOrc"]);
      const mine = combatOf(world, "p2", id);
      await world.as("p2", () => mine.createEmbeddedDocuments("Combatant", [{ tokenId: "tCara", sceneId: "s1" }]));
      await world.settle();
      const combat = combatOf(world, "gm1", id);
      const sideOf = combat.getFlag("aventure", "sideOf") as Record<string, string>;
      expect(sideOf).toEqual({ [byName(combat, "Orc").id]: "hostile", [byName(combat, "Cara").id]: "friendly" });
      expect(
        world.writes
          .filter((w) => w.documentName === "Combat" && JSON.stringify(w.data).includes("sideOf"))
          .map((w) => w.user),
      ).toEqual(["gm1", "gm1"]);
    },
  );

  it("the encounter's picked sides are recorded on the combat (GM state), not on the combatants", T, async () => {
    const { world } = await boot();
    // The GM moved Aldric to the neutral side in the encounter window; Start combat rolls neutral 2, hostile 5.
    world.queueRolls(2, 5);
    const reply = await forgeRequest(world, "gm1", "encounterStart", {
      sceneId: "s1",
      tokens: [
        { id: "tHero", side: "neutral" },
        { id: "tOrc", side: "hostile" },
      ],
      surprised: [],
      firstRound: ["neutral", "hostile"],
    });
    const { combatId } = (reply as { result: { combatId: string } }).result;
    const combat = combatOf(world, "gm1", combatId);
    expect(combat.getFlag("aventure", "sideOf")).toEqual({
      [byName(combat, "Aldric").id]: "neutral",
      [byName(combat, "Orc").id]: "hostile",
    });
    for (const c of combat.combatants.contents) expect(c.getFlag("aventure", "side")).toBeUndefined();
    expect(initiatives(combat)).toEqual({ Aldric: 2, Orc: 5 });
    expect(sideCards(world)[0]!.content).toContain("Neutral");
    expect(sideCards(world)[0]!.content).not.toContain("Friendly");
  });
});

describe("0.1.x combatant side flags: dropped once (issue 20, item 2)", () => {
  it(
    "the active GM records every side from the token's disposition, whoever wrote the old flag, and removes the old flags; later flags are ignored",
    T,
    async () => {
      // A world saved by 0.1.x: no GM connected yet; the combat of an encounter (GM-written sides) and a player's flag.
      const { world } = await boot({ users: [{ ...GM, active: false }, PLAYER] });
      seedCombat(world, {
        _id: "oldCombat0000001",
        scene: "s1",
        active: true,
        round: 1,
        turn: 0,
        flags: {
          aventure: { encounter: { surprised: [], firstRound: ["friendly", "neutral", "hostile"], marked: false } },
        },
        combatants: [
          {
            _id: "cbHero0000000001",
            tokenId: "tHero",
            flags: { aventure: { side: "neutral" } },
            _stats: { lastModifiedBy: "gm1" },
          },
          {
            _id: "cbScout000000001",
            tokenId: "tScout",
            flags: { aventure: { side: "hostile" } },
            _stats: { lastModifiedBy: "p1" },
          },
          {
            _id: "cbOrc00000000001",
            tokenId: "tOrc",
            flags: { aventure: { side: "friendly" } },
            _stats: { lastModifiedBy: "gm1" },
          },
        ],
      });
      // A plain combat (not an encounter's): Aventure 0.1.x never wrote sides there, whoever wrote it last.
      seedCombat(world, {
        _id: "oldCombat0000002",
        scene: "s1",
        active: false,
        combatants: [
          {
            _id: "cbCara0000000001",
            tokenId: "tCara",
            flags: { aventure: { side: "hostile" } },
            _stats: { lastModifiedBy: "gm1" },
          },
        ],
      });
      await world.connect("gm1");
      await world.settle();
      const one = combatOf(world, "gm1", "oldCombat0000001");
      const two = combatOf(world, "gm1", "oldCombat0000002");
      // Nothing proves who wrote an old flag (a GM's later write stamps lastModifiedBy): every side is the disposition's.
      expect(one.getFlag("aventure", "sideOf")).toEqual({
        cbHero0000000001: "friendly",
        cbScout000000001: "friendly",
        cbOrc00000000001: "hostile",
      });
      expect(two.getFlag("aventure", "sideOf")).toEqual({ cbCara0000000001: "friendly" });
      for (const c of [...one.combatants.contents, ...two.combatants.contents])
        expect(c.getFlag("aventure", "side"), c.name).toBeUndefined();
      expect(world.as("gm1", () => game.settings.get("aventure" as never, "combatSidesMigrated" as never))).toBe(true);
      expect(world.writes.filter((w) => w.user !== "gm1" && w.action !== "setting")).toEqual([]);
      // Once: a player's flag written afterwards is neither read nor migrated on the next reload.
      const scout = byName(combatOf(world, "p1", "oldCombat0000001"), "Brune");
      await world.as("p1", () => scout.setFlag("aventure", "side", "hostile"));
      const mark = world.writes.length;
      await world.reload("gm1");
      await world.settle();
      expect(one.getFlag("aventure", "sideOf")).toEqual({
        cbHero0000000001: "friendly",
        cbScout000000001: "friendly",
        cbOrc00000000001: "hostile",
      });
      expect(gameWrites(world, mark)).toEqual([]);
    },
  );
});
