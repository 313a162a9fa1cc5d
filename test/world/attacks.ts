/**
 * What a user can do from the browser console against Aventure, for the security tests (docs/security.md): create a
 * request message with any payload and any id, or a chat message carrying any Aventure flags, and read the answer.
 */
import type { FakeChatMessage } from "./documents.js";
import type { FakeWorld, WriteRecord } from "./world.js";

/**
 * Creates a request message as `user` (any name, any data, any id), waits until the world settles and resolves to
 * the reply the active GM gave (or null when nobody answered): on its receipt, or — a refusal made before any write —
 * in the options of the GM's deletion of the request (hookEvents.deleteDocument: `options`, the operation, reach every
 * client with the `userId` of who deleted it).
 */
export async function forgeRequest(
  world: FakeWorld,
  user: string,
  name: string,
  data: unknown,
  id = `forged${world.writes.length}${Math.random().toString(36).slice(2, 8)}`,
): Promise<unknown> {
  let reply: unknown = null;
  await world.as(user, async () => {
    // The GM answers on a receipt it authors (never on the request message, which its author may edit).
    const hook = Hooks.on("updateChatMessage", ((m: FakeChatMessage) => {
      const r = (m.flags.aventure as { receipt?: { requestId?: string; reply?: { status: string } } } | undefined)
        ?.receipt;
      if (m.author?.isGM && r?.requestId === id && r.reply?.status === "done") reply = r.reply;
    }) as never);
    const deleted = Hooks.on("deleteChatMessage", ((
      _m: FakeChatMessage,
      options: { aventure?: { reply?: { requestId?: string; reply?: unknown } } },
      userId: string,
    ) => {
      const r = options?.aventure?.reply;
      if (world.users.get(userId)?.isGM && r?.requestId === id && reply === null) reply = r.reply ?? null;
    }) as never);
    await ChatMessage.implementation.create({
      content: "",
      whisper: world.users.filter((u) => u.isGM).map((u) => u.id),
      flags: { aventure: { request: { v: 1, id, name, data, sentAt: Date.now(), timeout: 30_000 } } },
    } as never);
    await world.settle();
    Hooks.off("updateChatMessage", hook);
    Hooks.off("deleteChatMessage", deleted);
  });
  // As the requester reads it (requests.ts): an answer is its result, a refusal its lang key and data (the stored
  // reply holds every field of its model, the unused ones null or empty).
  if (reply && typeof reply === "object") {
    const r = reply as Record<string, unknown>;
    if (r.ok === true) return { status: r.status, ok: true, result: r.result };
    if (r.ok === false) return { status: r.status, ok: false, key: r.key, data: r.data };
  }
  return reply;
}

/** A chat message created by `user` with the given Aventure flags (a forged card). */
export async function forgeCard(
  world: FakeWorld,
  user: string,
  flags: Record<string, unknown>,
  content = "<div></div>",
): Promise<FakeChatMessage> {
  return (await world.as(user, () =>
    ChatMessage.implementation.create({ content, flags: { aventure: flags } } as never),
  )) as unknown as FakeChatMessage;
}

/** Writes that are the request channel's own plumbing (the request message, its reply, its deletion). */
export function isRequestPlumbing(w: WriteRecord): boolean {
  if (w.documentName !== "ChatMessage") return false;
  if (w.action === "delete") return true;
  const data = JSON.stringify(w.data ?? "");
  return data.includes('"request"') || data.includes('"receipt"');
}

/** The writes since `mark` that changed the game (everything but the request plumbing). */
export function gameWrites(world: FakeWorld, mark: number): WriteRecord[] {
  return world.writesSince(mark).filter((w) => !isRequestPlumbing(w));
}
