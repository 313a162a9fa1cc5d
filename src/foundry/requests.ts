/**
 * The trusted request channel: how a client asks the active GM to do what only a GM may do (docs/security.md).
 *
 * Foundry does not tell a CONFIG.queries handler who sent a query, so a query cannot carry authority. A document
 * operation can: the server stamps every create/update/delete with the user who made it, after checking that user's
 * permissions, and hands that `userId` to the document hooks. So a request is a chat message its sender creates (any
 * user may create one, as themselves), whispered to the GMs, flagged `flags.aventure.request` and hidden from the chat
 * log. The active GM reads it in `createChatMessage`, takes the sender ONLY from that hook's `userId`, checks and runs
 * it once, and answers on a RECEIPT: a message the GM authors (whispered to the requester, hidden), marked "working"
 * before the handler runs and then given the reply. The requester trusts only a receipt a GM wrote (a player can edit
 * their own request message, never a GM's). Both messages are then deleted.
 *
 * The active GM's own requests run directly. Every request also gets, on the active GM:
 * - one pending request per user and feature (a second one is refused, not queued);
 * - a flood limit per user (requests per 10 seconds), refused with a localized message;
 * - a refusal of an id it already handled (a replayed message);
 * - after a reload, the requests left unanswered are answered ("interrupted" for one that was being handled; the
 *   rest are handled if still awaited, else dropped).
 */
import { MODULE_ID } from "../constants.js";
import { isRulesError } from "../rules/errors.js";
import { errorMessage, t, UserError } from "./i18n.js";
import { isActiveGM } from "./gm.js";
import { runRecoveries } from "./operations.js";
import { authoredByGM } from "./cards.js";
import { onHook, onceHook } from "./hooks-typed.js";

/** Who sent a request, as the server reported it, and the request's id. */
export interface RequestContext {
  sender: User;
  id: string;
}

export interface RequestSpec<R> {
  /** The feature's request name (unique), e.g. "fall". */
  name: string;
  /** Only GMs may send it: anyone else is refused before the handler runs. */
  gmOnly?: boolean;
  /** How long the requester waits for the answer (default 30 s). */
  timeout?: number;
  /** Runs on the active GM. Validates everything in `data` itself. Returns plain JSON data; throws to refuse. */
  handle(data: unknown, context: RequestContext): Promise<R> | R;
}

/** What travels back: the handler's result, or a refusal as a lang key the requester localizes. */
export type Reply = { status: "working" } | { status: "done"; ok: true; result: unknown } | { status: "done"; ok: false; key: string; data: Record<string, string | number> };

interface RequestFlag {
  v: 1;
  id: string;
  name: string;
  data: unknown;
  sentAt: number;
  timeout: number;
}

/** At most this many requests per user in FLOOD_WINDOW milliseconds reach the handlers. */
export const FLOOD_LIMIT = 20;
export const FLOOD_WINDOW = 10_000;
export const DEFAULT_TIMEOUT = 30_000;

const specs = new Map<string, RequestSpec<unknown>>();
/** Requests this client sent and waits for, by id. */
const waiting = new Map<string, { resolve(v: unknown): void; reject(e: unknown): void; timer: ReturnType<typeof setTimeout>; messageId?: string }>();
/** Request names this client has in flight (one per feature). */
const sending = new Set<string>();
/** On the active GM: "userId:name" being handled; ids handled (bounded); recent request times per user. */
const busy = new Set<string>();
const handled = new Set<string>();
/** Request messages this client (the active GM) is answering now: never picked up twice. */
const answering = new Set<string>();
const recent = new Map<string, number[]>();
const HANDLED_MEMORY = 2000;

export function registerRequest<R>(spec: RequestSpec<R>): void {
  if (specs.has(spec.name)) throw new Error(`aventure | request ${spec.name} registered twice`);
  specs.set(spec.name, spec as RequestSpec<unknown>);
}

function newId(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[b % 62]).join("");
}

function gmIds(): string[] {
  return game.users.filter((u) => u.isGM).map((u) => u.id!);
}

function toReply(e: unknown): Reply {
  if (e instanceof UserError || isRulesError(e)) return { status: "done", ok: false, key: e.key, data: { ...(e.data as Record<string, string | number>) } };
  console.error("aventure | request failed", e);
  return { status: "done", ok: false, key: "AVENTURE.Request.failed", data: { error: errorMessage(e) } };
}

function fromReply<R>(reply: Reply): R {
  if (reply.status !== "done") throw new UserError("AVENTURE.Request.interrupted");
  if (reply.ok) return reply.result as R;
  throw new UserError(reply.key, reply.data);
}

/**
 * Sends a request to the active GM and resolves to the handler's result; throws a UserError (localized here) when it
 * is refused, times out or no GM is connected. Only one request per feature is in flight from a client.
 */
export async function sendRequest<R>(name: string, data: object, options: { timeout?: number } = {}): Promise<R> {
  const spec = specs.get(name);
  if (!spec) throw new Error(`aventure | unknown request ${name}`);
  const gm = game.users.activeGM;
  if (!gm) throw new UserError("AVENTURE.Error.NoActiveGM");
  if (sending.has(name)) throw new UserError("AVENTURE.Request.busy");
  if (spec.gmOnly && !game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  const payload = JSON.parse(JSON.stringify(data ?? {})) as unknown;
  sending.add(name);
  try {
    if (gm.isSelf) return fromReply<R>(await dispatch(name, payload, game.user, newId()));
    return await sendRemote<R>(name, payload, options.timeout ?? spec.timeout ?? DEFAULT_TIMEOUT);
  } finally {
    sending.delete(name);
  }
}

async function sendRemote<R>(name: string, data: unknown, timeout: number): Promise<R> {
  const id = newId();
  const flag: RequestFlag = { v: 1, id, name, data, sentAt: Date.now(), timeout };
  const answer = new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => {
      const w = waiting.get(id);
      waiting.delete(id);
      // Take the request back if the GM has not picked it up (the author may delete their own message).
      const message = w?.messageId ? game.messages.get(w.messageId) : undefined;
      if (message) void message.delete().catch(() => undefined);
      reject(new UserError("AVENTURE.Request.timeout"));
    }, timeout);
    waiting.set(id, { resolve, reject, timer });
  });
  try {
    const message = await ChatMessage.implementation.create({
      content: `<p>${t("AVENTURE.Request.pending")}</p>`,
      whisper: gmIds(),
      speaker: { alias: game.user.name },
      flags: { [MODULE_ID]: { request: flag } },
    });
    const w = waiting.get(id);
    if (w && message) w.messageId = message.id ?? undefined;
  } catch (e) {
    const w = waiting.get(id);
    if (w) clearTimeout(w.timer);
    waiting.delete(id);
    throw e;
  }
  return fromReply<R>((await answer) as Reply);
}

/** Runs a request on the active GM: the sender is a User the server vouched for (or this GM itself). */
async function dispatch(name: string, data: unknown, sender: User, id: string): Promise<Reply> {
  const spec = specs.get(name);
  if (!spec) return { status: "done", ok: false, key: "AVENTURE.Request.unknown", data: {} };
  if (handled.has(id)) return { status: "done", ok: false, key: "AVENTURE.Request.replayed", data: {} };
  remember(id);
  const now = Date.now();
  const times = (recent.get(sender.id!) ?? []).filter((x) => now - x < FLOOD_WINDOW);
  // The flood limit protects the GM from players; a GM's own clicks are never throttled.
  if (!sender.isGM && times.length >= FLOOD_LIMIT) {
    recent.set(sender.id!, times);
    return { status: "done", ok: false, key: "AVENTURE.Request.flood", data: {} };
  }
  times.push(now);
  recent.set(sender.id!, times);
  const key = `${sender.id}:${name}`;
  if (busy.has(key)) return { status: "done", ok: false, key: "AVENTURE.Request.busy", data: {} };
  if (spec.gmOnly && !sender.isGM) return { status: "done", ok: false, key: "AVENTURE.Error.GMOnly", data: {} };
  busy.add(key);
  try {
    const result = await spec.handle(data, { sender, id });
    return { status: "done", ok: true, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) };
  } catch (e) {
    return toReply(e);
  } finally {
    busy.delete(key);
  }
}

function remember(id: string): void {
  handled.add(id);
  if (handled.size > HANDLED_MEMORY) {
    const oldest = handled.values().next().value;
    if (oldest !== undefined) handled.delete(oldest);
  }
}

/** A request flag as sent by a client: checked field by field (anyone can write any flags on their own message). */
function readRequest(message: ChatMessage): RequestFlag | null {
  const f = aventureFlags(message)?.request as Partial<RequestFlag> | undefined;
  if (!f || typeof f !== "object" || f.v !== 1) return null;
  if (typeof f.id !== "string" || !/^[A-Za-z0-9]{8,32}$/.test(f.id)) return null;
  if (typeof f.name !== "string" || !specs.has(f.name)) return null;
  const sentAt = typeof f.sentAt === "number" && Number.isFinite(f.sentAt) ? f.sentAt : 0;
  const timeout = typeof f.timeout === "number" && Number.isFinite(f.timeout) ? Math.min(Math.max(f.timeout, 1000), 600_000) : DEFAULT_TIMEOUT;
  return { v: 1, id: f.id, name: f.name, data: f.data ?? null, sentAt, timeout };
}

/**
 * The GM's receipt of a request (flags.aventure.receipt on a message a GM authors, whispered to the requester): its
 * status is "working" while the request runs (the in-progress marker a reload finds), then "done" with the reply.
 * The requester trusts only a receipt a GM wrote: a player may edit their own request message, never a GM's.
 */
interface ReceiptFlag {
  requestId: string;
  requestMessageId: string | null;
  requester: string;
  reply: Reply;
}

function aventureFlags(message: { flags?: unknown } | null | undefined): Record<string, unknown> | undefined {
  return (message?.flags as Record<string, Record<string, unknown> | undefined> | undefined)?.[MODULE_ID];
}

function readReceipt(message: ChatMessage): ReceiptFlag | null {
  if (!authoredByGM(message)) return null;
  const r = aventureFlags(message)?.receipt as Partial<ReceiptFlag> | undefined;
  if (!r || typeof r !== "object" || typeof r.requestId !== "string" || typeof r.requester !== "string") return null;
  const reply = r.reply as Reply | undefined;
  if (!reply || (reply.status !== "working" && reply.status !== "done")) return null;
  return { requestId: r.requestId, requestMessageId: typeof r.requestMessageId === "string" ? r.requestMessageId : null, requester: r.requester, reply };
}

async function createReceipt(request: RequestFlag, requestMessage: ChatMessage, sender: User, reply: Reply): Promise<ChatMessage | undefined> {
  const receipt: ReceiptFlag = { requestId: request.id, requestMessageId: requestMessage.id ?? null, requester: sender.id!, reply };
  return (await ChatMessage.implementation.create({
    content: `<p>${t("AVENTURE.Request.pending")}</p>`,
    whisper: [sender.id!],
    speaker: { alias: game.user.name },
    flags: { [MODULE_ID]: { receipt } },
  })) as ChatMessage | undefined;
}

/**
 * The active GM answers a request message once: a receipt marked "working" (the in-progress marker), the handler,
 * the receipt's reply, then both messages are deleted.
 */
async function answer(message: ChatMessage, request: RequestFlag, sender: User): Promise<void> {
  if (answering.has(request.id)) return;
  answering.add(request.id);
  try {
    const receipt = await createReceipt(request, message, sender, { status: "working" });
    const reply = await dispatch(request.name, request.data, sender, request.id);
    if (receipt) await receipt.update({ flags: { [MODULE_ID]: { receipt: { reply } } } });
    if (game.messages.get(message.id!)) await message.delete();
    if (receipt) await receipt.delete();
  } finally {
    answering.delete(request.id);
  }
}

/** createChatMessage (every client): the active GM takes requests; the sender is the hook's userId, nothing else. */
export function onCreateRequestMessage(message: ChatMessage, _options: unknown, userId: string): void {
  if (isActiveGM()) {
    const request = readRequest(message);
    const sender = request ? game.users.get(userId) : undefined;
    if (request && sender) void answer(message, request, sender).catch((e: unknown) => console.error("aventure | could not answer a request", e));
  }
  settleFromReceipt(message);
}

/** updateChatMessage (requester): a GM's receipt with a reply resolves the waiting request. */
export function onUpdateRequestMessage(message: ChatMessage): void {
  settleFromReceipt(message);
}

function settleFromReceipt(message: ChatMessage): void {
  const receipt = readReceipt(message);
  if (!receipt || receipt.reply.status !== "done" || receipt.requester !== game.user.id) return;
  const w = waiting.get(receipt.requestId);
  if (!w) return;
  clearTimeout(w.timer);
  waiting.delete(receipt.requestId);
  w.resolve(receipt.reply);
}

/** deleteChatMessage (requester): a request deleted without an answer was refused or dropped. */
export function onDeleteRequestMessage(message: ChatMessage): void {
  const request = aventureFlags(message)?.request as { id?: unknown } | undefined;
  const id = typeof request?.id === "string" ? request.id : null;
  const w = id ? waiting.get(id) : undefined;
  if (!w || !id) return;
  clearTimeout(w.timer);
  waiting.delete(id);
  w.reject(new UserError("AVENTURE.Request.interrupted"));
}

/** renderChatMessageHTML: requests and receipts are plumbing, never shown in the chat log. */
export function onRenderRequestMessage(message: ChatMessage, html: HTMLElement): void {
  const flags = aventureFlags(message);
  if (flags?.request === undefined && flags?.receipt === undefined) return;
  html.hidden = true;
  html.style.display = "none";
}

/**
 * On ready, and when this client becomes the active GM: a receipt left "working" means a GM stopped while handling
 * it: the requester is answered "interrupted" (the feature's own recovery finishes or reports the change). A request
 * never picked up is handled if its sender may still wait, else dropped. Leftover plumbing is deleted.
 */
export async function recoverRequests(): Promise<void> {
  if (!isActiveGM()) return;
  const messages = [...game.messages.contents];
  const receipts = new Map<string, { message: ChatMessage; receipt: ReceiptFlag }>();
  for (const message of messages) {
    const receipt = readReceipt(message);
    if (receipt) receipts.set(receipt.requestId, { message, receipt });
  }
  for (const { message, receipt } of receipts.values()) {
    if (answering.has(receipt.requestId)) continue;
    try {
      if (receipt.reply.status === "working") {
        await message.update({ flags: { [MODULE_ID]: { receipt: { reply: { status: "done", ok: false, key: "AVENTURE.Request.interrupted", data: {} } } } } });
      }
      const request = receipt.requestMessageId ? game.messages.get(receipt.requestMessageId) : undefined;
      if (request) await request.delete();
      await message.delete();
    } catch (e) {
      console.error("aventure | could not recover a request", e);
    }
  }
  for (const message of messages) {
    const request = readRequest(message);
    if (!request || answering.has(request.id) || receipts.has(request.id) || !game.messages.get(message.id!)) continue;
    const sender = message.author ?? null;
    try {
      if (sender && Date.now() - request.sentAt < request.timeout) await answer(message, request, sender);
      else await message.delete();
    } catch (e) {
      console.error("aventure | could not recover a request", e);
    }
  }
}

/** Registers the channel's hooks (init). */
export function registerRequestHooks(): void {
  onHook("createChatMessage", onCreateRequestMessage);
  onHook("updateChatMessage", onUpdateRequestMessage);
  onHook("deleteChatMessage", onDeleteRequestMessage);
  onHook("renderChatMessageHTML", onRenderRequestMessage);
  // After a reload, and when the active GM leaves (the next one takes over): answer the requests left, then let
  // every feature finish or report the operations that were interrupted.
  const recover = async () => {
    await recoverRequests();
    await runRecoveries();
  };
  onceHook("ready", () => recover());
  onHook("userConnected", (user: User, connected: boolean) => {
    if (!connected && user.isGM) return recover();
  });
}
