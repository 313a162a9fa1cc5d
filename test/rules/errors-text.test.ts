/**
 * What a RulesError carries and says (src/rules/errors.ts), how any value is shown in it (src/rules/text.ts), the
 * ruleset check (src/rules/rulesets.ts) and the exploration's `wandering` flag: the message a user or a log reads.
 */
import { describe, expect, it } from "vitest";
import { RulesError, isRulesError } from "../../src/rules/errors.js";
import { show } from "../../src/rules/text.js";
import { isRuleset, ruleset } from "../../src/rules/rulesets.js";
import { startExploration } from "../../src/rules/exploration.js";

describe("RulesError", () => {
  it("names its key and its data in its message, and keeps both", () => {
    const e = new RulesError("AVENTURE.Error.Missing", { name: "height", max: 3 });
    expect([e.name, e.message, e.key, e.data]).toEqual([
      "RulesError",
      'AVENTURE.Error.Missing {"name":"height","max":3}',
      "AVENTURE.Error.Missing",
      { name: "height", max: 3 },
    ]);
    expect(e).toBeInstanceOf(Error);
    expect(isRulesError(e)).toBe(true);
    expect(isRulesError(new Error("x"))).toBe(false);
  });

  it("without data: an empty record, shown as {}", () => {
    const e = new RulesError("AVENTURE.Error.EmptyParty");
    expect([e.message, e.data]).toEqual(["AVENTURE.Error.EmptyParty {}", {}]);
  });

  it("data JSON cannot write (a BigInt) is shown by its tag instead of throwing", () => {
    const e = new RulesError("AVENTURE.Error.OutOfRange", { value: 1n } as unknown as Record<string, number>); // cast: a value the type refuses, as a caller's bug would pass it
    expect(e.message).toBe("AVENTURE.Error.OutOfRange [object Object]");
  });
});

describe("show", () => {
  it("String(value), or the value's tag when String() throws", () => {
    expect([show(3), show("a"), show(null), show(undefined), show(Symbol("s"))]).toEqual([
      "3",
      "a",
      "null",
      "undefined",
      "Symbol(s)",
    ]);
    expect(show(Object.create(null))).toBe("[object Object]");
    expect(show([Symbol("s")])).toBe("[object Array]");
  });
});

describe("rulesets", () => {
  it("the five ids only; anything else is refused with the value shown", () => {
    expect(["rnp", "dnd5e", "pmt", "ose", "polaris"].every(isRuleset)).toBe(true);
    expect([null, 3, {}, "RNP", "", ["rnp"]].some(isRuleset)).toBe(false);
    expect(ruleset("ose")).toBe("ose");
    let caught: unknown;
    try {
      ruleset(["rnp"]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RulesError);
    expect([(caught as RulesError).key, (caught as RulesError).data]).toEqual([
      "AVENTURE.Error.UnknownRuleset",
      { value: "rnp" },
    ]);
  });
});

describe("the exploration's wandering flag (docs/rules.md §0)", () => {
  it("a flag that is not a boolean is refused, naming it, its value and what is allowed", () => {
    let caught: unknown;
    try {
      startExploration("ose", { wandering: "yes" as unknown as boolean }); // cast: a stored value of the wrong type
    } catch (e) {
      caught = e;
    }
    expect([(caught as RulesError).key, (caught as RulesError).data]).toEqual([
      "AVENTURE.Error.UnknownValue",
      { name: "wandering", value: "yes", allowed: "true, false" },
    ]);
  });
});
