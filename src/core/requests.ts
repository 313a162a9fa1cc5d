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
 * The active GM's own requests run directly. Every request also gets, on the active GM, BEFORE any write (so that a
 * flood of requests cannot make the GM write much): a refusal of an unknown name or a malformed flag, of an id it
 * already handled (a replayed message), beyond the flood limit per user (requests per 10 seconds), of a second
 * pending request of the same user and feature (refused, not queued), and of a GM-only request from a player. A
 * refused request costs the GM one write: the deletion of the request message, whose options carry the refusal to the
 * requester (the `deleteChatMessage` hook gets the operation's options and the `userId` of who deleted it: the
 * requester trusts a refusal only from a GM's deletion).
 *
 * After a reload, or when a GM leaves: a receipt left "working" by a GM who is gone (or by this GM's own previous
 * page) is answered "interrupted"; a receipt of a GM still connected is left to that GM, which finishes its request
 * (docs/security.md). A request never picked up is handled by the active GM if the GM who was active when it arrived
 * is gone and its sender may still wait, else dropped.
 */
import { gmIds } from "./chat.js";
import { MODULE_ID } from "./constants.js";
import { isRulesError } from "../rules/errors.js";
import { errorMessage, t, UserError } from "./i18n.js";
import { isActiveGM } from "./gm.js";
import { runRecoveries } from "./operations.js";
import { authoredByGM, registerCardPart } from "./cards.js";
import { onHook, onceHook } from "./hooks-typed.js";
import { flagModel, LANG_KEY, messageDataField, type DataOf, type Fields } from "./flag-model.js";
import { isRecord } from "./values.js";

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
export type Reply =
  | { status: "working" }
  | { status: "done"; ok: true; result: unknown }
  | { status: "done"; ok: false; key: string; data: Record<string, string | number> };

/** A request's id: letters and digits (Foundry's randomID), never anything else. */
const REQUEST_ID = /^[A-Za-z0-9]{8,32}$/;
/**
 * A request as sent (flags.aventure.request on the sender's message): anyone can write any flags on their own
 * message, so it is read through its model. A request whose name is not a registered one (blank included) is
 * "unknown" (it can be answered: its id is valid); anything else the model refuses is malformed (only removed).
 */
const requestSchema = (f: Fields) => ({
  v: new f.NumberField({ required: true, nullable: false, integer: true, min: 1, max: 1, initial: undefined }),
  id: new f.StringField({ required: true, blank: false, validate: (v: unknown) => REQUEST_ID.test(String(v)) }),
  name: new f.StringField({ required: true, blank: true, initial: "" }),
  data: new f.AnyField({ required: false, nullable: true, initial: null }),
  sentAt: new f.NumberField({ required: true, nullable: false, initial: 0 }),
  timeout: new f.NumberField({ required: true, nullable: false, min: 0, initial: DEFAULT_TIMEOUT }),
});
const RequestModel = flagModel({ name: "AventureRequest", schema: requestSchema });
type RequestFlag = DataOf<typeof RequestModel>;

/** At most this many requests per user in FLOOD_WINDOW milliseconds reach the handlers. */
export const FLOOD_LIMIT = 20;
export const FLOOD_WINDOW = 10_000;
export const DEFAULT_TIMEOUT = 30_000;

const specs = new Map<string, RequestSpec<unknown>>();
/** Requests this client sent and waits for, by id. */
const waiting = new Map<
  string,
  { resolve(v: unknown): void; reject(e: unknown): void; timer: ReturnType<typeof setTimeout>; messageId?: string }
>();
/** Request names this client has in flight (one per feature). */
const sending = new Set<string>();
/** On the active GM: "userId:name" being handled; ids handled (bounded); recent request times per user. */
const busy = new Set<string>();
const handled = new Set<string>();
/** Request messages this client (the active GM) is answering now: never picked up twice. */
const answering = new Set<string>();
/** On every GM: which GM was the active one when a request arrived (the one that picked it up), by request id. */
const pickers = new Map<string, string | null>();
const recent = new Map<string, number[]>();
const HANDLED_MEMORY = 2000;

export function registerRequest<R>(spec: RequestSpec<R>): void {
  if (specs.has(spec.name)) throw new Error(`aventure | request ${spec.name} registered twice`);
  specs.set(spec.name, spec as RequestSpec<unknown>);
}

function toReply(e: unknown): Reply {
  if (e instanceof UserError || isRulesError(e))
    return { status: "done", ok: false, key: e.key, data: { ...(e.data as Record<string, string | number>) } };
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
    if (gm.isSelf) return fromReply<R>(await dispatch(name, payload, game.user, foundry.utils.randomID(12)));
    return await sendRemote<R>(name, payload, options.timeout ?? spec.timeout ?? DEFAULT_TIMEOUT);
  } finally {
    sending.delete(name);
  }
}

async function sendRemote<R>(name: string, data: unknown, timeout: number): Promise<R> {
  const id = foundry.utils.randomID(12);
  const flag = RequestModel.make({ v: 1, id, name, data, sentAt: Date.now(), timeout });
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

const refusal = (key: string): Reply => ({ status: "done", ok: false, key, data: {} });

/**
 * The checks the active GM makes before any write, in memory only: an unknown name, a replayed id, the flood limit, a
 * second pending request of the same user and feature, a GM-only request from a player. Either a refusal, or the
 * request is admitted: it holds its (user, feature) slot until `release`.
 */
function admit(
  name: string,
  sender: User,
  id: string,
): { refusal: Reply } | { spec: RequestSpec<unknown>; release(): void } {
  const spec = specs.get(name);
  if (!spec) return { refusal: refusal("AVENTURE.Request.unknown") };
  if (handled.has(id)) return { refusal: refusal("AVENTURE.Request.replayed") };
  remember(id);
  const now = Date.now();
  const times = (recent.get(sender.id!) ?? []).filter((x) => now - x < FLOOD_WINDOW);
  // The flood limit protects the GM from players; a GM's own clicks are never throttled.
  if (!sender.isGM && times.length >= FLOOD_LIMIT) {
    recent.set(sender.id!, times);
    return { refusal: refusal("AVENTURE.Request.flood") };
  }
  times.push(now);
  recent.set(sender.id!, times);
  const key = `${sender.id}:${name}`;
  if (busy.has(key)) return { refusal: refusal("AVENTURE.Request.busy") };
  if (spec.gmOnly && !sender.isGM) return { refusal: refusal("AVENTURE.Error.GMOnly") };
  busy.add(key);
  return { spec, release: () => busy.delete(key) };
}

/** Runs an admitted request's handler: its result as plain data, or its refusal. */
async function run(spec: RequestSpec<unknown>, data: unknown, sender: User, id: string): Promise<Reply> {
  try {
    const result = await spec.handle(data, { sender, id });
    return { status: "done", ok: true, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) };
  } catch (e) {
    return toReply(e);
  }
}

/** Runs a request on the active GM: the sender is a User the server vouched for (or this GM itself). */
async function dispatch(name: string, data: unknown, sender: User, id: string): Promise<Reply> {
  const admitted = admit(name, sender, id);
  if ("refusal" in admitted) return admitted.refusal;
  try {
    return await run(admitted.spec, data, sender, id);
  } finally {
    admitted.release();
  }
}

function remember(id: string): void {
  handled.add(id);
  if (handled.size > HANDLED_MEMORY) {
    const oldest = handled.values().next().value;
    if (oldest !== undefined) handled.delete(oldest);
  }
}

/**
 * A request flag as sent by a client, checked field by field (anyone can write any flags on their own message):
 * the request; "unknown" for a well-formed request of a name this module does not know (it can be answered); null
 * for anything else carrying a request flag (malformed: it cannot be answered, only removed); undefined: no flag.
 */
function parseRequest(message: ChatMessage): RequestFlag | { unknown: string } | null | undefined {
  const raw = aventureFlags(message)?.request;
  if (raw === undefined) return undefined;
  const f = RequestModel.read(raw);
  if (!f) return null;
  if (!specs.has(f.name)) return { unknown: f.id };
  return { ...f, timeout: Math.min(Math.max(f.timeout, 1000), 600_000) };
}

function readRequest(message: ChatMessage): RequestFlag | null {
  const r = parseRequest(message);
  return r && "v" in r ? r : null;
}

/**
 * The GM's receipt of a request (flags.aventure.receipt on a message a GM authors, whispered to the requester): its
 * status is "working" while the request runs (the in-progress marker a reload finds), then "done" with the reply.
 * The requester trusts only a receipt a GM wrote: a player may edit their own request message, never a GM's.
 */
/** A reply as stored (a receipt's, a refusal's): the `Reply` union as one schema, its rules joint. */
const refusalFields = (f: Fields) => ({
  status: new f.StringField({ required: true, blank: false, choices: ["working", "done"], initial: undefined }),
  ok: new f.BooleanField({ required: true, initial: false }),
  key: new f.StringField({ required: true, nullable: true, blank: false, initial: null }),
  data: messageDataField(f),
});
const replySchema = (f: Fields) =>
  new f.SchemaField({
    ...refusalFields(f),
    result: new f.AnyField({ required: false, nullable: true, initial: null }),
  });

/** A done refusal names a lang key of this module. */
function checkReply(reply: { status: string; ok: boolean; key: string | null }): void {
  if (reply.status === "done" && !reply.ok && !LANG_KEY.test(reply.key ?? "")) throw new Error("a refusal's key");
}

const receiptSchema = (f: Fields) => ({
  requestId: new f.StringField({ required: true, blank: false }),
  requestMessageId: new f.StringField({ required: true, nullable: true, blank: false, initial: null }),
  requester: new f.StringField({ required: true, blank: false }),
  reply: replySchema(f),
});
const ReceiptModel = flagModel({
  name: "AventureReceipt",
  schema: receiptSchema,
  joint: (d) => checkReply(d.reply),
});
type ReceiptFlag = DataOf<typeof ReceiptModel>;
type StoredReply = ReceiptFlag["reply"];

/** A stored reply as the `Reply` union. */
function asReply(r: Omit<StoredReply, "result"> & { result?: unknown }): Reply {
  if (r.status === "working") return { status: "working" };
  if (r.ok) return { status: "done", ok: true, result: r.result ?? null };
  return { status: "done", ok: false, key: r.key!, data: r.data as Record<string, string | number> };
}

function aventureFlags(message: { flags?: unknown } | null | undefined): Record<string, unknown> | undefined {
  return (message?.flags as Record<string, Record<string, unknown> | undefined> | undefined)?.[MODULE_ID];
}

/** A receipt a GM wrote (the requester trusts no other), read through its model; null otherwise. */
function readReceipt(message: ChatMessage): (Omit<ReceiptFlag, "reply"> & { reply: Reply }) | null {
  if (!authoredByGM(message)) return null;
  const r = ReceiptModel.read(aventureFlags(message)?.receipt);
  return r ? { ...r, reply: asReply(r.reply) } : null;
}

async function createReceipt(
  request: RequestFlag,
  requestMessage: ChatMessage,
  sender: User,
  reply: Reply,
): Promise<ChatMessage | undefined> {
  const receipt = ReceiptModel.make({
    requestId: request.id,
    requestMessageId: requestMessage.id ?? null,
    requester: sender.id!,
    reply,
  });
  return (await ChatMessage.implementation.create({
    content: `<p>${t("AVENTURE.Request.pending")}</p>`,
    whisper: [sender.id!],
    speaker: { alias: game.user.name },
    flags: { [MODULE_ID]: { receipt } },
  })) as ChatMessage | undefined;
}

/**
 * How a refusal made before any write travels: in the options of the GM's deletion of the request message, under
 * `aventure.reply` (the requester trusts it only from a GM's deletion): a done refusal naming a lang key.
 */
const refusalSchema = (f: Fields) => ({
  requestId: new f.StringField({ required: true, blank: false }),
  reply: new f.SchemaField(refusalFields(f)),
});
const RefusalModel = flagModel({
  name: "AventureRefusal",
  schema: refusalSchema,
  joint: (d) => {
    if (d.reply.status !== "done" || d.reply.ok) throw new Error("a refusal");
    checkReply(d.reply);
  },
});

/** Refuses a request with ONE write: its message deleted, the refusal in the deletion's options (null: no answer). */
async function refuse(message: ChatMessage, requestId: string | null, reply: Reply): Promise<void> {
  if (!message.id || !game.messages.get(message.id)) return;
  const options = requestId ? { [MODULE_ID]: { reply: RefusalModel.make({ requestId, reply }) } } : {};
  await message.delete(options as never); // cast: the operation's options carry the module's refusal (read by the requester)
}

/**
 * The active GM answers a request message once. Refused before any write (unknown, replayed, flood, busy, GM-only):
 * one deletion carrying the refusal. Admitted: a receipt marked "working" (the in-progress marker), the handler, the
 * receipt's reply, then both messages are deleted.
 */
async function answer(message: ChatMessage, request: RequestFlag, sender: User): Promise<void> {
  if (answering.has(request.id)) return;
  const admitted = admit(request.name, sender, request.id);
  if ("refusal" in admitted) return refuse(message, request.id, admitted.refusal);
  answering.add(request.id);
  try {
    let reply: Reply;
    let receipt: ChatMessage | undefined;
    try {
      receipt = await createReceipt(request, message, sender, { status: "working" });
      reply = await run(admitted.spec, request.data, sender, request.id);
    } finally {
      admitted.release();
    }
    if (receipt) await receipt.update({ flags: { [MODULE_ID]: { receipt: { reply } } } });
    if (game.messages.get(message.id!)) await message.delete();
    if (receipt) await receipt.delete();
  } finally {
    answering.delete(request.id);
  }
}

/** On the active GM: a request message as it arrives, answered, refused or (malformed) removed. */
function take(message: ChatMessage, userId: string): void {
  const parsed = parseRequest(message);
  if (parsed === undefined) return;
  const sender = game.users.get(userId);
  const failed = (e: unknown) => console.error("aventure | could not answer a request", e);
  if (parsed === null || !sender) void refuse(message, null, refusal("AVENTURE.Request.unknown")).catch(failed);
  else if ("unknown" in parsed) {
    if (!handled.has(parsed.unknown)) remember(parsed.unknown);
    void refuse(message, parsed.unknown, refusal("AVENTURE.Request.unknown")).catch(failed);
  } else void answer(message, parsed, sender).catch(failed);
}

/**
 * createChatMessage (every client): the active GM takes requests; the sender is the hook's userId, nothing else.
 * Every GM notes which GM was the active one when a request arrived (a recovery then knows whether that GM, who
 * picked it up, is still here to answer it).
 */
export function onCreateRequestMessage(message: ChatMessage, _options: unknown, userId: string): void {
  if (game.user.isGM) {
    const request = readRequest(message);
    if (request) notePicker(request.id);
  }
  if (isActiveGM()) take(message, userId);
  settleFromReceipt(message);
}

function notePicker(requestId: string): void {
  pickers.set(requestId, game.users.activeGM?.id ?? null);
  if (pickers.size > HANDLED_MEMORY) {
    const oldest = pickers.keys().next().value;
    if (oldest !== undefined) pickers.delete(oldest);
  }
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

/** A refusal carried by a deletion's options, read through its model (a lang key of this module, plain data). */
function refusalIn(options: unknown, requestId: string): Reply | null {
  const mine = isRecord(options) ? options[MODULE_ID] : undefined;
  const r = RefusalModel.read(isRecord(mine) ? mine.reply : undefined);
  return r && r.requestId === requestId ? asReply(r.reply) : null;
}

/**
 * deleteChatMessage (requester): a request deleted by a GM with a refusal in the deletion's options was refused
 * before any write; deleted otherwise without an answer, it was dropped ("interrupted").
 */
export function onDeleteRequestMessage(message: ChatMessage, options?: unknown, userId?: string): void {
  const id = RequestModel.read(aventureFlags(message)?.request)?.id ?? null;
  const w = id ? waiting.get(id) : undefined;
  if (!w || !id) return;
  clearTimeout(w.timer);
  waiting.delete(id);
  const refused = userId && game.users.get(userId)?.isGM ? refusalIn(options, id) : null;
  if (refused) w.resolve(refused);
  else w.reject(new UserError("AVENTURE.Request.interrupted"));
}

/** Card part (cards.ts): requests and receipts are plumbing, never shown in the chat log. */
export function onRenderRequestMessage(message: ChatMessage, html: HTMLElement): void {
  const flags = aventureFlags(message);
  if (flags?.request === undefined && flags?.receipt === undefined) return;
  html.hidden = true;
  html.style.display = "none";
}

/** Whether a user is a GM connected now. */
function gmHere(userId: string | null | undefined): boolean {
  const user = userId ? game.users.get(userId) : undefined;
  return !!user && user.isGM && user.active;
}

/**
 * On ready, and when a GM leaves (every GM's client). A receipt left "working" means a GM stopped while handling it:
 * the requester is answered "interrupted" (the feature's own recovery finishes or reports the change) — by this GM
 * for its own previous page, by the active GM for a GM who is gone; a receipt of another GM still connected is left
 * to that GM, which is still answering it. A request never picked up is handled by the active GM when the GM that
 * picked it up is gone (or, arrived before this client connected, when no other GM is here), if its sender may still
 * wait; else dropped. Leftover plumbing is deleted.
 */
export async function recoverRequests(): Promise<void> {
  if (!game.user.isGM) return;
  const active = isActiveGM();
  const me = game.user.id;
  const messages = [...game.messages.contents];
  const receipts = new Map<string, { message: ChatMessage; receipt: NonNullable<ReturnType<typeof readReceipt>> }>();
  for (const message of messages) {
    const receipt = readReceipt(message);
    if (receipt) receipts.set(receipt.requestId, { message, receipt });
  }
  for (const { message, receipt } of receipts.values()) {
    if (answering.has(receipt.requestId)) continue;
    const author = (message.author as User | null | undefined)?.id ?? null;
    // Another GM still here answers it; a gone GM's receipt is the active GM's to close.
    if (author !== me && (gmHere(author) || !active)) continue;
    try {
      if (receipt.reply.status === "working") {
        await message.update({
          flags: {
            [MODULE_ID]: {
              receipt: { reply: { status: "done", ok: false, key: "AVENTURE.Request.interrupted", data: {} } },
            },
          },
        });
      }
      const request = receipt.requestMessageId ? game.messages.get(receipt.requestMessageId) : undefined;
      if (request) await request.delete();
      await message.delete();
    } catch (e) {
      // Another recovering GM closed it first (two GMs connecting at once): nothing left to do.
      if (game.messages.get(message.id!)) console.error("aventure | could not recover a request", e);
    }
  }
  if (!active) return;
  const otherGMs = game.users.some((u) => u.isGM && u.active && u.id !== me);
  for (const message of messages) {
    const request = readRequest(message);
    if (!request || answering.has(request.id) || receipts.has(request.id) || !game.messages.get(message.id!)) continue;
    // The GM that was active when it arrived picked it up: leave it to that GM while it is here.
    const picker = pickers.has(request.id) ? pickers.get(request.id) : undefined;
    if (picker === undefined ? otherGMs : picker !== me && gmHere(picker)) continue;
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
  registerCardPart({ kind: "request", render: onRenderRequestMessage });
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
