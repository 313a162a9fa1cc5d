/**
 * The trusted request channel (src/core/requests.ts, docs/security.md) on its own: the sender is the server's,
 * requests are hidden, answered once even with two GMs, and a requester always hears back (an answer, a refusal, a
 * timeout or an interruption) in its own language. The falls (movement.test.ts) exercise it through a feature.
 */
import { describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  forgeRequest,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  viewScene,
  type FakeChatMessage,
  type FakeWorld,
} from "../world/index.js";
import { cardsOf } from "./card-state.js";

async function boot(users = [GM, GM2, PLAYER, PLAYER2]) {
  const world = await bootWorld({ users });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  const actor = addDnd5eActor(world, { id: "hero", name: "Aldric", owner: "p1" });
  world.addToken(scene, { _id: "t1", name: "Aldric", actorId: "hero", actorLink: true });
  return { world, actor };
}
const fall = (world: FakeWorld, user: string, metres = 2) =>
  world.as(user, () =>
    world
      .api<{ fall(t: unknown, m: number): Promise<unknown> }>(user)
      .fall(world.scenes.get("s1")!.tokens.get("t1"), metres),
  );

describe("the request channel", () => {
  it("exactly one client is the active GM with two GMs connected", async () => {
    const { world } = await boot();
    const active = ["gm1", "gm2", "p1"].filter((u) => world.as(u, () => game.users.activeGM?.isSelf));
    expect(active).toEqual(["gm1"]);
  });

  it("a request is a whispered message hidden from every chat log, answered by a GM and then deleted", async () => {
    const { world } = await boot();
    const seen: { user: string; hidden: boolean }[] = [];
    const created: FakeChatMessage[] = [];
    world.as("gm2", () => Hooks.on("createChatMessage", ((m: FakeChatMessage) => void created.push(m)) as never));
    await fall(world, "p1");
    await world.settle();
    const request = created.find((m) => (m.flags.aventure as { request?: unknown } | undefined)?.request);
    expect(request).toBeDefined();
    expect(request!.author!.id).toBe("p1");
    expect(request!.whisper.sort()).toEqual(["gm1", "gm2"]);
    for (const user of ["p1", "gm1", "gm2"]) seen.push({ user, hidden: world.renderMessage(request!, user).hidden });
    expect(seen.every((s) => s.hidden)).toBe(true);
    expect(world.messages.has(request!.id)).toBe(false);
  });

  it("an answer counts only when a GM wrote it: a receipt forged by the player is ignored", async () => {
    const { world } = await boot();
    // p1 answers its own request with a receipt of its own before the GM does: the requester must not take it.
    world.as("p1", () =>
      Hooks.on("createChatMessage", ((m: FakeChatMessage) => {
        const request = (m.flags.aventure as { request?: { id: string } } | undefined)?.request;
        if (request && m.author?.id === "p1") {
          void ChatMessage.implementation.create({
            content: "",
            flags: {
              aventure: {
                receipt: {
                  requestId: request.id,
                  requestMessageId: m.id,
                  requester: "p1",
                  reply: { status: "done", ok: true, result: { forged: true } },
                },
              },
            },
          } as never);
        }
      }) as never),
    );
    const result = await fall(world, "p1", 2);
    expect(result).toMatchObject({ metres: 2, dice: 0 });
    expect(result).not.toHaveProperty("forged");
  });

  it("no GM connected: a localized error at once, nothing sent", async () => {
    const world = await bootWorld({ users: [{ ...GM, active: false }, PLAYER] });
    const scene = world.addScene({ _id: "s1" });
    viewScene(world, world.clientOf("p1"), scene);
    addDnd5eActor(world, { id: "hero", name: "Aldric", owner: "p1" });
    world.addToken(scene, { _id: "t1", name: "Aldric", actorId: "hero", actorLink: true });
    const mark = world.writes.length;
    expect(await fall(world, "p1")).toBeUndefined();
    expect(world.notifications).toEqual([
      { user: "p1", type: "error", message: "No GM is connected: this needs one." },
    ]);
    expect(world.writesSince(mark)).toEqual([]);
  });

  it("a GM who never answers: the requester gets a localized timeout and takes its request back", async () => {
    const { world } = await boot([GM, PLAYER]);
    // The GM's client hangs (its handler never runs): model it by disconnecting the hook.
    world.as("gm1", () => {
      for (const h of [...(world.clientOf("gm1").hooks.handlers.get("createChatMessage") ?? [])])
        Hooks.off("createChatMessage", h.id);
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const p = fall(world, "p1");
      await world.settle();
      vi.advanceTimersByTime(31_000);
      expect(await p).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    await world.settle();
    expect(world.notifications.at(-1)).toMatchObject({ user: "p1", type: "error" });
    expect(world.notifications.at(-1)!.message).toContain("did not answer in time");
    expect(
      world.messages.filter((m) => (m.flags.aventure as { request?: unknown } | undefined)?.request !== undefined),
    ).toEqual([]);
  });

  it("one request per feature at a time from a client; the second is refused locally", async () => {
    const { world } = await boot();
    const a = fall(world, "p1");
    const b = fall(world, "p1");
    await Promise.all([a, b]);
    expect(world.notifications.filter((n) => n.user === "p1").map((n) => n.message)).toEqual([
      "This is already in progress: wait for the answer before asking again.",
    ]);
  });

  it("a request of an unknown name is refused, a malformed request flag removed unanswered; never run", async () => {
    const { world } = await boot();
    expect(await forgeRequest(world, "p1", "noSuchRequest", {})).toEqual({
      status: "done",
      ok: false,
      key: "AVENTURE.Request.unknown",
      data: {},
    });
    expect(await forgeRequest(world, "p1", "fall", {}, "bad id with spaces")).toBeNull();
    expect(
      world.messages.filter((m) => (m.flags.aventure as { request?: unknown } | undefined)?.request !== undefined),
    ).toEqual([]);
    expect(world.rollsMade).toEqual([]);
  });

  it("a request flag the request model refuses (a wrong version, an id that is not text, a time that is not a number) is removed unanswered, never run", async () => {
    const { world, actor } = await boot();
    const hpOf = () => (actor.system as { attributes: { hp: { value: number } } }).attributes.hp.value;
    const hp = hpOf();
    const forged = [
      { v: 2, id: "forgedversion1", name: "fall", data: {}, sentAt: Date.now(), timeout: 30_000 },
      { v: 1, id: { toString: () => "forgedobject1" }, name: "fall", data: {}, sentAt: Date.now(), timeout: 30_000 },
      { v: 1, id: "forgedtime0001", name: "fall", data: {}, sentAt: "soon", timeout: 30_000 },
      { v: 1, id: "forgedtimeout1", name: "fall", data: {}, sentAt: Date.now(), timeout: -5 },
      "fall",
    ];
    for (const request of forged)
      await world.as("p1", () =>
        ChatMessage.implementation.create({
          content: "",
          whisper: ["gm1", "gm2"],
          flags: { aventure: { request } },
        } as never),
      );
    await world.settle();
    expect(
      world.messages.filter((m) => (m.flags.aventure as { request?: unknown } | undefined)?.request !== undefined),
    ).toEqual([]);
    expect(
      world.messages.filter((m) => (m.flags.aventure as { receipt?: unknown } | undefined)?.receipt !== undefined),
    ).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    expect(hpOf()).toBe(hp);
  });
});

describe("the flood limit protects the GM: refusals before any write (issue 20, item 8)", () => {
  /** A request message as a player's console makes it (any name, any id), created without waiting. */
  const forge = (world: FakeWorld, user: string, name: string, data: unknown, id: string) =>
    world.as(user, () =>
      ChatMessage.implementation.create({
        content: "",
        whisper: ["gm1"],
        flags: { aventure: { request: { v: 1, id, name, data, sentAt: Date.now(), timeout: 30_000 } } },
      } as never),
    ) as unknown as Promise<FakeChatMessage>;
  /** What p1's client is told: the refusal a GM's deletion of a request carries (its options), by request id. */
  function refusalsSeen(world: FakeWorld, user: string): Map<string, string> {
    const seen = new Map<string, string>();
    world.as(user, () =>
      Hooks.on("deleteChatMessage", ((
        m: FakeChatMessage,
        options: { aventure?: { reply?: { requestId?: string; reply?: { key?: string } } } },
        userId: string,
      ) => {
        const r = options?.aventure?.reply;
        if (world.users.get(userId)?.isGM && r?.requestId) seen.set(r.requestId, r.reply?.key ?? "");
      }) as never),
    );
    return seen;
  }
  const gmWrites = (world: FakeWorld, mark: number) => world.writesSince(mark).filter((w) => w.user === "gm1");

  it("200 forged requests in one go, all refused (GM-only, unknown, replayed, malformed): at most one GM write each", async () => {
    const { world } = await boot([GM, PLAYER]);
    const seen = refusalsSeen(world, "p1");
    expect(
      await forgeRequest(world, "p1", "fall", { sceneId: "s1", tokenId: "t1", metres: 1 }, "handledOnce0001"),
    ).toMatchObject({ ok: true });
    const mark = world.writes.length;
    const forged = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const kind = i % 4;
        if (kind === 0) return forge(world, "p1", "fallApply", { messageId: "x" }, `gmOnly${i}xxxxxxx`);
        if (kind === 1) return forge(world, "p1", "noSuchRequest", {}, `unknown${i}xxxxxx`);
        if (kind === 2)
          return forge(world, "p1", "fall", { sceneId: "s1", tokenId: "t1", metres: 1 }, "handledOnce0001");
        return forge(world, "p1", "fall", {}, `bad id ${i}`);
      }),
    );
    await world.settle();
    expect(gmWrites(world, mark).length).toBeLessThanOrEqual(200);
    expect(world.writesSince(mark).filter((w) => w.action === "create" && w.user === "gm1")).toEqual([]); // no receipt
    // Every forged message is gone, and every well-formed one carried its localized refusal to the requester.
    expect(forged.filter((m) => world.messages.has(m.id))).toEqual([]);
    expect(seen.get("gmOnly0xxxxxxx")).toBe("AVENTURE.Error.GMOnly");
    expect(seen.get("unknown1xxxxxx")).toBe("AVENTURE.Request.unknown");
    expect(seen.get("handledOnce0001")).toBe("AVENTURE.Request.replayed");
    expect(world.rollsMade).toEqual([]);
  });

  it("200 requests of one feature in one go: one runs, each other costs one GM write and its requester hears why", async () => {
    const { world } = await boot([GM, PLAYER]);
    const seen = refusalsSeen(world, "p1");
    const mark = world.writes.length;
    const forged = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        forge(world, "p1", "fall", { sceneId: "s1", tokenId: "t1", metres: 1 }, `flood${i}xxxxxxxx`),
      ),
    );
    await world.settle();
    const falls = cardsOf(world.messages.contents, "fall");
    expect(falls).toHaveLength(1);
    // The one that ran: receipt (working), its card, the reply, two deletions; the 199 others: one deletion each.
    expect(gmWrites(world, mark).length).toBe(5 + 199);
    expect(forged.filter((m) => world.messages.has(m.id))).toEqual([]);
    const keys = [...seen.values()];
    expect(keys).toHaveLength(199);
    expect(new Set(keys)).toEqual(new Set(["AVENTURE.Request.busy", "AVENTURE.Request.flood"]));
    expect(keys.filter((k) => k === "AVENTURE.Request.flood")).toHaveLength(180); // 20 per 10 s reach the channel
  });

  it("an honest requester refused before any write gets its localized refusal (GM-only request from a player's console)", async () => {
    const { world } = await boot([GM, PLAYER]);
    const mark = world.writes.length;
    const reply = await forgeRequest(world, "p1", "fallApply", { messageId: "nope" });
    expect(reply).toEqual({ status: "done", ok: false, key: "AVENTURE.Error.GMOnly", data: {} });
    expect(gmWrites(world, mark).map((w) => `${w.action} ${w.documentName}`)).toEqual(["delete ChatMessage"]);
  });
});
