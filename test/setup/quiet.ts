/**
 * Quiet tests: a passing `npm test` prints no stack trace, and no error is logged unnoticed.
 *
 * Every `console.error` and `console.warn` is captured here instead of printed. Many tests crash a client
 * (`ClientCrashed`) or make the fake server refuse a write (`InjectedFailure`) on purpose, and the module logs what
 * it could not do, as it should in Foundry: such a test declares the log it expects with `expectLogged(/pattern/)`
 * (matched against the log's text, an Error written `Name: message`). After each test:
 * - a captured log that no declaration of the test matches fails the test, naming the log;
 * - a declaration that matched no log fails the test too (the declaration is an assertion).
 * `expectedLogs()` gives the logs captured so far in the test, to assert more (how many, which error).
 * A log written outside a test (a beforeAll, or a late promise of the previous test) fails the next test, or the file.
 */
import { afterAll, afterEach, beforeEach } from "vitest";
import { inspect } from "node:util";

type Level = "error" | "warn";

/** One console call, as text: strings as they are, an Error as `Name: message`, anything else inspected. */
export function logText(args: readonly unknown[]): string {
  return args
    .map((a) => (typeof a === "string" ? a : a instanceof Error ? `${a.name}: ${a.message}` : inspect(a, { depth: 2 })))
    .join(" ");
}

interface Captured {
  level: Level;
  args: readonly unknown[];
  text: string;
}
interface Declared {
  level: Level;
  pattern: RegExp;
}

const captured: Captured[] = [];
const declared: Declared[] = [];

/** The logs captured since the current test started (each a console call's arguments). */
export function expectedLogs(): readonly (readonly unknown[])[] {
  return captured.map((c) => c.args);
}

/**
 * Declares that the current test logs, at `level` (console.error by default), at least one message matching
 * `pattern`; every log it matches is expected. Call it anywhere in the test (before or after the log).
 */
export function expectLogged(pattern: RegExp | string, level: Level = "error"): void {
  // Without the g and y flags, whose lastIndex would make a second test() of the pattern start midway.
  const re =
    typeof pattern === "string"
      ? new RegExp(escape(pattern))
      : new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
  declared.push({ level, pattern: re });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The failures of a test: its undeclared logs, and its declarations no log matched. */
export function logProblems(logs: readonly Captured[], wanted: readonly Declared[]): string[] {
  const matches = (d: Declared, c: Captured) => d.level === c.level && d.pattern.test(c.text);
  const unexpected = logs.filter((c) => !wanted.some((d) => matches(d, c)));
  const missing = wanted.filter((d) => !logs.some((c) => matches(d, c)));
  return [
    ...unexpected.map((c) => {
      const stack = c.args.find((a): a is Error => a instanceof Error)?.stack;
      return `unexpected console.${c.level}: ${c.text}${stack ? `\n    ${stack.split("\n").slice(1, 4).join("\n    ")}` : ""}`;
    }),
    ...missing.map((d) => `expected a console.${d.level} matching ${String(d.pattern)}, none was logged`),
  ];
}

/** Builds the error a test fails with, from its problems (a hint says how to declare an expected log). */
function failure(problems: readonly string[], where: string): Error {
  const e = new Error(
    `${where}:\n  ${problems.join("\n  ")}\n` +
      "(declare an expected log with expectLogged(/pattern/) from test/setup/quiet.ts — CONTRIBUTING.md, Testing)",
  );
  e.name = "QuietTestsError";
  return e;
}

for (const level of ["error", "warn"] as const) {
  console[level] = (...args: unknown[]) => {
    captured.push({ level, args, text: logText(args) });
  };
}

/** Fails on what was logged outside a test, then starts a clean slate. */
function outside(where: string): void {
  const problems = logProblems(captured, []);
  captured.length = 0;
  declared.length = 0;
  if (problems.length) throw failure(problems, where);
}

beforeEach(() => {
  outside("logged outside a test (a beforeAll, or a promise of the previous test still running)");
});

afterEach(() => {
  const problems = logProblems(captured, declared);
  captured.length = 0;
  declared.length = 0;
  if (problems.length) throw failure(problems, "this test's console logs do not match what it declared");
});

afterAll(() => {
  outside("logged after the file's last test");
});
