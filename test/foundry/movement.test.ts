/**
 * Movement glue (issue 4) against the strict fake: rule costs in the movement actions, the ruler label,
 * refusing moves beyond the speed, falls from regions, elevation drops and the API, exactly once.
 * Expected values come from RULES.md §3-§4.1 and the issue, not from the code.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { bootModule } from "../fake/boot.js";
import type { FakeActor, FakeWorld } from "../fake/foundry.js";
import { FakeElement, installChatDocuments } from "../fake/chat.js";
import { callAllClientsAwait, dialogAnswers, dialogsShown, fakeCanvas, rulerPath, type FakeScene, type FakeToken, type FakeWaypoint } from "../fake/tokens.js";

type CostFn = (baseCost: number, from: unknown, to: unknown, distance: number, segment: unknown) => number;
interface Actions {
  [k: string]: { getCostFunction(token: unknown, options?: unknown): CostFn };
}
const actions = () => (globalThis as unknown as { CONFIG: { Token: { movement: { actions: Actions } } } }).CONFIG.Token.movement.actions;
const api = (world: FakeWorld) =>
  world.modules.get("aventure")!.api as {
    fall(t: unknown, m: number): Promise<{ dice: number; total: number; prone: boolean; applied: boolean } | undefined>;
  };
const costOf = (path: FakeWaypoint[]) => path.at(-1)!.measurement.cost;
const tick = () => new Promise((r) => setTimeout(r, 0));

/**
 * A dnd5e character: speeds in feet (30 ft = 9 m), Strength 15 (+2), 20 hit points (and `temp` temporary ones).
 * Its applyDamage takes temporary hit points first, then hit points, as dnd5e's; `immune` makes it a no-op
 * (dnd5e with a damage immunity).
 */
function hero(
  world: FakeWorld,
  opts: { id?: string; swim?: number; climb?: number; damageApi?: boolean; owner?: string; immune?: boolean; temp?: number } = {},
) {
  const actor = world.addActor(
    {
      _id: opts.id ?? "hero",
      name: "Aldric",
      system: {
        abilities: { str: { value: 15, mod: 2 } },
        attributes: { movement: { walk: 30, climb: opts.climb ?? 0, swim: opts.swim ?? 0, units: "ft" }, hp: { value: 20, max: 20, temp: opts.temp ?? null } },
      },
    },
    opts.owner ? { [opts.owner]: 3 } : {},
  );
  const damage: unknown[] = [];
  if (opts.damageApi !== false) {
    actor.applyDamage = async (...args: unknown[]) => {
      damage.push(args[0]);
      if (opts.immune) return actor;
      const amount = (args[0] as { value: number }[]).reduce((sum, d) => sum + d.value, 0);
      const hp = (actor.system as { attributes: { hp: { value: number; temp: number | null } } }).attributes.hp;
      const fromTemp = Math.min(hp.temp ?? 0, amount);
      await actor.update({ "system.attributes.hp.temp": (hp.temp ?? 0) - fromTemp, "system.attributes.hp.value": Math.max(0, hp.value - (amount - fromTemp)) });
      return actor;
    };
  }
  return { actor, damage };
}

function setup(world: FakeWorld, grid = { units: "m", distance: 1.5 }) {
  const scene = fakeCanvas().addScene("s1", grid);
  return scene;
}

const USERS = [
  { id: "gm1", isGM: true },
  { id: "gm2", isGM: true },
  { id: "p1", isGM: false },
  { id: "p2", isGM: false },
];

describe("movement costs in the movement actions (RULES.md §3.1)", () => {
  let world: FakeWorld;
  let scene: FakeScene;
  beforeEach(async () => {
    world = await bootModule({ systemId: "dnd5e" });
    scene = setup(world);
  });

  it("climbing through difficult terrain costs 3 m per metre (core would charge 4)", async () => {
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor: hero(world).actor });
    const path = rulerPath(token, [
      ["climb", 1.5, 2],
      ["climb", 3, 2],
    ]);
    expect(costOf(path)).toBeCloseTo(4.5 * 3, 9);
    await world.game.settings.set("aventure", "movementCosts", false);
    expect(costOf(rulerPath(token, [["climb", 4.5, 2]]))).toBeCloseTo(4.5 * 4, 9); // core's own cost is back
  });

  it("swimming costs 2 m per metre without a swimming speed, 1 with one (dnd5e)", async () => {
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor: hero(world).actor });
    expect(costOf(rulerPath(token, [["swim", 6, 1]]))).toBe(12);
    const fish = fakeCanvas().addToken(scene, { id: "t2", name: "Nixe", actor: hero(world, { id: "nixe", swim: 30 }).actor });
    expect(costOf(rulerPath(fish, [["swim", 6, 1]]))).toBe(6);
    expect(costOf(rulerPath(fish, [["swim", 6, 2]]))).toBe(12);
  });

  it("rnp: a climbing speed changes nothing; walking 1 and 2; crawling 2 and 3; jumping 1 even on difficult ground", async () => {
    await world.game.settings.set("aventure", "ruleset", "rnp");
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor: hero(world, { climb: 30 }).actor });
    expect(costOf(rulerPath(token, [["climb", 3, 1]]))).toBe(6);
    expect(costOf(rulerPath(token, [["walk", 3, 1]]))).toBe(3);
    expect(costOf(rulerPath(token, [["walk", 3, 2]]))).toBe(6);
    expect(costOf(rulerPath(token, [["crawl", 3, 1]]))).toBe(6);
    expect(costOf(rulerPath(token, [["crawl", 3, 2]]))).toBe(9);
    expect(costOf(rulerPath(token, [["jump", 3, 2]]))).toBe(3);
  });

  it("measures a 200-waypoint path over 100 difficult segments well under 1 ms (bench: npm run bench)", () => {
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor: hero(world).actor });
    const segments: [string, number, number][] = Array.from({ length: 199 }, (_, i) => ["climb", 1.5, i % 2 === 0 ? 2 : 1]);
    expect(costOf(rulerPath(token, segments))).toBeCloseTo(100 * 1.5 * 3 + 99 * 1.5 * 2, 6);
    // What the module does per measurement: one getCostFunction (reads the actor), one call per segment.
    const measure = () => {
      const fn = actions().climb!.getCostFunction(token, {});
      let total = 0;
      for (const [, d, terrain] of segments) total += fn(d * terrain, null, null, d, null);
      return total;
    };
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const start = performance.now();
      measure();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    expect(times[10]).toBeLessThan(1); // median, ms per path
  });

  it("never multiplies the terrain twice, keeps impassable terrain, leaves fly to core", () => {
    const climb = actions().climb!.getCostFunction(null, {});
    expect(climb(3, {}, {}, 1.5, {})).toBe(4.5); // baseCost 3 over 1.5 m: difficult → 3 per metre
    expect(climb(Infinity, {}, {}, 1.5, {})).toBe(Infinity);
    expect(climb(0, {}, {}, 0, {})).toBe(0);
    expect(actions().fly!.getCostFunction(null, {})(3, {}, {}, 1.5, {})).toBe(3);
  });
});

describe("token ruler label", () => {
  let world: FakeWorld;
  let scene: FakeScene;
  let token: FakeToken;
  const ruler = (t: FakeToken) => {
    const Ruler = (globalThis as unknown as { CONFIG: { Token: { rulerClass: new (t: unknown) => { _getWaypointLabelContext(w: unknown, s: object): Record<string, unknown> | undefined } } } })
      .CONFIG.Token.rulerClass;
    return new Ruler({ document: t, actor: t.actor });
  };
  const labels = (t: FakeToken, path: FakeWaypoint[]) => {
    const r = ruler(t);
    const state = {};
    return path.map((w) => r._getWaypointLabelContext(w, state));
  };
  beforeEach(async () => {
    world = await bootModule({ systemId: "dnd5e" });
    scene = setup(world, { units: "ft", distance: 5 });
    token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor: hero(world).actor });
  });

  it("shows the cost in metres (display setting) and, for the current combatant, the movement left", () => {
    fakeCanvas().setCombat({ started: true, combatant: { tokenId: "t1", sceneId: "s1" } });
    // 10 ft walk + 10 ft difficult = 30 ft of cost = 9 m: exactly the 9 m speed.
    const out = labels(token, rulerPath(token, [["walk", 10, 1], ["walk", 10, 2]]));
    const last = out.at(-1) as { cost: { total: string; units: string }; aventure: { left: { total: string } | null; exceeded: boolean } };
    expect(last.cost).toEqual({ total: "9", units: "m", delta: "+6" });
    expect(last.aventure.left).toEqual({ total: "0", units: "m" });
    expect(last.aventure.exceeded).toBe(false);
    // 5 ft further: 10.5 m spent, 1.5 m beyond the speed.
    const over = labels(token, rulerPath(token, [["walk", 10, 1], ["walk", 10, 2], ["walk", 5, 1]])).at(-1) as {
      cssClass: string;
      aventure: { left: { total: string }; exceeded: boolean };
    };
    expect(over.aventure.exceeded).toBe(true);
    expect(over.aventure.left.total).toBe("1.5"); // "Beyond the speed: 1.5 m"
    expect(over.cssClass).toContain("aventure-exceeded");
  });

  it("shows the delta since the previous label in the unit of the total (metres on a feet scene)", async () => {
    // 10 ft walk (3 m), then 10 ft difficult (20 ft of cost = 6 m), then 5 ft walk (1.5 m).
    const out = labels(token, rulerPath(token, [["walk", 10, 1], ["walk", 10, 2], ["walk", 5, 1]])) as ({ cost: Record<string, string> } | undefined)[];
    expect(out[1]!.cost).toEqual({ total: "3", units: "m" }); // core gives no delta on the first label
    expect(out[2]!.cost).toEqual({ total: "9", units: "m", delta: "+6" });
    expect(out[3]!.cost).toEqual({ total: "10.5", units: "m", delta: "+1.5" });
    await world.game.settings.set("aventure", "distanceDisplay", "grid");
    const grid = labels(token, rulerPath(token, [["walk", 10, 1], ["walk", 10, 2]])) as ({ cost: Record<string, string> } | undefined)[];
    expect(grid[2]!.cost).toEqual({ total: "30", units: "ft", delta: "+20" });
  });

  it("shows grid units when asked, and no movement left outside the combatant's turn", async () => {
    await world.game.settings.set("aventure", "distanceDisplay", "grid");
    const last = labels(token, rulerPath(token, [["walk", 10, 2]])).at(-1) as { cost: { total: string; units: string }; aventure: { left: unknown } };
    expect(last.cost).toEqual({ total: "20", units: "ft" });
    expect(last.aventure.left).toBeNull();
  });

  it("leaves the label to core when the movement cost automation is off", async () => {
    await world.game.settings.set("aventure", "movementCosts", false);
    const last = labels(token, rulerPath(token, [["walk", 10, 2]])).at(-1) as Record<string, unknown>;
    expect(last.aventure).toBeUndefined();
    expect(last.cost).toEqual({ total: "20", units: "ft" });
  });

  it("warns when a single jump is longer than the long jump (dnd5e Str 15: 5 m with run-up, 2.5 m standing)", () => {
    // 10 ft (3 m) run-up then a 20 ft (6 m) jump: too long; a 15 ft (4.5 m) one is fine.
    const long = labels(token, rulerPath(token, [["walk", 10, 1], ["jump", 20, 1]])).at(-1) as { aventure: { warning: string | null } };
    expect(long.aventure.warning).toBe("Jump of 6 m: longer than the long jump (5 m)");
    const ok = labels(token, rulerPath(token, [["walk", 10, 1], ["jump", 15, 1]])).at(-1) as { aventure: { warning: string | null } };
    expect(ok.aventure.warning).toBeNull();
    // Standing (no run-up): 10 ft = 3 m is beyond 2.5 m.
    const standing = labels(token, rulerPath(token, [["jump", 10, 1]])).at(-1) as { aventure: { warning: string | null } };
    expect(standing.aventure.warning).toContain("2.5 m");
  });
});

describe("refusing moves beyond the speed (setting)", () => {
  const movement = (cost: number, history = 0) => ({
    history: { cost: history },
    passed: { cost: 0, waypoints: [] },
    pending: { cost, waypoints: [{ action: "walk" }] },
  });

  it("refuses a player's move beyond the combatant's speed, never a GM's", async () => {
    const world = await bootModule({ systemId: "dnd5e", users: USERS });
    const scene = setup(world);
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor: hero(world, { owner: "p1" }).actor });
    fakeCanvas().setCombat({ started: true, combatant: { tokenId: "t1", sceneId: "s1" } });
    const pre = (m: object) => world.hooks.call("preMoveToken", token, m, {});
    await world.asUser("p1", () => expect(pre(movement(10.5))).toBe(true)); // setting off by default
    await world.game.settings.set("aventure", "movementRefuse", true);
    await world.asUser("p1", () => {
      expect(pre(movement(9))).toBe(true);
      expect(pre(movement(4.5, 6))).toBe(false);
    });
    expect(world.notifications.at(-1)).toEqual({ type: "warn", message: "Aldric cannot move that far this turn (speed 9 m)." });
    expect(pre(movement(30))).toBe(true); // gm1
    fakeCanvas().setCombat({ started: true, combatant: { tokenId: "other", sceneId: "s1" } });
    await world.asUser("p1", () => expect(pre(movement(30))).toBe(true));
  });
});

describe("falls (RULES.md §4.1)", () => {
  let world: FakeWorld;
  let scene: FakeScene;
  beforeEach(async () => {
    world = await bootModule({ systemId: "dnd5e", users: USERS });
    scene = setup(world);
  });

  const fallBehavior = (height: number) => {
    const Type = (globalThis as unknown as { CONFIG: { RegionBehavior: { dataModels: Record<string, unknown>; typeIcons: Record<string, string> } } }).CONFIG
      .RegionBehavior.dataModels["aventure.fall"] as { new (d: object): { height: number }; events: Record<string, (this: unknown, e: unknown) => Promise<void>> };
    return { Type, behavior: new Type({ height }) };
  };

  it("registers the region behaviour type with its icon and label", () => {
    const { behavior } = fallBehavior(4);
    expect(behavior.height).toBe(4);
    const config = (globalThis as unknown as { CONFIG: { RegionBehavior: { typeIcons: Record<string, string> } } }).CONFIG.RegionBehavior;
    expect(config.typeIcons["aventure.fall"]).toBe("fa-solid fa-person-falling");
    expect(world.i18n.localize("TYPES.RegionBehavior.aventure.fall")).toBe("Fall (Aventure)");
  });

  it("a 9 m fall region rolls 3d6 once with two GMs connected, deals bludgeoning damage and sets prone", async () => {
    const { actor, damage } = hero(world, { owner: "p1" });
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor });
    const { Type, behavior } = fallBehavior(9);
    world.rolls.push(3, 4, 4);
    const event = { name: "tokenMoveIn", user: world.users.getStrict("p1"), data: { token, movement: { passed: { waypoints: [{ action: "walk" }] } } } };
    for (const u of world.users.filter((x) => x.active)) await world.asUser(u.id, () => Type.events.tokenMoveIn!.call(behavior, event));
    expect(world.rolls.made.map((r) => r.formula)).toEqual(["3d6"]);
    expect(damage).toEqual([[{ value: 11, type: "bludgeoning" }]]);
    expect(actor.statuses.has("prone")).toBe(true);
    expect(token.stopped).toBe(1); // stopped on the mover's client only
    expect(world.messages).toHaveLength(2); // the visible roll and the card
    expect(world.messages[0]!.rolls).toHaveLength(1);
    expect(world.messages[1]!.content).toContain("Aldric falls 9 m.");
    expect(world.messages[1]!.content).toContain("11 bludgeoning damage");
    expect(world.messages[1]!.content).not.toContain("aventure-apply-fall");
  });

  it("a flying token crosses a fall region without falling", async () => {
    const { actor } = hero(world);
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor });
    const { Type, behavior } = fallBehavior(9);
    const event = { user: world.users.getStrict("gm1"), data: { token, movement: { passed: { waypoints: [{ action: "fly" }] } } } };
    await world.asUser("gm1", () => Type.events.tokenMoveIn!.call(behavior, event));
    expect(world.rolls.made).toEqual([]);
    expect(token.stopped).toBe(0);
  });

  const drop = (token: FakeToken, from: number, to: number, action = "walk") => ({
    origin: { elevation: from },
    destination: { elevation: to },
    passed: { waypoints: [{ action }] },
    pending: { waypoints: [] },
  });

  it("an automatic 9 m elevation drop falls once with two GMs; a 2 m drop does nothing", async () => {
    await world.game.settings.set("aventure", "fallOnDrop", "automatic");
    const { actor, damage } = hero(world, { owner: "p1" });
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor });
    await callAllClientsAwait(world, "moveToken", token, drop(token, 2, 0), {}, world.users.getStrict("p1"));
    await callAllClientsAwait(world, "moveToken", token, drop(token, 12, 10), {}, world.users.getStrict("p1"));
    expect(world.rolls.made).toEqual([]);
    expect(world.messages).toEqual([]);
    world.rolls.push(6, 6, 6);
    await callAllClientsAwait(world, "moveToken", token, drop(token, 9, 0), {}, world.users.getStrict("p1"));
    expect(world.rolls.made.map((r) => r.formula)).toEqual(["3d6"]);
    expect(damage).toEqual([[{ value: 18, type: "bludgeoning" }]]);
    expect(actor.statuses.has("prone")).toBe(true);
  });

  it("asks the GM on a drop when set to ask; a flying token never falls; off does nothing", async () => {
    const { actor } = hero(world);
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric <b>", actor });
    dialogAnswers.push(false);
    await callAllClientsAwait(world, "moveToken", token, drop(token, 6, 0), {}, world.users.getStrict("gm1"));
    expect(dialogsShown).toEqual(["<p>Aldric &#60;b&#62; dropped 6 m. Does the creature fall?</p>"]); // the name is text, not HTML
    expect(world.rolls.made).toEqual([]);
    dialogAnswers.push(true);
    world.rolls.push(1, 2);
    await callAllClientsAwait(world, "moveToken", token, drop(token, 6, 0), {}, world.users.getStrict("gm1"));
    expect(world.rolls.made.map((r) => r.formula)).toEqual(["2d6"]);
    await callAllClientsAwait(world, "moveToken", token, drop(token, 30, 0, "fly"), {}, world.users.getStrict("gm1"));
    actor.statuses.add("flying");
    await callAllClientsAwait(world, "moveToken", token, drop(token, 30, 0), {}, world.users.getStrict("gm1"));
    await world.game.settings.set("aventure", "fallOnDrop", "off");
    actor.statuses.delete("flying");
    await callAllClientsAwait(world, "moveToken", token, drop(token, 30, 0), {}, world.users.getStrict("gm1"));
    expect(dialogsShown).toHaveLength(2);
    expect(world.rolls.made).toHaveLength(1);
  });

  it("one fall per movement: a fall region and a drop in the same move, two fall regions, one moveToken per checkpoint", async () => {
    await world.game.settings.set("aventure", "fallOnDrop", "automatic");
    const { actor, damage } = hero(world, { owner: "p1" });
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor });
    const { Type, behavior } = fallBehavior(9);
    const other = new Type({ height: 6 });
    const movement = { id: "move1", ...drop(token, 9, 0) };
    const event = { name: "tokenMoveIn", user: world.users.getStrict("p1"), data: { token, movement } };
    // Dice enough for every fall a buggy module would roll: only the first must be used.
    world.rolls.push(3, 4, 4, ...Array<number>(12).fill(1));
    for (const u of world.users.filter((x) => x.active)) {
      await world.asUser(u.id, async () => {
        await Type.events.tokenMoveIn!.call(behavior, event);
        await Type.events.tokenMoveIn!.call(other, event);
      });
    }
    await callAllClientsAwait(world, "moveToken", token, movement, {}, world.users.getStrict("p1"));
    await callAllClientsAwait(world, "moveToken", token, movement, {}, world.users.getStrict("p1"));
    expect(world.rolls.made.map((r) => r.formula)).toEqual(["3d6"]); // the first trigger (9 m region) only
    expect(damage).toEqual([[{ value: 11, type: "bludgeoning" }]]);
    expect(world.messages).toHaveLength(2); // one roll, one card
    expect(world.notifications).toEqual([]);
    // The next movement is a new fall.
    await callAllClientsAwait(world, "moveToken", token, { id: "move2", ...drop(token, 6, 0) }, {}, world.users.getStrict("p1"));
    expect(world.rolls.made.map((r) => r.formula)).toEqual(["3d6", "2d6"]);
    expect(damage).toHaveLength(2);
  });

  it("an undone move and a teleport (blink, displace) to a lower elevation are no falls", async () => {
    await world.game.settings.set("aventure", "fallOnDrop", "automatic");
    const { actor } = hero(world, { owner: "p1" });
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor });
    await callAllClientsAwait(world, "moveToken", token, { ...drop(token, 9, 0), method: "undo" }, {}, world.users.getStrict("p1"));
    await callAllClientsAwait(world, "moveToken", token, drop(token, 9, 0, "blink"), {}, world.users.getStrict("gm1"));
    await callAllClientsAwait(world, "moveToken", token, drop(token, 9, 0, "displace"), {}, world.users.getStrict("gm1"));
    const { Type, behavior } = fallBehavior(9);
    const event = { name: "tokenMoveIn", user: world.users.getStrict("gm1"), data: { token, movement: drop(token, 0, 0, "blink") } };
    await world.asUser("gm1", () => Type.events.tokenMoveIn!.call(behavior, event));
    expect(world.rolls.made).toEqual([]);
    expect(world.messages).toEqual([]);
    expect(token.stopped).toBe(0);
  });

  it("api.fall on an unlinked token's actor hurts that token's actor, not the base actor", async () => {
    const { actor: base, damage: baseDamage } = hero(world, { owner: "p1" });
    const { token, actor } = fakeCanvas().addUnlinkedToken(scene, base, { id: "t9", name: "Aldric (copy)" });
    const damage: unknown[] = [];
    actor.applyDamage = async (...args: unknown[]) => {
      damage.push(args[0]);
      await actor.update({ "system.attributes.hp.value": 20 - (args[0] as { value: number }[])[0]!.value });
      return actor;
    };
    world.rolls.push(5, 5, 5);
    const result = await world.asUser("p1", () => api(world).fall(actor, 9));
    expect(result).toMatchObject({ dice: 3, total: 15, applied: true, prone: true });
    expect(damage).toEqual([[{ value: 15, type: "bludgeoning" }]]);
    expect(baseDamage).toEqual([]);
    expect(actor.statuses.has("prone")).toBe(true);
    expect(base.statuses.has("prone")).toBe(false);
    expect(world.messages.at(-1)!.content).toContain("Aldric (copy) falls 9 m.");
    expect(token.id).toBe("t9");
  });

  it("a token without an actor gets a clear message and nothing changes", async () => {
    const token = fakeCanvas().addToken(scene, { id: "t0", name: "Statue", actor: null });
    const result = await api(world).fall(token, 9);
    expect(result).toBeUndefined();
    expect(world.notifications).toEqual([{ type: "error", message: "Statue has no actor." }]);
    expect(world.rolls.made).toEqual([]);
    expect(world.messages).toEqual([]);
  });

  it("a player's request runs on the active GM, once; a player who does not own the token is refused", async () => {
    const { actor, damage } = hero(world, { owner: "p1" });
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor });
    world.rolls.push(2, 5);
    const result = await world.asUser("p1", () => api(world).fall(token, 7.5));
    expect(result).toEqual({ metres: 7.5, dice: 2, total: 7, applied: true, prone: true });
    expect(damage).toHaveLength(1);
    expect(world.messages.map((m) => m.author)).toEqual(["gm1", "gm1"]);
    const refused = await world.asUser("p2", () => api(world).fall(token, 9));
    expect(refused).toBeUndefined();
    expect(world.notifications.at(-1)).toEqual({ type: "error", message: "You do not own Aldric." });
    // The GM checks again whatever a client sends.
    const handler = world.CONFIG.queries["aventure.fall"]!;
    const reply = await world.asUser("gm1", () => handler({ sceneId: "s1", tokenId: "t1", metres: 9 }, { user: world.users.getStrict("p2") }));
    expect(reply).toEqual({ ok: false, key: "AVENTURE.Error.NotOwner", data: { name: "Aldric" } });
    const bad = await world.asUser("gm1", () => handler({ sceneId: "s1", tokenId: "t1", metres: -3 }, { user: world.users.getStrict("p1") }));
    expect(bad).toMatchObject({ ok: false, key: "AVENTURE.Error.Negative" });
    expect(world.rolls.made).toHaveLength(1);
  });

  it("where the system has no damage API: a card with an Apply damage button; applying lowers hit points and sets prone", async () => {
    const { actor } = hero(world, { damageApi: false });
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor });
    world.rolls.push(4, 3, 1);
    const result = await api(world).fall(token, 10);
    expect(result).toMatchObject({ dice: 3, total: 8, applied: false, prone: false });
    expect(actor.statuses.has("prone")).toBe(false);
    const card = world.messages.at(-1)!;
    expect(card.content).toContain('data-action="aventure-apply-fall"');
    const flag = (card.flags as { aventure: { fall: { pending: boolean; damage: number } } }).aventure.fall;
    expect(flag).toMatchObject({ pending: true, damage: 8, sceneId: "s1", tokenId: "t1" });
    const { applyPendingFall } = await import("../../src/foundry/movement/fall.js");
    await world.asUser("p1", async () => expect(applyPendingFall(flag as never)).rejects.toThrow("AVENTURE.Error.GMOnly"));
    expect(await applyPendingFall(flag as never)).toBe(true);
    expect((actor.system as { attributes: { hp: { value: number } } }).attributes.hp.value).toBe(12);
    expect(actor.statuses.has("prone")).toBe(true);
  });

  it("the Apply damage button: GMs only, and only on a card a GM wrote (a player's forged card gets none)", async () => {
    const { onRenderFallCard } = await import("../../src/foundry/movement/fall.js");
    const { FakeElement } = await import("../fake/chat.js");
    const flags = { aventure: { fall: { sceneId: "s1", tokenId: "t1", name: "Aldric", damage: 50, pending: true } } };
    const render = (author: unknown) => {
      const button = new FakeElement();
      onRenderFallCard({ flags, author } as never, new FakeElement({ "[data-action='aventure-apply-fall']": button }) as never);
      return button;
    };
    const byGM = render(world.users.getStrict("gm2"));
    expect(byGM.removed).toBe(false);
    expect(byGM.listeners).toHaveLength(1);
    expect(render("gm2").removed).toBe(false); // a user id works too
    expect(render(world.users.getStrict("p1")).removed).toBe(true);
    expect(render("p1").removed).toBe(true);
    await world.asUser("p1", () => expect(render(world.users.getStrict("gm1")).removed).toBe(true)); // players never see it
  });

  /** A fall card waiting for its damage (no damage API): Aldric, 20 hit points, falls 10 m for 4 + 3 + 1 = 8. */
  async function pendingCard() {
    const docs = installChatDocuments(world);
    const { actor } = hero(world, { damageApi: false });
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor });
    world.rolls.push(4, 3, 1);
    await api(world).fall(token, 10);
    const card = docs.at(-1)!;
    expect(card.flags.aventure!.fall).toMatchObject({ pending: true, damage: 8 });
    const hpWrites = () => actor.updates.filter((u) => "system.attributes.hp.value" in u).length;
    const hp = () => (actor.system as { attributes: { hp: { value: number } } }).attributes.hp.value;
    return { docs, actor, card, hpWrites, hp };
  }
  const fallCardElement = () => {
    const button = new FakeElement();
    return { button, html: new FakeElement({ "[data-action='aventure-apply-fall']": button }) };
  };
  const fallApply = (world: FakeWorld) => world.CONFIG.queries["aventure.fallApply"]!;

  it("Apply damage clicked by two GMs at once: the active GM applies it once", async () => {
    const { actor, card, hpWrites, hp } = await pendingCard();
    const rendered: Record<string, ReturnType<typeof fallCardElement>> = {};
    for (const u of ["gm1", "gm2", "p1"]) {
      rendered[u] = fallCardElement();
      await world.asUser(u, () => world.hooks.callAll("renderChatMessageHTML", card, rendered[u]!.html));
    }
    expect(rendered.p1!.button.removed).toBe(true);
    await world.asUser("gm2", async () => rendered.gm2!.button.click());
    await world.asUser("gm1", async () => rendered.gm1!.button.click());
    for (let i = 0; i < 200 && (rendered.gm1!.button.disabled || rendered.gm2!.button.disabled); i++) await tick();
    expect(rendered.gm1!.button.disabled || rendered.gm2!.button.disabled).toBe(false);
    expect(hpWrites()).toBe(1);
    expect(hp()).toBe(12);
    expect(actor.statuses.has("prone")).toBe(true);
    expect(card.updatedBy).toEqual(["gm1"]); // gm2 clicked first, but the active GM applied it
    expect(card.flags.aventure!.fall).toMatchObject({ pending: false });
    expect([...world.notifications].sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { type: "error", message: "The fall damage of Aldric was already applied." },
      { type: "info", message: "Fall damage applied to Aldric: 8 hit points." },
    ]);
    // Re-rendered after the update: no button anywhere.
    const again = fallCardElement();
    world.hooks.callAll("renderChatMessageHTML", card, again.html);
    expect(again.button.removed).toBe(true);
  });

  it("two requests for the same card handled at once on the active GM (the flag not written back yet): one applies", async () => {
    const { card, hpWrites, hp } = await pendingCard();
    // Foundry changes a message when the server answers: until then the card still reads pending.
    const setFlag = card.setFlag.bind(card);
    card.setFlag = async (scope: string, key: string, value: unknown) => {
      await tick();
      return setFlag(scope, key, value);
    };
    const handler = fallApply(world);
    const replies = await world.asUser("gm1", () =>
      Promise.all([handler({ messageId: card.id }, { user: world.users.getStrict("gm2") }), handler({ messageId: card.id }, { user: world.users.getStrict("gm1") })]),
    );
    expect(replies).toEqual([
      { ok: true, name: "Aldric", damage: 8 },
      { ok: false, key: "AVENTURE.Movement.Fall.alreadyApplied", data: { name: "Aldric" } },
    ]);
    expect(hpWrites()).toBe(1);
    expect(hp()).toBe(12);
    // Once done, the card can no longer be applied.
    expect(await world.asUser("gm1", () => handler({ messageId: card.id }, { user: world.users.getStrict("gm1") }))).toMatchObject({
      ok: false,
      key: "AVENTURE.Movement.Fall.alreadyApplied",
    });
  });

  it("Apply damage refuses a player, an unknown message, a card a player wrote and bad flags; nothing changes", async () => {
    const { docs, actor, card, hpWrites } = await pendingCard();
    const { requestFallApply } = await import("../../src/foundry/movement/fall.js");
    expect(await world.asUser("p1", () => requestFallApply(card.id))).toEqual({ ok: false, key: "AVENTURE.Error.GMOnly", data: {} });
    expect(await requestFallApply("nope")).toMatchObject({ ok: false, key: "AVENTURE.Movement.Fall.notPending" });
    const good = { sceneId: "s1", tokenId: "t1", name: "Aldric", damage: 8, pending: true };
    const forge = async (user: string, fall: unknown) => {
      await world.asUser(user, () => world.ChatMessage.create({ content: "", flags: { aventure: { fall } } }));
      return docs.at(-1)!.id;
    };
    const ids = [
      await forge("p1", good), // a player's message with a pending fall's flags
      await forge("gm1", { ...good, pending: "yes" }),
      await forge("gm1", { ...good, damage: "8" }),
      await forge("gm1", { ...good, damage: -8 }),
      await forge("gm1", { ...good, damage: Infinity }),
      await forge("gm1", { name: "Aldric", damage: 8, pending: true }),
      await forge("gm1", { ...good, name: 3 }),
      await forge("gm1", "pending"),
    ];
    for (const messageId of ids) {
      const reply = await world.asUser("gm1", () => fallApply(world)({ messageId }, { user: world.users.getStrict("gm2") }));
      expect(reply).toMatchObject({ ok: false, key: "AVENTURE.Movement.Fall.notPending" });
    }
    expect(await world.asUser("gm1", () => fallApply(world)({ messageId: 42 }, { user: world.users.getStrict("gm1") }))).toMatchObject({
      ok: false,
      key: "AVENTURE.Movement.Fall.notPending",
    });
    expect(world.notifications.map((n) => n.message)).toEqual([
      "Only a game master can do this.",
      "This message is not a fall card waiting for its damage.",
    ]);
    expect(hpWrites()).toBe(0);
    expect(actor.statuses.has("prone")).toBe(false);
    expect(card.flags.aventure!.fall).toMatchObject({ pending: true });
    expect(docs.flatMap((m) => m.updatedBy)).toEqual([]);
  });

  it("when applying fails, the card is pending again and the GM gets a localized error; a later click applies it", async () => {
    const { actor, card, hpWrites, hp } = await pendingCard();
    const { requestFallApply } = await import("../../src/foundry/movement/fall.js");
    const update = actor.update.bind(actor);
    actor.update = async () => {
      throw new Error("server unreachable");
    };
    expect(await requestFallApply(card.id)).toMatchObject({ ok: false, key: "AVENTURE.Movement.Fall.applyFailed" });
    expect(world.notifications).toEqual([
      { type: "error", message: "The fall damage could not be applied (server unreachable); the card still offers it." },
    ]);
    expect(card.flags.aventure!.fall).toMatchObject({ pending: true });
    expect(actor.statuses.has("prone")).toBe(false);
    actor.update = update;
    expect(await requestFallApply(card.id)).toEqual({ ok: true, name: "Aldric", damage: 8 });
    expect(hpWrites()).toBe(1);
    expect(hp()).toBe(12);
    expect(card.flags.aventure!.fall).toMatchObject({ pending: false });
  });

  it("prone only when hit points went down: an immune creature takes the applyDamage call but is not prone", async () => {
    const { actor, damage } = hero(world, { immune: true });
    world.rolls.push(3, 4, 4);
    expect(await api(world).fall(actor as unknown as FakeActor, 9)).toMatchObject({ total: 11, applied: true, prone: false });
    expect(damage).toEqual([[{ value: 11, type: "bludgeoning" }]]);
    expect(actor.statuses.has("prone")).toBe(false);
    expect(world.messages.at(-1)!.content).not.toContain("Aldric is prone.");
    const hurt = hero(world, { id: "hurt" });
    world.rolls.push(3, 4, 4);
    expect(await api(world).fall(hurt.actor as unknown as FakeActor, 9)).toMatchObject({ total: 11, applied: true, prone: true });
    expect((hurt.actor.system as { attributes: { hp: { value: number } } }).attributes.hp.value).toBe(9);
    expect(hurt.actor.statuses.has("prone")).toBe(true);
  });

  it("temporary hit points lost count as damage taken (dnd5e); unreadable hit points keep prone on applied damage", async () => {
    const { actor } = hero(world, { temp: 10 });
    world.rolls.push(1, 1, 1);
    expect(await api(world).fall(actor as unknown as FakeActor, 9)).toMatchObject({ total: 3, prone: true });
    expect((actor.system as { attributes: { hp: { value: number; temp: number } } }).attributes.hp).toMatchObject({ value: 20, temp: 7 });
    // No hit points to read: the damage the system applied counts as taken.
    const blob = world.addActor({ _id: "blob", name: "Blob", system: { attributes: { movement: { walk: 30, units: "ft" } } } }, {});
    blob.applyDamage = async () => blob;
    world.rolls.push(2, 2, 2);
    expect(await api(world).fall(blob, 9)).toMatchObject({ total: 6, applied: true, prone: true });
    expect(blob.statuses.has("prone")).toBe(true);
  });

  it("a fall under 3 m from the API posts a card without dice", async () => {
    const { actor, damage } = hero(world);
    await api(world).fall(actor as unknown as FakeActor, 2.5);
    expect(world.rolls.made).toEqual([]);
    expect(damage).toEqual([]);
    expect(world.messages).toHaveLength(1);
    expect(world.messages[0]!.content).toContain("Under 3 m: no damage.");
  });
});

describe("jump panel and HUD buttons", () => {
  it("adds the Jumps and Fall buttons to the token HUD", async () => {
    await bootModule({ systemId: "dnd5e" });
    const { hudButtons } = await import("../../src/foundry/token-hud.js");
    expect(hudButtons().map((b) => b.id)).toEqual(expect.arrayContaining(["jumps", "fall"]));
  });

  it("shows dnd5e jumps for Strength 15 (+2): long 5 m / 2.5 m, high 1.67 m / 0.83 m", async () => {
    const world = await bootModule({ systemId: "dnd5e" });
    const scene = setup(world);
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor: hero(world).actor });
    const { JumpPanel } = await import("../../src/apps/JumpPanel.js");
    const panel = new JumpPanel(token);
    await panel.render();
    const html = (panel as unknown as { lastHTML: string }).lastHTML.replace(/\s+/g, " ");
    expect(html).toContain("<th scope=\"row\">Long jump</th> <td>5 m</td> <td>2.5 m</td>");
    expect(html).toContain("<th scope=\"row\">High jump</th> <td>1.67 m</td> <td>0.83 m</td>");
    expect(html).toContain("Landing in difficult terrain: Dexterity (Acrobatics) DC 10");
  });

  it("the fall dialog makes each token fall; its card says whether it came from the HUD or a macro", async () => {
    const world = await bootModule({ systemId: "dnd5e", users: USERS });
    const scene = setup(world);
    const token = fakeCanvas().addToken(scene, { id: "t1", name: "Aldric", actor: hero(world).actor });
    const { FallDialog } = await import("../../src/apps/FallDialog.js");
    type Handler = (this: unknown, e: Event, f: unknown, d: { object: Record<string, unknown> }) => Promise<void>;
    const submit = (dialog: unknown, metres: number) =>
      ((FallDialog as unknown as { DEFAULT_OPTIONS: { form: { handler: Handler } } }).DEFAULT_OPTIONS.form.handler).call(dialog, new Event("submit"), null, {
        object: { metres },
      });
    world.rolls.push(2);
    await submit(new FallDialog([token], "hud"), 3);
    expect(world.messages.at(-1)!.content).toContain("Fall from the token HUD.");
    world.rolls.push(2);
    await submit(new FallDialog([token]), 3);
    expect(world.messages.at(-1)!.content).toContain(world.i18n.localize("AVENTURE.Movement.Fall.source.api")); // "Fall requested by (a) macro."
    expect(world.messages.at(-1)!.content).not.toContain("Fall from the token HUD.");
    expect(world.rolls.made.map((r) => r.formula)).toEqual(["1d6", "1d6"]);
  });

  it("api.showJumps and api.fallDialog ask for a token when none is selected", async () => {
    const world = await bootModule({ systemId: "dnd5e" });
    const a = world.modules.get("aventure")!.api as { showJumps(): Promise<void>; fallDialog(): Promise<void> };
    await a.showJumps();
    await a.fallDialog();
    expect(world.notifications).toEqual([
      { type: "error", message: "Select a token first." },
      { type: "error", message: "Select a token first." },
    ]);
  });
});
