/**
 * Hooks for other modules (src/core/extension-hooks.ts, docs/api.md "Hooks for other modules"): called once, on
 * the GM who executes the operation; a `pre` hook returning false cancels before anything is rolled or written.
 */
import { describe, expect, it, vi } from "vitest";
import { addDnd5eActor, bootWorld, GM, GM2, PLAYER, viewScene, type FakeWorld } from "../world/index.js";
import { announce, EXTENSION_HOOKS } from "../../src/core/extension-hooks.js";
import { expectLogged, expectedLogs } from "../setup/quiet.js";
import { listen } from "../world/listen.js";
import { cardsOf } from "./card-state.js";

type Api = { fall(t: unknown, m: number): Promise<{ total: number; applied: boolean } | undefined> };

async function boot() {
  const world = await bootWorld({ system: "dnd5e", users: [GM, GM2, PLAYER] });
  const scene = world.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 } });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  const actor = addDnd5eActor(world, {
    id: "hero",
    name: "Aldric",
    owner: "p1",
    abilities: { str: 15 },
    hp: { value: 20, max: 20, temp: null },
  });
  const token = world.addToken(scene, {
    _id: "t1",
    name: "Aldric",
    actorId: actor.id,
    actorLink: true,
    x: 0,
    y: 0,
    elevation: 0,
  });
  return { world, scene, actor, token };
}

const hp = (world: FakeWorld) => (world.actors.get("hero")!.system.attributes as { hp: { value: number } }).hp.value;
const fallCards = (world: FakeWorld) => cardsOf(world.messages.contents, "fall");

describe("hooks for other modules", () => {
  it("are the ten documented names", () => {
    expect(EXTENSION_HOOKS).toEqual([
      "aventure.preFall",
      "aventure.fall",
      "aventure.preTravel",
      "aventure.travelApplied",
      "aventure.travelUndone",
      "aventure.hidden",
      "aventure.revealed",
      "aventure.sideRound",
      "aventure.chaseStep",
      "aventure.explorationTurn",
    ]);
  });

  it("aventure.preFall then aventure.fall: once, on the active GM only, with the fall's outcome", async () => {
    const { world, actor, token } = await boot();
    const pre = listen(world, "aventure.preFall");
    const after = listen(world, "aventure.fall");
    world.queueRolls(2, 5);
    const result = await world.as("p1", () => world.api<Api>("p1").fall(token, 7.5));
    await world.settle();
    expect(result?.total).toBe(7);
    expect(pre.map((c) => c.user)).toEqual(["gm1"]);
    expect(pre[0]!.data).toMatchObject({ metres: 7.5, source: "api" });
    expect(pre[0]!.data.actor).toBe(world.as("gm1", () => game.actors.get("hero")));
    expect(after.map((c) => c.user)).toEqual(["gm1"]);
    expect(after[0]!.data).toMatchObject({
      metres: 7.5,
      damage: 7,
      applied: true,
      prone: true,
      messageId: fallCards(world)[0]!.id,
    });
    expect(hp(world)).toBe(13);
    void actor;
  });

  it("a preFall handler returning false cancels the fall: no roll, no card, no damage; the player is told", async () => {
    const { world, token } = await boot();
    listen(world, "aventure.preFall", () => false);
    const after = listen(world, "aventure.fall");
    world.queueRolls(2, 5);
    const mark = world.writes.length;
    expect(await world.as("p1", () => world.api<Api>("p1").fall(token, 7.5))).toBeUndefined();
    await world.settle();
    expect(fallCards(world)).toEqual([]);
    expect(hp(world)).toBe(20);
    expect(after).toEqual([]);
    expect(world.writesSince(mark).filter((w) => w.documentName !== "ChatMessage")).toEqual([]); // only the request's own message
    expect(world.notifications.filter((n) => n.user === "p1" && n.type === "error").map((n) => n.message)).toEqual([
      "Another module cancelled this (aventure.preFall): nothing was rolled or changed.",
    ]);
  });
  it("a handler that throws stops nothing: the fall completes once, the other handlers run, Foundry reports the error", async () => {
    const { world, token } = await boot();
    // Foundry calls each handler in its own try/catch and reports a throw (Hooks.onError, "Error thrown in hooked
    // function"), then goes on: the fake world records that report in hookErrors.
    listen(world, "aventure.preFall", () => {
      throw new Error("a broken preFall handler");
    });
    listen(world, "aventure.fall", () => {
      throw new Error("a broken fall handler");
    });
    const after = listen(world, "aventure.fall");
    world.queueRolls(2, 5);
    const result = await world.as("p1", () => world.api<Api>("p1").fall(token, 7.5));
    await world.settle({ allowErrors: true });
    // A throwing `pre` handler does not cancel (only `false` does), and a throwing handler of the completed fall
    // changes nothing of it: damage, card, and the next handler called, each once.
    expect(result?.total).toBe(7);
    expect(hp(world)).toBe(13);
    expect(fallCards(world)).toHaveLength(1);
    expect(after.map((c) => c.user)).toEqual(["gm1"]);
    expect(world.hookErrors.map((e) => [e.hook, (e.error as Error).message])).toEqual([
      ["aventure.preFall", "a broken preFall handler"],
      ["aventure.fall", "a broken fall handler"],
    ]);
    expect(world.notifications.filter((n) => n.type === "error")).toEqual([]);
    world.hookErrors.length = 0;
    // Nothing more happens later: no second fall, no second card.
    await world.settle();
    expect(hp(world)).toBe(13);
    expect(fallCards(world)).toHaveLength(1);
  });

  it("announce: should calling the handlers throw at all, the operation goes on and the error is logged", () => {
    const broken = new Error("the hooks themselves failed");
    vi.stubGlobal("Hooks", {
      callAll: () => {
        throw broken;
      },
    });
    try {
      expectLogged(/^aventure \| a handler of aventure\.travelUndone failed Error: the hooks themselves failed$/);
      expect(() => announce("aventure.travelUndone", { messageId: "m1", actorIds: [] })).not.toThrow();
      expect(expectedLogs()).toEqual([["aventure | a handler of aventure.travelUndone failed", broken]]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
