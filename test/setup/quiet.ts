/**
 * Quiet tests: many tests crash a client (`ClientCrashed`) or make the fake server refuse a write
 * (`InjectedFailure`) on purpose, and the module logs what it could not do with `console.error`, as it should in
 * Foundry. Those expected logs are captured here instead of printed (a passing `npm test` prints no stack trace); the
 * tests assert the outcome (applied once, or reported), and `expectedLogs()` lets a test assert the log itself.
 * Anything else logged — an error no test injected — is printed as usual.
 */
import { beforeEach } from "vitest";

const INJECTED = new Set(["ClientCrashed", "InjectedFailure"]);

/** Whether a console call is about an error a test injected (its `name` says so). */
export function isInjected(args: readonly unknown[]): boolean {
  return args.some((a) => a instanceof Error && INJECTED.has(a.name));
}

const captured: unknown[][] = [];

/** The expected error logs captured since the current test started. */
export function expectedLogs(): readonly (readonly unknown[])[] {
  return captured;
}

for (const level of ["error", "warn"] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    if (isInjected(args)) captured.push(args);
    else original(...args);
  };
}

beforeEach(() => {
  captured.length = 0;
});
