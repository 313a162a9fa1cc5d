/** The quiet-tests check (test/setup/quiet.ts): every error log is captured, and fails a test that did not declare it. */
import { describe, expect, it } from "vitest";
import { expectLogged, expectedLogs, logProblems, logText } from "./setup/quiet.js";
import { ClientCrashed } from "./world/index.js";

const log = (level: "error" | "warn", ...args: unknown[]) => ({ level, args, text: logText(args) });

describe("quiet tests", () => {
  it("captures a declared log instead of printing it, and keeps it to assert", () => {
    expectLogged(/could not answer a request ClientCrashed/);
    console.error("aventure | could not answer a request", new ClientCrashed("gm1"));
    expect(expectedLogs()).toHaveLength(1);
    expect(expectedLogs()[0]![1]).toBeInstanceOf(ClientCrashed);
  });

  it("a declaration may come after the log, and a warning is declared as one", () => {
    console.warn("aventure | an old setting was ignored");
    expectLogged("an old setting was ignored", "warn");
  });

  it("a pattern with the g flag matches every log it should (no lastIndex left between them)", () => {
    expectLogged(/a request failed/g);
    console.error("aventure | a request failed");
    console.error("aventure | a request failed");
    expect(expectedLogs()).toHaveLength(2);
  });

  it("fails a test on an undeclared log, naming it, and on a declaration no log matched", () => {
    const crash = log("error", "aventure | request failed", new ClientCrashed("gm1"));
    const warning = log("warn", "aventure | a warning");
    expect(logProblems([crash], [])).toEqual([
      expect.stringMatching(/^unexpected console\.error: aventure \| request failed ClientCrashed: Fake world/),
    ]);
    // An injected crash counts as any other error: the test must say it expects it.
    expect(logProblems([crash], [{ level: "error", pattern: /request failed/ }])).toEqual([]);
    // The level matters: a declared error does not cover a warning.
    expect(logProblems([warning], [{ level: "error", pattern: /a warning/ }])).toEqual([
      "unexpected console.warn: aventure | a warning",
      "expected a console.error matching /a warning/, none was logged",
    ]);
    expect(logProblems([], [{ level: "error", pattern: /travel apply failed/ }])).toEqual([
      "expected a console.error matching /travel apply failed/, none was logged",
    ]);
  });
});
