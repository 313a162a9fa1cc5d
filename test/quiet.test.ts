/** The quiet-tests filter (test/setup/quiet.ts): it hides only the errors a test injected, and keeps them to assert. */
import { describe, expect, it } from "vitest";
import { expectedLogs, isInjected } from "./setup/quiet.js";
import { ClientCrashed, InjectedFailure } from "./world/index.js";

describe("quiet tests", () => {
  it("recognises an injected crash or refusal, not any other error", () => {
    expect(isInjected(["aventure | request failed", new ClientCrashed("gm1")])).toBe(true);
    expect(isInjected(["aventure | travel apply failed", new InjectedFailure("refused")])).toBe(true);
    expect(isInjected(["aventure | request failed", new Error("Fake Roll: no queued result for a d20")])).toBe(false);
    expect(isInjected(["aventure | something", "ClientCrashed"])).toBe(false);
  });

  it("captures an injected error's log instead of printing it", () => {
    console.error("aventure | could not answer a request", new ClientCrashed("gm1"));
    expect(expectedLogs()).toHaveLength(1);
    expect(expectedLogs()[0]![1]).toBeInstanceOf(ClientCrashed);
  });
});
