/**
 * Ambient detection (issue 15, RULES.md §6 "Ambient detection") and the Obscurity region behaviour (issue 13 item 11)
 * against the test world: scenes with AmbientLight, Wall (doors) and Region documents, each client drawing its own
 * canvas, the GM's card with Reveal / Ignore through the trusted request channel, two GMs, reloads, crashes, attacks,
 * and the work counted (only the pairs of what changed are evaluated). Grid: 100 px squares of 1.5 m. The torch at
 * (10, 10): bright 6 m (4 squares), dim 12 m (8 squares); night underground (no global light).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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
  viewScene,
  type FakeActor,
  type FakeChatMessage,
  type FakeScene,
  type FakeToken,
  type FakeWorld,
  type UserSpec,
} from "../world/index.js";
import { useClientTimers } from "../world/timers.js";
import { PairEvaluator, evaluatePairsNaive, newCounters } from "../../src/light/detection-pairs.js";
import { detectionChanges } from "../../src/rules/detection.js";
import { detectionCardContext, searchCardContext, hideEndCardContext } from "../../src/light/hide-card-context.js";
import { lightHudContext } from "../../src/light/light-hud-context.js";
import { detectionScene, moveToken as benchMove } from "../../bench/detection-scene.js";
import { cardOf as cardState, cardsOf } from "./card-state.js";
import { expectRequestCrashLogs } from "./crash-logs.js";

type Report = { evaluated: number; judged: number; noticed: string[]; skipped: { tokenId: string; reason: string }[] };
type Api = {
  hide(
    token: unknown,
    options?: { observers?: string[]; searching?: string[] },
  ): Promise<{ dc: number; hiddenFrom: string[]; hidden: boolean } | { proposed: true } | null | undefined>;
  setSearching(token: unknown, searching?: boolean): Promise<boolean | undefined>;
  lightAt(token: unknown): { level: string; obscurity: string; perceived: string; effect: string } | null;
  refreshLight(): Promise<void>;
  checkDetection(tokenIds?: string[] | null, options?: { again?: boolean }): Promise<Report | null | undefined>;
};
type Detection = { counters: { evaluations: number; sightTests: number } };

const load = async () => ({
  ...(await import("../../src/module.js")),
  detection: (await import("../../src/light/detection.js")).ambientDetection,
});

const USERS: UserSpec[] = [GM, GM2, PLAYER, PLAYER2];

// Each test boots a world of up to four clients, each loading its own module: on a loaded machine that takes seconds.
vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => useClientTimers());
afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
});

async function night(
  opts: { users?: UserSpec[]; system?: string; walls?: [number, number, number, number, number?][] } = {},
) {
  const world = await bootWorld({ system: opts.system ?? "dnd5e", users: opts.users ?? USERS, load });
  const scene = world.addScene({ _id: "scene1", darkness: 1, globalLight: false });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  for (const [x1, y1, x2, y2, door] of opts.walls ?? []) {
    await world.as("gm1", () =>
      scene.createEmbeddedDocuments("Wall", [{ c: [x1, y1, x2, y2], door: door ?? 0, ds: 0 }]),
    );
  }
  await world.as("gm1", () =>
    scene.createEmbeddedDocuments(
      "AmbientLight",
      [{ _id: "torch", x: 1000, y: 1000, config: { bright: 6, dim: 12 } }],
      { keepId: true },
    ),
  );
  await world.settle();
  return { world, scene };
}

/** A token whose centre is at (x, y) grid squares. */
function addToken(
  world: FakeWorld,
  scene: FakeScene,
  d: { id: string; name: string; at: [number, number]; actor?: FakeActor; disposition?: number; elevation?: number },
): FakeToken {
  return world.addToken(scene, {
    _id: d.id,
    name: d.name,
    x: d.at[0] * 100 - 50,
    y: d.at[1] * 100 - 50,
    elevation: d.elevation ?? 0,
    actorId: d.actor?.id ?? null,
    actorLink: true,
    disposition: d.disposition ?? -1,
    sight: { enabled: false, range: 0, visionMode: "basic" }, // a monster's vision is usually off: it still notices
    detectionModes: [],
  });
}

function actor(
  world: FakeWorld,
  d: { id: string; name: string; passive?: number; owner?: string; darkvision?: number },
): FakeActor {
  return addDnd5eActor(world, {
    id: d.id,
    name: d.name,
    owner: d.owner,
    passive: d.passive ?? 10,
    darkvision: d.darkvision,
  });
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const as = <T>(world: FakeWorld, user: string, fn: (a: Api) => Promise<T>) =>
  world.as(user, () => fn(api(world, user)));
const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const moveTo = (world: FakeWorld, token: FakeToken, at: [number, number]) =>
  world.as("gm1", () => token.update({ x: at[0] * 100 - 50, y: at[1] * 100 - 50 }));
const detectionOf = (world: FakeWorld, user: string) =>
  (world.clientOf(user).exports as unknown as { detection: Detection }).detection;
/** A token's hiding state: on its scene (GM-written), never on the token. */
const hideFlag = (t: FakeToken) =>
  (
    t.scene.getFlag("aventure", "hides") as
      Record<string, { dc: number; from: string[]; seenBy?: string[] }> | undefined
  )?.[t.id];
/** A GM (a macro) writes a token's hiding state on its scene. */
const setHide = (t: FakeToken, entry: Record<string, unknown>) =>
  t.scene.update({ flags: { aventure: { hides: { [t.id]: entry } } } });
const cards = (world: FakeWorld) => cardsOf(world.messages.contents, "detect");
/** The GM card that lists the 0.1.0 hiding states and searching marks it did not carry over. */
const legacyCards = (world: FakeWorld) =>
  world.messages.filter(
    (m) => (m.flags.aventure as { legacyHiding?: unknown } | undefined)?.legacyHiding !== undefined,
  );
const cardOf = (m: FakeChatMessage) =>
  cardState(m, "detect") as {
    rows: { status: string; ended?: boolean }[];
    op?: { status: string; resumed?: boolean } | null;
  };
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
const hiding = (a: FakeActor) => a.statuses.has("hiding");
const buttons = (world: FakeWorld, m: FakeChatMessage, user: string) =>
  [...world.renderMessage(m, user).querySelectorAll("[data-action='aventure-detect']")] as HTMLButtonElement[];
const click = (world: FakeWorld, m: FakeChatMessage, user: string, reveal: boolean, row = 0) =>
  world.click(
    user,
    buttons(world, m, user).find((b) => b.dataset.row === String(row) && b.dataset.reveal === String(reveal)) ?? null,
  );
async function tick(world: FakeWorld, ms = 500) {
  await vi.advanceTimersByTimeAsync(ms);
  await world.settle();
}
const refused = (key: string) => ({ status: "done", ok: false, key });
/** The GM reloads: its client starts from nothing, draws the scene again (canvasReady) and recomputes. */
async function reloadGM(world: FakeWorld, scene: FakeScene) {
  const client = await world.reload("gm1");
  viewScene(world, client, scene);
  world.as("gm1", () => Hooks.callAll("canvasReady", canvas));
  await tick(world);
}

/**
 * A token a GM places on the scene now (createEmbeddedDocuments: every client's createToken, the light recomputed for
 * it). A creature that arrives after a hide was not rolled against: ambient detection judges it the first time it
 * could see the hider (a creature that was there and may notice either was rolled against or knows where it is).
 */
async function arrive(
  world: FakeWorld,
  scene: FakeScene,
  d: { id: string; name: string; at: [number, number]; actor: FakeActor; disposition?: number },
): Promise<FakeToken> {
  await world.as("gm1", () =>
    scene.createEmbeddedDocuments(
      "Token",
      [
        {
          _id: d.id,
          name: d.name,
          x: d.at[0] * 100 - 50,
          y: d.at[1] * 100 - 50,
          elevation: 0,
          actorId: d.actor.id,
          actorLink: true,
          disposition: d.disposition ?? -1,
          sight: { enabled: false, range: 0, visionMode: "basic" },
          detectionModes: [],
        },
      ],
      { keepId: true },
    ),
  );
  await tick(world);
  return scene.tokens.get(d.id)!;
}

/**
 * The issue's example: Rogue (p1's, Stealth +0) hides in darkness at (10, 20) from a guard (passive 5) with a Stealth
 * total of 12; then a watcher (p2's creature, hostile to the rogue) of passive `passive` comes to stand at (16, 16): it
 * was not there when the rogue hid. The rogue then walks to (10, 16): the torch's dim light, 9 m from the watcher.
 */
async function issueExample(passive: number, users: UserSpec[] = USERS) {
  const { world, scene } = await night({ users });
  const rogueActor = actor(world, { id: "rogue", name: "Rogue", owner: "p1" });
  const rogue = addToken(world, scene, { id: "rogue", name: "Rogue", at: [10, 20], actor: rogueActor, disposition: 1 });
  const guard = addToken(world, scene, {
    id: "guard",
    name: "Guard",
    at: [20, 20],
    actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
  });
  await as(world, "gm1", (a) => a.refreshLight());
  world.queueRolls(12);
  expect(await as(world, "gm1", (a) => a.hide("rogue", { observers: ["guard"] }))).toMatchObject({
    dc: 12,
    hiddenFrom: ["guard"],
    hidden: true,
  });
  await tick(world);
  const watcher = await arrive(world, scene, {
    id: "watcher",
    name: "Watcher",
    at: [16, 16],
    actor: actor(world, { id: "watcher", name: "Watcher", passive, owner: "p2" }),
  });
  expect(cards(world)).toEqual([]); // in the darkness nobody notices anything
  await moveTo(world, rogue, [10, 16]);
  await tick(world);
  return { world, scene, rogue, rogueActor, guard, watcher };
}

describe("ambient detection: the issue's example (RULES.md §6)", () => {
  it("a hider walking out of darkness into a torch's dim light past a watcher with passive 17 vs Stealth 12: the GMs are asked", async () => {
    const { world, rogue, rogueActor } = await issueExample(17);
    expect(api(world).lightAt("rogue")!.level).toBe("dim");
    const [card] = cards(world);
    expect(card!.author!.id).toBe("gm1");
    expect(card!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(card!.content).toContain("Watcher notices Rogue (passive 17 vs Stealth 12, dim light −5)");
    // Nothing is revealed before a GM decides, and neither player is told.
    expect(hideFlag(rogue)).toMatchObject({ dc: 12, from: ["guard"], seenBy: [] });
    expect(hiding(rogueActor)).toBe(true);
    expect(world.visibleMessages("p1")).not.toContain(card);
    expect(world.visibleMessages("p2")).not.toContain(card);
    expect(buttons(world, card!, "gm2").map((b) => b.textContent!.trim())).toEqual(["Reveal", "Ignore"]);
    expect(buttons(world, card!, "p2")).toEqual([]);
  });

  it("the same with passive 16 (16 − 5 < 12): nothing", async () => {
    const { world, rogue } = await issueExample(16);
    expect(cards(world)).toEqual([]);
    expect(hideFlag(rogue)).toMatchObject({ from: ["guard"], seenBy: [] });
    // In the torch's bright light 16 ≥ 12: now it is noticed.
    await moveTo(world, rogue, [10, 13]);
    await tick(world);
    expect(cards(world).map((m) => m.content)).toEqual([
      expect.stringContaining("Watcher notices Rogue (passive 16 vs Stealth 12)"),
    ]);
  });

  it("Reveal (a second GM's click): the watcher knows where the rogue is, which stays hidden from the guard; that pair is not judged again", async () => {
    const { world, rogue, rogueActor, watcher } = await issueExample(17);
    const [card] = cards(world);
    click(world, card!, "gm2", true);
    await world.settle();
    expect(hideFlag(rogue)).toMatchObject({ dc: 12, from: ["guard"], seenBy: ["watcher"] });
    expect(hiding(rogueActor)).toBe(true);
    expect(cardOf(card!).rows[0]!.status).toBe("revealed");
    expect(cardOf(card!).op).toMatchObject({ status: "applied" });
    expect(card!.content).toContain("Revealed: Watcher now knows where Rogue is.");
    expect(buttons(world, card!, "gm1")).toEqual([]);
    // The watcher knows: moving either of them changes nothing any more.
    await moveTo(world, rogue, [10, 13]);
    await moveTo(world, watcher, [14, 16]);
    await tick(world);
    expect(cards(world)).toHaveLength(1);
  });

  it("Ignore: not asked again while nothing changes; asked again when the rogue steps into bright light", async () => {
    const { world, rogue } = await issueExample(17);
    const [card] = cards(world);
    click(world, card!, "gm1", false);
    await world.settle();
    expect(cardOf(card!).rows[0]!.status).toBe("ignored");
    expect(card!.content).toContain("Ignored by the GM");
    await moveTo(world, rogue, [11, 16]); // still dim, still in view: the same conditions
    await tick(world);
    await as(world, "gm1", (a) => a.refreshLight());
    expect(cards(world)).toHaveLength(1);
    await moveTo(world, rogue, [10, 13]); // bright light: a change
    await tick(world);
    expect(cards(world)).toHaveLength(2);
    expect(cards(world)[1]!.content).toContain("Watcher notices Rogue (passive 17 vs Stealth 12)");
  });

  it("while a notice waits for the GMs, the same pair is not asked again even if its conditions change; revealed, never again", async () => {
    const { world, rogue } = await issueExample(17);
    await moveTo(world, rogue, [10, 13]);
    await tick(world);
    expect(cards(world)).toHaveLength(1);
    click(world, cards(world)[0]!, "gm1", true);
    await world.settle();
    await as(world, "gm1", (a) => a.checkDetection());
    expect(cards(world)).toHaveLength(1);
  });

  it("Reveal automatically: the creature it hid from notices it when its passive Perception rises, and the hiding ends", async () => {
    const { world, rogue, rogueActor } = await issueExample(10);
    await set(world, "detectionMode", "auto");
    // The guard (passive 5, the only one the rogue hid from) gets passive 20 and walks up: bright enough, in view.
    await world.as("gm1", () => world.actors.get("guard")!.update({ "system.skills.prc.passive": 20 }));
    await tick(world);
    const [card] = cards(world);
    expect(card!.content).toContain("Guard notices Rogue (passive 20 vs Stealth 12, dim light −5)");
    expect(card!.content).toContain("Revealed: Rogue is hidden from no one any more, the hiding ends.");
    expect(cardOf(card!).rows[0]).toMatchObject({ status: "revealed", ended: true });
    expect(cardOf(card!).op).toMatchObject({ status: "applied" });
    expect(hideFlag(rogue)).toBeUndefined();
    expect(hiding(rogueActor)).toBe(false);
    expect(buttons(world, card!, "gm1")).toEqual([]);
  });

  it("Reveal automatically: two observers it hid from and a third one notice it in the same pass; the hiding ends once", async () => {
    const { world, scene } = await night();
    await set(world, "detectionMode", "auto");
    const rogueActor = actor(world, { id: "rogue", name: "Rogue" });
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [10, 20],
      actor: rogueActor,
      disposition: 1,
    });
    for (const [id, x] of [
      ["g1", 14],
      ["g2", 6],
      ["g3", 10],
    ] as const)
      addToken(world, scene, {
        id,
        name: id.toUpperCase(),
        at: [x, 16],
        actor: actor(world, { id, name: id.toUpperCase(), passive: 20 }),
      });
    await as(world, "gm1", (a) => a.refreshLight());
    // Hidden from both with Stealth 12 (written by the GM), in the dark: nobody notices.
    await world.as("gm1", () =>
      setHide(rogue, { dc: 12, from: ["g1", "g2"], because: {}, light: "dark", x: 0, y: 0, seenBy: [] }),
    );
    await tick(world);
    expect(cards(world)).toEqual([]);
    await moveTo(world, rogue, [10, 13]);
    await tick(world);
    const [card] = cards(world);
    expect(cardOf(card!).rows.map((r) => r.status)).toEqual(["revealed", "revealed", "revealed"]);
    expect(cardOf(card!).op).toMatchObject({ status: "applied" });
    expect((cardOf(card!).op as unknown as { changes: { after: unknown }[] }).changes).toEqual([
      expect.objectContaining({ after: null }),
    ]);
    expect(hideFlag(rogue)).toBeUndefined();
  });

  it("off: no passive check; hiding ends when an observer it hid from sees it, as before", async () => {
    const { world, rogue } = await issueExample(17);
    const before = cards(world).length;
    await set(world, "detectionMode", "off");
    await moveTo(world, rogue, [18, 20]); // the guard's view, in the dark: still hidden
    await tick(world);
    expect(hideFlag(rogue)).toBeDefined();
    await moveTo(world, rogue, [10, 15]);
    await tick(world);
    expect(hideFlag(rogue)).toBeUndefined();
    expect(cards(world)).toHaveLength(before);
    expect(world.messages.contents.at(-1)!.content).toContain("against DC 12");
  });
});

describe("ambient detection: who notices, and what changes a pair", () => {
  it("a searching observer rolls instead, in secret, with disadvantage in dim light, once per change, not again after a reload", async () => {
    const { world, scene } = await night();
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [10, 20],
      actor: actor(world, { id: "rogue", name: "Rogue", owner: "p1" }),
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [20, 20],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
    });
    const watcherActor = actor(world, { id: "watcher", name: "Watcher", passive: 1, owner: "p2" });
    await as(world, "gm1", (a) => a.refreshLight());
    world.queueRolls(12);
    await as(world, "gm1", (a) => a.hide("rogue", { observers: ["guard"] }));
    await arrive(world, scene, { id: "watcher", name: "Watcher", at: [16, 16], actor: watcherActor });
    expect(await as(world, "gm1", (a) => a.setSearching("watcher"))).toBe(true); // nothing hidden from it yet: no roll
    await tick(world);
    const calls = () =>
      (
        watcherActor as unknown as {
          rollCalls: { config: { disadvantage?: boolean }; message: { create?: boolean } }[];
        }
      ).rollCalls;
    expect(calls()).toEqual([]);
    const rollsMark = world.messages.contents.length; // the rogue's own Stealth roll went to the GMs and p1
    const publicRolls = () =>
      world.messages.contents.slice(rollsMark).filter((m) => m.rolls.length && !m.whisper.length).length;
    world.queueRolls(15, 8); // two d20, the lowest kept: 8 < 12
    await moveTo(world, rogue, [10, 16]);
    await tick(world);
    expect(calls()).toHaveLength(1);
    expect(calls()[0]).toMatchObject({ config: { skill: "prc", disadvantage: true }, message: { create: false } });
    expect(cards(world)).toEqual([]);
    expect(publicRolls()).toBe(0);
    await moveTo(world, rogue, [11, 16]); // same conditions: no new roll
    await tick(world);
    await reloadGM(world, scene);
    expect(api(world).lightAt("rogue")!.level).toBe("dim");
    expect(calls()).toHaveLength(1);
    world.queueRolls(14); // bright light: one die, 14 ≥ 12
    await moveTo(world, rogue, [10, 13]);
    await tick(world);
    expect(calls()).toHaveLength(2);
    expect(calls()[1]!.config.disadvantage).toBeUndefined();
    const [card] = cards(world);
    expect(card!.content).toContain("Watcher notices Rogue (searching: Wisdom (Perception) 14 vs Stealth 12)");
    expect(card!.rolls).toHaveLength(1); // the roll is on the GMs' card, nowhere else
    expect(card!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(publicRolls()).toBe(0);
  });

  it("a door that opens lets an observer notice a hider in bright light behind it", async () => {
    // A door from (13, 10) to (13, 12) between the rogue by the torch and the watcher.
    const { world, scene } = await night({ walls: [[1300, 1000, 1300, 1200, 1]] });
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [11, 11],
      actor: actor(world, { id: "rogue", name: "Rogue" }),
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [30, 11],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
    });
    await as(world, "gm1", (a) => a.refreshLight());
    world.queueRolls(12);
    expect(await as(world, "gm1", (a) => a.hide("rogue", { observers: ["guard"] }))).toMatchObject({ hidden: true });
    await tick(world);
    await arrive(world, scene, {
      id: "watcher",
      name: "Watcher",
      at: [16, 11],
      actor: actor(world, { id: "watcher", name: "Watcher", passive: 17 }),
    });
    expect(cards(world)).toEqual([]);
    expect(api(world).lightAt("rogue")!.level).toBe("bright");
    const door = scene.walls.contents[0]!;
    await world.as("p1", () => door.update({ ds: 1 })); // a player opens it
    await tick(world);
    expect(cards(world).map((m) => m.content)).toEqual([
      expect.stringContaining("Watcher notices Rogue (passive 17 vs Stealth 12)"),
    ]);
    void rogue;
  });

  it("observers: friendly ↔ hostile by default, any other disposition with the setting; those that already know are left out", async () => {
    const { world, scene } = await night();
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [10, 20],
      actor: actor(world, { id: "rogue", name: "Rogue" }),
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [20, 20],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
    });
    addToken(world, scene, {
      id: "villager",
      name: "Villager",
      at: [16, 16],
      actor: actor(world, { id: "villager", name: "Villager", passive: 20 }),
      disposition: 0,
    });
    addToken(world, scene, {
      id: "friend",
      name: "Friend",
      at: [4, 16],
      actor: actor(world, { id: "friend", name: "Friend", passive: 20 }),
      disposition: 1,
    });
    await as(world, "gm1", (a) => a.refreshLight());
    world.queueRolls(12);
    await as(world, "gm1", (a) => a.hide("rogue", { observers: ["guard"] }));
    await tick(world);
    await moveTo(world, rogue, [10, 13]);
    await tick(world);
    expect(cards(world)).toEqual([]); // a neutral villager and a friend do not count by default
    await set(world, "detectionObservers", "all");
    await tick(world);
    expect(cards(world).map((m) => m.content)).toEqual([
      expect.stringContaining("Villager notices Rogue (passive 20 vs Stealth 12)"),
    ]);
  });

  it("bad input is skipped and listed in a card's footnote once, never a crash: no actor, no Stealth result, no passive Perception", async () => {
    const { world, scene } = await night();
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [10, 20],
      actor: actor(world, { id: "rogue", name: "Rogue" }),
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [20, 20],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
    });
    addToken(world, scene, { id: "statue", name: "Statue", at: [16, 16] }); // hostile, no actor
    const ghost = addToken(world, scene, {
      id: "ghost",
      name: "Ghost",
      at: [5, 25],
      actor: actor(world, { id: "ghost", name: "Ghost" }),
      disposition: 1,
    });
    await as(world, "gm1", (a) => a.refreshLight());
    world.queueRolls(12);
    await as(world, "gm1", (a) => a.hide("rogue", { observers: ["guard"] }));
    // A hide flag without its Stealth result (written by hand).
    await world.as("gm1", () => setHide(ghost, { from: ["guard"], because: {}, light: "dark", x: 0, y: 0 }));
    await tick(world);
    const [card] = cards(world);
    expect(card!.content).toContain("Left out: ");
    expect(card!.content).toContain("Ghost (no Stealth result)");
    expect(card!.content).toContain("Statue (no actor)");
    await moveTo(world, rogue, [10, 16]);
    await tick(world);
    expect(cards(world)).toHaveLength(1); // listed once
    const report = await as(world, "gm1", (a) => a.checkDetection());
    expect(report!.skipped).toEqual(
      expect.arrayContaining([
        { tokenId: "ghost", reason: "noStealth" },
        { tokenId: "statue", reason: "noActor" },
      ]),
    );
  });

  it("a world whose actors have no passive Perception (generic system without that data path): listed, nothing else happens", async () => {
    const { world, scene } = await night({ system: "worldbuilding", users: [GM] });
    const make = (id: string) => world.addUserActor({ _id: id, name: id, type: "character", system: {} });
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [10, 20],
      actor: make("rogue"),
      disposition: 1,
    });
    addToken(world, scene, { id: "watcher", name: "Watcher", at: [16, 16], actor: make("watcher") });
    await world.as("gm1", () => setHide(rogue, { dc: 12, from: ["watcher"], because: {}, light: "dark", x: 0, y: 0 }));
    await tick(world);
    await moveTo(world, rogue, [10, 13]);
    await tick(world);
    expect(cards(world).map((m) => m.content)).toEqual([expect.stringContaining("Watcher (no passive Perception)")]);
    expect(hideFlag(rogue)).toBeDefined();
  });

  it("counts the work: a move evaluates only that token's pairs; nothing runs on a player's client or a second GM's", async () => {
    const { world, scene } = await night();
    const hiders = [0, 1].map((i) =>
      addToken(world, scene, {
        id: `h${i}`,
        name: `H${i}`,
        at: [10 + i, 22],
        actor: actor(world, { id: `h${i}`, name: `H${i}` }),
        disposition: 1,
      }),
    );
    const observers = [0, 1, 2].map((i) =>
      addToken(world, scene, {
        id: `o${i}`,
        name: `O${i}`,
        at: [20 + i, 22],
        actor: actor(world, { id: `o${i}`, name: `O${i}`, passive: 5 }),
      }),
    );
    for (const h of hiders)
      await world.as("gm1", () =>
        setHide(h, { dc: 15, from: ["o0", "o1", "o2"], because: {}, light: "dark", x: 0, y: 0, seenBy: [] }),
      );
    await as(world, "gm1", (a) => a.refreshLight());
    await tick(world);
    const gm = detectionOf(world, "gm1");
    let mark = gm.counters.evaluations;
    await moveTo(world, observers[0]!, [20, 23]);
    await tick(world);
    expect(gm.counters.evaluations - mark).toBe(2); // o0 against each hider
    mark = gm.counters.evaluations;
    await moveTo(world, hiders[1]!, [11, 23]);
    await tick(world);
    expect(gm.counters.evaluations - mark).toBe(3); // h1 against each observer
    mark = gm.counters.evaluations;
    await as(world, "gm1", (a) => a.checkDetection()); // a full pass: nothing changed, nothing computed again
    expect(gm.counters.evaluations - mark).toBe(0);
    await as(world, "gm1", (a) => a.checkDetection(null, { again: true })); // forgotten: every pair again
    expect(gm.counters.evaluations - mark).toBe(6);
    for (const u of ["gm2", "p1", "p2"]) expect(detectionOf(world, u).counters.evaluations, u).toBe(0);
    expect(world.clientOf("gm1").hooks.registered()).not.toContain("refreshToken"); // never per frame
  });

  it("checkDetection: a second GM's call runs on the active GM; a player is refused; `again` judges anew", async () => {
    const { world } = await issueExample(17);
    expect(cards(world)).toHaveLength(1);
    click(world, cards(world)[0]!, "gm1", false);
    await world.settle();
    const report = await as(world, "gm2", (a) => a.checkDetection());
    expect(report).toMatchObject({ judged: 0, noticed: [] });
    expect(await as(world, "p1", (a) => a.checkDetection())).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["Only a GM can do this."]);
    expect(await as(world, "gm2", (a) => a.checkDetection(["watcher"], { again: true }))).toMatchObject({
      noticed: ["watcher|rogue"],
    });
    expect(cards(world)).toHaveLength(2);
  });
});

describe("ambient detection: two GMs, reloads, crashes", () => {
  it("two GMs click Reveal at once: revealed once, the other GM is told it was decided", async () => {
    const { world, rogue } = await issueExample(17);
    const [card] = cards(world);
    const mark = world.writes.length;
    click(world, card!, "gm1", true);
    click(world, card!, "gm2", true);
    await world.settle();
    expect(hideFlag(rogue)).toMatchObject({ seenBy: ["watcher"] });
    const hides = (w: { documentName: string; data: unknown }) =>
      w.documentName === "Scene" && JSON.stringify(w.data).includes('"hides"');
    expect(gameWrites(world, mark).filter(hides)).toHaveLength(1);
    expect(gameWrites(world, mark).filter((w) => w.documentName === "Token")).toEqual([]);
    expect([...errors(world, "gm1"), ...errors(world, "gm2")]).toEqual(["A GM already decided this notice."]);
  });

  it("only the active GM judges: one card with two GMs; after its reload the pending notice is not asked again and still answers", async () => {
    const { world, scene, rogue } = await issueExample(17);
    expect(cards(world)).toHaveLength(1);
    await reloadGM(world, scene);
    expect(api(world).lightAt("rogue")!.level).toBe("dim");
    await moveTo(world, rogue, [10, 13]);
    await tick(world);
    expect(cards(world)).toHaveLength(1);
    await tick(world);
    expect(cards(world)).toHaveLength(1);
    click(world, cards(world)[0]!, "gm1", false);
    await world.settle();
    expect(cardOf(cards(world)[0]!).rows[0]!.status).toBe("ignored");
    // What changed while it waited (bright light now) is judged once the GM answered.
    expect(cards(world)).toHaveLength(2);
    expect(cards(world)[1]!.content).toContain("Watcher notices Rogue (passive 17 vs Stealth 12)");
    click(world, cards(world)[1]!, "gm1", false);
    await world.settle();
    // Ignored, reloaded: still judged (kept on the scene), in bright light as when it was last judged.
    await reloadGM(world, scene);
    expect(api(world).lightAt("rogue")!.level).toBe("bright");
    expect(cards(world)).toHaveLength(2);
  });

  for (let k = 1; k <= 6; k++) {
    it(`a second GM's Reveal, crash of the active GM before its write ${k}: revealed once or not at all, the card says which`, async () => {
      const { world, rogue } = await issueExample(17);
      const [card] = cards(world);
      world.crashAt(k, (w) => w.user === "gm1");
      expectRequestCrashLogs(k, 4);
      click(world, card!, "gm2", true);
      await world.settle({ allowErrors: true });
      if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
      await world.settle();
      const flag = hideFlag(rogue)!;
      const row = cardOf(card!).rows[0]!;
      if (row.status === "revealed") {
        expect(flag.seenBy).toEqual(["watcher"]);
        expect(cardOf(card!).op).toMatchObject({ status: "applied" });
      } else {
        expect(row.status).toBe("pending");
        expect(flag.seenBy).toEqual([]);
      }
      expect(flag.from).toEqual(["guard"]);
    });
  }
});

describe("attacks on ambient detection (docs/security.md)", () => {
  it("a player cannot decide: refused before anything, even claiming to be a GM; a player's forged card gets no buttons and no decision", async () => {
    const { world, rogue } = await issueExample(17);
    const [card] = cards(world);
    const mark = world.writes.length;
    const claim = { userId: "gm1", isGM: true };
    expect(
      await forgeRequest(world, "p2", "detectionDecide", { messageId: card!.id, row: 0, reveal: true, ...claim }),
    ).toMatchObject(refused("AVENTURE.Error.GMOnly"));
    expect(await forgeRequest(world, "p1", "checkDetection", { again: true })).toMatchObject(
      refused("AVENTURE.Error.GMOnly"),
    );
    const forged = await forgeCard(
      world,
      "p2",
      {
        detect: {
          v: 1,
          sceneId: "scene1",
          rows: [
            {
              observerId: "watcher",
              hiderId: "rogue",
              observer: "W",
              hider: "R",
              passive: 30,
              roll: null,
              dc: 12,
              reason: "none",
              status: "pending",
              ended: false,
            },
          ],
          skipped: [],
        },
      },
      '<button data-action="aventure-detect" data-row="0" data-reveal="true">Reveal</button>',
    );
    expect(buttons(world, forged, "gm1")).toEqual([]);
    expect(
      await forgeRequest(world, "gm2", "detectionDecide", { messageId: forged.id, row: 0, reveal: true }),
    ).toMatchObject(refused("AVENTURE.Light.Detect.notPending"));
    expect(gameWrites(world, mark).filter((w) => w.documentName !== "ChatMessage" || w.user !== "p2")).toEqual([]);
    expect(hideFlag(rogue)).toMatchObject({ seenBy: [] });
  });

  it("attack: a player's own aventure.detect message with a pending row gets no buttons and no decision", async () => {
    const { world, rogue } = await issueExample(17);
    const mark = world.writes.length;
    const forged = (await world.as("p2", () =>
      ChatMessage.implementation.create({
        content: '<button data-action="aventure-detect" data-row="0" data-reveal="true">Reveal</button>',
        type: "aventure.detect",
        system: {
          v: 1,
          sceneId: "scene1",
          rows: [
            {
              observerId: "watcher",
              hiderId: "rogue",
              observer: "W",
              hider: "R",
              passive: 30,
              roll: null,
              dc: 12,
              reason: "none",
              status: "pending",
              ended: false,
            },
          ],
          skipped: [],
        },
      } as never),
    )) as unknown as FakeChatMessage;
    expect(forged.type).toBe("aventure.detect");
    expect(buttons(world, forged, "gm1")).toEqual([]);
    expect(
      await forgeRequest(world, "gm2", "detectionDecide", { messageId: forged.id, row: 0, reveal: true }),
    ).toMatchObject(refused("AVENTURE.Light.Detect.notPending"));
    expect(gameWrites(world, mark).filter((w) => w.documentName !== "ChatMessage" || w.user !== "p2")).toEqual([]);
    expect(hideFlag(rogue)).toMatchObject({ seenBy: [] });
  });

  it("attack: a forged checkDetection with wrong-typed or oversized values is refused by its model; nothing is written", async () => {
    const { world } = await issueExample(17);
    const mark = world.writes.length;
    const bad: [unknown, string][] = [
      [{ tokenIds: "watcher" }, "AVENTURE.Error.UnknownValue"],
      [{ tokenIds: [42] }, "AVENTURE.Error.UnknownValue"],
      [{ tokenIds: ["w".repeat(5000)] }, "AVENTURE.Error.UnknownValue"],
      [{ tokenIds: Array.from({ length: 5000 }, (_, i) => `t${i}`) }, "AVENTURE.Error.UnknownValue"],
      [{ tokenIds: null, again: "yes" }, "AVENTURE.Error.Missing"],
      [{ again: 1 }, "AVENTURE.Error.Missing"],
    ];
    for (const [data, key] of bad)
      expect(await forgeRequest(world, "gm2", "checkDetection", data), JSON.stringify(data).slice(0, 60)).toMatchObject(
        refused(key),
      );
    expect(gameWrites(world, mark)).toEqual([]);
  });

  it("malformed decisions and replays are refused; a row is decided once", async () => {
    const { world, rogue } = await issueExample(17);
    const [card] = cards(world);
    const notPending = "AVENTURE.Light.Detect.notPending";
    const bad: [unknown, string][] = [
      [null, notPending],
      [{ messageId: card!.id }, notPending],
      [{ messageId: card!.id, row: 1, reveal: true }, notPending],
      [{ messageId: card!.id, row: -1, reveal: true }, notPending],
      [{ messageId: card!.id, row: "0", reveal: true }, notPending],
      [{ messageId: card!.id, row: [0], reveal: true }, notPending],
      [{ messageId: card!.id, row: 0.5, reveal: true }, notPending],
      [{ messageId: card!.id, row: 0, reveal: "yes" }, "AVENTURE.Error.Missing"],
      [{ messageId: card!.id, row: 0, reveal: 1 }, "AVENTURE.Error.Missing"],
      [{ messageId: "nosuchmessage1", row: 0, reveal: "yes" }, notPending],
      [{ messageId: "not an id!", row: 0, reveal: true }, notPending],
      [{ messageId: "m".repeat(5000), row: 0, reveal: true }, notPending],
      [{ messageId: "nosuchmessage1", row: 0, reveal: true }, notPending],
    ];
    const mark = world.writes.length;
    for (const [data, key] of bad)
      expect(await forgeRequest(world, "gm2", "detectionDecide", data), JSON.stringify(data)).toMatchObject(
        refused(key),
      );
    expect(gameWrites(world, mark)).toEqual([]);
    expect(
      await forgeRequest(
        world,
        "gm2",
        "detectionDecide",
        { messageId: card!.id, row: 0, reveal: true },
        "replayedDecide1",
      ),
    ).toMatchObject({ ok: true, result: { status: "revealed" } });
    expect(
      await forgeRequest(
        world,
        "gm2",
        "detectionDecide",
        { messageId: card!.id, row: 0, reveal: true },
        "replayedDecide1",
      ),
    ).toMatchObject(refused("AVENTURE.Request.replayed"));
    expect(
      await forgeRequest(world, "gm2", "detectionDecide", { messageId: card!.id, row: 0, reveal: false }),
    ).toMatchObject(refused("AVENTURE.Light.Detect.alreadyDecided"));
    expect(hideFlag(rogue)).toMatchObject({ seenBy: ["watcher"] });
  });

  it("a player who marks their own token as searching by hand gets no Perception roll and reveals nothing; the real marks are GM-only", async () => {
    // The reviewer's repro: auto reveal; the GM's goblin hides (Stealth 18) from the guard only; p2's watcher
    // (passive 1, never marked by a GM) toggles the old token flag six times, the sixth roll would be a 19.
    const { world, scene } = await night();
    await set(world, "detectionMode", "auto");
    const gob = addToken(world, scene, {
      id: "gob",
      name: "Goblin",
      at: [10, 20],
      actor: actor(world, { id: "gob", name: "Goblin" }),
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [20, 20],
      actor: actor(world, { id: "guard", name: "Guard", passive: 1, owner: "p1" }),
      disposition: 1,
    });
    const watcherActor = actor(world, { id: "watcher", name: "Watcher", passive: 1, owner: "p2" });
    await as(world, "gm1", (a) => a.refreshLight());
    world.queueRolls(18);
    expect(await as(world, "gm1", (a) => a.hide("gob", { observers: ["guard"] }))).toMatchObject({
      dc: 18,
      hiddenFrom: ["guard"],
      hidden: true,
    });
    await tick(world);
    const watcher = await arrive(world, scene, {
      id: "watcher",
      name: "Watcher",
      at: [14, 13],
      actor: watcherActor,
      disposition: 1,
    });
    await moveTo(world, gob, [10, 13]); // the torch's bright light, in the watcher's view
    await tick(world);
    const calls = () => (watcherActor as unknown as { rollCalls: unknown[] }).rollCalls;
    const before = world.messages.contents.length;
    for (let i = 0; i < 6; i++) {
      world.queueRolls(i < 5 ? 2 : 19);
      await world.as("p2", () => watcher.setFlag("aventure", "searching", true));
      await tick(world);
      await world.as("p2", () => watcher.unsetFlag("aventure", "searching"));
      await tick(world);
    }
    expect(calls()).toEqual([]);
    expect(world.messages.contents.length).toBe(before);
    expect(hideFlag(gob)).toMatchObject({ from: ["guard"], seenBy: [] });
    // Nor does the player's flag count as a mark anywhere else: the HUD, a hide's default searchers.
    await world.as("p2", () => watcher.setFlag("aventure", "searching", true));
    await tick(world);
    const hud = world.renderTokenHUD(watcher, "gm1");
    expect(hud.querySelector(".aventure-light-searching")).toBeNull();
    expect(hud.querySelector("[data-action='aventure-stop-search']")).toBeNull();
    // The marks live on the scene, which players may not write: forging them is refused by Foundry.
    await expect(world.as("p2", () => scene.setFlag("aventure", "searching", { watcher: true }))).rejects.toThrow(
      /lacks permission/,
    );
    await expect(world.as("p2", () => scene.update({ "flags.aventure.searching.watcher": true }))).rejects.toThrow(
      /lacks permission/,
    );
    expect(scene.getFlag("aventure", "searching")).toBeUndefined();
    expect(calls()).toEqual([]);
  });

  it("a player toggling their own token cannot make the GM roll again and again for a searching pair (a passive the rules ignore)", async () => {
    const { world, scene } = await night();
    const gob = addToken(world, scene, {
      id: "gob",
      name: "Goblin",
      at: [10, 20],
      actor: actor(world, { id: "gob", name: "Goblin" }),
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [20, 20],
      actor: actor(world, { id: "guard", name: "Guard", passive: 1 }),
      disposition: 1,
    });
    const watcherActor = actor(world, { id: "watcher", name: "Watcher", passive: 1, owner: "p2" });
    await as(world, "gm1", (a) => a.refreshLight());
    world.queueRolls(18);
    await as(world, "gm1", (a) => a.hide("gob", { observers: ["guard"] }));
    await tick(world);
    const watcher = await arrive(world, scene, {
      id: "watcher",
      name: "Watcher",
      at: [14, 13],
      actor: watcherActor,
      disposition: 1,
    });
    await moveTo(world, gob, [10, 13]);
    await tick(world);
    world.queueRolls(3);
    expect(await as(world, "gm2", (a) => a.setSearching("watcher"))).toBe(true); // marked by a GM: one roll (3 < 18)
    await tick(world);
    expect(scene.getFlag("aventure", "searching")).toEqual({ watcher: true });
    const calls = () => (watcherActor as unknown as { rollCalls: unknown[] }).rollCalls;
    const rolled = calls().length;
    expect(rolled).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 4; i++) {
      world.queueRolls(19);
      // The player edits their creature's passive Perception and toggles the old token flag: a searching observer
      // rolls, its passive score is not part of its judgement.
      await world.as("p2", () => watcherActor.update({ "system.skills.prc.passive": 5 + i }));
      await world.as("p2", () => watcher.setFlag("aventure", "searching", i % 2 === 0));
      await tick(world);
    }
    expect(calls()).toHaveLength(rolled);
    expect(hideFlag(gob)).toMatchObject({ from: ["guard"] });
  });

  it("the 0.1.0 searching marks on tokens are dropped once by the active GM (a token records nobody as their writer), the GMs told; a token flag written later marks nothing", async () => {
    const { world, scene } = await night();
    const old = (id: string, searching: unknown) =>
      world.addToken(scene, {
        _id: id,
        name: id,
        x: 50,
        y: 50,
        elevation: 0,
        actorId: null,
        actorLink: true,
        disposition: 1,
        flags: { aventure: { searching } },
      });
    old("marked", true);
    old("junk", "yes");
    const get = () => world.as("gm1", () => game.settings.get("aventure" as never, "searchingMarksMigrated" as never));
    await set(world, "searchingMarksMigrated", false); // a world saved by 0.1.0: booted before these tokens existed
    await world.reload("gm1"); // the active GM's ready: the recoveries, the migration among them
    await world.settle();
    expect(scene.getFlag("aventure", "searching")).toBeUndefined();
    expect(scene.tokens.get("marked")!.getFlag("aventure", "searching")).toBeUndefined();
    expect(scene.tokens.get("junk")!.getFlag("aventure", "searching")).toBeUndefined();
    expect(get()).toBe(true);
    const told = legacyCards(world);
    expect(told).toHaveLength(1);
    expect(told[0]!.author!.id).toBe("gm1");
    expect(told[0]!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(told[0]!.content).toContain("marked: searching");
    expect(told[0]!.content).not.toContain("junk");
    // Once only: a flag a player writes afterwards is neither read nor moved on the next reload.
    const watcher = addToken(world, scene, {
      id: "watcher",
      name: "Watcher",
      at: [14, 13],
      actor: actor(world, { id: "watcher", name: "Watcher", owner: "p2" }),
      disposition: 1,
    });
    await world.as("p2", () => watcher.setFlag("aventure", "searching", true));
    const mark = world.writes.length;
    await world.reload("gm1");
    await world.settle();
    expect(scene.getFlag("aventure", "searching")).toBeUndefined();
    expect(gameWrites(world, mark)).toEqual([]);
    await expect(
      world.as("p2", () => game.settings.set("aventure" as never, "searchingMarksMigrated" as never, false as never)),
    ).rejects.toThrow(/lacks permission/);
  });

  it("a player's console cannot change their hider's state: a hide flag on the token (DC 99, no `from`, `seenBy`) is not read, judges nothing again, and the scene's entry is GM-only", async () => {
    const { world, scene } = await night();
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [10, 20],
      actor: actor(world, { id: "rogue", name: "Rogue", owner: "p1" }),
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [20, 20],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
    });
    await as(world, "gm1", (a) => a.refreshLight());
    world.queueRolls(12);
    expect(await as(world, "gm1", (a) => a.hide("rogue", { observers: ["guard"] }))).toMatchObject({
      dc: 12,
      hidden: true,
    });
    await tick(world);
    await arrive(world, scene, {
      id: "watcher",
      name: "Watcher",
      at: [16, 16],
      actor: actor(world, { id: "watcher", name: "Watcher", passive: 17, owner: "p2" }),
    });
    const entry = hideFlag(rogue)!;
    expect(entry).toMatchObject({ dc: 12, from: ["guard"] });
    // From the console, the hider's owner raises its DC, empties `from`, fills `seenBy`, toggles the flag off and on.
    const mark = world.writes.length;
    const forged = [
      { ...entry, dc: 99 },
      { ...entry, from: [] },
      { ...entry, seenBy: ["watcher", "guard"] },
      null,
      { ...entry, dc: 99, from: [], seenBy: ["watcher"] },
    ];
    for (const f of forged) {
      await world.as("p1", () => (f ? rogue.setFlag("aventure", "hide", f) : rogue.unsetFlag("aventure", "hide")));
      await tick(world);
    }
    // Nothing judged again, nothing written by anyone else; the state on the scene is the GM's.
    expect(gameWrites(world, mark).filter((w) => w.user !== "p1")).toEqual([]);
    expect(cards(world)).toEqual([]);
    expect(hideFlag(rogue)).toEqual(entry);
    // The scene's entry: only GMs may write a scene.
    await expect(
      world.as("p1", () => scene.setFlag("aventure", "hides", { rogue: { ...entry, dc: 99 } })),
    ).rejects.toThrow(/lacks permission/);
    await expect(
      world.as("p1", () => scene.update({ flags: { aventure: { hides: { "-=rogue": null } } } })),
    ).rejects.toThrow(/lacks permission/);
    await expect(world.as("p1", () => scene.update({ "flags.aventure.hides.rogue.from": [] }))).rejects.toThrow(
      /lacks permission/,
    );
    expect(hideFlag(rogue)).toEqual(entry);
    // Walking into the torch's dim light past the watcher (passive 17): noticed against the DC the GM rolled, 12.
    await moveTo(world, rogue, [10, 16]);
    await tick(world);
    expect(cards(world)).toHaveLength(1);
    expect(cardOf(cards(world)[0]!).rows).toEqual([
      expect.objectContaining({ observerId: "watcher", hiderId: "rogue", dc: 12, status: "pending" }),
    ]);
  });

  it("the 0.1.0 hide flags on tokens are dropped once by the active GM (with the searching marks), the GMs told; a token flag written later hides nothing", async () => {
    const { world, scene } = await night();
    const old = (id: string, hide: unknown) =>
      world.addToken(scene, {
        _id: id,
        name: id,
        x: 50,
        y: 50,
        elevation: 0,
        actorId: null,
        actorLink: true,
        disposition: 1,
        flags: { aventure: { hide } },
      });
    const kept = { dc: 14, from: ["guard"], because: { guard: "darkness" }, light: "dark", seenBy: [], x: 50, y: 50 };
    old("hider", kept);
    old("junk", { dc: "high", from: "everyone" });
    const get = () => world.as("gm1", () => game.settings.get("aventure" as never, "searchingMarksMigrated" as never));
    await set(world, "searchingMarksMigrated", false); // a world saved by 0.1.0: booted before these tokens existed
    await world.reload("gm1");
    await world.settle();
    expect(scene.getFlag("aventure", "hides")).toBeUndefined();
    expect(hideFlag(scene.tokens.get("hider")!)).toBeUndefined();
    expect(scene.tokens.get("hider")!.getFlag("aventure", "hide")).toBeUndefined();
    expect(scene.tokens.get("junk")!.getFlag("aventure", "hide")).toBeUndefined();
    expect(get()).toBe(true);
    const told = legacyCards(world);
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toContain("hider: hidden (Stealth DC 14)");
    // Once only: a hide flag a player writes on their token afterwards is neither read nor moved on the next reload.
    const sneak = addToken(world, scene, {
      id: "sneak",
      name: "Sneak",
      at: [14, 13],
      actor: actor(world, { id: "sneak", name: "Sneak", owner: "p2" }),
      disposition: 1,
    });
    await world.as("p2", () => sneak.setFlag("aventure", "hide", { ...kept, dc: 99 }));
    const mark = world.writes.length;
    await world.reload("gm1");
    await world.settle();
    expect(scene.getFlag("aventure", "hides")).toBeUndefined();
    expect(hideFlag(sneak)).toBeUndefined();
    expect(gameWrites(world, mark)).toEqual([]);
  });

  it("attack (issue 20 item 9): a player who logs in before any GM's first ready on this version plants a DC 99 hide and a searching mark on their own token: nothing becomes GM state", async () => {
    const { world, scene } = await night();
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [10, 20],
      actor: actor(world, { id: "rogue", name: "Rogue", owner: "p1" }),
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [20, 20],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
    });
    await set(world, "searchingMarksMigrated", false); // the world as 0.1.0 left it: no GM has been ready on this version yet
    // From the console, the rogue's owner writes what 0.1.0 kept on tokens: Foundry lets the owner write the token.
    await world.as("p1", () =>
      rogue.setFlag("aventure", "hide", {
        dc: 99,
        from: ["guard"],
        because: { guard: "darkness" },
        light: "dark",
        seenBy: [],
        x: 1000,
        y: 2000,
      }),
    );
    await world.as("p1", () => rogue.setFlag("aventure", "searching", true));
    // Nothing on the token says who wrote those flags: TokenData has no _stats (v13, v14).
    expect("_stats" in rogue).toBe(false);
    await world.reload("gm1"); // the GM's first ready on this version: the one-time migration
    await world.settle();
    expect(scene.getFlag("aventure", "hides")).toBeUndefined();
    expect(scene.getFlag("aventure", "searching")).toBeUndefined();
    expect(rogue.getFlag("aventure", "hide")).toBeUndefined();
    expect(rogue.getFlag("aventure", "searching")).toBeUndefined();
    expect(world.actors.get("rogue")!.statuses.size).toBe(0);
    // The GMs see what was dropped, and may hide or mark again; the player is told nothing.
    const [told] = legacyCards(world);
    expect(told!.content).toContain("Rogue: hidden (Stealth DC 99)");
    expect(told!.content).toContain("Rogue: searching");
    expect(world.visibleMessages("p1").filter((m) => legacyCards(world).includes(m))).toEqual([]);
    // Nothing judges the rogue as hidden, nor makes the GM roll for it as a searcher.
    await moveTo(world, rogue, [10, 16]);
    await tick(world);
    expect(cards(world)).toEqual([]);
  });

  it("judged pairs are kept on the scene, which only GMs write; malformed entries are ignored", async () => {
    const { world, scene } = await issueExample(17);
    const judged = { inView: true, light: "dim", passive: 17, searching: false, dc: 12 };
    const stored = () =>
      (scene.getFlag("aventure", "detection") as { pairs: Record<string, Record<string, unknown>> }).pairs;
    expect(stored()).toEqual({ rogue: { watcher: judged } });
    await expect(
      world.as("p1", () => scene.setFlag("aventure", "detection", { pairs: { rogue: { watcher: "0,x,,0,1" } } })),
    ).rejects.toThrow(/lacks permission/);
    click(world, cards(world)[0]!, "gm1", false); // ignored: judged, kept
    await world.settle();
    expect(cards(world)).toHaveLength(1);
    // Malformed entries (written by a GM's macro) are not taken as judgements: after a reload the pair is judged anew.
    await world.as("gm1", () =>
      scene.setFlag("aventure", "detection", {
        pairs: { rogue: { watcher: { ...judged, light: "<script>" }, guard: 42 }, "bad id!": {} },
      }),
    );
    await reloadGM(world, scene);
    expect(cards(world)).toHaveLength(2);
    expect(stored().rogue!.watcher).toEqual(judged);
  });

  it("each judged pair is read on its own: one a macro wrote wrong is judged anew, the others stay judged", async () => {
    const { world, scene } = await issueExample(17);
    const judged = { inView: true, light: "dim", passive: 17, searching: false, dc: 12 };
    click(world, cards(world)[0]!, "gm1", false); // answered: no longer pending
    await world.settle();
    await reloadGM(world, scene);
    expect(cards(world)).toHaveLength(1); // judged: kept on the scene, not prompted again
    // A second, malformed entry beside it (a number sent as text: refused, not cast) does not drop the good one.
    await world.as("gm1", () =>
      scene.setFlag("aventure", "detection", { pairs: { rogue: { watcher: judged, guard: { ...judged, dc: "12" } } } }),
    );
    await reloadGM(world, scene);
    expect(cards(world)).toHaveLength(1);
  });

  it('a pair judged by 0.1.x (kept as a signature "1,d,17,0,12") is still judged after the update', async () => {
    const { world, scene } = await issueExample(17);
    click(world, cards(world)[0]!, "gm1", false); // answered: no longer pending
    await world.settle();
    await world.as("gm1", () => scene.unsetFlag("aventure", "detection"));
    await world.as("gm1", () =>
      scene.setFlag("aventure", "detection", { pairs: { rogue: { watcher: "1,d,17,0,12" } } }),
    );
    await reloadGM(world, scene);
    expect(cards(world)).toHaveLength(1);
    // Judged in other conditions (dark, not dim): the signature reads, but the pair is judged anew.
    await world.as("gm1", () => scene.unsetFlag("aventure", "detection"));
    await world.as("gm1", () =>
      scene.setFlag("aventure", "detection", { pairs: { rogue: { watcher: "1,x,17,0,12" } } }),
    );
    await reloadGM(world, scene);
    expect(cards(world)).toHaveLength(2);
  });
});

describe("Obscurity regions (issue 13 item 11)", () => {
  async function foggy(
    level: "light" | "heavy",
    elevation: { bottom: number | null; top: number | null } = { bottom: null, top: null },
  ) {
    const { world, scene } = await night();
    await world.as("gm1", () =>
      scene.createEmbeddedDocuments("Region", [
        {
          name: "Fog",
          shapes: [{ type: "rectangle", x: 800, y: 800, width: 600, height: 600 }],
          elevation,
          behaviors: [{ type: "aventure.obscurity", system: { level } }],
        },
      ]),
    );
    await world.settle();
    return { world, scene };
  }

  it("a token in light fog in bright light is seen at best dim: noticed with −5; the creature itself sees with disadvantage", async () => {
    const { world, scene } = await foggy("light");
    await set(world, "lightEffects", true);
    const rogueActor = actor(world, { id: "rogue", name: "Rogue" });
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [11, 11],
      actor: rogueActor,
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [30, 11],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
    });
    addToken(world, scene, {
      id: "watcher",
      name: "Watcher",
      at: [16, 20],
      actor: actor(world, { id: "watcher", name: "Watcher", passive: 17 }),
    });
    await as(world, "gm1", (a) => a.refreshLight());
    expect(api(world).lightAt("rogue")).toMatchObject({
      level: "bright",
      obscurity: "light",
      perceived: "dim",
      effect: "disadvantage",
    });
    expect(rogueActor.statuses.has("aventure-dim")).toBe(true);
    await world.as("gm1", () =>
      setHide(rogue, { dc: 12, from: ["guard"], because: {}, light: "bright", x: 0, y: 0, seenBy: [] }),
    );
    await tick(world);
    expect(cards(world).map((m) => m.content)).toEqual([
      expect.stringContaining("Watcher notices Rogue (passive 17 vs Stealth 12, lightly obscured −5)"),
    ]);
  });

  it("heavy fog: a zone of no visibility: the creature may hide there in bright light (because obscured), is not noticed, and is blinded itself", async () => {
    const { world, scene } = await foggy("heavy");
    await set(world, "lightEffects", true);
    const rogueActor = actor(world, { id: "rogue", name: "Rogue" });
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [11, 11],
      actor: rogueActor,
      disposition: 1,
    });
    addToken(world, scene, {
      id: "watcher",
      name: "Watcher",
      at: [16, 20],
      actor: actor(world, { id: "watcher", name: "Watcher", passive: 5 }),
    });
    await as(world, "gm1", (a) => a.refreshLight());
    expect(api(world).lightAt("rogue")).toMatchObject({
      level: "bright",
      obscurity: "heavy",
      perceived: "dark",
      effect: "blinded",
    });
    expect(rogueActor.statuses.has("blinded")).toBe(true);
    world.queueRolls(10);
    expect(await as(world, "gm1", (a) => a.hide("rogue"))).toMatchObject({
      dc: 10,
      hiddenFrom: ["watcher"],
      hidden: true,
    });
    expect(hideFlag(rogue)).toMatchObject({ because: { watcher: "obscured" }, obscurity: "heavy" });
    // The HUD badge says it.
    const hud = world.renderTokenHUD(rogue, "gm1");
    for (let i = 0; i < 50 && !hud.querySelector(".aventure-light-panel"); i++)
      await new Promise((r) => setImmediate(r));
    expect(hud.querySelector(".aventure-light-obscurity")!.textContent).toContain("Heavily obscured");
  });

  it("a region sits at an elevation: above its top the fog does not count; a disabled behaviour does not count", async () => {
    const { world, scene } = await foggy("heavy", { bottom: 0, top: 3 });
    addToken(world, scene, {
      id: "bird",
      name: "Bird",
      at: [11, 11],
      actor: actor(world, { id: "bird", name: "Bird" }),
      elevation: 10,
    });
    addToken(world, scene, {
      id: "mole",
      name: "Mole",
      at: [12, 12],
      actor: actor(world, { id: "mole", name: "Mole" }),
      elevation: 0,
    });
    await as(world, "gm1", (a) => a.refreshLight());
    expect(api(world).lightAt("bird")!.obscurity).toBe("none");
    expect(api(world).lightAt("mole")!.obscurity).toBe("heavy");
    const region = scene.regions.contents[0]!;
    await world.as("gm1", () => region.behaviors.contents[0]!.update({ disabled: true }));
    await tick(world);
    expect(api(world).lightAt("mole")!.obscurity).toBe("none");
  });

  it("is declared in module.json and registered with its label, icon and field", async () => {
    const { world } = await night({ users: [GM] });
    const manifest = (await import("../../module.json", { with: { type: "json" } })).default as {
      documentTypes: { RegionBehavior: Record<string, unknown> };
    };
    expect(Object.keys(manifest.documentTypes.RegionBehavior)).toContain("obscurity");
    world.as("gm1", () => {
      const config = CONFIG.RegionBehavior as unknown as {
        dataModels: Record<
          string,
          {
            LOCALIZATION_PREFIXES: string[];
            defineSchema(): Record<string, { options: { initial: string; choices: Record<string, string> } }>;
          }
        >;
        typeIcons: Record<string, string>;
      };
      const type = config.dataModels["aventure.obscurity"]!;
      expect(config.typeIcons["aventure.obscurity"]).toBe("fa-solid fa-smog");
      expect(type.defineSchema().level!.options).toMatchObject({
        initial: "light",
        choices: { light: "AVENTURE.Light.obscurity.light", heavy: "AVENTURE.Light.obscurity.heavy" },
      });
      expect(game.i18n.localize("TYPES.RegionBehavior.aventure.obscurity")).toBe("Obscurity (Aventure)");
      expect(game.i18n.localize(`${type.LOCALIZATION_PREFIXES[0]}.FIELDS.level.label`)).toBe("Obscurity");
    });
  });
});

/**
 * Issue 15 item 2: "when ... a light or darkness source or an Obscurity region changes": nobody moves, the GM changes the
 * scene around a hider, and the pair is judged again. The rogue hides at (10, 20) in the dark from the guard (passive
 * 5) with Stealth 12; the watcher (passive `passive`) stands at (16, 16), in view. Every change is made by the first
 * GM; the second GM's client must do nothing (only the active GM judges, one card).
 */
describe("ambient detection: the scene changes around a hider nobody moves (issue 15 item 2)", () => {
  async function still(passive: number, at: [number, number] = [10, 20]) {
    const { world, scene } = await night();
    const rogue = addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at,
      actor: actor(world, { id: "rogue", name: "Rogue", owner: "p1" }),
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [20, 20],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
    });
    const watcher = addToken(world, scene, {
      id: "watcher",
      name: "Watcher",
      at: [16, 16],
      actor: actor(world, { id: "watcher", name: "Watcher", passive, owner: "p2" }),
    });
    await as(world, "gm1", (a) => a.refreshLight());
    await tick(world);
    return { world, scene, rogue, watcher };
  }
  /** The rogue's hide flag as a hide with Stealth 12 from the guard leaves it (written by the GM: no dice involved). */
  const hideRogue = (world: FakeWorld, rogue: FakeToken, light: string) =>
    world.as("gm1", () => setHide(rogue, { dc: 12, from: ["guard"], because: {}, light, x: 0, y: 0, seenBy: [] }));
  const addLight = (world: FakeWorld, scene: FakeScene, data: Record<string, unknown>) =>
    world.as("gm1", () => scene.createEmbeddedDocuments("AmbientLight", [data], { keepId: true }));
  /** One card, written by the active GM only, whispered to both GMs; the second GM's client evaluated nothing. */
  function askedOnce(world: FakeWorld, text: string) {
    const list = cards(world);
    expect(list.map((m) => m.content)).toEqual([expect.stringContaining(text)]);
    expect(list[0]!.author!.id).toBe("gm1");
    expect(list[0]!.whisper.sort()).toEqual(["gm1", "gm2"]);
    for (const u of ["gm2", "p1", "p2"]) expect(detectionOf(world, u).counters.evaluations, u).toBe(0);
    expect(world.visibleMessages("p2")).not.toContain(list[0]);
  }
  const ignore = async (world: FakeWorld, index = 0) => {
    click(world, cards(world)[index]!, "gm1", false);
    await world.settle();
    expect(cardOf(cards(world)[index]!).rows[0]!.status).toBe("ignored");
  };

  it("a torch lit next to the hider (a new AmbientLight, dim light there): passive 17 vs Stealth 12 → the GM is asked, once with two GMs", async () => {
    const { world, scene, rogue } = await still(17);
    await hideRogue(world, rogue, "dark");
    await tick(world);
    expect(cards(world)).toEqual([]); // dark: 17 vs 12 notices nothing
    expect(api(world).lightAt("rogue")!.level).toBe("dark");
    // 2 squares (3 m) south of the rogue's centre: bright 1 m, dim 6 m: dim light at the rogue.
    await addLight(world, scene, { _id: "torch2", x: 950, y: 2150, config: { bright: 1, dim: 6 } });
    await tick(world);
    expect(api(world).lightAt("rogue")!.level).toBe("dim");
    askedOnce(world, "Watcher notices Rogue (passive 17 vs Stealth 12, dim light −5)");
    expect(hideFlag(rogue)).toMatchObject({ from: ["guard"], seenBy: [] }); // nothing revealed before a GM decides
  });

  it("the same torch with passive 16 (16 − 5 < 12): judged, nothing", async () => {
    const { world, scene, rogue } = await still(16);
    await hideRogue(world, rogue, "dark");
    await tick(world);
    const mark = detectionOf(world, "gm1").counters.evaluations;
    await addLight(world, scene, { _id: "torch2", x: 950, y: 2150, config: { bright: 1, dim: 6 } });
    await tick(world);
    expect(api(world).lightAt("rogue")!.level).toBe("dim");
    expect(detectionOf(world, "gm1").counters.evaluations).toBeGreaterThan(mark); // the change was looked at
    expect(cards(world)).toEqual([]);
  });

  it("a torch turned on (an unlit AmbientLight made visible): the GM is asked; turned off again: nothing more", async () => {
    const { world, scene, rogue } = await still(17);
    await addLight(world, scene, { _id: "torch2", x: 950, y: 2150, hidden: true, config: { bright: 1, dim: 6 } });
    await hideRogue(world, rogue, "dark");
    await tick(world);
    expect(cards(world)).toEqual([]);
    const torch = scene.lights.get("torch2")!;
    await world.as("gm1", () => torch.update({ hidden: false }));
    await tick(world);
    askedOnce(world, "Watcher notices Rogue (passive 17 vs Stealth 12, dim light −5)");
    await ignore(world);
    await world.as("gm1", () => torch.update({ hidden: true }));
    await tick(world);
    expect(api(world).lightAt("rogue")!.level).toBe("dark");
    expect(cards(world)).toHaveLength(1);
  });

  it("a darkness source over a hider in the torch's dim light: judged dark, no notice; lifted, dim again: asked again", async () => {
    const { world, scene, rogue } = await still(17, [10, 16]);
    expect(api(world).lightAt("rogue")!.level).toBe("dim");
    // Magical darkness over the rogue first, then it hides: nothing.
    await addLight(world, scene, { _id: "dark1", x: 950, y: 1550, config: { bright: 0, dim: 3, negative: true } });
    await tick(world);
    expect(api(world).lightAt("rogue")!.level).toBe("dark");
    await hideRogue(world, rogue, "dark");
    await tick(world);
    expect(cards(world)).toEqual([]);
    // Lifted: dim light, 17 − 5 ≥ 12.
    await world.as("gm1", () => scene.lights.get("dark1")!.delete());
    await tick(world);
    askedOnce(world, "Watcher notices Rogue (passive 17 vs Stealth 12, dim light −5)");
    await ignore(world);
    // Cast again (a new darkness source): the pair is judged dark (no card); lifted again it is dim, which differs from
    // what was last judged, so the GM is asked again. Had the darkness not been judged, dim → dim would ask nothing.
    await addLight(world, scene, { _id: "dark2", x: 950, y: 1550, config: { bright: 0, dim: 3, negative: true } });
    await tick(world);
    expect(api(world).lightAt("rogue")!.level).toBe("dark");
    expect(cards(world)).toHaveLength(1);
    await world.as("gm1", () => scene.lights.get("dark2")!.delete());
    await tick(world);
    expect(cards(world).map((m) => m.content)).toEqual([
      expect.anything(),
      expect.stringContaining("Watcher notices Rogue (passive 17 vs Stealth 12, dim light −5)"),
    ]);
  });

  it("a heavy Obscurity region created over a hider in dim light: no longer noticeable; deleted: asked again", async () => {
    const { world, scene, rogue } = await still(17, [10, 16]);
    await hideRogue(world, rogue, "dim");
    await tick(world);
    askedOnce(world, "Watcher notices Rogue (passive 17 vs Stealth 12, dim light −5)");
    await ignore(world);
    await world.as("gm1", () =>
      scene.createEmbeddedDocuments(
        "Region",
        [
          {
            _id: "fog",
            name: "Fog",
            shapes: [{ type: "rectangle", x: 800, y: 1400, width: 300, height: 300 }],
            behaviors: [{ type: "aventure.obscurity", system: { level: "heavy" } }],
          },
        ],
        { keepId: true },
      ),
    );
    await tick(world);
    expect(api(world).lightAt("rogue")).toMatchObject({ level: "dim", obscurity: "heavy" });
    expect(cards(world)).toHaveLength(1);
    await world.as("gm1", () => scene.regions.get("fog")!.delete());
    await tick(world);
    expect(cards(world)).toHaveLength(2);
    expect(cards(world)[1]!.content).toContain("Watcher notices Rogue (passive 17 vs Stealth 12, dim light −5)");
  });

  it("an Obscurity region edited: light → heavy over a hider in bright light hides it from notice; moved away, it is noticed in bright light", async () => {
    const { world, scene, rogue } = await still(17, [11, 11]);
    await world.as("gm1", () =>
      scene.createEmbeddedDocuments(
        "Region",
        [
          {
            _id: "fog",
            name: "Fog",
            shapes: [{ type: "rectangle", x: 900, y: 900, width: 300, height: 300 }],
            behaviors: [{ _id: "fogb", type: "aventure.obscurity", system: { level: "light" } }],
          },
        ],
        { keepId: true },
      ),
    );
    await tick(world);
    expect(api(world).lightAt("rogue")).toMatchObject({ level: "bright", obscurity: "light", perceived: "dim" });
    await hideRogue(world, rogue, "bright");
    await tick(world);
    askedOnce(world, "Watcher notices Rogue (passive 17 vs Stealth 12, lightly obscured −5)");
    await ignore(world);
    const region = scene.regions.get("fog")!;
    await world.as("gm1", () => region.behaviors.contents[0]!.update({ system: { level: "heavy" } }));
    await tick(world);
    expect(api(world).lightAt("rogue")).toMatchObject({ obscurity: "heavy", perceived: "dark" });
    expect(cards(world)).toHaveLength(1);
    // The region's shape edited so that it no longer covers the rogue: bright light, 17 ≥ 12.
    await world.as("gm1", () =>
      region.update({ shapes: [{ type: "rectangle", x: 2000, y: 2000, width: 300, height: 300 }] }),
    );
    await tick(world);
    expect(api(world).lightAt("rogue")).toMatchObject({ level: "bright", obscurity: "none" });
    expect(cards(world).map((m) => m.content)).toEqual([
      expect.anything(),
      expect.stringContaining("Watcher notices Rogue (passive 17 vs Stealth 12)"),
    ]);
    for (const u of ["gm2", "p1", "p2"]) expect(detectionOf(world, u).counters.evaluations, u).toBe(0);
  });
});

describe("the pair engine and its budget (bench/detection.bench.ts measures the time)", () => {
  it("on the benchmark's scene, a move evaluates only its pairs (≥ 10× fewer than the naive pass), with the same conditions", () => {
    const s = detectionScene();
    const evaluator = new PairEvaluator();
    const all = evaluator.evaluate(s.scene, s.hiders, s.observers, null);
    expect(all).toHaveLength(2400);
    const naive = newCounters();
    const slow = evaluatePairsNaive(s.scene, s.hiders, s.observers, naive);
    expect(naive).toEqual({ evaluations: 2400, sightTests: 2400 });
    // Where the line of sight was tested, the same answer; where it was not, the observer could not notice anyway.
    const byKey = new Map(slow.map((c) => [`${c.observer}|${c.hider}`, c]));
    for (const c of all) {
      const n = byKey.get(`${c.observer}|${c.hider}`)!;
      expect(c.light).toBe(n.light);
      if (c.inView) expect(n.inView).toBe(true);
    }
    for (const id of ["t3", "t57"]) {
      const before = evaluator.counters.evaluations;
      const sightBefore = evaluator.counters.sightTests;
      benchMove(s, id, 2500, 1500);
      s.relight(new Set([id]));
      const moved = evaluator.evaluate(s.scene, s.hiders, s.observers, new Set([id]));
      const n = evaluator.counters.evaluations - before;
      expect(n).toBe(id === "t3" ? 60 : 40);
      expect(2400 / n).toBeGreaterThanOrEqual(10);
      // Lines of sight tested on a move: at most that token's pairs, at least 10× fewer than the naive pass's 2400.
      const sight = evaluator.counters.sightTests - sightBefore;
      expect(sight).toBeLessThanOrEqual(n);
      expect(sight * 10).toBeLessThanOrEqual(naive.sightTests);
      expect(
        detectionChanges(
          all.filter((c) => c.observer === id || c.hider === id),
          moved,
        ).length,
      ).toBeLessThanOrEqual(n);
    }
    // A full pass after a change of light: only the pairs of hiders whose light changed are computed again, and lines
    // of sight between unmoved tokens are reused.
    s.toggleLight(7);
    let mark = { ...evaluator.counters };
    const after = evaluator.evaluate(s.scene, s.hiders, s.observers, null);
    expect(after).toHaveLength(2400);
    expect((evaluator.counters.evaluations - mark.evaluations) * 10).toBeLessThanOrEqual(naive.evaluations);
    expect((evaluator.counters.sightTests - mark.sightTests) * 10).toBeLessThanOrEqual(naive.sightTests);
    // A door opens: only the lines of sight crossing it are tested again.
    mark = { ...evaluator.counters };
    evaluator.wallsChanged(s.walls[0]!);
    evaluator.evaluate(s.scene, s.hiders, s.observers, null);
    expect((evaluator.counters.sightTests - mark.sightTests) * 10).toBeLessThanOrEqual(naive.sightTests);
    // From scratch (the first pass on a scene, or every wall changed): still only where it can change the judgement.
    mark = { ...evaluator.counters };
    evaluator.wallsChanged(null);
    evaluator.retain(new Set());
    evaluator.evaluate(s.scene, s.hiders, s.observers, null);
    expect(evaluator.counters.evaluations - mark.evaluations).toBe(2400);
    expect(evaluator.counters.sightTests - mark.sightTests).toBeLessThan(naive.sightTests / 3);
  });
});

describe("card and HUD contexts (the screenshot samples)", () => {
  it("builds the detection card's lines, buttons, statuses and footnote", () => {
    const ctx = detectionCardContext({
      rows: [
        {
          observerId: "a",
          hiderId: "b",
          observer: "Orc 2",
          hider: "Aria",
          passive: 17,
          roll: null,
          dc: 12,
          reason: "dim",
          status: "pending",
          ended: false,
        },
        {
          observerId: "c",
          hiderId: "b",
          observer: "Orc 3",
          hider: "Aria",
          passive: null,
          roll: 15,
          dc: 12,
          reason: "none",
          status: "revealed",
          ended: true,
        },
      ],
      skipped: [{ name: "Statue", reason: "noActor" }],
    }) as {
      rows: { lineKey: string; reasonKey: string; statusKey: string | null; pending: boolean }[];
      pending: boolean;
    };
    expect(ctx.rows.map((r) => [r.lineKey, r.reasonKey, r.statusKey, r.pending])).toEqual([
      ["AVENTURE.Light.Detect.line.passiveReason", "AVENTURE.Light.Detect.reason.passive.dim", null, true],
      [
        "AVENTURE.Light.Detect.line.roll",
        "AVENTURE.Light.Detect.reason.roll.none",
        "AVENTURE.Light.Detect.status.ended",
        false,
      ],
    ]);
    expect(ctx.pending).toBe(true);
  });

  it("the search card reads from the searcher's side; the end card names the DC; the HUD shows the obscurity and chooses the plural", () => {
    const search = searchCardContext({
      observer: "S",
      roll: 14,
      rows: [
        { name: "A", dc: 12, spotted: true, stillHidden: false },
        { name: "B", dc: 16, spotted: false, stillHidden: true },
      ],
    }) as { rows: { outcome: string; outcomeKey: string; icon: string }[] };
    expect(search.rows.map((r) => [r.outcome, r.outcomeKey, r.icon])).toEqual([
      ["success", "AVENTURE.Light.Search.found", "fa-solid fa-circle-check"],
      ["failure", "AVENTURE.Light.Search.notFound", "fa-solid fa-circle-xmark"],
    ]);
    expect(hideEndCardContext({ hider: "A", event: "leftDarkness", perceptionCheck: true, dc: 14 })).toMatchObject({
      dc: 14,
    });
    const hud = lightHudContext({
      level: "bright",
      obscurity: "heavy",
      perceived: "dark",
      sense: "none",
      effect: "blinded",
      senses: [],
      darkness: 0,
      globalLight: true,
      inDarkness: false,
      effectsOn: true,
      hidden: { dc: 12, from: 1 },
    });
    expect(hud).toMatchObject({
      obscurityKey: "AVENTURE.Light.obscurity.heavy",
      obscurityEffectKey: "AVENTURE.Light.HUD.obscured.heavy",
      hiddenKey: "AVENTURE.Light.HUD.hidden.one",
    });
  });
});
