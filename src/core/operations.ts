/**
 * Exactly once, across reloads and two GMs: a change made of several writes (a journey's exhaustion, counters and
 * world time; a fall's hit points and prone condition) is written as STEPS whose state is read back from the world:
 * a step is done when the document already holds its target value, pending when it still holds the value from
 * before, drifted when it holds neither (someone changed it meanwhile), missing when its document is gone. The
 * operation is recorded on its GM card (or its combat, or its setting), marked "applying" (or "undoing") BEFORE the
 * first step; running the steps again only writes the pending ones, so a GM can finish an interrupted operation
 * without doing anything twice, and say on the card what was and was not applied.
 *
 * Who runs it (docs/security.md, "Exactly once"): reading the state back is not enough when two clients run the
 * same steps at once — a step whose write is still on its way reads as pending on the other client, and a relative
 * write (a system's applyDamage) would then land twice. So every operation records its EXECUTOR (the GM's user id
 * and the id of that GM's page load) in the same write that marks it applying, and:
 * - only the executor of record runs a step: before every step it reads the record back from the world and stops,
 *   writing nothing, when the operation is over or names another executor (OperationLost);
 * - the executor that started an operation finishes it, even when another GM has since become the active GM (a GM
 *   with a higher claim connected): its steps stay one sequence of writes, nobody else reads them half-landed, and
 *   its requester gets the real outcome;
 * - another client takes an operation over (recovery: `ready`, a GM leaving, or before the next operation of the
 *   same thing) only when its executor is gone — its user is not connected any more — or is this client's own user
 *   after a reload (one connection per user: the previous page is dead). Only the active GM takes over someone
 *   else's operation, and it stays entitled only while it is the active GM: a taker that loses the role stops before
 *   its next step and the new active GM takes the operation over in turn. It takes over by recording itself as
 *   executor (one write) and reading it back before any step, so two recovering GMs cannot both run it.
 */
import { isActiveGM } from "./gm.js";
import { UserError } from "./i18n.js";
import { flagModel, valueMap, type DataOf, type Fields, docIdField } from "./flag-model.js";

export type StepState = "pending" | "done" | "drifted" | "missing";

export interface Step {
  /** A short description for the report (localized by the caller), e.g. the actor's name and what changes. */
  label: string;
  state(): StepState;
  run(): Promise<unknown>;
}

export interface StepReport {
  done: string[];
  applied: string[];
  drifted: string[];
  missing: string[];
}

/** What a running operation checks before each of its writes (see Guard below); `runSteps` calls it per step. */
export interface StepGuard {
  check(): void;
}

/**
 * Runs the pending steps in order (each once); reports the others. A step that throws stops the run. With a guard
 * (the operation's executor check), the guard is checked before every step: an operation this client may no longer
 * run stops there, before writing anything more.
 */
export async function runSteps(steps: readonly Step[], guard?: StepGuard): Promise<StepReport> {
  const report: StepReport = { done: [], applied: [], drifted: [], missing: [] };
  for (const s of steps) {
    guard?.check();
    const state = s.state();
    if (state === "pending") {
      await s.run();
      report.applied.push(s.label);
    } else if (state === "done") report.done.push(s.label);
    else if (state === "drifted") report.drifted.push(s.label);
    else report.missing.push(s.label);
  }
  return report;
}

/** The state of a value step: done at `after`, pending at `before`, drifted otherwise (numbers compared exactly). */
export function valueState(current: unknown, before: unknown, after: unknown): StepState {
  if (Object.is(current, after) || JSON.stringify(current) === JSON.stringify(after)) return "done";
  if (Object.is(current, before) || JSON.stringify(current) === JSON.stringify(before)) return "pending";
  return "drifted";
}

// ------------------------------------------------------------------------------------------------ executors

/**
 * 16 random letters and digits, from the platform's cryptographic generator: not foundry.utils.randomID, because this
 * module is also imported where Foundry's globals do not exist (the view models' samples in the browser check).
 */
function randomId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[b % 62]).join("");
}

/** This page load: a new id each time the module loads (a reload is another client of the same user). */
export const CLIENT_ID = randomId();

/** The executor to record in the write that marks an operation applying: this GM, this page load. */
export function executorStamp(): Executor {
  return { user: game.user.id!, client: CLIENT_ID, took: false };
}

/** The executor's fields: the one declaration of who executes an operation (the cards' executor field uses it too). */
export const executorSchema = (f: Fields) => ({
  user: docIdField(f),
  client: docIdField(f),
  took: new f.BooleanField({ required: true, initial: false }),
});
/** The executor of an operation, as its record stores it (on a GM card, a combat or a setting). */
const ExecutorModel = flagModel({ name: "AventureExecutor", schema: executorSchema });

/**
 * Who executes an operation: a GM's user id and the id of the page load (client) that runs it. `took`: this client
 * took it over from a GM who was gone (recovery), so it runs it only while it is the active GM.
 */
export type Executor = DataOf<typeof ExecutorModel>;

/**
 * The executor kept inside a larger record (an operation on a combat), taken as stored and read with `readExecutor`:
 * a malformed executor reads as none while the operation itself is kept (its recovery then takes it over).
 */
export function storedExecutorField(f: Fields) {
  return new f.AnyField({ required: false, nullable: true, initial: null });
}

/** An executor read from a record a GM wrote, through its model; null when there is none (or it is malformed). */
export function readExecutor(raw: unknown): Executor | null {
  return ExecutorModel.read(raw);
}

/** Whether `e` is this very client (this user, this page load). */
export function isThisClient(e: Executor | null | undefined): boolean {
  return !!e && e.user === game.user.id && e.client === CLIENT_ID;
}

/** Whether the user of an executor is still here: a connected GM. */
function present(e: Executor): boolean {
  const user = game.users.get(e.user);
  return !!user && user.active && user.isGM;
}

/**
 * How this client may take over an operation whose executor of record is `e`: "self" (this user's previous page
 * load: it finishes it as its own), "took" (the active GM takes over from a GM who is gone, a record without an
 * executor, or a taker that is no longer the active GM), or null (leave it to its executor).
 */
export function takeOver(e: Executor | null): "self" | "took" | null {
  if (!game.user.isGM || isThisClient(e)) return null;
  if (e && e.user === game.user.id) return "self";
  if (!isActiveGM()) return null;
  if (!e || !present(e)) return "took";
  if (e.took && game.users.activeGM?.id !== e.user) return "took";
  return null;
}

/** Whether the executor of record may still run a step: this client, and for a taker still the active GM. */
function entitled(e: Executor | null): boolean {
  return isThisClient(e) && game.user.isGM && (!e!.took || isActiveGM());
}

/** The operation's record, read back from the world: its executor while it is in progress, undefined once it is not. */
export type ReadBack = () => { executor: Executor | null } | undefined;

/**
 * Thrown before a step when this client may no longer run the operation: it is over, or another GM executes it now.
 * Nothing more was written; the requester is told another GM finishes it.
 */
export class OperationLost extends UserError {
  constructor() {
    super("AVENTURE.Operation.lost");
    this.name = "OperationLost";
  }
}

/** What an operation checks before each of its writes: it is still in progress and names this client as executor. */
export class Guard implements StepGuard {
  constructor(private readonly read: ReadBack) {}
  check(): void {
    const record = this.read();
    if (!record || !entitled(record.executor)) throw new OperationLost();
  }
}

/** The operations this client runs now (by key): one operation never runs twice at once on one client. */
const running = new Set<string>();

/** Whether this client runs the operation `key` right now. */
export function isRunning(key: string): boolean {
  return running.has(key);
}

/**
 * Runs an operation this client has just recorded (its executor stamped in the write that marked it applying):
 * `body` gets the guard to pass to runSteps and to check before its closing write.
 */
export async function execute<T>(key: string, read: ReadBack, body: (guard: Guard) => Promise<T>): Promise<T> {
  if (running.has(key)) throw new UserError("AVENTURE.Operation.busy");
  running.add(key);
  try {
    return await body(new Guard(read));
  } finally {
    running.delete(key);
  }
}

export type Resumed<T> = { ran: true; value: T } | { ran: false; why: "over" | "running" | "elsewhere" };

/**
 * Finishes an operation found in progress (recovery, or before the next operation of the same thing) when this
 * client may (takeOver): it records itself as executor first (`claim`, one write), reads the record back, and runs
 * `body` only if the record names it. Otherwise the operation is left to its executor: "elsewhere" (another GM
 * runs it), "running" (this client does), "over" (it is not in progress any more).
 */
export async function resume<T>(
  key: string,
  read: ReadBack,
  claim: (executor: Executor) => Promise<unknown>,
  body: (guard: Guard) => Promise<T>,
): Promise<Resumed<T>> {
  if (running.has(key)) return { ran: false, why: "running" };
  running.add(key);
  try {
    // A taker that lost its claim to another taker that is no longer the active GM takes it over again (bounded).
    for (let attempt = 0; attempt < 3; attempt++) {
      let record = read();
      if (!record) return { ran: false, why: "over" };
      if (!isThisClient(record.executor)) {
        const how = takeOver(record.executor);
        if (!how) return { ran: false, why: "elsewhere" };
        await claim({ user: game.user.id!, client: CLIENT_ID, took: how === "took" });
        record = read();
        if (!record) return { ran: false, why: "over" };
        if (!isThisClient(record.executor)) continue;
      }
      try {
        return { ran: true, value: await body(new Guard(read)) };
      } catch (e) {
        if (!(e instanceof OperationLost)) throw e;
      }
    }
    return { ran: false, why: "elsewhere" };
  } finally {
    running.delete(key);
  }
}

/**
 * `resume` for a request that needs the operation finished before it goes on (the next step of a chase, a side
 * round, an Undo...): refused with "busy" while another GM finishes it.
 */
export async function finishFirst<T>(
  key: string,
  read: ReadBack,
  claim: (executor: Executor) => Promise<unknown>,
  body: (guard: Guard) => Promise<T>,
): Promise<T | null> {
  const r = await resume(key, read, claim, body);
  if (r.ran) return r.value;
  if (r.why === "over") return null;
  throw new UserError("AVENTURE.Operation.busy");
}

// ------------------------------------------------------------------------------------------------ claims

/**
 * Claims, for the thing that is about to be decided or rolled (a proposal's decision, a chase's next step), record
 * which page loads want it: `{[client]: GM user id}`, each client writing only its own key. Foundry merges the keys of
 * an object flag, so two GMs claiming at once (one just became the active GM while the other's write was on its way)
 * both end up in the record whatever order their writes land in — unlike a single value, where the stale write landing
 * last would win. A claimant reads the record back after its own write landed and goes on only when no other live
 * claim is there: the server applies writes one at a time and answers each before it sends on later ones, so the
 * claim that landed first was read back alone and the one that landed second sees it. A claim is live while its GM is
 * connected and is not this GM (a GM has one connection: its previous page's claim died with that page).
 */
export type Claims = Record<string, string>;

/** A claim: page load (client) id → GM user id, each checked by its field (flag-model.ts valueMap). */
const ClaimEntries = valueMap({ name: "AventureClaim", value: docIdField });

/** The claims of a record a GM wrote, read claim by claim (a malformed one is dropped, the others kept). */
export function readClaims(raw: unknown): Claims {
  return Object.fromEntries(ClaimEntries.read(raw));
}

/** The live claims of other page loads (see Claims). */
export function otherClaims(claims: Claims): string[] {
  return Object.entries(claims)
    .filter(([client, user]) => {
      if (client === CLIENT_ID || user === game.user.id) return false;
      const u = game.users.get(user);
      return !!u && u.active && u.isGM;
    })
    .map(([client]) => client);
}

/** This GM's claims left by its previous page loads (withdrawn on recovery). */
export function staleOwnClaims(claims: Claims): string[] {
  return Object.entries(claims)
    .filter(([client, user]) => user === game.user.id && client !== CLIENT_ID)
    .map(([client]) => client);
}

/**
 * What claimFirst writes and reads: this client's claim written (`write(CLIENT_ID, user)`) or withdrawn
 * (`write(CLIENT_ID, null)`).
 */
export interface ClaimTarget {
  write(client: string, user: string | null): Promise<unknown>;
  /** The claims as they are now, and whether the thing claimed is still open (a proposal still pending...). */
  read(): { claims: Claims; open: boolean };
}

/**
 * Claims `target` for this client (one write), reads it back, and returns true when it is this client's: still open
 * and no other live claim. Otherwise the claim is withdrawn (one write) and false is returned: nothing else is written.
 */
export async function claimFirst(target: ClaimTarget): Promise<boolean> {
  await target.write(CLIENT_ID, game.user.id!);
  const now = target.read();
  if (now.open && otherClaims(now.claims).length === 0) return true;
  await target.write(CLIENT_ID, null);
  return false;
}

// ------------------------------------------------------------------------------------------------ recovery

const recoveries: { name: string; run: () => Promise<void> }[] = [];

/**
 * Registers what a GM finishes on `ready` and when a GM leaves (call in init). A recovery runs on every GM's client:
 * it resumes operations through `resume` (which takes over only what this client may), and does anything else it
 * does only on the active GM (its own isActiveGM check).
 */
export function registerRecovery(name: string, run: () => Promise<void>): void {
  if (recoveries.some((r) => r.name === name)) throw new Error(`aventure | recovery ${name} registered twice`);
  recoveries.push({ name, run });
}

/** Runs every feature's recovery on a GM's client (ready, or a GM left: the active GM may take over). */
export async function runRecoveries(): Promise<void> {
  if (!game.user.isGM) return;
  for (const r of recoveries) {
    try {
      await r.run();
    } catch (e) {
      console.error(`aventure | recovery of ${r.name} failed`, e);
    }
  }
}
