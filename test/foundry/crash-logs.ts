/**
 * The error logs a test declares when it stops a GM's page on purpose (world.crashAt): what the module logs of the
 * work it could not finish (test/setup/quiet.ts fails a test on any log it did not declare).
 */
import { expectLogged } from "../setup/quiet.js";

const crashed = (user: string) => `ClientCrashed: Fake world: the client of ${user} crashed`;

/** A log `aventure | <what> ClientCrashed: …` of `user`'s page stopping, exactly. */
export function expectCrashLog(what: string, user = "gm1"): void {
  expectLogged(new RegExp(`^aventure \\| ${escape(what)}${what ? " " : ""}${escape(crashed(user))}$`));
}

/**
 * The logs of the active GM's page stopping before its write `k` while it answers a request (core/requests.ts): the
 * answer it could not write, and, when the stop broke the request's own run (its writes 2 to `lastRunWrite`), that
 * run's failure.
 */
export function expectRequestCrashLogs(k: number, lastRunWrite: number, user = "gm1"): void {
  expectCrashLog("could not answer a request", user);
  if (k >= 2 && k <= lastRunWrite) expectCrashLog("request failed", user);
}

/**
 * The logs of the active GM's page stopping before its write `k` of a journey it applies for a request
 * (travel/apply.ts): write 2 is the card marked "applying", writes 3 to `lastApplyWrite` the journey's own (from
 * `firstUndoable` on, one of them has been made and is rolled back), the next one marks the card applied.
 */
export function expectJourneyCrashLogs(
  k: number,
  { firstUndoable, lastApplyWrite }: { firstUndoable: number; lastApplyWrite: number },
): void {
  expectCrashLog("could not answer a request");
  if (k === 2 || k === lastApplyWrite + 1) expectCrashLog("request failed");
  if (k >= 3 && k <= lastApplyWrite) {
    expectCrashLog("travel apply failed");
    if (k >= firstUndoable) expectCrashLog("travel rollback failed");
    expectCrashLog("could not mark the journey card failed");
  }
}

/**
 * The logs of the active GM's page stopping before its write `k` of an Undo it runs for a request (travel/apply.ts):
 * write 2 is the card marked "undoing", writes 3 to `lastUndoWrite` the values put back (the Undo fails and what it
 * restored cannot be applied again), the next one marks the card undone.
 */
export function expectUndoCrashLogs(k: number, lastUndoWrite: number): void {
  expectCrashLog("could not answer a request");
  if (k === 2 || k === lastUndoWrite + 1) expectCrashLog("request failed");
  if (k >= 3 && k <= lastUndoWrite) {
    expectCrashLog("travel undo failed");
    expectCrashLog("travel undo: could not re-apply");
  }
}

/** A log `aventure | <what> InjectedFailure: Fake server: the <write> was refused (injected failure)`, exactly. */
export function expectRefusalLog(what: string, write: string): void {
  expectLogged(
    new RegExp(
      `^aventure \\| ${escape(what)} InjectedFailure: Fake server: the ${escape(write)} was refused \\(injected failure\\)$`,
    ),
  );
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
