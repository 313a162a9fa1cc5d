/**
 * Exactly once while the active GM changes (docs/security.md, "Exactly once, even across a reload";
 * src/core/operations.ts): every operation records WHICH GM executes it, recovery takes one over only when its
 * executor is gone (or is the same user after a reload), and the executor checks before every step that it still is.
 *
 * The races are real interleavings in the fake world: the executing GM's write is held open (world.holdWrite: it has
 * left that client, the server applies it only when released) while another GM connects with a higher claim to be
 * the active GM (Users#activeGM: the fake takes the lowest id, so gm1 outranks gm2), leaves, or reloads. Afterwards:
 * one damage write, one prone, one card outcome..., and the requester is told the real outcome, not "interrupted".
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  GM,
  GM2,
  PLAYER,
  viewScene,
  type FakeActor,
  type FakeChatMessage,
  type FakeCombat,
  type FakeScene,
  type FakeToken,
  type FakeWorld,
  type UserSpec,
  type WriteRecord,
} from "../world/index.js";
import type { OutgoingWrite } from "../world/world.js";
import { watchEffects } from "../world/pursuit.js";
import { useClientTimers } from "../world/timers.js";
import { dungeonChaseRound, fixedDice, startDungeonChase } from "../../src/rules/index.js";
import type { ChaseRecord } from "../../src/pursuit/pursuit-context.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectCrashLog } from "./crash-logs.js";

vi.setConfig({ testTimeout: 60_000 });
// What the clients log is checked by test/setup/quiet.ts: each test declares the logs of the crashes it injects.
/** The logs of a GM's page gone with its write while it runs a request: the run's failure and the answer's. */
function expectCrashLogs(user: string): void {
  expectCrashLog("request failed", user);
  expectCrashLog("could not answer a request", user);
}
afterEach(() => {
  vi.restoreAllMocks();
  vi.clearAllTimers();
  vi.useRealTimers();
});

/** gm2 is the active GM; gm1 (who outranks it) is not connected yet; p1 plays. */
const LATE_GM1: UserSpec[] = [{ ...GM, active: false }, GM2, PLAYER];
const ALL: UserSpec[] = [GM, GM2, PLAYER];

type Flags = Record<string, Record<string, unknown> | undefined>;
const flagsOf = (m: FakeChatMessage) => (m.flags.aventure ?? {}) as Flags;
const cardsWith = (world: FakeWorld, key: string) => cardsOf(world.messages.contents, key);
const plumbing = (world: FakeWorld) =>
  world.messages.filter((m) => flagsOf(m).request !== undefined || flagsOf(m).receipt !== undefined);
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
const hp = (a: FakeActor) => (a.system.attributes as { hp: { value: number } }).hp.value;
const hpWrites = (world: FakeWorld) =>
  world.writes.filter(
    (w) => w.documentName === "Actor" && w.action === "update" && JSON.stringify(w.data).includes('"hp"'),
  );
const statusEffects = (a: FakeActor, status: string) => a.effects.filter((e) => e.statuses.has(status));
const set = (world: FakeWorld, user: string, key: string, value: unknown) =>
  world.as(user, () => game.settings.set("aventure" as never, key as never, value as never));
const isActorUpdate = (user: string) => (w: OutgoingWrite) =>
  w.user === user && w.documentName === "Actor" && w.action === "update";

async function scene(world: FakeWorld, data: Record<string, unknown> = {}): Promise<FakeScene> {
  const s = world.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 }, ...data });
  for (const c of world.liveClients()) viewScene(world, c, s);
  return s;
}

/**
 * The race: `start` begins an operation on the active GM (not awaited); `hold` holds one of its writes open; once
 * that write is held, `meanwhile` runs (a GM connects, leaves, reloads); then the write is released.
 */
async function race<T>(
  world: FakeWorld,
  hold: (w: OutgoingWrite) => boolean,
  start: () => Promise<T>,
  meanwhile: () => Promise<unknown>,
): Promise<T> {
  const release = world.holdWrite(hold);
  const running = start();
  await world.settle({ allowErrors: true });
  expect(release.reached, "the write to hold open was made").toBe(true);
  await meanwhile();
  release();
  await world.settle();
  return running;
}

// ------------------------------------------------------------------------------------------------ falls

describe("a fall while the active GM changes", () => {
  type FallApi = { fall(t: unknown, m: number): Promise<unknown> };
  async function fallWorld(users: UserSpec[]) {
    const world = await bootWorld({ users });
    const s = await scene(world);
    const actor = addDnd5eActor(world, {
      id: "hero",
      name: "Aldric",
      owner: "p1",
      hp: { value: 20, max: 20, temp: null },
    });
    const token = world.addToken(s, { _id: "t1", name: "Aldric", actorId: "hero", actorLink: true });
    world.queueRolls(3, 4, 4); // 9 m: 3d6 = 11
    const fall = () => world.as("p1", () => world.api<FallApi>("p1").fall(token, 9));
    return { world, actor, fall };
  }
  const fallCards = (world: FakeWorld) => cardsOf(world.messages.contents, "fall");
  function once(world: FakeWorld, actor: FakeActor, by?: string) {
    expect(hpWrites(world)).toHaveLength(1);
    if (by) expect(hpWrites(world)[0]!.user).toBe(by);
    expect(hp(actor)).toBe(9);
    expect(statusEffects(actor, "prone")).toHaveLength(1);
    expect(fallCards(world)).toHaveLength(1);
    expect(cardOf(fallCards(world)[0]!, "fall")).toMatchObject({ status: "applied", prone: true });
    expect(plumbing(world)).toEqual([]);
  }

  it("a GM with a higher claim connects while the damage write is in flight: damage once, the player gets the outcome", async () => {
    const { world, actor, fall } = await fallWorld(LATE_GM1);
    const result = await race(world, isActorUpdate("gm2"), fall, () => world.connect("gm1"));
    once(world, actor, "gm2"); // the GM who started it finished it
    expect(result).toEqual({ metres: 9, dice: 3, total: 11, applied: true, prone: true });
    expect(errors(world, "p1")).toEqual([]);
  });

  it("the same race on the prone write: prone once", async () => {
    const { world, actor, fall } = await fallWorld(LATE_GM1);
    const result = await race(
      world,
      (w) => w.user === "gm2" && w.documentName === "ActiveEffect",
      fall,
      () => world.connect("gm1"),
    );
    once(world, actor);
    expect(result).toMatchObject({ applied: true, prone: true });
  });

  it("the executing GM leaves mid-way (its write lost): the active GM takes the fall over and finishes it once", async () => {
    const { world, actor, fall } = await fallWorld(ALL);
    expectCrashLogs("gm1"); // gm1's page goes with its write: its run and its answer fail
    await race(world, isActorUpdate("gm1"), fall, () => world.disconnect("gm1"));
    once(world, actor, "gm2");
    expect(cardOf(fallCards(world)[0]!, "fall")).toMatchObject({ resumed: true });
  });

  it("the executing GM lost the active role, then reloads mid-way: nothing stranded, its own fall finished once", async () => {
    const { world, actor, fall } = await fallWorld(LATE_GM1);
    expectCrashLogs("gm2"); // gm2's page dies with its write: its run and its answer fail
    await race(world, isActorUpdate("gm2"), fall, async () => {
      await world.connect("gm1"); // gm1 is now the active GM; gm2 still executes the fall
      await world.reload("gm2"); // gm2's page dies with its write; its new page finds its own fall unfinished
    });
    once(world, actor, "gm2");
  });

  it("two GMs recover at once (the executor left; a GM with a higher claim connects during the takeover): once", async () => {
    const { world, actor, fall } = await fallWorld([{ id: "gm0", isGM: true, active: false }, GM, GM2, PLAYER]);
    expectCrashLogs("gm1"); // gm1 leaves with its write: its run and its answer fail
    await race(world, isActorUpdate("gm1"), fall, async () => {
      // gm2 takes over when gm1 leaves; its takeover write is held while gm0 connects and recovers too.
      const release = world.holdWrite((w) => w.user === "gm2");
      await world.disconnect("gm1");
      await world.connect("gm0");
      release();
      await world.settle();
    });
    once(world, actor);
  });

  it("a GM that took a fall over loses the active role before its last write: the new active GM closes it, nothing twice", async () => {
    const { world, actor, fall } = await fallWorld([{ id: "gm0", isGM: true, active: false }, GM, GM2, PLAYER]);
    expectCrashLogs("gm1"); // gm1 leaves with its write: its run and its answer fail
    await race(world, isActorUpdate("gm1"), fall, async () => {
      // gm2 takes the fall over when gm1 leaves; its closing "applied" mark is held while gm0 connects.
      const card = (w: OutgoingWrite) =>
        w.user === "gm2" && w.documentName === "ChatMessage" && JSON.stringify(w.data ?? null).includes('"applied"');
      const release = world.holdWrite(card);
      await world.disconnect("gm1");
      expect(release.reached).toBe(true);
      await world.connect("gm0"); // gm2 is no longer the active GM: gm0 takes the fall over and closes it
      expect(cardOf(fallCards(world)[0]!, "fall")).toMatchObject({
        status: "applied",
        executor: { user: "gm0", took: true },
      });
      release();
      await world.settle();
    });
    once(world, actor, "gm2");
  });
});

// ------------------------------------------------------------------------------------------------ suffocation

describe("a suffocation drop while the active GM changes", () => {
  type BreathApi = { holdBreath(t: unknown): Promise<unknown> };
  async function breathWorld() {
    const world = await bootWorld({ users: LATE_GM1 });
    const s = await scene(world);
    world.worldTime = 1000;
    const actor = addDnd5eActor(world, { id: "hero", name: "Aldric", owner: "p1", abilities: { con: 8 } });
    const token = world.addToken(s, { _id: "thero", name: "Aldric", actorId: "hero", actorLink: true });
    await world.as("gm2", () => world.api<BreathApi>("gm2").holdBreath(token)); // CON −1: down 36 s later
    const drop = () => world.as("gm2", () => game.time.advance(36));
    return { world, actor, drop };
  }
  function once(world: FakeWorld, actor: FakeActor) {
    expect(cardsOf(world.messages.contents, "suffocation")).toHaveLength(1);
    expect(cardOf(cardsOf(world.messages.contents, "suffocation")[0]!, "suffocation")).toMatchObject({
      status: "applied",
    });
    expect(hpWrites(world)).toHaveLength(1);
    expect(hp(actor)).toBe(0);
    expect(statusEffects(actor, "unconscious")).toHaveLength(1);
  }

  it("a GM with a higher claim connects while the hit point write is in flight: one drop", async () => {
    const { world, actor, drop } = await breathWorld();
    await race(world, isActorUpdate("gm2"), drop, () => world.connect("gm1"));
    once(world, actor);
  });

  it("a GM with a higher claim connects while the drop card itself is in flight: still one drop, one card", async () => {
    const { world, actor, drop } = await breathWorld();
    await race(
      world,
      (w) => w.user === "gm2" && w.documentName === "ChatMessage" && w.action === "create",
      drop,
      () => world.connect("gm1"),
    );
    once(world, actor);
  });
});

// ------------------------------------------------------------------------------------------------ chases

describe("a chase's running exhaustion while the active GM changes", () => {
  type Dialog = { dungeon(op: "round"): Promise<ChaseRecord | null> };
  it("the 30th round's exhaustion (ose): once on each runner; the player gets the new step", async () => {
    const world = await bootWorld({ users: LATE_GM1, extend: watchEffects });
    await set(world, "gm2", "ruleset", "ose");
    const s = world.addScene({ _id: "scene1" });
    for (const c of world.liveClients()) viewScene(world, c, s);
    const aldric = addDnd5eActor(world, { id: "aldric", name: "Aldric", owner: "p1" });
    const brune = addDnd5eActor(world, { id: "brune", name: "Brune", owner: "p1" });
    const gob = addDnd5eActor(world, { id: "gob", name: "Gobelin", type: "npc" });
    for (const [id, name, actorId, disposition] of [
      ["tA", "Aldric", "aldric", 1],
      ["tB", "Brune", "brune", 1],
      ["g1", "Gobelin 1", "gob", -1],
    ] as const) {
      world.addToken(s, { _id: id, name, actorId, actorLink: true, disposition });
    }
    // A GM's card of an ose dungeon chase at its 29th round (the rules' own state, round by round).
    let { state } = await startDungeonChase(
      {
        ruleset: "ose",
        fleeingSpeed: 7.5,
        pursuerSpeed: 12,
        combatStarted: false,
        surprised: null,
        monstersPursue: true,
        reactionTotal: null,
        dropped: false,
      },
      fixedDice([]),
    );
    for (let i = 0; i < 29; i++) state = dungeonChaseRound(state).state;
    const chase: ChaseRecord = {
      version: 1,
      id: "chaseAtRound29xx",
      step: 30,
      place: "dungeon",
      ruleset: "ose",
      fleeingSide: "party",
      sceneId: "scene1",
      groups: {
        party: { count: 2, speed: 7.5, tokenIds: ["tA", "tB"], names: ["Aldric", "Brune"] },
        opponents: { count: 1, speed: 12, tokenIds: ["g1"], names: ["Gobelin 1"] },
      },
      surprise: "none",
      startedBy: "gm2",
      outdoors: null,
      dungeon: state,
      over: false,
      shownFrom: 29,
      exhaustedActors: [],
    };
    world.addMessage({ author: "gm2", content: "<div></div>", flags: { aventure: { pursuit: chase } } });
    const d = await world.as("p1", () =>
      world.api<{ openPursuit(o: object): Promise<Dialog> }>("p1").openPursuit({ chaseId: chase.id }),
    );
    await world.settle();
    const result = await race(
      world,
      (w) => w.user === "gm2" && w.documentName === "ActiveEffect",
      () => world.as("p1", () => d.dungeon("round")),
      () => world.connect("gm1"),
    );
    const run = (a: FakeActor) =>
      a.effects.filter((e) => (e.flags.aventure as { runExhaustion?: boolean } | undefined)?.runExhaustion === true);
    expect([aldric, brune, gob].map((a) => run(a).length)).toEqual([1, 1, 1]);
    expect(world.writes.filter((w) => w.action === "create" && w.documentName === "ActiveEffect")).toHaveLength(3);
    const steps = cardsWith(world, "pursuit").map((m) => cardOf(m, "pursuit") as unknown as ChaseRecord);
    expect(steps.map((x) => x.step)).toEqual([30, 31]);
    expect(steps[1]!.apply).toMatchObject({ status: "applied" });
    expect(result).toMatchObject({ step: 31 });
    expect(errors(world, "p1")).toEqual([]);
    expect(plumbing(world)).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------ travel and proposals

type TravelDialog = {
  request: unknown;
  change(name: string, value: string): Promise<unknown>;
  close(): Promise<unknown>;
};
type TravelApi = {
  openTravel(o: { actorIds: string[] }): Promise<TravelDialog>;
  applyTravel(r: unknown): Promise<{ ok?: boolean; proposed?: boolean; messageId?: string | null }>;
  undoTravel(id: string): Promise<unknown>;
};

/** One dnd5e traveller (p1's), 9 hours on the road: one forced-march save (DC 11), a 1 fails it (exhaustion 0 → 1). */
async function travelWorld() {
  const world = await bootWorld({ users: LATE_GM1 });
  world.worldTime = 1000;
  const rogue = addDnd5eActor(world, { id: "rogue", name: "Bram", owner: "p1", abilities: { con: 10 } });
  const d = await world.as("gm2", () => world.api<TravelApi>("gm2").openTravel({ actorIds: ["rogue"] }));
  await world.settle();
  await world.as("gm2", () => d.change("hoursPerDay", "9"));
  const request = d.request;
  await world.as("gm2", () => d.close());
  const exhaustionWrites = () =>
    world.writes.filter((w) => w.documentName === "Actor" && JSON.stringify(w.data).includes("exhaustion"));
  const timeWrites = () => world.writes.filter((w) => w.action === "time");
  const exhaustion = () => (rogue.system.attributes as { exhaustion: number }).exhaustion;
  return { world, rogue, request, exhaustionWrites, timeWrites, exhaustion };
}
const journeys = (world: FakeWorld) => cardsOf(world.messages.contents, "travel");

describe("a journey while the active GM changes", () => {
  it("Apply: a GM with a higher claim connects while the first write is in flight: applied once", async () => {
    const t = await travelWorld();
    t.world.queueRolls(1);
    const result = await race(
      t.world,
      isActorUpdate("gm2"),
      () => t.world.as("gm2", () => t.world.api<TravelApi>("gm2").applyTravel(t.request)),
      () => t.world.connect("gm1"),
    );
    expect(result).toMatchObject({ ok: true, proposed: false });
    expect(t.exhaustion()).toBe(1);
    expect(t.exhaustionWrites()).toHaveLength(1);
    expect(t.timeWrites()).toHaveLength(1);
    expect(cardOf(journeys(t.world)[0]!, "travel")).toMatchObject({ status: "applied", problems: [] });
  });

  it("Undo: a GM with a higher claim connects while the first write of the Undo is in flight: undone once", async () => {
    const t = await travelWorld();
    t.world.queueRolls(1);
    await t.world.as("gm2", () => t.world.api<TravelApi>("gm2").applyTravel(t.request));
    const [card] = journeys(t.world);
    const timeAfter = t.world.worldTime;
    const mark = t.world.writes.length;
    const result = await race(
      t.world,
      isActorUpdate("gm2"),
      () => t.world.as("gm2", () => t.world.api<TravelApi>("gm2").undoTravel(card!.id)),
      () => t.world.connect("gm1"),
    );
    expect(result).toMatchObject({ ok: true });
    expect(t.exhaustion()).toBe(0);
    expect(
      t.world
        .writesSince(mark)
        .filter((w) => w.documentName === "Actor" && JSON.stringify(w.data).includes("exhaustion")),
    ).toHaveLength(1);
    expect(t.world.writesSince(mark).filter((w) => w.action === "time")).toHaveLength(1);
    expect(t.world.worldTime).toBe(1000);
    expect(timeAfter).toBeGreaterThan(1000);
    expect(cardOf(card!, "travel")).toMatchObject({ status: "undone" });
  });

  it("a proposal decided while a GM with a higher claim connects: applied once, the player told it was applied", async () => {
    const t = await travelWorld();
    const proposed = await t.world.as("p1", () => t.world.api<TravelApi>("p1").applyTravel(t.request));
    expect(proposed).toMatchObject({ ok: true, proposed: true });
    const [proposal] = cardsWith(t.world, "proposal");
    t.world.queueRolls(1);
    const button = t.world
      .renderMessage(proposal!, "gm2")
      .querySelector("[data-action='aventure-proposal'][data-accept='true']");
    await race(
      t.world,
      isActorUpdate("gm2"),
      async () => t.world.click("gm2", button),
      () => t.world.connect("gm1"),
    );
    expect(cardOf(proposal!, "proposal")).toMatchObject({ status: "applied" });
    expect(t.exhaustion()).toBe(1);
    expect(t.exhaustionWrites()).toHaveLength(1);
    // The player's answers: one, and it says applied.
    const answers = t.world.messages.filter((m) => m.content.includes("aventure-proposal-answer"));
    expect(answers).toHaveLength(1);
    const answer = (status: string) =>
      t.world.as("p1", () =>
        game.i18n.format(`AVENTURE.Proposal.answer.${status}`, {
          what: game.i18n.localize("AVENTURE.Travel.Proposal.title"),
        }),
      );
    expect(answers[0]!.content).toContain(answer("applied"));
  });
});

// ------------------------------------------------------------------------------------------------ side initiative

describe("a side round while the active GM changes", () => {
  it("the next round asked by a player: the initiatives, the card and the round once; the player is not refused", async () => {
    const world = await bootWorld({ system: "ose", users: LATE_GM1 });
    await set(world, "gm2", "ruleset", "ose");
    await set(world, "gm2", "sideTies", "simultaneous");
    const s = world.addScene({ _id: "s1" });
    for (const c of world.liveClients()) viewScene(world, c, s);
    world.addUserActor({ _id: "hero", name: "Aldric", ownership: { p1: 3 } });
    world.addUserActor({ _id: "orc", name: "Orc", ownership: {} });
    world.addToken(s, { _id: "tHero", name: "Aldric", actorId: "hero", actorLink: true, disposition: 1 });
    world.addToken(s, { _id: "tOrc", name: "Orc", actorId: "orc", actorLink: true, disposition: -1 });
    const id = await world.as("gm2", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments(
        "Combatant",
        ["tOrc", "tHero"].map((tokenId) => ({ tokenId, sceneId: "s1" })),
      );
      return c.id;
    });
    const combat = (user: string) => world.as(user, () => game.combats.get(id) as unknown as FakeCombat);
    world.queueRolls(3, 6); // friendly 3, hostile 6: the orc first, then Aldric (p1), the last turn
    await world.as("gm2", () => combat("gm2").startCombat());
    await world.settle();
    await world.as("gm2", () => combat("gm2").nextTurn());
    await world.settle();
    world.queueRolls(2, 5, 4, 1); // enough for a second roll: a double roll would show
    const mark = world.writes.length;
    await race(
      world,
      (w) => w.user === "gm2" && w.documentName === "Combatant",
      () => world.as("p1", () => combat("p1").nextTurn()),
      () => world.connect("gm1"),
    );
    const since = world.writesSince(mark);
    expect(since.filter((w) => w.documentName === "Combatant")).toHaveLength(2); // one update of the two initiatives
    expect(combat("gm1").round).toBe(2);
    const cards = cardsWith(world, "sideRound").filter(
      (m) => (cardOf(m, "sideRound") as { round?: number }).round === 2,
    );
    expect(cards).toHaveLength(1);
    expect(world.rollsMade).toHaveLength(2); // round 1 and round 2, once each
    expect((combat("gm1").flags.aventure as { sides: { op: { status: string } } }).sides.op.status).toBe("done");
    expect(errors(world, "p1")).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------ hiding

describe("a hide while the active GM changes", () => {
  it("a player's hide: the hidden status and the hiding state once, the player gets the outcome", async () => {
    useClientTimers();
    const world = await bootWorld({ users: LATE_GM1 });
    const s = world.addScene({ _id: "scene1", darkness: 1, globalLight: false });
    for (const c of world.liveClients()) viewScene(world, c, s);
    const addToken = (
      id: string,
      name: string,
      at: [number, number],
      actor: FakeActor,
      disposition: number,
    ): FakeToken =>
      world.addToken(s, {
        _id: id,
        name,
        x: at[0] * 100 - 50,
        y: at[1] * 100 - 50,
        actorId: actor.id,
        actorLink: true,
        disposition,
        sight: { enabled: true, range: 0, visionMode: "basic" },
        detectionModes: [],
      });
    const rogue = addDnd5eActor(world, { id: "rogue", name: "Rogue", owner: "p1", passive: 10, skills: { ste: 3 } });
    const token = addToken("rogue", "Rogue", [30, 10], rogue, 1);
    [10, 14, 18].forEach((passive, i) =>
      addToken(
        `g${passive}`,
        `Guard ${passive}`,
        [33 + i, 12],
        addDnd5eActor(world, { id: `g${passive}`, name: `Guard ${passive}`, passive }),
        -1,
      ),
    );
    await world.as("gm2", () => world.api<{ refreshLight(): Promise<void> }>("gm2").refreshLight());
    await world.settle();
    world.queueRolls(12, 12); // Stealth 12 + 3 = 15 (a second roll would show)
    const result = await race(
      world,
      (w) => w.user === "gm2" && w.documentName === "ActiveEffect",
      () => world.as("p1", () => world.api<{ hide(t: unknown): Promise<unknown> }>("p1").hide("rogue")),
      () => world.connect("gm1"),
    );
    expect(statusEffects(rogue, "hiding")).toHaveLength(1);
    expect(world.writes.filter((w) => w.action === "create" && w.documentName === "ActiveEffect")).toHaveLength(1);
    expect((s.getFlag("aventure", "hides") as Record<string, unknown>)[token.id]).toMatchObject({
      dc: 15,
      from: ["g10", "g14"],
    });
    const [card] = cardsWith(world, "hide");
    expect((cardOf(card!, "hide") as { op: { status: string } }).op.status).toBe("applied");
    expect(result).toMatchObject({ hidden: true });
    expect(errors(world, "p1")).toEqual([]);
    expect(plumbing(world)).toEqual([]);
  });
});

export type { WriteRecord };
