/**
 * The fake world itself: it must behave like Foundry where the module depends on it (per-client module instances,
 * per-call users, lifecycle order, asynchronous writes with the server's userId, queries without a sender, merge
 * semantics, permissions, faults). Each test states the Foundry behaviour it checks.
 */
import { describe, expect, it } from "vitest";
import { bootWorld, GM, GM2, PLAYER, ClientCrashed, addDnd5eActor, type FakeWorld } from "./index.js";

async function world3(): Promise<FakeWorld> {
  return bootWorld({ users: [GM, GM2, PLAYER] });
}

describe("fake world: clients", () => {
  it("each client has its own module instance, CONFIG and Hooks; game.user follows the running client", async () => {
    const w = await world3();
    const apis = ["gm1", "gm2", "p1"].map((u) => w.api(u));
    expect(new Set(apis).size).toBe(3);
    expect(w.clientOf("gm1").CONFIG).not.toBe(w.clientOf("p1").CONFIG);
    expect(w.as("p1", () => game.user.id)).toBe("p1");
    expect(w.as("gm2", () => game.users.activeGM?.isSelf)).toBe(false);
    expect(w.as("gm1", () => game.users.activeGM?.isSelf)).toBe(true);
  });

  it("two overlapping un-awaited calls each keep their own user across awaits", async () => {
    const w = await world3();
    const seen: string[] = [];
    const slow = async (tag: string) => {
      await w.roundTrip();
      await w.roundTrip();
      seen.push(`${tag}:${game.user.id}`);
    };
    await Promise.all([w.as("p1", () => slow("a")), w.as("gm2", () => slow("b"))]);
    expect(seen.sort()).toEqual(["a:p1", "b:gm2"]);
  });

  it("dnd5e rebuilds CONFIG.statusEffects in i18nInit: a status pushed in init is gone, one added in i18nInit stays", async () => {
    const w = await bootWorld({ system: "dnd5e" });
    const ids = w.as("gm1", () => (CONFIG.statusEffects as { id: string }[]).map((e) => e.id));
    expect(ids).toContain("blinded");
    expect(ids).not.toContain("blind");
  });
});

describe("fake world: documents", () => {
  it("a write resolves after a round trip and every client's hook gets the server's userId", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "hero", name: "Hero", owner: "p1" });
    const seen: string[] = [];
    for (const u of ["gm1", "gm2", "p1"]) w.as(u, () => Hooks.on("updateActor", (_d: unknown, _c: unknown, _o: unknown, userId: string) => void seen.push(`${game.user.id}<-${userId}`)));
    const p = w.as("p1", () => a.setFlag("aventure", "x", 1));
    expect(a.getFlag("aventure", "x")).toBeUndefined(); // not yet: the server has not answered
    await p;
    expect(a.getFlag("aventure", "x")).toBe(1);
    expect(seen.sort()).toEqual(["gm1<-p1", "gm2<-p1", "p1<-p1"]);
  });

  it("setFlag with an object merges into the stored object; unsetFlag removes the key", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "hero", name: "Hero" });
    await a.setFlag("aventure", "applied", { blinded: true });
    await a.setFlag("aventure", "applied", { prone: true });
    expect(a.getFlag("aventure", "applied")).toEqual({ blinded: true, prone: true });
    await a.unsetFlag("aventure", "applied");
    expect(a.getFlag("aventure", "applied")).toBeUndefined();
  });

  it("a player cannot write what they do not own; a bad flag scope throws", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "orc", name: "Orc" });
    await expect(w.as("p1", () => a.setFlag("aventure", "x", 1))).rejects.toThrow(/lacks permission/);
    expect(() => a.getFlag("nope", "x")).toThrow(/not valid/);
  });

  it("a player creates chat messages only as themselves", async () => {
    const w = await world3();
    await expect(w.as("p1", () => ChatMessage.implementation.create({ content: "hi", author: "gm1" } as never))).rejects.toThrow(/permission/);
    const m = await w.as("p1", () => ChatMessage.implementation.create({ content: "hi" }));
    expect((m as unknown as { author: { id: string } }).author.id).toBe("p1");
  });

  it("a query handler receives only (data, {timeout}): nothing says who sent it", async () => {
    const w = await world3();
    let args: unknown[] = [];
    w.as("gm1", () => {
      (CONFIG.queries as unknown as Record<string, unknown>)["aventure.probe"] = (...a: unknown[]) => {
        args = a;
        return { ranOn: game.user.id };
      };
    });
    const out = await w.as("p1", () => (game.users.activeGM as unknown as { query(n: string, d: unknown, o: unknown): Promise<unknown> }).query("aventure.probe", { userId: "gm1" }, { timeout: 5000 }));
    expect(out).toEqual({ ranOn: "gm1" });
    expect(args).toEqual([{ userId: "gm1" }, { timeout: 5000 }]);
  });

  it("a crash before the k-th write loses it and everything after; reload brings a fresh module instance", async () => {
    const w = await world3();
    const a = addDnd5eActor(w, { id: "hero", name: "Hero" });
    const before = w.api("gm1");
    w.crashAt(2);
    await expect(
      w.as("gm1", async () => {
        await a.setFlag("aventure", "one", 1);
        await a.setFlag("aventure", "two", 2);
      }),
    ).rejects.toBeInstanceOf(ClientCrashed);
    expect(a.getFlag("aventure", "one")).toBe(1);
    expect(a.getFlag("aventure", "two")).toBeUndefined();
    expect(w.users.activeGM?.id).toBe("gm2"); // gm1 is gone: gm2 is the active GM now
    await w.reload("gm1");
    expect(w.api("gm1")).not.toBe(before);
    expect(w.users.activeGM?.id).toBe("gm1");
  });
});
