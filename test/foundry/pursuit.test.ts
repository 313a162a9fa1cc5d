/**
 * Flight and pursuit against the fake world (test/world): the Pursuit dialog's groups and preview, outdoor chases and
 * dungeon flights through the trusted request channel (request "pursuit"), the running exhaustion effect (v13 and v14
 * shapes, dnd5e and OSE keys) and its v13 expiry, a flight meeting a started combat, players limited to their own
 * tokens (pursuers that are not theirs: a proposal for the GMs), chase state read only from GM cards, and exactly
 * once under two GMs, forged requests and cards, and a crash before every write of a step.
 * Expected values come from RULES.md §8 (and §1 for the turn), not from the code.
 */
import { listen } from "../world/listen.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// A chase of 30 rounds runs many steps; the shared machines are slow.
vi.setConfig({ testTimeout: 60_000 });
// The request channel lets one user send at most 20 requests in 10 s (requests.ts FLOOD_LIMIT): the tests' clock
// (Date only) moves a second before each step, as a person clicking would.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 0, 1) });
});
afterEach(() => {
  vi.useRealTimers();
});
const tick = () => vi.setSystemTime(Date.now() + 1000);
import {
  addDnd5eActor,
  bootWorld,
  control,
  forgeCard,
  forgeRequest,
  gameWrites,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  viewScene,
  type FakeActor,
  type FakeChatMessage,
  type FakeScene,
  type FakeWorld,
  type UserSpec,
} from "../world/index.js";
import { createdEffects, watchEffects } from "../world/pursuit.js";
import {
  dungeonChaseRound,
  fixedDice,
  pursuitLogDice,
  replayPursuit,
  seededDice,
  recordingDice,
  startDungeonChase,
  startPursuit,
  type PursuitState,
} from "../../src/rules/index.js";
import type { ChaseRecord, PursuitSetup } from "../../src/pursuit/pursuit-context.js";
import type { Lang } from "../fake/i18n.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectCrashLog, expectRequestCrashLogs } from "./crash-logs.js";
import { expectLogged } from "../setup/quiet.js";

/** The Pursuit dialog as the tests drive it (a PursuitDialog on one client). */
interface Dialog {
  readonly setup: PursuitSetup;
  readonly chase: ChaseRecord | null;
  readonly element: HTMLElement | null;
  readonly lastHTML: string;
  change(name: string, value: string | boolean): Promise<unknown>;
  start(): Promise<ChaseRecord | null>;
  nextDay(): Promise<ChaseRecord | null>;
  dungeon(op: "round" | "drop"): Promise<ChaseRecord | null>;
  end(how: "outOfSight" | "gaveUp" | "caught"): Promise<ChaseRecord | null>;
  resume(): Promise<unknown>;
  render(): Promise<unknown>;
}
type Api = { openPursuit(options?: object): Promise<Dialog> };

const USERS: UserSpec[] = [GM, GM2, PLAYER, PLAYER2];

interface Ctx {
  world: FakeWorld;
  scene: FakeScene;
  actors: Record<"aldric" | "brune" | "cyril" | "gob", FakeActor>;
}

async function setup(
  opts: { ruleset?: string; generation?: number; lang?: Lang; system?: string; users?: UserSpec[] } = {},
): Promise<Ctx> {
  const world = await bootWorld({
    system: opts.system ?? "dnd5e",
    users: opts.users ?? USERS,
    generation: opts.generation ?? 13,
    lang: opts.lang ?? "en",
    extend: watchEffects,
  });
  await set(world, "ruleset", opts.ruleset ?? "pmt");
  const scene = world.addScene({ _id: "scene1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  const actors = {
    aldric: addDnd5eActor(world, { id: "aldric", name: "Aldric", owner: "p1", walk: 30 }),
    brune: addDnd5eActor(world, { id: "brune", name: "Brune", owner: "p1", walk: 25 }),
    cyril: addDnd5eActor(world, { id: "cyril", name: "Cyril", owner: "p2", walk: 30 }),
    gob: addDnd5eActor(world, { id: "gob", name: "Gobelin", type: "npc", walk: 40 }),
  };
  const token = (id: string, name: string, actorId: string, disposition: number) =>
    world.addToken(scene, { _id: id, name, actorId, actorLink: true, disposition });
  token("tA", "Aldric", "aldric", 1);
  token("tB", "Brune", "brune", 1);
  token("tC", "Cyril", "cyril", 1);
  // The two goblin tokens share one (linked) actor.
  token("g1", "Gobelin 1", "gob", -1);
  token("g2", "Gobelin 2", "gob", -1);
  return { world, scene, actors };
}

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const tokenDocs = (c: Ctx, ...ids: string[]) => ids.map((id) => c.scene.tokens.get(id)!);
/** Opens the Pursuit dialog on `user`'s client (the user's own module instance), as api.openPursuit does. */
async function open(c: Ctx, user: string, options: object = {}): Promise<Dialog> {
  const d = await c.world.as(user, () => c.world.api<Api>(user).openPursuit(options));
  await c.world.settle();
  return d;
}
/** Runs a dialog method as the user whose dialog it is. */
const on = <T>(c: Ctx, user: string, fn: () => Promise<T> | T): Promise<T> => Promise.resolve(c.world.as(user, fn));
async function html(c: Ctx, user: string, d: Dialog): Promise<string> {
  await on(c, user, () => d.render());
  return d.lastHTML;
}
const chaseCards = (w: FakeWorld) => cardsOf(w.messages.contents, "pursuit");
const record = (m: FakeChatMessage) => cardOf(m, "pursuit") as unknown as ChaseRecord;
const proposals = (w: FakeWorld) => cardsOf(w.messages.contents, "proposal");
const requestsLeft = (w: FakeWorld) =>
  w.messages.filter((m) => {
    const f = m.flags.aventure as { request?: unknown; receipt?: unknown } | undefined;
    return f?.request !== undefined || f?.receipt !== undefined;
  });
const errors = (w: FakeWorld, user?: string) =>
  w.notifications.filter((n) => n.type === "error" && (!user || n.user === user)).map((n) => n.message);
const runEffects = (a: FakeActor) =>
  a.effects.filter((e) => (e.flags.aventure as { runExhaustion?: boolean } | undefined)?.runExhaustion === true);
const timeWrites = (w: FakeWorld, mark = 0) => w.writesSince(mark).filter((w) => w.action === "time");
const continueButton = (c: Ctx, m: FakeChatMessage, user: string) =>
  c.world.renderMessage(m, user).querySelector('[data-action="aventure-pursuit-continue"]');
const localize = (c: Ctx, user: string, key: string) => c.world.as(user, () => game.i18n.localize(key));
/** A card's text with Handlebars' escaped apostrophes read back. */
const text = (m: FakeChatMessage) => m.content.replaceAll("&#x27;", "'");

/** A setup as a client would send it (validated by the GM): `over` replaces fields. */
function setupOf(
  over: Partial<PursuitSetup> & {
    party?: Partial<PursuitSetup["groups"]["party"]>;
    opponents?: Partial<PursuitSetup["groups"]["opponents"]>;
  } = {},
): PursuitSetup {
  const { party, opponents, ...rest } = over;
  return {
    place: "dungeon",
    fleeingSide: "party",
    sceneId: "scene1",
    groups: {
      party: { count: 1, speed: 9, tokenIds: ["tA"], names: [], ...party },
      opponents: { count: 1, speed: 12, tokenIds: ["g1"], names: [], ...opponents },
    },
    surprise: "none",
    woods: false,
    woodsBonus: 20,
    twiceFast: false,
    fastBonus: 20,
    dropped: false,
    combatStarted: false,
    reactionTotal: null,
    ...rest,
  };
}

/** A chase a GM (gm1) starts from the dialog with the tokens given; returns its first record. */
async function gmChase(
  c: Ctx,
  tokens: string[],
  fields: Record<string, string | boolean> = {},
  user = "gm1",
): Promise<{ d: Dialog; r: ChaseRecord }> {
  const d = await open(c, user, { tokens: tokenDocs(c, ...tokens) });
  for (const [k, v] of Object.entries(fields)) await on(c, user, () => d.change(k, v));
  const r = await on(c, user, () => d.start());
  if (!r) throw new Error(`the chase did not start: ${errors(c.world).join("; ")}`);
  return { d, r };
}

/**
 * A chat log holding a GM's card of an ose dungeon chase at its 29th round of running (Aldric and Brune fleeing, the
 * goblin g1 pursuing), as a world reloaded mid-chase has: the state is the rules' own, built round by round.
 */
async function chaseAtRound29(c: Ctx): Promise<ChaseRecord> {
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
  const r: ChaseRecord = {
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
    startedBy: "gm1",
    outdoors: null,
    dungeon: state,
    over: false,
    shownFrom: 29,
    exhaustedActors: [],
  };
  c.world.addMessage({ author: "gm1", content: "<div></div>", flags: { aventure: { pursuit: r } } });
  return r;
}

async function rounds(c: Ctx, user: string, d: Dialog, n: number): Promise<ChaseRecord | null> {
  let r: ChaseRecord | null = null;
  for (let i = 0; i < n; i++) {
    tick();
    r = await on(c, user, () => d.dungeon("round"));
  }
  return r;
}

// -------------------------------------------------------------------------------------------------------------------

describe("Pursuit dialog: groups and preview", () => {
  it("prefills the two groups from the selected tokens by disposition, with speeds in metres from the adapter", async () => {
    const c = await setup();
    control(c.world.clientOf("gm1"), "tA", "tB", "g1", "g2");
    const d = await open(c, "gm1");
    expect(d.setup.sceneId).toBe("scene1");
    expect(d.setup.groups.party).toEqual({ count: 2, speed: 7.5, tokenIds: ["tA", "tB"], names: ["Aldric", "Brune"] }); // 25 ft × 0.3 = 7.5 m (slowest)
    expect(d.setup.groups.opponents).toEqual({
      count: 2,
      speed: 12,
      tokenIds: ["g1", "g2"],
      names: ["Gobelin 1", "Gobelin 2"],
    }); // 40 ft = 12 m
    expect(d.setup.fleeingSide).toBe("party");
    const out = await html(c, "gm1", d);
    expect(out).toContain("Aldric, Brune");
    expect(out).toContain('value="7.5"');
  });

  it("neutral and secret tokens join the opponents; an encounter can prefill place, surprise and reaction", async () => {
    const c = await setup();
    c.world.addToken(c.scene, { _id: "n1", name: "Marchand", actorId: null, disposition: 0 });
    c.world.addToken(c.scene, { _id: "s1", name: "Ombre", actorId: null, disposition: -2 });
    const d = await open(c, "gm1", {
      tokens: tokenDocs(c, "tA", "n1", "s1"),
      place: "outdoors",
      surprise: "pursuers",
      reactionTotal: 9,
    });
    expect(d.setup.groups.party.names).toEqual(["Aldric"]);
    expect(d.setup.groups.opponents.names).toEqual(["Marchand", "Ombre"]);
    expect(d.setup.groups.opponents.speed).toBeNaN(); // no actor: no speed, to be typed in
    expect([d.setup.place, d.setup.surprise, d.setup.reactionTotal]).toEqual(["outdoors", "pursuers", 9]);
    expect(await html(c, "gm1", d)).toContain('name="groups.opponents.speed" value=""');
  });

  it("shows the chance with the band used (RULES.md §8.2 worked examples), updating as fields change", async () => {
    const c = await setup();
    const d = await open(c, "gm1", { tokens: [] });
    const change = (k: string, v: string | boolean) => on(c, "gm1", () => d.change(k, v));
    await change("place", "outdoors");
    await change("groups.party.count", "4");
    await change("groups.party.speed", "9");
    await change("groups.opponents.count", "1");
    await change("groups.opponents.speed", "12");
    expect(d.lastHTML).toContain("Chance to escape: 50%");
    // The column of the table, as a GM reads it: how many pursuers for how many fleeing, and what that adds.
    expect(d.lastHTML).toContain("Pursuers 1 for 4 fleeing (25%): +0%.");
    await change("groups.opponents.count", "2");
    expect(d.lastHTML).toContain("Chance to escape: 70%");
    expect(d.lastHTML).toContain("Pursuers 2 for 4 fleeing (50%): +20%.");
    // No development note reaches the GM (the table's damaged headings are the guide's business).
    expect(d.lastHTML).not.toMatch(/seed|module decision|damaged/i);
    await change("woods", true);
    await change("woodsBonus", "25");
    expect(d.lastHTML).toContain("Chance to escape: 95%");
    await change("twiceFast", true);
    expect(d.lastHTML).toContain("Chance to escape: 75%"); // 70 + 25 − 20
    expect(d.lastHTML).toContain("The pursuers are faster");
    await change("groups.party.count", "abc");
    expect(d.lastHTML).toContain("Expected a number for fleeing group");
  });

  it("the token HUD offers Pursuit to the token's owners (players included), not to others", async () => {
    const c = await setup();
    const actionsOf = (user: string) =>
      [...c.world.renderTokenHUD(c.scene.tokens.get("tA")!, user).querySelectorAll("[data-action]")].map(
        (b) => (b as HTMLElement).dataset.action,
      );
    expect(actionsOf("p1")).toContain("aventure-pursuit");
    expect(actionsOf("gm2")).toContain("aventure-pursuit");
    expect(actionsOf("p2")).not.toContain("aventure-pursuit");
  });

  it("names from tokens are shown as text in the dialog, the card and a proposal (never as HTML)", async () => {
    const c = await setup({ users: [GM, PLAYER] });
    const evil = "<img src=x onerror=alert(1)>";
    await c.world.as("gm1", () => c.scene.tokens.get("tA")!.update({ name: evil }));
    await c.world.as("gm1", () => c.scene.tokens.get("g1")!.update({ name: `${evil}2` }));
    const d = await open(c, "gm1", { tokens: tokenDocs(c, "tA", "g1") });
    const out = await html(c, "gm1", d);
    expect(out).not.toContain("<img");
    expect(out).toContain("&lt;img src");
    c.world.queueRolls(3, 4);
    await on(c, "gm1", () => d.start());
    expect(chaseCards(c.world)[0]!.content).not.toContain("<img");
    expect(chaseCards(c.world)[0]!.content).toContain("&lt;img src");
    const p = await open(c, "p1", { tokens: tokenDocs(c, "tA", "g1") });
    await on(c, "p1", () => p.start());
    const [card] = proposals(c.world);
    expect(card!.content).not.toContain("<img");
    expect(card!.content).toContain("&lt;img src");
  });
});

// -------------------------------------------------------------------------------------------------------------------

describe("outdoor chase (RULES.md §8.2)", () => {
  it("a seeded multi-day chase with queued dice gives the expected log, one card per day with its rolls", async () => {
    const c = await setup();
    // Find a seed whose chase lasts at least four days (deterministic), and its dice.
    const initial: PursuitState = startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true });
    let seed = 0;
    let expected: PursuitState;
    do {
      seed++;
      expected = await replayPursuit(initial, recordingDice(seededDice(seed)), 100);
    } while (expected.day < 4);
    const dice = pursuitLogDice(expected.log);
    c.world.queueRolls(...dice);
    const steps = listen(c.world, "aventure.chaseStep");
    control(c.world.clientOf("gm1"), "tA", "tB", "g1", "g2");
    const d = await open(c, "gm1");
    await on(c, "gm1", () => d.change("place", "outdoors"));
    await on(c, "gm1", () => d.change("groups.party.count", "4"));
    let r = await on(c, "gm1", () => d.start());
    while (r && !r.over) r = await on(c, "gm1", () => d.nextDay());
    expect(errors(c.world)).toEqual([]);
    // Hooks for other modules: one aventure.chaseStep per step, on the executing GM, the last one "over".
    expect(steps.map((x) => [x.user, x.data.step, x.data.over])).toEqual(
      Array.from({ length: expected.day }, (_, i) => ["gm1", i + 1, i + 1 === expected.day]),
    );
    expect(r!.outdoors!.log).toEqual(expected.log);
    expect(r!.outdoors!.day).toBe(expected.day);
    // Every day: 70 % (4 fleeing, 2 pursuers: column 2), pursuers faster (12 m > 7.5 m) so a catch roll follows each failure.
    for (const day of r!.outdoors!.log) {
      expect(day.chance).toBe(70);
      expect(day.band).toBe(2);
      expect(day.catchRoll === null).toBe(day.evasionRoll! <= 70);
    }
    // One card per day, written by the active GM, each with its d100 rolls attached (Dice So Nice animates them), in order.
    const posted = chaseCards(c.world);
    expect(posted.map((m) => record(m).step)).toEqual(Array.from({ length: expected.day }, (_, i) => i + 1));
    expect(posted.every((m) => m.author!.id === "gm1")).toBe(true);
    expect(posted.flatMap((m) => m.rolls.map((x) => (x as { total: number }).total))).toEqual(dice);
    expect(c.world.rollQueue).toEqual([]);
    // World time: each day after the first advances one day (setting on by default), once.
    expect(c.world.worldTime).toBe((expected.day - 1) * 86400);
    expect(timeWrites(c.world)).toHaveLength(expected.day - 1);
    expect(posted.slice(1).every((m) => record(m).apply?.status === "applied")).toBe(true);
    // The chat log reads as the chase.
    expect(posted[0]!.content).toContain("Pursuit outdoors");
    expect(posted[0]!.content).toContain("Chance to escape: 70% (pursuers 2 for 4 fleeing, 50%).");
    expect(posted[0]!.content).toContain(`Escape roll: ${dice[0]} on 1d100 (needed 70 or less), failure`);
    expect(posted.at(-1)!.content).toContain(`Day ${expected.day}`);
    expect(posted.at(-1)!.content).toContain(
      expected.outcome === "caught" ? "Caught! The encounter takes place." : "They escape!",
    );
    // Replaying the stored chase from its dice gives the same state (the log is the truth).
    const again = await replayPursuit(initial, fixedDice(pursuitLogDice(r!.outdoors!.log)), 100);
    expect({ ...again, fleeingBonus: 0 }).toEqual(r!.outdoors);
  });

  it("the adjustments can change between days; no world time when the setting is off", async () => {
    const c = await setup();
    await set(c.world, "pursuitAdvanceTime", false);
    const { d } = await (async () => {
      c.world.queueRolls(80, 90); // day 1: 80 > 70 failed; catch 90 > 50 not caught
      return gmChase(c, ["tA", "g1"], { place: "outdoors", "groups.party.count": "4", "groups.opponents.count": "2" });
    })();
    await on(c, "gm1", () => d.change("woods", true)); // +20 from day 2
    c.world.queueRolls(85); // 85 ≤ 90: escaped
    const r = await on(c, "gm1", () => d.nextDay());
    expect(r!.outdoors!.log.map((x) => [x.chance, x.outcome])).toEqual([
      [70, "continues"],
      [90, "escaped"],
    ]);
    expect(c.world.worldTime).toBe(0);
    expect(timeWrites(c.world)).toEqual([]);
    const posted = chaseCards(c.world);
    expect(posted.at(-1)!.content).toContain("They escape!");
    // Each card says which adjustments its chance includes (RULES.md §8.2: 70 + 20 = 90).
    expect(posted[0]!.content).not.toContain("Dense woods");
    expect(posted.at(-1)!.content).toContain("Chance to escape: 90%");
    expect(posted.at(-1)!.content).toContain("Dense woods: +20.");
  });

  it("surprise: surprised pursuers → the fleeing side escapes (no dice); a surprised fleeing side rolls to escape like any side", async () => {
    const c = await setup();
    const { r: r1 } = await gmChase(c, ["tA", "g1"], { place: "outdoors", surprise: "pursuers" });
    expect(r1.outdoors!.outcome).toBe("escaped");
    expect(c.world.rollsMade).toEqual([]);
    // RULES.md §8.2 decision: a surprised side that flees is not barred from fleeing; it rolls on the table.
    c.world.queueRolls(1);
    const { r: r2 } = await gmChase(c, ["tA", "g1"], { place: "outdoors", surprise: "fleeing" });
    expect(r2.outdoors!.log[0]).toMatchObject({ evasionRoll: 1, outcome: "escaped", reason: "evaded" });
    expect(c.world.rollsMade).toHaveLength(1);
    expect(chaseCards(c.world).at(-1)!.content).toContain("They escape!");
  });
});

// -------------------------------------------------------------------------------------------------------------------

describe("dungeon flight (RULES.md §8.1, §8.3)", () => {
  it("pmt: the reaction decides the pursuit, rounds count against 30, then exhausted with no penalty (no effect)", async () => {
    const c = await setup({ ruleset: "pmt" });
    c.world.queueRolls(3, 4); // reaction 7: they pursue
    const { d, r: first } = await gmChase(c, ["tA", "g1"]);
    expect(first.dungeon).toMatchObject({ outcome: "continues", pursues: true, pursuersCanCatch: true });
    expect(chaseCards(c.world)[0]!.content).toContain("Reaction 7: the monsters pursue.");
    expect(chaseCards(c.world)[0]!.rolls.map((x) => (x as { total: number }).total)).toEqual([7]);
    const r = await rounds(c, "gm1", d, 30);
    expect(r!.dungeon).toMatchObject({ rounds: 30, exhausted: true });
    const last = chaseCards(c.world).at(-1)!;
    expect(last.content).toContain("Round 30 of running (0 of 30 left)");
    expect(last.content).toContain("exhausted and must rest");
    expect(createdEffects(c.world)).toEqual([]);
    const out = await html(c, "gm1", d); // the dialog's log merges the plain rounds
    expect(out).toContain("Rounds 1–29 of running (1 of 30 left)");
    expect(out).toContain("Round 30 of running (0 of 30 left)");
    expect(out).not.toContain('data-action="nextRound"');
    // A 31st round is refused (the runners are exhausted); the referee ends the chase.
    const mark = c.world.writes.length;
    expect(await on(c, "gm1", () => d.dungeon("round"))).toBeNull();
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(errors(c.world)).toHaveLength(1);
    const end = await on(c, "gm1", () => d.end("caught"));
    expect(end!.over).toBe(true);
    expect(chaseCards(c.world).at(-1)!.content).toContain("Caught! The encounter takes place.");
  });

  it("pmt: reaction 2–6, the monsters do not pursue", async () => {
    const c = await setup({ ruleset: "pmt" });
    c.world.queueRolls(1, 5);
    const { r } = await gmChase(c, ["tA", "g1"]);
    expect(r.dungeon!.outcome).toBe("escaped");
    expect(chaseCards(c.world)[0]!.content).toContain("Reaction 6: the monsters do not pursue.");
  });

  it("ose: 30 rounds, then −2 to attacks, damage and AC as an Active Effect on every runner (v13 changes), once per actor", async () => {
    const c = await setup({ ruleset: "ose" });
    const { d } = await gmChase(c, ["tA", "tB", "g1", "g2"]);
    expect(c.world.rollsMade).toEqual([]); // ose: no roll, the referee decides
    expect(chaseCards(c.world)[0]!.content).toContain("The GM decides whether the monsters pursue.");
    const r = await rounds(c, "gm1", d, 30);
    expect(r!.exhaustedActors).toEqual(["Aldric", "Brune", "Gobelin"]); // the two goblin tokens share one actor
    const made = createdEffects(c.world);
    expect(made.map((e) => [e.user, e.actorId])).toEqual([
      ["gm1", "aldric"],
      ["gm1", "brune"],
      ["gm1", "gob"],
    ]);
    const e = made[0]!.data;
    expect(e.name).toBe("Exhausted from running");
    expect((e.flags as { aventure: unknown }).aventure).toEqual({ runExhaustion: true, chase: `${r!.id}.31` });
    const changes = e.changes as { key: string; mode: number; value: string }[];
    expect(changes.map((x) => x.key)).toEqual([
      "system.bonuses.mwak.attack",
      "system.bonuses.mwak.damage",
      "system.bonuses.rwak.attack",
      "system.bonuses.rwak.damage",
      "system.bonuses.msak.attack",
      "system.bonuses.msak.damage",
      "system.bonuses.rsak.attack",
      "system.bonuses.rsak.damage",
      "system.attributes.ac.bonus",
    ]);
    expect(changes.every((x) => x.value === "-2" && x.mode === 2)).toBe(true);
    expect(e.duration).toEqual({ seconds: 1800, startTime: 0 }); // three turns of rest (RULES.md §1: 1 turn = 10 min)
    expect(e.description).toBe("Ran too long: \u22122 to attacks, damage and AC until 3 turns of rest.");
    expect(runEffects(c.actors.cyril)).toEqual([]); // not in the chase
    const last = chaseCards(c.world).at(-1)!;
    expect(last.content).toContain("\u22122 to attacks, damage and AC until 3 turns of rest."); // typographic minus in the text, "-2" in the data
    expect(last.content).toContain("Effect applied to: Aldric, Brune, Gobelin.");
    expect(record(last).apply).toMatchObject({
      status: "applied",
      time: null,
      exhaust: { penalty: -2, restTurns: 3, restSeconds: 1800, startTime: 0 },
    });
  });

  it("v14: the effect is written with system.changes and a typed change", async () => {
    const c = await setup({ ruleset: "ose", generation: 14 });
    const { d } = await gmChase(c, ["tA", "g1"]);
    await rounds(c, "gm1", d, 30);
    const data = createdEffects(c.world)[0]!.data;
    expect(data.changes).toBeUndefined();
    expect((data.system as { changes: unknown[] }).changes[0]).toEqual({
      key: "system.bonuses.mwak.attack",
      type: "add",
      value: "-2",
      phase: "initial",
      priority: 20,
    });
    expect(data.duration).toEqual({ value: 30, units: "minutes", expiry: null });
  });

  it("OSE system: a character's attack and AC modifiers get −2 (both AC schemes), damage is left to the rolls; a monster gets a descriptive effect", async () => {
    const c = await setup({ ruleset: "ose", system: "ose" });
    c.world.addUserActor({
      _id: "hero",
      name: "Héloïse",
      type: "character",
      system: { movement: { base: 120, encounter: 40 } },
    });
    c.world.addUserActor({
      _id: "orc",
      name: "Orque",
      type: "monster",
      system: { movement: { base: 120, encounter: 40 } },
    });
    c.world.addToken(c.scene, { _id: "th", name: "Héloïse", actorId: "hero", actorLink: true, disposition: 1 });
    c.world.addToken(c.scene, { _id: "to", name: "Orque", actorId: "orc", actorLink: true, disposition: -1 });
    const { d } = await gmChase(c, ["th", "to"], { "groups.opponents.speed": "15" }); // the orcs are faster
    await rounds(c, "gm1", d, 30);
    expect(errors(c.world)).toEqual([]);
    const [he, oe] = createdEffects(c.world).map((x) => x.data);
    expect(he!.changes).toEqual(
      ["system.thac0.mod.melee", "system.thac0.mod.missile", "system.ac.mod", "system.aac.mod"].map((key) => ({
        key,
        mode: 2,
        value: "-2",
        priority: 20,
      })),
    );
    expect(he!.description).toBe(
      "Ran too long: \u22122 to attacks, damage and AC until 3 turns of rest (attacks and AC are applied; apply the damage penalty to the rolls).",
    );
    expect(oe!.changes).toEqual([]);
    expect(oe!.description).toContain("apply it on the sheet");
  });

  it.each([13, 14])(
    "v%i: the exhaustion ends when its three turns of rest are over (v13: the active GM deletes it, once; v14: core marks it expired, the active GM deletes it, once)",
    async (generation) => {
      const c = await setup({ ruleset: "ose", generation });
      // A monster on an unlinked token carries its own (synthetic) actor, not the world actor.
      addDnd5eActor(c.world, { id: "wolf", name: "Loup", type: "npc", walk: 40 });
      const wolf = c.world.addToken(c.scene, {
        _id: "w1",
        name: "Loup",
        actorId: "wolf",
        actorLink: false,
        disposition: -1,
      });
      const { d } = await gmChase(c, ["tA", "w1"]);
      await rounds(c, "gm1", d, 30);
      expect([
        runEffects(c.actors.aldric).length,
        runEffects(wolf.actor!).length,
        runEffects(c.world.actors.get("wolf")!).length,
      ]).toEqual([1, 1, 0]);
      const deletions = () => c.world.writes.filter((w) => w.action === "delete" && w.documentName === "ActiveEffect");
      await c.world.as("gm1", () => game.time.advance(1799)); // one second short of three turns (RULES.md §1: 1 turn = 10 min)
      await c.world.settle();
      expect([runEffects(c.actors.aldric).length, runEffects(wolf.actor!).length]).toEqual([1, 1]);
      // Two world time updates at once (gm2 advances too): each client's hook fires; only the active GM deletes, once.
      await Promise.all([c.world.as("gm1", () => game.time.advance(1)), c.world.as("gm2", () => game.time.advance(1))]);
      await c.world.settle();
      expect([runEffects(c.actors.aldric).length, runEffects(wolf.actor!).length]).toEqual([0, 0]);
      expect(deletions().map((w) => w.user)).toEqual(["gm1", "gm1"]); // two GMs connected: deleted once each, by the active GM
      expect(errors(c.world)).toEqual([]);
    },
  );

  it("faster fleeing side escapes; combat ticked → impossible; surprise; dropped treasure", async () => {
    const c = await setup({ ruleset: "pmt" });
    expect((await gmChase(c, ["tA", "g1"], { "groups.party.speed": "15" })).r.dungeon!.log[0]).toMatchObject({
      outcome: "escaped",
      reason: "faster",
    });
    expect((await gmChase(c, ["tA", "g1"], { combatStarted: true })).r.dungeon!.outcome).toBe("impossible");
    // A surprised fleeing side is not barred from fleeing (RULES.md §8.2 decision, also in the dungeon): faster, it escapes.
    expect(
      (await gmChase(c, ["tA", "g1"], { surprise: "fleeing", "groups.party.speed": "15" })).r.dungeon!.log[0],
    ).toMatchObject({ outcome: "escaped", reason: "faster" });
    expect(c.world.rollsMade).toEqual([]);
    c.world.queueRolls(4);
    const { r } = await gmChase(c, ["tA", "g1"], { dropped: true, reactionTotal: "9" });
    expect(r.dungeon!.log[0]).toMatchObject({
      outcome: "escaped",
      reason: "distracted",
      dropRoll: 4,
      reactionTotal: 9,
    });
    expect(chaseCards(c.world).at(-1)!.content).toContain(
      "Dropped treasure or food: 4 on 1d6, the pursuers stop to pick it up.",
    );
  });

  it("same speed: the pursuers cannot catch them (Caught refused), the chase ends out of sight", async () => {
    const c = await setup({ ruleset: "pmt" });
    const { d, r } = await gmChase(c, ["tA", "g1"], { "groups.opponents.speed": "9", reactionTotal: "10" });
    expect(r.dungeon!.pursuersCanCatch).toBe(false);
    expect(await html(c, "gm1", d)).not.toContain('data-action="caught"');
    const mark = c.world.writes.length;
    expect(await on(c, "gm1", () => d.end("caught"))).toBeNull();
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect((await on(c, "gm1", () => d.end("outOfSight")))!.dungeon!.outcome).toBe("escaped");
  });

  it("a combat already started with these tokens: the dialog says so and the GM makes the flight impossible", async () => {
    const c = await setup({ ruleset: "pmt" });
    const combat = await c.world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as {
        create(d: object): Promise<{
          createEmbeddedDocuments(t: string, d: object[]): Promise<unknown>;
          startCombat(): Promise<unknown>;
        }>;
      };
      const made = await Combat.create({ scene: "scene1", active: true });
      await made.createEmbeddedDocuments("Combatant", [
        { tokenId: "tA", sceneId: "scene1" },
        { tokenId: "g1", sceneId: "scene1" },
      ]);
      return made;
    });
    expect((await open(c, "gm1", { tokens: tokenDocs(c, "tA", "g1") })).setup.combatStarted).toBe(false); // not started yet: flight is possible
    c.world.queueRolls(5, 2, 5, 2, 5, 2); // side initiative at the start of round 1 (if the world rolls it)
    await c.world.as("gm1", () => combat.startCombat());
    await c.world.settle();
    c.world.rollQueue.length = 0;
    const d = await open(c, "gm1", { tokens: tokenDocs(c, "tA", "g1") });
    expect(d.setup.combatStarted).toBe(true);
    await on(c, "gm1", () => d.change("combatStarted", false)); // unticked by hand (or sent so by a client): the GM sees the fight
    const r = await on(c, "gm1", () => d.start());
    expect(r!.dungeon!.outcome).toBe("impossible");
    expect(chaseCards(c.world).at(-1)!.content).toContain("Combat has started: flight is impossible.");
  });

  it("a token removed mid-chase: the GM goes on, the exhaustion goes to the actors still on the scene", async () => {
    const c = await setup({ ruleset: "ose" });
    const { d } = await gmChase(c, ["tA", "tB", "g1"]);
    await rounds(c, "gm1", d, 29);
    await c.world.as("gm1", () => c.scene.deleteEmbeddedDocuments("Token", ["tB"])); // Brune's token is gone
    const r = await on(c, "gm1", () => d.dungeon("round"));
    expect(errors(c.world)).toEqual([]);
    expect(r!.dungeon!.exhausted).toBe(true);
    expect(r!.exhaustedActors).toEqual(["Aldric", "Gobelin"]);
    expect(runEffects(c.actors.brune)).toEqual([]);
  });
});

// -------------------------------------------------------------------------------------------------------------------

describe("players: their own tokens, or the GM decides", () => {
  it("a player flees with their own tokens and no pursuer token: the active GM rolls and posts it at once", async () => {
    const c = await setup({ ruleset: "pmt" });
    const d = await open(c, "p1", { tokens: tokenDocs(c, "tA", "tB") });
    await on(c, "p1", () => d.change("groups.opponents.speed", "12")); // no pursuer token: its speed typed in
    c.world.queueRolls(2, 2); // reaction 4: no pursuit (rolled on the GM's side)
    const r = await on(c, "p1", () => d.start());
    await c.world.settle();
    expect(errors(c.world)).toEqual([]);
    expect(r!.startedBy).toBe("p1");
    expect(chaseCards(c.world).map((m) => m.author!.id)).toEqual(["gm1"]);
    expect(requestsLeft(c.world)).toEqual([]);
  });

  it("pursuers the player does not own: the flight becomes a proposal for the GMs; nothing rolls until a GM applies it", async () => {
    const c = await setup({ ruleset: "ose" });
    const d = await open(c, "p1", { tokens: tokenDocs(c, "tA", "g1") });
    const mark = c.world.writes.length;
    expect(await on(c, "p1", () => d.start())).toBeNull();
    expect(c.world.notifications.filter((n) => n.user === "p1")).toEqual([
      { user: "p1", type: "info", message: "Your flight was sent to the GM for a decision." },
    ]);
    expect(chaseCards(c.world)).toEqual([]);
    expect(c.world.rollsMade).toEqual([]);
    const [card] = proposals(c.world);
    expect(card!.author!.id).toBe("gm1");
    expect(card!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(card!.content).toContain("Flight in the dungeon");
    expect(card!.content).toContain("Gobelin 1");
    expect(card!.content).toContain(
      "The pursuers include characters this player does not own: they would get the running exhaustion.",
    );
    expect(gameWrites(c.world, mark).filter((w) => w.documentName !== "ChatMessage")).toEqual([]);
    // Apply / Decline only for GMs.
    expect(c.world.renderMessage(card!, "p1").querySelector("[data-action='aventure-proposal']")).toBeNull();
    // gm2 applies: the active GM starts the chase for p1, who may then play it.
    c.world.click(
      "gm2",
      c.world.renderMessage(card!, "gm2").querySelector("[data-action='aventure-proposal'][data-accept='true']"),
    );
    await c.world.settle();
    const [chase] = chaseCards(c.world);
    expect(chase!.author!.id).toBe("gm1");
    expect(record(chase!)).toMatchObject({ startedBy: "p1", step: 1, groups: { opponents: { names: ["Gobelin 1"] } } });
    expect(c.world.messages.some((m) => m.whisper.includes("p1") && m.content.includes("was applied by the GM"))).toBe(
      true,
    );
    // p1 continues from the card (Continue is theirs) and runs the 30th round: the exhaustion the GM agreed to.
    expect(continueButton(c, chase!, "p1")).not.toBeNull();
    await rounds(c, "gm1", await open(c, "gm1", { chaseId: record(chase!).id }), 29);
    const mine = await open(c, "p1", { chaseId: record(chase!).id });
    const r = await rounds(c, "p1", mine, 1);
    expect(r!.exhaustedActors).toEqual(["Aldric", "Gobelin"]);
    expect(runEffects(c.actors.gob)).toHaveLength(1);
  });

  it("a declined flight changes nothing; a player naming another player's character as pursuer is asked too", async () => {
    const c = await setup({ ruleset: "ose" });
    // Cyril (p2's) named as the pursuer (from the console: the dialog would put a friendly token with the party).
    const reply = await forgeRequest(c.world, "p1", "pursuit", {
      op: "start",
      setup: setupOf({ party: { tokenIds: ["tA"] }, opponents: { tokenIds: ["tC"] } }),
    });
    expect(reply).toEqual({ status: "done", ok: true, result: { proposed: true } });
    const [card] = proposals(c.world);
    const mark = c.world.writes.length;
    c.world.click(
      "gm1",
      c.world.renderMessage(card!, "gm1").querySelector("[data-action='aventure-proposal'][data-accept='false']"),
    );
    await c.world.settle();
    expect(chaseCards(c.world)).toEqual([]);
    expect(c.world.rollsMade).toEqual([]);
    expect(runEffects(c.actors.cyril)).toEqual([]);
    expect(gameWrites(c.world, mark).every((w) => w.documentName === "ChatMessage")).toBe(true);
    expect(c.world.messages.some((m) => m.whisper.includes("p1") && m.content.includes("was declined by the GM"))).toBe(
      true,
    );
  });

  it("outdoors, each day moves world time: a player's flight goes to the GMs unless the setting is off", async () => {
    const c = await setup();
    const d = await open(c, "p1", { tokens: tokenDocs(c, "tA"), place: "outdoors" });
    await on(c, "p1", () => d.change("groups.opponents.speed", "9")); // no pursuer token; as fast as Aldric (9 m)
    expect(await on(c, "p1", () => d.start())).toBeNull();
    expect(proposals(c.world)[0]!.content).toContain(
      "Outdoors, each further day of the chase advances world time by one day.",
    );
    await set(c.world, "pursuitAdvanceTime", false);
    c.world.queueRolls(99); // 99 > 50 %: not escaped; the pursuers are not faster: no catch roll
    const r = await on(c, "p1", () => d.start());
    expect(r!.outdoors!.outcome).toBe("continues");
    c.world.queueRolls(98);
    await on(c, "p1", () => d.nextDay());
    expect(c.world.worldTime).toBe(0);
  });

  it("a player cannot flee with a token they do not own, nor with no token, nor as the monsters", async () => {
    const c = await setup();
    const mark = c.world.writes.length;
    await on(c, "p1", async () => (await open(c, "p1", { tokens: tokenDocs(c, "tA", "tC", "g1") })).start()); // Cyril belongs to p2
    const none = await open(c, "p1", { tokens: tokenDocs(c, "g1") });
    await on(c, "p1", () => none.change("groups.party.speed", "9"));
    await on(c, "p1", () => none.start()); // no token in the fleeing group
    const monsters = await open(c, "p1", { tokens: tokenDocs(c, "tA", "g1") });
    await on(c, "p1", () => monsters.change("fleeingSide", "opponents"));
    await on(c, "p1", () => monsters.start());
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(errors(c.world, "p1")).toEqual([
      "You do not own Cyril.",
      "Players can only flee with tokens they own: select your tokens.",
      "You do not own Gobelin 1.",
    ]);
  });

  it("a player's flight: a typed reaction is refused (the GM rolls it); only the GM ends the chase", async () => {
    const c = await setup({ ruleset: "pmt" });
    // A chase the GM started with p1's Aldric fleeing: p1 may play it.
    c.world.queueRolls(4, 4); // reaction 8: they pursue
    const { r } = await gmChase(c, ["tA", "g1"]);
    const d = await open(c, "p1", { tokens: tokenDocs(c, "tA") });
    expect(await html(c, "p1", d)).not.toContain('name="reactionTotal"');
    expect((await open(c, "p1", { reactionTotal: 9 })).setup.reactionTotal).toBeNull(); // an encounter's prefill is the GM's
    const mark = c.world.writes.length;
    expect(
      await forgeRequest(c.world, "p1", "pursuit", {
        op: "start",
        setup: setupOf({ opponents: { tokenIds: [] }, reactionTotal: 2 }),
      }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Pursuit.error.gmReaction" });
    expect(gameWrites(c.world, mark)).toEqual([]);
    // The player runs, but cannot declare that the monsters give up or lose sight of them.
    const mine = await open(c, "p1", { chaseId: r.id });
    const out = await html(c, "p1", mine);
    for (const a of ["nextRound", "drop"]) expect(out).toContain(`data-action="${a}"`);
    for (const a of ["outOfSight", "gaveUp", "caught"]) expect(out).not.toContain(`data-action="${a}"`);
    expect(await on(c, "p1", () => mine.end("gaveUp"))).toBeNull();
    expect(errors(c.world, "p1").at(-1)).toBe("Only the GM ends the chase (out of sight, they give up, caught).");
    expect(
      await forgeRequest(c.world, "p1", "pursuit", { op: "end", chaseId: r.id, step: 1, how: "outOfSight" }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Pursuit.error.gmEnds" });
    expect(gameWrites(c.world, mark)).toEqual([]);
    // p2 owns none of the fleeing tokens: cannot play it.
    expect(await forgeRequest(c.world, "p2", "pursuit", { op: "round", chaseId: r.id, step: 1 })).toMatchObject({
      ok: false,
      key: "AVENTURE.Error.NotOwner",
    });
    // The GM ends it.
    const gm = await open(c, "gm1", { chaseId: r.id });
    expect((await on(c, "gm1", () => gm.end("outOfSight")))!.dungeon!.outcome).toBe("escaped");
  });

  it("the Continue button is kept for GMs and the player who started the chase, removed for others and once over", async () => {
    const c = await setup();
    await set(c.world, "pursuitAdvanceTime", false);
    c.world.queueRolls(99);
    const d = await open(c, "p1", { tokens: tokenDocs(c, "tA"), place: "outdoors" });
    await on(c, "p1", () => d.change("groups.opponents.speed", "9"));
    await on(c, "p1", () => d.start());
    const [m] = chaseCards(c.world);
    expect(["gm2", "p1", "p2"].map((u) => continueButton(c, m!, u) !== null)).toEqual([true, true, false]);
    c.world.queueRolls(1); // escaped
    await on(c, "p1", () => d.nextDay());
    expect(continueButton(c, chaseCards(c.world).at(-1)!, "gm1")).toBeNull();
    // The button opens the dialog on the chase (and writes nothing).
    await c.world.settle();
    const mark = c.world.writes.length;
    c.world.click("p1", continueButton(c, m!, "p1"));
    await c.world.settle();
    expect(c.world.writesSince(mark)).toEqual([]);
  });

  it("the dialog's buttons are disabled while a step runs: a double click starts one flight", async () => {
    const c = await setup({ ruleset: "pmt" });
    const d = await open(c, "p1", { tokens: tokenDocs(c, "tA") });
    await on(c, "p1", () => d.change("groups.opponents.speed", "12"));
    c.world.queueRolls(4, 4, 4, 4);
    const start = () => d.element!.querySelector('[data-action="start"]');
    c.world.click("p1", start());
    expect((start() as HTMLButtonElement).disabled).toBe(true);
    expect(() => c.world.click("p1", start())).toThrow(/disabled/);
    await c.world.settle();
    expect(chaseCards(c.world)).toHaveLength(1);
    expect((d.element!.querySelector('[data-action="nextRound"]') as HTMLButtonElement).disabled).toBe(false);
  });
});

// -------------------------------------------------------------------------------------------------------------------

describe("attacks on the request path (request pursuit)", () => {
  it("a player forging identity (the payload claims a GM) is refused; the old query path answers nothing", async () => {
    const c = await setup();
    const mark = c.world.writes.length;
    const forged = {
      op: "start",
      setup: setupOf({ party: { tokenIds: ["tA"] }, opponents: { tokenIds: [] } }),
      userId: "gm1",
      user: "gm1",
      sender: "gm1",
    };
    expect(await forgeRequest(c.world, "p2", "pursuit", forged)).toEqual({
      status: "done",
      ok: false,
      key: "AVENTURE.Error.NotOwner",
      data: { name: "Aldric" },
    });
    await expect(
      c.world.as("p2", () =>
        (game.users.activeGM as unknown as { query(n: string, d: unknown): Promise<unknown> }).query(
          "aventure.pursuit",
          forged,
        ),
      ),
    ).rejects.toThrow(/not registered/);
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(c.world.rollsMade).toEqual([]);
  });

  it("attack: a payload is read through its model: a value cleaning would change, a wrong type or groups sent as a list are refused with the field named; nothing is written", async () => {
    const c = await setup({ ruleset: "pmt" });
    const gmStart = (over: Parameters<typeof setupOf>[0]) => ({ op: "start", setup: setupOf(over) });
    const s = gmStart({});
    const bad: [unknown, string, Record<string, unknown>][] = [
      [gmStart({ party: { tokenIds: "tA" as never } }), "AVENTURE.Error.Missing", { name: "party.tokenIds" }],
      [gmStart({ sceneId: " scene1" }), "AVENTURE.Error.Missing", { name: "sceneId" }],
      [gmStart({ dropped: 0 as never }), "AVENTURE.Error.UnknownValue", { name: "dropped" }],
      [{ ...s, setup: { ...s.setup, groups: [s.setup.groups.party] } }, "AVENTURE.Error.Missing", { name: "groups" }],
      [{ op: "end", chaseId: "abc", step: 1, how: ["caught"] }, "AVENTURE.Error.UnknownValue", { name: "how" }],
      [{ op: "round", chaseId: ["abc"], step: 1 }, "AVENTURE.Error.Missing", { name: "chaseId" }],
    ];
    const mark = c.world.writes.length;
    for (const [data, key, named] of bad) {
      tick();
      expect(await forgeRequest(c.world, "gm1", "pursuit", data), JSON.stringify(data)?.slice(0, 120)).toMatchObject({
        ok: false,
        key,
        data: named,
      });
    }
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(c.world.rollsMade).toEqual([]);
  });

  it("out-of-range and malformed values are refused with a localized error; nothing rolls, nothing is written", async () => {
    const c = await setup({ ruleset: "pmt" });
    const gmStart = (over: Parameters<typeof setupOf>[0]) => ({ op: "start", setup: setupOf(over) });
    const bad: [string, unknown, string][] = [
      ["gm1", { op: "fly" }, "AVENTURE.Error.UnknownValue"],
      ["gm1", null, "AVENTURE.Error.Missing"],
      ["gm1", "pursuit", "AVENTURE.Error.Missing"],
      ["gm1", gmStart({ place: "sea" as never }), "AVENTURE.Error.UnknownValue"],
      ["gm1", gmStart({ woods: "yes" as never }), "AVENTURE.Error.UnknownValue"],
      ["gm1", gmStart({ party: { count: 0 } }), "AVENTURE.Error.OutOfRange"],
      ["gm1", gmStart({ party: { count: 100001 } }), "AVENTURE.Error.OutOfRange"],
      ["gm1", gmStart({ party: { count: 2.5 } }), "AVENTURE.Error.NotAnInteger"],
      ["gm1", gmStart({ party: { count: "3" as never } }), "AVENTURE.Error.NotANumber"],
      ["gm1", gmStart({ opponents: { speed: -1 } }), "AVENTURE.Error.Negative"],
      ["gm1", gmStart({ opponents: { speed: 1001 } }), "AVENTURE.Error.OutOfRange"],
      ["gm1", gmStart({ opponents: { speed: null as never } }), "AVENTURE.Error.NotANumber"],
      ["gm1", gmStart({ woodsBonus: 19 }), "AVENTURE.Error.OutOfRange"],
      ["gm1", gmStart({ fastBonus: 26 }), "AVENTURE.Error.OutOfRange"],
      ["gm1", gmStart({ reactionTotal: 41 }), "AVENTURE.Error.OutOfRange"],
      ["gm1", gmStart({ reactionTotal: 13 }), "AVENTURE.Error.OutOfRange"], // pmt: 2..12
      ["gm1", gmStart({ reactionTotal: 7.5 }), "AVENTURE.Error.NotAnInteger"],
      ["gm1", gmStart({ sceneId: "nope" }), "AVENTURE.Pursuit.error.noScene"],
      ["gm1", gmStart({ sceneId: "../x" }), "AVENTURE.Error.Missing"],
      ["gm1", gmStart({ party: { tokenIds: ["nope"] } }), "AVENTURE.Pursuit.error.noToken"],
      ["gm1", gmStart({ party: { tokenIds: [{ $ne: 1 }] as never } }), "AVENTURE.Error.Missing"],
      [
        "gm1",
        gmStart({ party: { tokenIds: Array.from({ length: 201 }, (_, i) => `t${i}`) } }),
        "AVENTURE.Error.Missing",
      ],
      ["gm1", gmStart({ party: { tokenIds: ["g1"] } }), "AVENTURE.Pursuit.error.twice"],
      ["p1", gmStart({ opponents: { tokenIds: [] }, reactionTotal: 9 }), "AVENTURE.Pursuit.error.gmReaction"],
      ["p1", gmStart({ party: { count: 0 }, opponents: { tokenIds: [] } }), "AVENTURE.Error.OutOfRange"],
      [
        "gm1",
        { op: "day", chaseId: "missing", step: 1, woods: false, woodsBonus: 20, twiceFast: false, fastBonus: 20 },
        "AVENTURE.Pursuit.error.noChase",
      ],
      ["gm1", { op: "round", chaseId: "a b", step: 1 }, "AVENTURE.Error.Missing"],
      ["gm1", { op: "round", chaseId: "abc", step: 0 }, "AVENTURE.Error.OutOfRange"],
      ["gm1", { op: "round", chaseId: "abc", step: 10000 }, "AVENTURE.Error.OutOfRange"],
      ["gm1", { op: "round", chaseId: "abc", step: "1" }, "AVENTURE.Error.NotANumber"],
      [
        "gm1",
        { op: "day", chaseId: "abc", step: 1, woods: true, woodsBonus: 30, twiceFast: false, fastBonus: 20 },
        "AVENTURE.Error.OutOfRange",
      ],
      ["gm1", { op: "end", chaseId: "abc", step: 1, how: "eaten" }, "AVENTURE.Error.UnknownValue"],
    ];
    const mark = c.world.writes.length;
    for (const [user, data, key] of bad) {
      tick();
      expect(
        await forgeRequest(c.world, user, "pursuit", data),
        `${user} ${JSON.stringify(data)?.slice(0, 120)}`,
      ).toMatchObject({ ok: false, key });
    }
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(c.world.rollsMade).toEqual([]);
    // The refusal reaches the requester in its own language (a dialog's Start).
    const d = await open(c, "p1", { tokens: tokenDocs(c, "tA") });
    await on(c, "p1", () => d.change("groups.party.count", "0"));
    expect(await on(c, "p1", () => d.start())).toBeNull();
    expect(errors(c.world, "p1")).toEqual(["Expected a value between 1 and 100000 for group size (got 0)."]);
  });

  it.each([
    ["a group of 0", { "groups.party.count": "0" }, "Expected a value between 1 and 100000 for group size (got 0)."],
    [
      "a speed that is not a number",
      { "groups.opponents.speed": "vite" },
      "Expected a number for group speed (got NaN).",
    ],
    [
      "a woods adjustment of 30",
      { place: "outdoors", woods: true, woodsBonus: "30" },
      "Expected a value between 20 and 25 for woods adjustment (got 30).",
    ],
    ["a pmt reaction of 13", { reactionTotal: "13" }, "Expected a value between 2 and 12 for reaction total (got 13)."],
  ] as [string, Record<string, string | boolean>, string][])(
    "the dialog refuses %s and nothing changes",
    async (_label, fields, message) => {
      const c = await setup({ ruleset: "pmt" });
      const d = await open(c, "gm1", { tokens: tokenDocs(c, "tA", "g1") });
      for (const [k, v] of Object.entries(fields)) await on(c, "gm1", () => d.change(k, v));
      c.world.queueRolls(3, 4);
      const mark = c.world.writes.length;
      expect(await on(c, "gm1", () => d.start())).toBeNull();
      expect(c.world.writesSince(mark)).toEqual([]);
      expect(c.world.rollsMade).toEqual([]);
      expect(errors(c.world)).toEqual([message]);
      expect(d.chase).toBeNull();
    },
  );

  it("a replayed request id is refused; a stale step is refused; both change nothing", async () => {
    const c = await setup({ ruleset: "pmt" });
    c.world.queueRolls(4, 4);
    const { r } = await gmChase(c, ["tA", "g1"]);
    expect(
      await forgeRequest(c.world, "p1", "pursuit", { op: "round", chaseId: r.id, step: 1 }, "replayedPursuit1"),
    ).toMatchObject({ ok: true, result: { step: 2 } });
    const mark = c.world.writes.length;
    expect(
      await forgeRequest(c.world, "p1", "pursuit", { op: "round", chaseId: r.id, step: 2 }, "replayedPursuit1"),
    ).toEqual({ status: "done", ok: false, key: "AVENTURE.Request.replayed", data: {} });
    // The same step again (a stale window, a second click): the step number keys it.
    expect(await forgeRequest(c.world, "p1", "pursuit", { op: "round", chaseId: r.id, step: 1 })).toMatchObject({
      ok: false,
      key: "AVENTURE.Pursuit.error.moved",
    });
    expect(await forgeRequest(c.world, "gm2", "pursuit", { op: "drop", chaseId: r.id, step: 1 })).toMatchObject({
      ok: false,
      key: "AVENTURE.Pursuit.error.moved",
    });
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(chaseCards(c.world).map((m) => record(m).step)).toEqual([1, 2]);
  });

  it("a player-authored chase card (step 999) changes nothing: no Continue button, never the chase's state, a click on it refused", async () => {
    const c = await setup();
    c.world.queueRolls(99, 99);
    const { r } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
    const real = chaseCards(c.world)[0]!;
    // A well-formed state 999 days on (the rules' own, 99 on every escape roll): only its author betrays it.
    const days = await replayPursuit(
      { ...record(real).outdoors!, pursuersFaster: false },
      fixedDice(Array<number>(998).fill(99)),
      998,
    );
    const forgedRecord = { ...record(real), step: 999, shownFrom: 998, startedBy: "p1", outdoors: days };
    const forged = await forgeCard(c.world, "p1", { pursuit: forgedRecord }, real.content);
    const other = await forgeCard(c.world, "p1", { pursuit: { ...forgedRecord, id: "forgedChase999" } }, real.content);
    // The same states as the player's own messages of the card's sub-type (any user may create one).
    const typed = [];
    for (const state of [forgedRecord, { ...forgedRecord, id: "forgedChase998" }])
      typed.push(
        (await c.world.as("p1", () =>
          ChatMessage.implementation.create({
            content: real.content,
            type: "aventure.pursuit",
            system: state,
          } as never),
        )) as unknown as FakeChatMessage,
      );
    expect(typed.map((m) => [m.type, record(m).step])).toEqual([
      ["aventure.pursuit", 999],
      ["aventure.pursuit", 999],
    ]);
    await c.world.settle();
    for (const user of ["gm1", "gm2", "p1"]) {
      expect(continueButton(c, forged, user), user).toBeNull();
      expect(continueButton(c, other, user), user).toBeNull();
      for (const m of typed) expect(continueButton(c, m, user), user).toBeNull();
    }
    expect(continueButton(c, real, "gm1")).not.toBeNull();
    // The GM's dialog on that chase sees the real step 1, not 999.
    const gm = await open(c, "gm1", { chaseId: r.id });
    expect(gm.chase!.step).toBe(1);
    expect((await open(c, "p1", { chaseId: "forgedChase999" })).chase).toBeNull();
    expect((await open(c, "p1", { chaseId: "forgedChase998" })).chase).toBeNull();
    const mark = c.world.writes.length;
    const day = { op: "day", woods: false, woodsBonus: 20, twiceFast: false, fastBonus: 20 };
    for (let i = 0; i < 3; i++)
      expect(await forgeRequest(c.world, "p1", "pursuit", { ...day, chaseId: r.id, step: 999 })).toMatchObject({
        ok: false,
        key: "AVENTURE.Pursuit.error.moved",
      });
    expect(
      await forgeRequest(c.world, "p1", "pursuit", { ...day, chaseId: "forgedChase999", step: 999 }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Pursuit.error.noChase" });
    expect(
      await forgeRequest(c.world, "p1", "pursuit", { ...day, chaseId: "forgedChase998", step: 999 }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Pursuit.error.noChase" });
    expect(gameWrites(c.world, mark)).toEqual([]);
    expect(c.world.worldTime).toBe(0);
  });

  it("a GM card whose state does not read back (a bad log, an impossible step) is ignored", async () => {
    const c = await setup();
    c.world.queueRolls(99, 99);
    const { r } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
    const base = record(chaseCards(c.world)[0]!);
    const broken = [
      { ...base, step: 2 }, // one log entry per step
      {
        ...base,
        step: 2,
        outdoors: {
          ...base.outdoors!,
          day: 2,
          log: [...base.outdoors!.log, { ...base.outdoors!.log[0]!, day: 2, evasionRoll: 101 }],
        },
      },
      { ...base, step: 2, ruleset: "chess" },
      { ...base, step: 2, groups: { ...base.groups, party: { ...base.groups.party, count: -1 } } },
      { ...base, step: 2, dungeon: { rounds: 0 } },
    ];
    for (const b of broken) await forgeCard(c.world, "gm1", { pursuit: b });
    const gm = await open(c, "gm1", { chaseId: r.id });
    expect(gm.chase!.step).toBe(1);
  });
});

// -------------------------------------------------------------------------------------------------------------------

describe("exactly once: two GMs, a crash before any write, recovery", () => {
  it("two GMs click Next day on the same step at once: one day is played and world time moves once", async () => {
    const c = await setup();
    c.world.queueRolls(99, 99);
    const { r } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
    const d1 = await open(c, "gm1", { chaseId: r.id });
    const d2 = await open(c, "gm2", { chaseId: r.id });
    await on(c, "gm1", () => d1.render());
    await on(c, "gm2", () => d2.render());
    c.world.queueRolls(99, 99, 99, 99);
    c.world.click("gm2", d2.element!.querySelector('[data-action="nextDay"]'));
    c.world.click("gm1", d1.element!.querySelector('[data-action="nextDay"]'));
    await c.world.settle();
    expect(chaseCards(c.world).map((m) => record(m).step)).toEqual([1, 2]);
    expect(c.world.worldTime).toBe(86400);
    expect(timeWrites(c.world)).toHaveLength(1);
    expect(c.world.rollsMade).toHaveLength(4); // day 1 and day 2, each an escape and a catch roll
    expect(errors(c.world)).toEqual(["The chase has already moved on: reopen it from its last card."]);
  });

  it("two GMs click the 30th round at once (ose): the running exhaustion lands once on each runner", async () => {
    const c = await setup({ ruleset: "ose" });
    const r = await chaseAtRound29(c);
    const d = await open(c, "gm1", { chaseId: r.id });
    const d2 = await open(c, "gm2", { chaseId: r.id });
    await on(c, "gm1", () => d.render());
    await on(c, "gm2", () => d2.render());
    c.world.click("gm1", d.element!.querySelector('[data-action="nextRound"]'));
    c.world.click("gm2", d2.element!.querySelector('[data-action="nextRound"]'));
    await c.world.settle();
    expect(createdEffects(c.world).map((e) => e.actorId)).toEqual(["aldric", "brune", "gob"]);
    expect([c.actors.aldric, c.actors.brune, c.actors.gob].map((a) => runEffects(a).length)).toEqual([1, 1, 1]);
    expect(chaseCards(c.world).map((m) => record(m).step)).toEqual([30, 31]);
    expect(errors(c.world)).toEqual(["The chase has already moved on: reopen it from its last card."]);
  });

  /**
   * gm2 (not the active GM) asks for the next outdoor day; the active GM's client (gm1) crashes just before its k-th
   * write. gm2 takes over as active GM, then gm1 reloads. Whatever k: either nothing happened and gm2 was told, or
   * the day is played once, world time moved by exactly one day, and its card says applied.
   */
  async function outdoorCrash(k: number, requester: "gm2" | "gm1") {
    const c = await setup();
    c.world.queueRolls(99, 99);
    const { r } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
    c.world.queueRolls(99, 99, 99, 99);
    c.world.crashAt(k, (w) => w.user === "gm1");
    // Asked by gm2, the day is a request gm1 answers (its run: writes 2 to 5); asked by gm1, its own run fails.
    if (requester === "gm2") expectRequestCrashLogs(k, 5);
    else expectCrashLog("request failed");
    const d = await open(c, requester, { chaseId: r.id });
    const result = await on(c, requester, () => d.nextDay());
    await c.world.settle({ allowErrors: true });
    if (!c.world.clients.get("gm1")?.alive) await c.world.reload("gm1");
    await c.world.settle();
    return { c, result };
  }

  it("counts the active GM's writes of an outdoor day asked by another GM (the loop below covers each)", async () => {
    const c = await setup();
    c.world.queueRolls(99, 99);
    const { r } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
    c.world.queueRolls(99, 99);
    const d = await open(c, "gm2", { chaseId: r.id });
    const mark = c.world.writes.length;
    await on(c, "gm2", () => d.nextDay());
    await c.world.settle();
    // receipt (working), the step claimed on the latest card, card (applying), world time, card (applied), receipt
    // (reply), delete request, delete receipt
    expect(
      c.world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage",
      "update ChatMessage",
      "create ChatMessage",
      "time Setting",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (const [requester, writes] of [
    ["gm2", 8],
    ["gm1", 4],
  ] as const) {
    for (let k = 1; k <= writes; k++) {
      it(`outdoor day asked by ${requester}, crash before the active GM's write ${k}: once or reported, never twice`, async () => {
        const { c, result } = await outdoorCrash(k, requester);
        const steps = chaseCards(c.world).map((m) => record(m));
        expect(steps.map((x) => x.step).slice(0, 1)).toEqual([1]);
        expect(steps.length).toBeLessThanOrEqual(2);
        if (steps.length === 1) {
          expect(c.world.worldTime).toBe(0);
          expect(timeWrites(c.world)).toEqual([]);
          if (requester === "gm2")
            expect(errors(c.world, "gm2")).toEqual([localize(c, "gm2", "AVENTURE.Request.interrupted")]);
        } else {
          expect(c.world.worldTime).toBe(86400); // one day, once
          expect(timeWrites(c.world)).toHaveLength(1);
          expect(steps[1]!.apply).toMatchObject({ status: "applied", time: { before: 0, after: 86400 } });
          if (result === null && requester === "gm2")
            expect(errors(c.world, "gm2")).toEqual([localize(c, "gm2", "AVENTURE.Request.interrupted")]);
        }
        expect(requestsLeft(c.world)).toEqual([]);
        // The chase goes on from its last card, once more.
        const last = steps.at(-1)!;
        c.world.queueRolls(99, 99);
        const gm = await open(c, "gm1", { chaseId: last.id });
        expect((await on(c, "gm1", () => gm.nextDay()))!.step).toBe(last.step + 1);
        expect(c.world.worldTime).toBe(last.step * 86400);
      });
    }
  }

  /**
   * p1 plays the 30th round of an ose chase the GM started (Aldric and Brune fleeing, a goblin pursuing); the active
   * GM crashes before its k-th write. Afterwards each runner carries the running exhaustion once, or nobody does and
   * the round was not played.
   */
  async function dungeonCrash(k: number) {
    const c = await setup({ ruleset: "ose" });
    const r = await chaseAtRound29(c);
    c.world.crashAt(k, (w) => w.user === "gm1");
    expectRequestCrashLogs(k, 7);
    const d = await open(c, "p1", { chaseId: r.id });
    const result = await on(c, "p1", () => d.dungeon("round"));
    await c.world.settle({ allowErrors: true });
    if (!c.world.clients.get("gm1")?.alive) await c.world.reload("gm1");
    await c.world.settle();
    return { c, result };
  }

  it("counts the active GM's writes of a 30th round asked by a player (ose, three runners)", async () => {
    const c = await setup({ ruleset: "ose" });
    const r = await chaseAtRound29(c);
    const d = await open(c, "p1", { chaseId: r.id });
    const mark = c.world.writes.length;
    await on(c, "p1", () => d.dungeon("round"));
    await c.world.settle();
    expect(
      c.world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage",
      "update ChatMessage",
      "create ChatMessage",
      "create ActiveEffect",
      "create ActiveEffect",
      "create ActiveEffect",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
    expect(errors(c.world)).toEqual([]);
  });

  for (let k = 1; k <= 10; k++) {
    it(`30th round asked by a player, crash before the active GM's write ${k}: each runner exhausted once, or nobody`, async () => {
      const { c, result } = await dungeonCrash(k);
      const steps = chaseCards(c.world).map((m) => record(m));
      const counts = [c.actors.aldric, c.actors.brune, c.actors.gob].map((a) => runEffects(a).length);
      if (steps.length === 1) {
        expect(counts).toEqual([0, 0, 0]);
        expect(result).toBeNull();
        expect(errors(c.world, "p1")).toEqual([localize(c, "p1", "AVENTURE.Request.interrupted")]);
      } else {
        expect(steps.map((x) => x.step)).toEqual([30, 31]);
        expect(counts).toEqual([1, 1, 1]);
        expect(c.world.writes.filter((w) => w.action === "create" && w.documentName === "ActiveEffect")).toHaveLength(
          3,
        );
        expect(steps[1]!.apply!.status).toBe("applied");
        expect(steps[1]!.exhaustedActors).toEqual(["Aldric", "Brune", "Gobelin"]);
        const card = chaseCards(c.world).at(-1)!;
        if (k >= 4 && k <= 7) expect(text(card)).toContain(localize(c, "gm1", "AVENTURE.Operation.resumed")); // finished by recovery
      }
      expect(requestsLeft(c.world)).toEqual([]);
    });
  }

  it("a step left applying (its world time refused by the server) is finished before the next step; the stale click is refused", async () => {
    const c = await setup({ users: [GM, PLAYER] });
    c.world.queueRolls(99, 99);
    const { d, r } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
    c.world.queueRolls(99, 99, 99, 99);
    c.world.failWrite(1, (w) => w.action === "time"); // the card (applying) is written, the world time is refused
    expectLogged(
      /^aventure \| request failed InjectedFailure: Fake server: the time of Setting core\.time was refused \(injected failure\)$/,
    );
    expect(await on(c, "gm1", () => d.nextDay())).toBeNull();
    expect(record(chaseCards(c.world).at(-1)!).apply).toMatchObject({
      status: "applying",
      time: { before: 0, after: 86400 },
    });
    expect(c.world.worldTime).toBe(0);
    // The same click again (the dialog is still at step 1): step 2 is finished first, then the click is refused.
    expect(await on(c, "gm1", () => d.nextDay())).toBeNull();
    expect(errors(c.world, "gm1").at(-1)).toBe("The chase has already moved on: reopen it from its last card.");
    expect(c.world.worldTime).toBe(86400);
    expect(record(chaseCards(c.world).at(-1)!).apply).toMatchObject({ status: "applied", resumed: true });
    expect(text(chaseCards(c.world).at(-1)!)).toContain(localize(c, "gm1", "AVENTURE.Operation.resumed"));
    // From its last card, the chase goes on once more.
    const again = await open(c, "gm1", { chaseId: r.id });
    expect((await on(c, "gm1", () => again.nextDay()))!.step).toBe(3);
    expect(c.world.worldTime).toBe(2 * 86400);
    expect(timeWrites(c.world)).toHaveLength(2);
  });

  it.each([13, 14])(
    "v%i: a GM's page stops right after claiming the next step: on reload the claim is deleted from the card's system, and the step is played once",
    async (generation) => {
      const c = await setup({ generation });
      c.world.queueRolls(99, 99);
      const { d } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
      const first = chaseCards(c.world)[0]!;
      // The card is of the sub-type; its system is the chase record, no apply record, no claims.
      expect(first.type).toBe("aventure.pursuit");
      expect(first.flags.aventure).toBeUndefined();
      expect(first.systemSource).toMatchObject({ version: 1, step: 1, place: "outdoors", apply: null, claims: {} });
      c.world.queueRolls(99, 99); // rolled before the step's card is posted
      // The claim (an update of the latest card) is written; the next write (the step's card) never is.
      c.world.crashAt(1, (w) => w.user === "gm1" && w.documentName === "ChatMessage" && w.action === "create");
      expectCrashLog("request failed");
      await on(c, "gm1", () => d.nextDay()).catch(() => null);
      await c.world.settle({ allowErrors: true });
      expect(chaseCards(c.world)).toHaveLength(1);
      expect(Object.keys(first.systemSource.claims as object)).toHaveLength(1);
      await c.world.reload("gm1");
      await c.world.settle();
      expect(first.systemSource.claims).toEqual({}); // withdrawn by deleting its key (v13 "-=", v14 _del)
      const again = await open(c, "gm1", { chaseId: record(first).id });
      c.world.queueRolls(99, 99);
      expect((await on(c, "gm1", () => again.nextDay()))!.step).toBe(2);
      expect(chaseCards(c.world).map((m) => record(m).step)).toEqual([1, 2]);
      expect(c.world.worldTime).toBe(86400);
    },
  );

  it("a chase card of an earlier version (a GM's base message, its state in flags.aventure.pursuit) goes on: its claims are written and withdrawn in that flag, the next card is of the sub-type", async () => {
    const c = await setup({ ruleset: "ose", users: [GM, PLAYER] });
    const r = await chaseAtRound29(c);
    const old = chaseCards(c.world)[0]!;
    expect(old.type).toBe("base");
    const d = await open(c, "gm1", { chaseId: r.id });
    expect(d.chase!.step).toBe(30);
    c.world.crashAt(1, (w) => w.user === "gm1" && w.documentName === "ChatMessage" && w.action === "create");
    expectCrashLog("request failed");
    tick();
    await on(c, "gm1", () => d.dungeon("round")).catch(() => null);
    await c.world.settle({ allowErrors: true });
    const claims = () => (cardOf(old, "pursuit") as { claims?: object }).claims;
    expect(Object.keys(claims() ?? {})).toHaveLength(1);
    expect(old.systemSource).toEqual({});
    await c.world.reload("gm1");
    await c.world.settle();
    expect(claims()).toEqual({});
    const again = await open(c, "gm1", { chaseId: r.id });
    expect((await rounds(c, "gm1", again, 1))!.step).toBe(31);
    expect(chaseCards(c.world).map((m) => [m.type, record(m).step])).toEqual([
      ["base", 30],
      ["aventure.pursuit", 31],
    ]);
    expect(createdEffects(c.world).map((e) => e.actorId)).toEqual(["aldric", "brune", "gob"]);
  });

  it("a single GM reloads mid-step: its own recovery on ready finishes the step once", async () => {
    const c = await setup({ users: [GM, PLAYER] });
    c.world.queueRolls(99, 99);
    const { d } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
    c.world.queueRolls(99, 99);
    c.world.crashAt(3, (w) => w.user === "gm1"); // after the claim and the card (applying), before the world time
    expectCrashLog("request failed");
    await on(c, "gm1", () => d.nextDay()).catch(() => null);
    await c.world.settle({ allowErrors: true });
    expect(record(chaseCards(c.world).at(-1)!).apply!.status).toBe("applying");
    await c.world.reload("gm1");
    await c.world.settle();
    expect(c.world.worldTime).toBe(86400);
    expect(timeWrites(c.world)).toHaveLength(1);
    expect(record(chaseCards(c.world).at(-1)!).apply).toMatchObject({ status: "applied", resumed: true });
  });
});

// -------------------------------------------------------------------------------------------------------------------

describe("the chase survives a reload (state on the GM's cards)", () => {
  it("a new dialog resumes the newest unfinished chase from the chat log and goes on", async () => {
    const c = await setup();
    c.world.queueRolls(99, 99, 98, 97);
    const { d } = await gmChase(c, ["tA", "g1"], { place: "outdoors" });
    const r2 = await on(c, "gm1", () => d.nextDay());
    await c.world.reload("gm1");
    const again = await open(c, "gm1", { tokens: [] });
    expect(await html(c, "gm1", again)).toContain('data-action="resume"');
    await on(c, "gm1", () => again.resume());
    expect(again.chase).toEqual(r2);
    expect(again.setup.place).toBe("outdoors");
    c.world.queueRolls(1);
    const r3 = await on(c, "gm1", () => again.nextDay());
    expect(r3!.outdoors!.day).toBe(3);
    expect(r3!.over).toBe(true);
    expect(await html(c, "gm1", await open(c, "gm1", { tokens: [] }))).not.toContain('data-action="resume"');
  });

  it("renders in French", async () => {
    const c = await setup({ lang: "fr" });
    const d = await open(c, "gm1", { tokens: tokenDocs(c, "tA", "g1") });
    await on(c, "gm1", () => d.change("place", "outdoors"));
    await on(c, "gm1", () => d.change("groups.party.count", "4"));
    await on(c, "gm1", () => d.change("groups.opponents.count", "2"));
    expect(d.lastHTML.replaceAll("&nbsp;", "\u00a0")).toContain("Chance de s’échapper\u00a0: 70\u00a0%");
    c.world.queueRolls(10);
    await on(c, "gm1", () => d.start());
    expect(chaseCards(c.world)[0]!.content).toContain("Ils s’échappent\u202f!");
  });
});
