/**
 * Trust round 3, the holes an adversarial review found after issue 20's fixes (docs/security.md): each test attacks one
 * as a player with the browser console would, against the fake world (test/world), and failed on the code before the
 * fix.
 *
 * 1. Hiding in plain sight through the hider's own disposition: core lets a token's owner change its disposition, so a
 *    player turned their rogue hostile or neutral before hiding and the guard that sees it was no longer one "that may
 *    notice" it. A creature a player owns now counts as friendly too, whatever its disposition.
 * 2. Refusals named tokens the GM hid: "You do not own Hidden Assassin." A refusal names a token, an actor or a
 *    combatant only when the requester may know it.
 * 3. `api.fall(actor)` of a world actor whose token the GM hid posted a public fall card.
 * 4. A change of intention (Polaris) of a hidden combatant posted a public card.
 *
 * Grid: 100 px squares of 1.5 m. A torch: bright 6 m (400 px), dim 12 m (800 px); a wall east of it at x = 13.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  forgeRequest,
  gameWrites,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  viewScene,
  type FakeActor,
  type FakeChatMessage,
  type FakeCombat,
  type FakeScene,
  type FakeToken,
  type FakeWorld,
  type UserSpec,
} from "../world/index.js";
import { useClientTimers } from "../world/timers.js";
import { EMPTY_PATHS } from "../../src/core/core-settings.js";
import { cardsOf } from "./card-state.js";

type Plain = Record<string, unknown>;
type Api = {
  hide(token: unknown, options?: { observers?: string[]; searching?: string[] }): Promise<unknown>;
  endHide(token: unknown, event?: string): Promise<boolean | undefined>;
  refreshLight(): Promise<void>;
  fall(t: unknown, m: number): Promise<{ dice: number; total: number } | undefined>;
};

const load = async () => ({ ...(await import("../../src/module.js")) });
const USERS: UserSpec[] = [GM, GM2, PLAYER, PLAYER2];

/** Night underground (no global light), a wall east of the torch at x = 13 (rows 7–13), the torch at (10, 10). */
async function torchScene() {
  const world = await bootWorld({ system: "dnd5e", users: USERS, load });
  const scene = world.addScene({ _id: "scene1", darkness: 1, globalLight: false });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await world.as("gm1", () => scene.createEmbeddedDocuments("Wall", [{ c: [1300, 700, 1300, 1300] }]));
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

/** A token whose centre is at (x, y) grid squares (hidden: by the GM, TokenDocument#hidden). */
function addToken(
  world: FakeWorld,
  scene: FakeScene,
  d: { id: string; name: string; at: [number, number]; actor?: FakeActor; disposition?: number; hidden?: boolean },
): FakeToken {
  return world.addToken(scene, {
    _id: d.id,
    name: d.name,
    x: d.at[0] * 100 - 50,
    y: d.at[1] * 100 - 50,
    actorId: d.actor?.id ?? null,
    actorLink: true,
    disposition: d.disposition ?? 1,
    hidden: d.hidden ?? false,
    sight: { enabled: true, range: 0, visionMode: "basic" },
    detectionModes: [],
  });
}

function actor(
  world: FakeWorld,
  d: { id: string; name: string; passive?: number; stealthMod?: number; owner?: string },
): FakeActor {
  return addDnd5eActor(world, {
    id: d.id,
    name: d.name,
    owner: d.owner,
    passive: d.passive ?? 10,
    skills: { ste: d.stealthMod ?? 0 },
  });
}

const api = (world: FakeWorld, user: string) => world.api<Api>(user);
const as = <T>(world: FakeWorld, user: string, fn: (a: Api) => Promise<T>) =>
  world.as(user, () => fn(api(world, user)));
const refresh = (world: FakeWorld) => as(world, "gm1", (a) => a.refreshLight());
const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
const hideFlag = (token: FakeToken) =>
  (token.scene.getFlag("aventure", "hides") as Record<string, Plain> | undefined)?.[token.id];
const hiding = (a: FakeActor) => a.statuses.has("hiding");
const cardsWith = (world: FakeWorld, key: string) => cardsOf(world.messages.contents, key);
const refused = (key: string, data: Plain = {}) => ({ status: "done", ok: false, key, data });
/** The token's owner changes its disposition, as core lets a token's owner update it. */
const turn = (world: FakeWorld, user: string, token: FakeToken, disposition: number) =>
  world.as(user, () => token.update({ disposition }));
async function tick(world: FakeWorld, ms = 500) {
  await vi.advanceTimersByTimeAsync(ms);
  await world.settle();
}

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => useClientTimers());
afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
});

describe("hiding in plain sight through the hider's own disposition (security.md: the hide observer rule)", () => {
  /** The rogue (p1's) in the torch's bright light; p1's dog behind the wall; a hostile guard in view of the rogue. */
  async function plainSight(dogDisposition: number) {
    const { world, scene } = await torchScene();
    const rogue = actor(world, { id: "rogue", name: "Rogue", stealthMod: 3, owner: "p1" });
    const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [11, 10], actor: rogue, disposition: 1 });
    addToken(world, scene, {
      id: "dog",
      name: "Dog",
      at: [15, 10],
      actor: actor(world, { id: "dog", name: "Dog", passive: 1, owner: "p1" }),
      disposition: dogDisposition,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [11, 13],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
      disposition: -1,
    });
    await refresh(world);
    return { world, scene, rogue, token };
  }

  it("attack: p1 turns their rogue hostile, then hides with the default observers: the guard in view still counts", async () => {
    // The dog (friendly) behind the wall: a hostile rogue's only "hostile observer", which cannot see it.
    const { world, rogue, token } = await plainSight(1);
    await turn(world, "p1", token, -1);
    expect(token.disposition).toBe(-1);
    const mark = world.writes.length;
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["Rogue cannot hide: seen by Guard (in light)."]);
    expect(await forgeRequest(world, "p1", "hide", { sceneId: "scene1", tokenId: "rogue" })).toMatchObject(
      refused("AVENTURE.Light.Hide.cannot"),
    );
    expect(world.rollsMade).toEqual([]);
    expect(gameWrites(world, mark)).toEqual([]);
    expect(hideFlag(token)).toBeUndefined();
    expect(hiding(rogue)).toBe(false);
  });

  it("attack: p1 turns their rogue neutral and names only their own dog as observer: refused while the guard sees it", async () => {
    const { world, rogue, token } = await plainSight(-1);
    await turn(world, "p1", token, 0);
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["dog"] }))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["Rogue cannot hide: seen by Guard (in light)."]);
    expect(
      await forgeRequest(world, "p1", "hide", {
        sceneId: "scene1",
        tokenId: "rogue",
        observers: ["dog"],
        searching: [],
      }),
    ).toMatchObject(refused("AVENTURE.Light.Hide.cannot"));
    // Or hostile, like the guard, with every other disposition noticing (detectionObservers "all"): still the guard's.
    await set(world, "detectionObservers", "all");
    await turn(world, "p1", token, -1);
    expect(await as(world, "p1", (a) => a.hide("rogue", { observers: ["dog"] }))).toBeUndefined();
    expect(errors(world, "p1").at(-1)).toBe("Rogue cannot hide: seen by Guard (in light).");
    expect(world.rollsMade).toEqual([]);
    expect(hideFlag(token)).toBeUndefined();
    expect(hiding(rogue)).toBe(false);
  });

  it("an honest hide is unchanged: a friendly rogue out of everyone's sight hides; the allies (friendly) that see it do not count", async () => {
    const { world, scene, token } = await plainSight(-1);
    // p2's fighter stands next to the rogue in the light: an ally, not a creature that may notice it.
    addToken(world, scene, {
      id: "fighter",
      name: "Fighter",
      at: [12, 10],
      actor: actor(world, { id: "fighter", name: "Fighter", owner: "p2" }),
      disposition: 1,
    });
    await world.as("gm1", () => scene.tokens.get("guard")!.update({ x: 1350, y: 950 })); // (14, 10): behind the wall
    await refresh(world);
    world.queueRolls(12);
    // The reply names only what p1 may know (the guard behind the wall is unseen); the scene has it all.
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toMatchObject({ dc: 15, hidden: true, hiddenFrom: ["dog"] });
    expect(hideFlag(token)).toMatchObject({ dc: 15, from: ["dog", "guard"] });
  });

  it("attack: hidden honestly, p1 turns the rogue neutral; a guard that arrives and sees it still notices it (ambient detection)", async () => {
    const { world, scene } = await torchScene();
    const rogue = actor(world, { id: "rogue", name: "Rogue", owner: "p1" });
    const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [11, 10], actor: rogue, disposition: 1 }); // bright
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [14, 10],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
      disposition: -1,
    }); // behind the wall
    await refresh(world);
    world.queueRolls(10);
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toMatchObject({ dc: 10, hidden: true });
    expect(hideFlag(token)).toMatchObject({ dc: 10, from: ["guard"] });
    await turn(world, "p1", token, 0);
    await tick(world);
    // A second guard comes (passive 15 ≥ DC 10), in view of the rogue in the light: the GMs are told it notices it.
    addToken(world, scene, {
      id: "newcomer",
      name: "Newcomer",
      at: [11, 14],
      actor: actor(world, { id: "newcomer", name: "Newcomer", passive: 15 }),
      disposition: -1,
    });
    await refresh(world);
    await tick(world);
    const cards = cardsWith(world, "detect");
    expect(cards).toHaveLength(1);
    expect(cards[0]!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(cards[0]!.content).toMatch(/Newcomer[\s\S]*Rogue/);
  });

  it("attack: with ambient detection off, a guard that arrives and sees the rogue p1 turned hostile ends its hiding", async () => {
    const { world, scene } = await torchScene();
    await set(world, "detectionMode", "off");
    const rogue = actor(world, { id: "rogue", name: "Rogue", owner: "p1" });
    const token = addToken(world, scene, { id: "rogue", name: "Rogue", at: [11, 10], actor: rogue, disposition: 1 });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [14, 10],
      actor: actor(world, { id: "guard", name: "Guard", passive: 5 }),
      disposition: -1,
    });
    await refresh(world);
    world.queueRolls(10);
    expect(await as(world, "p1", (a) => a.hide("rogue"))).toMatchObject({ dc: 10, hidden: true });
    expect(hideFlag(token)).toMatchObject({ dc: 10, from: ["guard"] });
    await turn(world, "p1", token, -1);
    await refresh(world);
    expect(hideFlag(token)).toBeDefined();
    addToken(world, scene, {
      id: "newcomer",
      name: "Newcomer",
      at: [11, 14],
      actor: actor(world, { id: "newcomer", name: "Newcomer", passive: 5 }),
      disposition: -1,
    });
    await refresh(world);
    await world.settle();
    expect(hideFlag(token)).toBeUndefined();
    expect(hiding(rogue)).toBe(false);
    expect(cardsWith(world, "hideEnd")).toHaveLength(1);
  });
});

describe("refusals name only what the requester may know (security.md: what a player learns from a refusal)", () => {
  /** p1's rogue in the light; a guard it sees; an assassin the GM hid (TokenDocument#hidden), in view as well. */
  async function hiddenAssassin() {
    const { world, scene } = await torchScene();
    addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [11, 10],
      actor: actor(world, { id: "rogue", name: "Rogue", owner: "p1" }),
      disposition: 1,
    });
    addToken(world, scene, {
      id: "guard",
      name: "Guard",
      at: [11, 13],
      actor: actor(world, { id: "guard", name: "Guard" }),
      disposition: -1,
    });
    const assassin = addToken(world, scene, {
      id: "assassin",
      name: "Hidden Assassin",
      at: [12, 12],
      actor: actor(world, { id: "assassin", name: "Hidden Assassin" }),
      disposition: -1,
      hidden: true,
    });
    await refresh(world);
    return { world, scene, assassin };
  }

  it("attack: requests naming a GM-hidden token (hide, end of hiding, fall, breath) are refused without its name", async () => {
    const { world } = await hiddenAssassin();
    const mark = world.writes.length;
    const requests: [string, Plain][] = [
      ["hide", { sceneId: "scene1", tokenId: "assassin" }],
      ["endHide", { sceneId: "scene1", tokenId: "assassin", event: "revealed" }],
      ["fall", { sceneId: "scene1", tokenId: "assassin", metres: 6 }],
      ["breath", { op: "hold", sceneId: "scene1", tokenId: "assassin" }],
    ];
    for (const [name, data] of requests) {
      const reply = await forgeRequest(world, "p1", name, data);
      expect(reply, name).toEqual(refused("AVENTURE.Error.NotOwnerUnknown.Token"));
      expect(JSON.stringify(reply), name).not.toMatch(/assassin/i);
    }
    // The player's own client refuses before sending, in the same words.
    expect(await as(world, "p1", (a) => a.hide("assassin"))).toBeUndefined();
    expect(await as(world, "p1", (a) => a.fall(world.scenes.get("scene1")!.tokens.get("assassin"), 6))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["You do not own that token.", "You do not own that token."]);
    expect(
      world.notifications
        .filter((n) => n.user === "p1")
        .map((n) => n.message)
        .join(" "),
    ).not.toMatch(/assassin/i);
    expect(gameWrites(world, mark)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
  });

  it("a token the player sees is still named; and shown again by the GM, the assassin is named", async () => {
    const { world } = await hiddenAssassin();
    expect(await forgeRequest(world, "p1", "hide", { sceneId: "scene1", tokenId: "guard" })).toEqual(
      refused("AVENTURE.Error.NotOwner", { name: "Guard" }),
    );
    expect(await as(world, "p1", (a) => a.hide("guard"))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["You do not own Guard."]);
    // Shown by the GM, the assassin is seen (in the light, in view): it may be named.
    await world.as("gm1", () => world.scenes.get("scene1")!.tokens.get("assassin")!.update({ hidden: false }));
    await refresh(world);
    expect(await forgeRequest(world, "p1", "hide", { sceneId: "scene1", tokenId: "assassin" })).toEqual(
      refused("AVENTURE.Error.NotOwner", { name: "Hidden Assassin" }),
    );
  });

  it("attack: a token Aventure keeps hidden is not named to a player whose tokens do not know where it is", async () => {
    const { world, scene } = await torchScene();
    addToken(world, scene, {
      id: "rogue",
      name: "Rogue",
      at: [11, 10],
      actor: actor(world, { id: "rogue", name: "Rogue", owner: "p1" }),
      disposition: 1,
    });
    // A lurker behind the wall hides from the rogue (the GM's hide): the player's rogue does not know where it is.
    addToken(world, scene, {
      id: "lurker",
      name: "Lurker",
      at: [14, 10],
      actor: actor(world, { id: "lurker", name: "Lurker", stealthMod: 5 }),
      disposition: -1,
    });
    await refresh(world);
    world.queueRolls(15);
    expect(await as(world, "gm1", (a) => a.hide("lurker"))).toMatchObject({ hidden: true, hiddenFrom: ["rogue"] });
    const reply = await forgeRequest(world, "p1", "endHide", {
      sceneId: "scene1",
      tokenId: "lurker",
      event: "revealed",
    });
    expect(reply).toEqual(refused("AVENTURE.Error.NotOwnerUnknown.Token"));
    expect(JSON.stringify(reply)).not.toMatch(/lurker/i);
    expect(hideFlag(scene.tokens.get("lurker")!)).toBeDefined();
  });

  it("attack: a fall of a world actor the player may not see is refused without its name (one they may see: named)", async () => {
    const { world } = await torchScene();
    world.addUserActor({ _id: "secret", name: "Secret Dragon", ownership: {} });
    world.addUserActor({ _id: "known", name: "Town Guard", ownership: { p1: 1 } });
    const secret = await forgeRequest(world, "p1", "fall", { actorId: "secret", metres: 6 });
    expect(secret).toEqual(refused("AVENTURE.Error.NotOwnerUnknown.Actor"));
    expect(JSON.stringify(secret)).not.toMatch(/dragon/i);
    expect(await forgeRequest(world, "p1", "fall", { actorId: "known", metres: 6 })).toEqual(
      refused("AVENTURE.Error.NotOwner", { name: "Town Guard" }),
    );
    expect(world.rollsMade).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------ combatants

/** A Polaris combat (worldbuilding): Mercenaire (the GM's), Plongeuse (p1's); hidden: which of them the GM hid. */
async function intentionCombat(hide: { merc?: "combatant" | "token"; diver?: "token" } = {}) {
  const world = await bootWorld({ system: "worldbuilding", users: [GM, GM2, PLAYER] });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await set(world, "ruleset", "polaris");
  await set(world, "actorData", {
    ...EMPTY_PATHS,
    polarisInitiative: "system.init",
    polarisReaction: "system.reaction",
    polarisSkillLevel: "system.skills.*.value",
  });
  world.addUserActor({
    _id: "merc",
    name: "Mercenaire",
    ownership: {},
    system: { init: 12, reaction: 14, skills: { adaptation: { value: 10 } } },
  });
  world.addUserActor({
    _id: "diver",
    name: "Plongeuse",
    ownership: { p1: 3 },
    system: { init: 9, reaction: 12, skills: { adaptation: { value: 10 } } },
  });
  world.addToken(scene, {
    _id: "tmerc",
    name: "Mercenaire",
    actorId: "merc",
    actorLink: true,
    disposition: -1,
    hidden: hide.merc === "token",
  });
  world.addToken(scene, {
    _id: "tdiver",
    name: "Plongeuse",
    actorId: "diver",
    actorLink: true,
    disposition: 1,
    hidden: hide.diver === "token",
  });
  const id = await world.as("gm1", async () => {
    const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
    const c = await Combat.create({ scene: "s1", active: true });
    await c.createEmbeddedDocuments("Combatant", [
      { tokenId: "tmerc", sceneId: "s1", hidden: hide.merc === "combatant" },
      { tokenId: "tdiver", sceneId: "s1" },
    ]);
    return c.id;
  });
  await world.as("gm1", () => (game.combats.get(id) as unknown as FakeCombat).rollAll());
  await world.as("gm1", () => (game.combats.get(id) as unknown as FakeCombat).startCombat());
  await world.settle();
  const c = world.as("gm1", () => game.combats.get(id) as unknown as FakeCombat);
  const idOf = (tokenId: string) => c.combatants.contents.find((x) => x.tokenId === tokenId)!.id;
  return { world, c, merc: idOf("tmerc"), diver: idOf("tdiver") };
}
const intentionCards = (world: FakeWorld) => cardsOf(world.messages.contents, "polarisIntention");
const seenBy = (world: FakeWorld, user: string, cards: FakeChatMessage[]) =>
  world.visibleMessages(user).filter((m) => cards.includes(m));

describe("refusals about combatants the GM hid", () => {
  it("attack: a change of intention for a hidden combatant (or one whose token is hidden) is refused without its name", async () => {
    for (const how of ["combatant", "token"] as const) {
      const { world, c, merc } = await intentionCombat({ merc: how });
      const reply = await forgeRequest(world, "p1", "polarisIntention", {
        combatId: c.id,
        combatantId: merc,
        chance: 10,
      });
      expect(reply, how).toEqual(refused("AVENTURE.Error.NotOwnerUnknown.Combatant"));
      expect(JSON.stringify(reply), how).not.toMatch(/merc/i);
      expect(intentionCards(world)).toEqual([]);
    }
    // Shown: named, as the combat tracker names it.
    const { world, c, merc } = await intentionCombat();
    expect(
      await forgeRequest(world, "p1", "polarisIntention", { combatId: c.id, combatantId: merc, chance: 10 }),
    ).toEqual(refused("AVENTURE.Error.NotOwner", { name: "Mercenaire" }));
  });

  it("attack: rolling the sides of a hidden combatant is refused without its name", async () => {
    const world = await bootWorld({ system: "ose", users: [GM, PLAYER] });
    const scene = world.addScene({ _id: "s1" });
    for (const cl of world.liveClients()) viewScene(world, cl, scene);
    await set(world, "ruleset", "ose");
    world.addUserActor({ _id: "hero", name: "Aldric", ownership: { p1: 3 } });
    world.addUserActor({ _id: "orc", name: "Ambushing Orc", ownership: {} });
    world.addToken(scene, { _id: "tHero", name: "Aldric", actorId: "hero", actorLink: true, disposition: 1 });
    world.addToken(scene, { _id: "tOrc", name: "Ambushing Orc", actorId: "orc", actorLink: true, disposition: -1 });
    const id = await world.as("gm1", async () => {
      const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
      const c = await Combat.create({ scene: "s1", active: true });
      await c.createEmbeddedDocuments("Combatant", [
        { tokenId: "tHero", sceneId: "s1" },
        { tokenId: "tOrc", sceneId: "s1", hidden: true },
      ]);
      return c.id;
    });
    await world.settle();
    const combat = world.as("gm1", () => game.combats.get(id) as unknown as FakeCombat);
    const orc = combat.combatants.contents.find((x) => x.tokenId === "tOrc")!.id;
    const reply = await forgeRequest(world, "p1", "rollSides", { combatId: id, combatantIds: [orc] });
    expect(reply).toEqual(refused("AVENTURE.Error.NotOwnerUnknown.Combatant"));
    expect(JSON.stringify(reply)).not.toMatch(/orc/i);
    expect(world.rollsMade).toEqual([]);
  });
});

describe("cards of creatures the GM hid go to the GMs", () => {
  it("attack: api.fall(actor) of a world actor whose linked token the GM hid is whispered to the GMs (shown again: public)", async () => {
    const world = await bootWorld({ system: "dnd5e", users: USERS });
    const scene = world.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 } });
    for (const c of world.liveClients()) viewScene(world, c, scene);
    const ogre = addDnd5eActor(world, { id: "ogre", name: "Lurking Ogre", hp: { value: 40, max: 40, temp: null } });
    const token = world.addToken(scene, {
      _id: "tOgre",
      name: "Lurking Ogre",
      actorId: "ogre",
      actorLink: true,
      x: 0,
      y: 0,
      elevation: 0,
      hidden: true,
    });
    world.queueRolls(3, 4);
    expect(await as(world, "gm1", (a) => a.fall(ogre, 6))).toMatchObject({ dice: 2, total: 7 });
    const card = cardsWith(world, "fall").at(-1)!;
    expect(card.whisper.sort()).toEqual(["gm1", "gm2"]);
    for (const p of ["p1", "p2"]) expect(seenBy(world, p, cardsWith(world, "fall"))).toEqual([]);
    // A player's own character too: the GM hid its token (it is scouting unseen), its fall is not announced.
    const hero = addDnd5eActor(world, {
      id: "hero",
      name: "Aldric",
      owner: "p1",
      hp: { value: 20, max: 20, temp: null },
    });
    world.addToken(scene, {
      _id: "tHero",
      name: "Aldric",
      actorId: "hero",
      actorLink: true,
      x: 200,
      y: 0,
      elevation: 0,
      hidden: true,
    });
    world.queueRolls(2, 2);
    await as(world, "p1", (a) => a.fall(hero, 6));
    await world.settle();
    expect(cardsWith(world, "fall").at(-1)!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(seenBy(world, "p2", cardsWith(world, "fall"))).toEqual([]);
    // Shown again: the actor's next fall is public.
    await world.as("gm1", () => token.update({ hidden: false }));
    world.queueRolls(1, 1);
    await as(world, "gm1", (a) => a.fall(ogre, 6));
    expect(cardsWith(world, "fall").at(-1)!.whisper).toEqual([]);
  });

  it("attack: the change of intention of a hidden combatant (or of a hidden token) is whispered to the GMs; shown, public", async () => {
    for (const how of ["combatant", "token"] as const) {
      const { world, c, merc } = await intentionCombat({ merc: how });
      world.queueRolls(5);
      expect(
        await forgeRequest(world, "gm2", "polarisIntention", { combatId: c.id, combatantId: merc, chance: 10 }),
      ).toMatchObject({ ok: true });
      const cards = intentionCards(world);
      expect(cards, how).toHaveLength(1);
      expect(cards[0]!.whisper.sort(), how).toEqual(["gm1", "gm2"]);
      expect(seenBy(world, "p1", cards), how).toEqual([]);
    }
    // p1's own diver, whose token the GM hid: the card is the GMs'.
    const hidden = await intentionCombat({ diver: "token" });
    hidden.world.queueRolls(5);
    expect(
      await forgeRequest(hidden.world, "p1", "polarisIntention", {
        combatId: hidden.c.id,
        combatantId: hidden.diver,
        chance: 10,
      }),
    ).toMatchObject({ ok: true });
    expect(intentionCards(hidden.world)[0]!.whisper.sort()).toEqual(["gm1", "gm2"]);
    // Nobody hidden: public, as before.
    const { world, c, merc } = await intentionCombat();
    world.queueRolls(5);
    expect(
      await forgeRequest(world, "gm1", "polarisIntention", { combatId: c.id, combatantId: merc, chance: 10 }),
    ).toMatchObject({ ok: true });
    expect(intentionCards(world)[0]!.whisper).toEqual([]);
    expect(seenBy(world, "p1", intentionCards(world))).toHaveLength(1);
  });
});
