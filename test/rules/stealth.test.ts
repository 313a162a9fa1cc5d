import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  HIDE_BECAUSE,
  HIDE_ENDS,
  HIDE_END_EVENTS,
  canTryToHide,
  hideEnds,
  hideResult,
  type HideAttemptInput,
  type HideObserver,
} from "../../src/rules/index.js";
import { errorKey as keyOf, throwsError } from "./helpers.js";

const guard = (over: Partial<HideObserver> = {}): HideObserver => ({
  id: "guard",
  hasLineOfSight: true,
  senses: {},
  distance: 9,
  ...over,
});

const attempt = (over: Partial<HideAttemptInput> = {}): HideAttemptInput => ({
  ruleset: "rnp",
  hiderLight: "bright",
  invisible: false,
  observers: [guard()],
  ...over,
});

describe("canTryToHide: §6 prerequisites", () => {
  it("cannot hide in plain sight", () => {
    const r = canTryToHide(attempt());
    expect(r.ok).toBe(false);
    expect(r.reasons).toEqual(["observerSees"]);
    expect(r.observers).toEqual([{ id: "guard", canHideFrom: false, because: null, blockedBy: "light" }]);
    expect(r.seenBy).toEqual(["guard"]);
    expect(r.hideableFrom).toEqual([]);
    // dim light is reduced visibility, not a zone of no visibility
    expect(canTryToHide(attempt({ hiderLight: "dim" })).observers[0]?.canHideFrom).toBe(false);
  });
  it("total cover (no line of sight)", () => {
    const r = canTryToHide(attempt({ observers: [guard({ hasLineOfSight: false, senses: { truesight: 36 } })] }));
    expect(r.ok).toBe(true);
    expect(r.reasons).toEqual([]);
    expect(r.observers[0]).toEqual({ id: "guard", canHideFrom: true, because: "cover" });
    expect(r.hideableFrom).toEqual(["guard"]);
  });
  it("darkness against an observer without darkvision", () => {
    const r = canTryToHide(attempt({ hiderLight: "dark" }));
    expect(r.ok).toBe(true);
    expect(r.observers[0]?.because).toBe("darkness");
  });
  it("darkness against darkvision: only out of its range (exactly at range sees), rnp and dnd5e", () => {
    for (const ruleset of ["rnp", "dnd5e"] as const) {
      const at = (distance: number) =>
        canTryToHide(
          attempt({ ruleset, hiderLight: "dark", observers: [guard({ senses: { darkvision: 18 }, distance })] }),
        ).observers[0];
      expect(at(12)).toEqual({ id: "guard", canHideFrom: false, because: null, blockedBy: "darkvision" });
      expect(at(18)).toEqual({ id: "guard", canHideFrom: false, because: null, blockedBy: "darkvision" });
      expect(at(18.01)).toEqual({ id: "guard", canHideFrom: true, because: "darkness" });
    }
  });
  it("darkness against blindsight and truesight within range", () => {
    const r = canTryToHide(
      attempt({
        hiderLight: "dark",
        observers: [
          guard({ id: "bat", senses: { blindsight: 18 }, distance: 6 }),
          guard({ id: "angel", senses: { truesight: 36 }, distance: 36 }),
          guard({ id: "far bat", senses: { blindsight: 18 }, distance: 30 }),
        ],
      }),
    );
    expect(r.observers).toEqual([
      { id: "bat", canHideFrom: false, because: null, blockedBy: "blindsight" },
      { id: "angel", canHideFrom: false, because: null, blockedBy: "truesight" },
      { id: "far bat", canHideFrom: true, because: "darkness" },
    ]);
    expect(r.ok).toBe(false);
    expect(r.reasons).toEqual(["observerSees"]);
    expect(r.hideableFrom).toEqual(["far bat"]);
    expect(r.seenBy).toEqual(["bat", "angel"]);
  });
  it("invisible: allows the attempt, even in bright light and against darkvision", () => {
    const r = canTryToHide(attempt({ invisible: true, observers: [guard({ senses: { darkvision: 18 } })] }));
    expect(r.ok).toBe(true);
    expect(r.observers[0]?.because).toBe("invisible");
    const dark = canTryToHide(
      attempt({ invisible: true, hiderLight: "dark", observers: [guard({ senses: { darkvision: 18 } })] }),
    );
    expect(dark.observers[0]?.because).toBe("invisible");
  });
  it("invisible: truesight (and blindsight, Decision) within range see it", () => {
    const r = canTryToHide(
      attempt({
        invisible: true,
        observers: [
          guard({ id: "angel", senses: { truesight: 36 }, distance: 36 }),
          guard({ id: "far angel", senses: { truesight: 36 }, distance: 40 }),
          guard({ id: "bat", senses: { blindsight: 3 }, distance: 3 }),
        ],
      }),
    );
    expect(r.observers).toEqual([
      { id: "angel", canHideFrom: false, because: null, blockedBy: "truesight" },
      { id: "far angel", canHideFrom: true, because: "invisible" },
      { id: "bat", canHideFrom: false, because: null, blockedBy: "blindsight" },
    ]);
  });
  it("invisibility is not automatically hidden: the hider still rolls Stealth", () => {
    expect(canTryToHide(attempt({ invisible: true })).ok).toBe(true);
    const res = hideResult({
      stealthTotal: 8,
      observers: [{ id: "guard", passivePerception: 12, searching: false }],
    });
    expect(res.spottedBy).toEqual(["guard"]);
  });
  it("a spot the observer is not watching, with the referee's agreement", () => {
    const r = canTryToHide(attempt({ observers: [guard({ notWatching: true, senses: { truesight: 30 } })] }));
    expect(r.ok).toBe(true);
    expect(r.observers[0]?.because).toBe("notWatching");
  });
  it("names the first prerequisite that holds (cover, darkness, invisible, notWatching)", () => {
    const all = guard({ hasLineOfSight: false, notWatching: true });
    expect(canTryToHide(attempt({ hiderLight: "dark", invisible: true, observers: [all] })).observers[0]?.because).toBe(
      "cover",
    );
    const lit = guard({ notWatching: true });
    expect(canTryToHide(attempt({ hiderLight: "dark", invisible: true, observers: [lit] })).observers[0]?.because).toBe(
      "darkness",
    );
    expect(canTryToHide(attempt({ invisible: true, observers: [lit] })).observers[0]?.because).toBe("invisible");
  });
  it("while travelling, stealth requires the slow pace", () => {
    const dark = { hiderLight: "dark" as const, travelling: true };
    expect(canTryToHide(attempt({ ...dark, pace: "slow" })).ok).toBe(true);
    for (const pace of ["normal", "fast"] as const) {
      const r = canTryToHide(attempt({ ...dark, pace }));
      expect(r.ok).toBe(false);
      expect(r.reasons).toEqual(["needsSlowPace"]);
      expect(r.hideableFrom).toEqual([]);
      expect(r.observers[0]?.canHideFrom).toBe(true);
    }
    // not travelling: the pace does not matter
    expect(canTryToHide(attempt({ hiderLight: "dark", pace: "fast" })).ok).toBe(true);
    expect(canTryToHide(attempt({ travelling: true, pace: "fast" })).reasons).toEqual([
      "needsSlowPace",
      "observerSees",
    ]);
  });
  it("no observers: nothing to hide from", () => {
    const r = canTryToHide(attempt({ observers: [] }));
    expect(r.ok).toBe(false);
    expect(r.reasons).toEqual(["noObservers"]);
  });
  it("rejects invalid input", () => {
    expect(keyOf(() => canTryToHide(attempt({ ruleset: "gurps" as never })))).toBe("AVENTURE.Error.UnknownRuleset");
    expect(keyOf(() => canTryToHide(attempt({ hiderLight: "murky" as never })))).toBe("AVENTURE.Error.UnknownValue");
    expect(keyOf(() => canTryToHide(attempt({ invisible: undefined as never })))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => canTryToHide(attempt({ invisible: "no" as never })))).toBe("AVENTURE.Error.UnknownValue");
    expect(keyOf(() => canTryToHide(attempt({ travelling: true })))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => canTryToHide(attempt({ travelling: true, pace: "run" as never })))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(keyOf(() => canTryToHide(attempt({ observers: undefined as never })))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => canTryToHide(attempt({ observers: [guard({ id: "" })] })))).toBe("AVENTURE.Error.Missing");
    expect(keyOf(() => canTryToHide(attempt({ observers: [guard({ distance: -1 })] })))).toBe(
      "AVENTURE.Error.Negative",
    );
    expect(keyOf(() => canTryToHide(attempt({ observers: [guard({ distance: Number.NaN })] })))).toBe(
      "AVENTURE.Error.NotANumber",
    );
    expect(keyOf(() => canTryToHide(attempt({ observers: [guard({ hasLineOfSight: undefined as never })] })))).toBe(
      "AVENTURE.Error.Missing",
    );
    expect(keyOf(() => canTryToHide(attempt({ observers: [guard({ senses: null as never })] })))).toBe(
      "AVENTURE.Error.Missing",
    );
    expect(keyOf(() => canTryToHide(attempt({ observers: [guard({ senses: { darkvision: -3 } })] })))).toBe(
      "AVENTURE.Error.Negative",
    );
    expect(keyOf(() => canTryToHide(attempt({ observers: [guard({ notWatching: 1 as never })] })))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(keyOf(() => canTryToHide(null as never))).toBe("AVENTURE.Error.Missing");
  });
  it("more sense range never makes hiding easier; total cover always allows it (property)", () => {
    const range = fc.double({ min: 0, max: 60, noNaN: true });
    fc.assert(
      fc.property(
        fc.constantFrom("rnp", "dnd5e", "pmt", "ose", "polaris" as const),
        fc.constantFrom("dark", "dim", "bright" as const),
        fc.boolean(),
        fc.constantFrom("darkvision", "blindsight", "truesight" as const),
        range,
        range,
        fc.double({ min: 0, max: 60, noNaN: true }),
        (ruleset, hiderLight, invisible, sense, a, b, distance) => {
          const can = (r: number, los = true) =>
            canTryToHide({
              ruleset,
              hiderLight,
              invisible,
              observers: [guard({ senses: { [sense]: r }, distance, hasLineOfSight: los })],
            }).ok;
          if (can(Math.max(a, b))) expect(can(Math.min(a, b))).toBe(true);
          expect(can(a, false)).toBe(true);
        },
      ),
    );
  });
});

describe("canTryToHide: obscurity (§5, §6)", () => {
  it("heavy obscurity is a zone of no visibility: because obscured", () => {
    expect(HIDE_BECAUSE).toEqual(["cover", "darkness", "obscured", "invisible", "notWatching"]);
    const r = canTryToHide(attempt({ hiderObscurity: "heavy" }));
    expect(r.ok).toBe(true);
    expect(r.observers[0]).toEqual({ id: "guard", canHideFrom: true, because: "obscured" });
  });
  it("darkvision and truesight do not see through it; blindsight within range does", () => {
    const at = (senses: HideObserver["senses"], distance = 9) =>
      canTryToHide(attempt({ hiderObscurity: "heavy", observers: [guard({ senses, distance })] })).observers[0];
    expect(at({ darkvision: 18 })?.because).toBe("obscured");
    expect(at({ truesight: 36 })?.because).toBe("obscured");
    expect(at({ blindsight: 9 })).toEqual({ id: "guard", canHideFrom: false, because: null, blockedBy: "blindsight" });
    expect(at({ blindsight: 9 }, 9.5)?.because).toBe("obscured");
  });
  it("light obscurity (reduced visibility) is not enough; none is the default", () => {
    expect(canTryToHide(attempt({ hiderObscurity: "light" })).observers[0]?.canHideFrom).toBe(false);
    expect(canTryToHide(attempt({ hiderObscurity: "none" }))).toEqual(canTryToHide(attempt()));
  });
  it("cover and darkness are named first", () => {
    expect(canTryToHide(attempt({ hiderObscurity: "heavy", hiderLight: "dark" })).observers[0]?.because).toBe(
      "darkness",
    );
    expect(
      canTryToHide(attempt({ hiderObscurity: "heavy", observers: [guard({ hasLineOfSight: false })] })).observers[0]
        ?.because,
    ).toBe("cover");
  });
  it("rejects an unknown obscurity", () => {
    expect(keyOf(() => canTryToHide(attempt({ hiderObscurity: "mist" as never })))).toBe("AVENTURE.Error.UnknownValue");
  });
});

describe("hideResult: Stealth total is the DC", () => {
  it("Stealth 15 against passive 10, 14 and 18: only 18 spots it", () => {
    const r = hideResult({
      stealthTotal: 15,
      observers: [
        { id: "a", passivePerception: 10, searching: false },
        { id: "b", passivePerception: 14, searching: false },
        { id: "c", passivePerception: 18, searching: false },
      ],
    });
    expect(r).toEqual({ dc: 15, spottedBy: ["c"], hiddenFrom: ["a", "b"] });
  });
  it("passive equal to the DC spots it (meets or beats)", () => {
    expect(
      hideResult({ stealthTotal: 15, observers: [{ id: "a", passivePerception: 15, searching: false }] }).spottedBy,
    ).toEqual(["a"]);
  });
  it("a searching observer rolls Wisdom (Perception): 15 spots, 14 does not; its passive is not used", () => {
    const r = hideResult({
      stealthTotal: 15,
      observers: [
        { id: "s1", passivePerception: 10, searching: true, perceptionRoll: 15 },
        { id: "s2", passivePerception: 18, searching: true, perceptionRoll: 14 },
      ],
    });
    expect(r).toEqual({ dc: 15, spottedBy: ["s1"], hiddenFrom: ["s2"] });
  });
  it("a searching observer's passive may be unknown (null); a non-searching one's may not", () => {
    const r = hideResult({
      stealthTotal: 12,
      observers: [{ id: "s", passivePerception: null, searching: true, perceptionRoll: 12 }],
    });
    expect(r).toEqual({ dc: 12, spottedBy: ["s"], hiddenFrom: [] });
    expect(
      keyOf(() =>
        hideResult({ stealthTotal: 12, observers: [{ id: "p", passivePerception: null, searching: false }] }),
      ),
    ).toBe("AVENTURE.Error.NotANumber");
  });
  it("Jamba's example: Stealth 18 beats the goblins' passive Perception", () => {
    const r = hideResult({
      stealthTotal: 18,
      observers: [
        { id: "goblin1", passivePerception: 9, searching: false },
        { id: "goblin2", passivePerception: 9, searching: false },
      ],
    });
    expect(r.spottedBy).toEqual([]);
    expect(r.hiddenFrom).toEqual(["goblin1", "goblin2"]);
  });
  it("no observers: nobody spots, nobody to be hidden from", () => {
    expect(hideResult({ stealthTotal: 12, observers: [] })).toEqual({ dc: 12, spottedBy: [], hiddenFrom: [] });
  });
  it("rejects invalid input", () => {
    const o = { id: "a", passivePerception: 10, searching: false };
    expect(keyOf(() => hideResult({ stealthTotal: Number.NaN, observers: [o] }))).toBe("AVENTURE.Error.NotANumber");
    expect(keyOf(() => hideResult({ stealthTotal: 12.5, observers: [o] }))).toBe("AVENTURE.Error.NotAnInteger");
    expect(
      keyOf(() => hideResult({ stealthTotal: 12, observers: [{ ...o, passivePerception: Number.POSITIVE_INFINITY }] })),
    ).toBe("AVENTURE.Error.NotANumber");
    expect(keyOf(() => hideResult({ stealthTotal: 12, observers: [{ ...o, searching: true }] }))).toBe(
      "AVENTURE.Error.Missing",
    );
    expect(
      keyOf(() => hideResult({ stealthTotal: 12, observers: [{ ...o, searching: true, perceptionRoll: Number.NaN }] })),
    ).toBe("AVENTURE.Error.NotANumber");
    expect(keyOf(() => hideResult({ stealthTotal: 12, observers: [{ ...o, searching: undefined as never }] }))).toBe(
      "AVENTURE.Error.Missing",
    );
    expect(keyOf(() => hideResult({ stealthTotal: 12, observers: [{ ...o, id: 3 as never }] }))).toBe(
      "AVENTURE.Error.Missing",
    );
    expect(keyOf(() => hideResult({ stealthTotal: 12, observers: null as never }))).toBe("AVENTURE.Error.Missing");
  });
  it("every observer is either spotting or hidden from, by score ≥ DC (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.boolean(), fc.integer({ min: -5, max: 40 })), {
          maxLength: 8,
        }),
        (dc, obs) => {
          const observers = obs.map(([passive, searching, roll], i) => ({
            id: `o${i}`,
            passivePerception: passive,
            searching,
            perceptionRoll: roll,
          }));
          const r = hideResult({ stealthTotal: dc, observers });
          expect(r.spottedBy.length + r.hiddenFrom.length).toBe(observers.length);
          for (const o of observers) {
            const score = o.searching ? o.perceptionRoll : o.passivePerception;
            expect(r.spottedBy.includes(o.id)).toBe(score >= dc);
          }
          // a higher Stealth total never gets spotted by more observers
          expect(hideResult({ stealthTotal: dc + 1, observers }).spottedBy.length).toBeLessThanOrEqual(
            r.spottedBy.length,
          );
        },
      ),
    );
  });
});

describe("hideEnds: §6 list of what ends hiding", () => {
  it("every event ends hiding; losing the prerequisites gives a Perception check", () => {
    expect(HIDE_END_EVENTS).toEqual([
      "revealed",
      "attacked",
      "enteredView",
      "seenByMover",
      "coverRemoved",
      "leftDarkness",
      "noise",
    ]);
    expect(hideEnds("revealed")).toEqual({ event: "revealed", endsHiding: true, perceptionCheck: false });
    expect(hideEnds("attacked")).toEqual({ event: "attacked", endsHiding: true, perceptionCheck: false });
    expect(hideEnds("noise")).toEqual({ event: "noise", endsHiding: true, perceptionCheck: false });
    expect(hideEnds("enteredView")).toEqual({ event: "enteredView", endsHiding: true, perceptionCheck: true });
    expect(hideEnds("seenByMover")).toEqual({ event: "seenByMover", endsHiding: true, perceptionCheck: true });
    expect(hideEnds("coverRemoved")).toEqual({ event: "coverRemoved", endsHiding: true, perceptionCheck: true });
    expect(hideEnds("leftDarkness")).toEqual({ event: "leftDarkness", endsHiding: true, perceptionCheck: true });
    expect(Object.keys(HIDE_ENDS).sort()).toEqual([...HIDE_END_EVENTS].sort());
  });
  it("rejects an unknown event", () => {
    expect(keyOf(() => hideEnds("sneezed" as never))).toBe("AVENTURE.Error.UnknownValue");
  });
});

describe("stealth: whole errors (key and data), what the user reads", () => {
  it("canTryToHide names the argument, the observer and the allowed values", () => {
    throwsError(() => canTryToHide(null as never), "Missing", { name: "input" });
    throwsError(() => canTryToHide(attempt({ ruleset: "gurps" as never })), "UnknownRuleset", { value: "gurps" });
    throwsError(() => canTryToHide(attempt({ hiderLight: "murky" as never })), "UnknownValue", {
      name: "hiderLight",
      value: "murky",
      allowed: "dark, dim, bright",
    });
    throwsError(() => canTryToHide(attempt({ hiderObscurity: "thick" as never })), "UnknownValue", {
      name: "hiderObscurity",
      value: "thick",
      allowed: "none, light, heavy",
    });
    throwsError(() => canTryToHide(attempt({ invisible: undefined as never })), "Missing", { name: "invisible" });
    throwsError(() => canTryToHide(attempt({ invisible: null as never })), "Missing", { name: "invisible" });
    throwsError(() => canTryToHide(attempt({ invisible: "no" as never })), "UnknownValue", {
      name: "invisible",
      value: "no",
      allowed: "true, false",
    });
    throwsError(() => canTryToHide(attempt({ travelling: "yes" as never })), "UnknownValue", {
      name: "travelling",
      value: "yes",
      allowed: "true, false",
    });
    throwsError(() => canTryToHide(attempt({ travelling: true })), "Missing", { name: "pace" });
    throwsError(() => canTryToHide(attempt({ pace: "run" as never })), "UnknownValue", {
      name: "pace",
      value: "run",
      allowed: "slow, normal, fast",
    });
    throwsError(() => canTryToHide(attempt({ observers: undefined as never })), "Missing", { name: "observers" });
    throwsError(
      () => canTryToHide(attempt({ observers: Array.from({ length: 501 }, (_, i) => guard({ id: `g${i}` })) })),
      "OutOfRange",
      { name: "observers", value: 501, min: 0, max: 500 },
    );
    throwsError(() => canTryToHide(attempt({ observers: [guard(), null as never] })), "Missing", {
      name: "observers[1]",
    });
    throwsError(() => canTryToHide(attempt({ observers: [guard(), guard({ id: "" })] })), "Missing", {
      name: "observers[1].id",
    });
    throwsError(() => canTryToHide(attempt({ observers: [guard({ hasLineOfSight: null as never })] })), "Missing", {
      name: "observers[0].hasLineOfSight",
    });
    throwsError(() => canTryToHide(attempt({ observers: [guard({ senses: 3 as never })] })), "Missing", {
      name: "observers[0].senses",
    });
    throwsError(() => canTryToHide(attempt({ observers: [guard({ distance: -1 })] })), "Negative", {
      name: "observers[0].distance",
      value: -1,
    });
    throwsError(() => canTryToHide(attempt({ observers: [guard({ notWatching: 1 as never })] })), "UnknownValue", {
      name: "observers[0].notWatching",
      value: "1",
      allowed: "true, false",
    });
    throwsError(() => canTryToHide(attempt({ observers: [guard({ senses: { blindsight: -2 } })] })), "Negative", {
      name: "observers[0].senses.blindsight",
      value: -2,
    });
    throwsError(() => canTryToHide(attempt({ observers: [guard({ senses: { truesight: -2 } })] })), "Negative", {
      name: "observers[0].senses.truesight",
      value: -2,
    });
    throwsError(
      () => canTryToHide(attempt({ observers: [guard(), guard({ id: "b", senses: { darkvision: Number.NaN } })] })),
      "NotANumber",
      { name: "observers[1].senses.darkvision", value: "NaN" },
    );
  });
  it("a sense of range 0 is no sense; one exactly at range sees", () => {
    const at = (senses: HideObserver["senses"], over: Partial<HideAttemptInput> = {}) =>
      canTryToHide(attempt({ invisible: true, ...over, observers: [guard({ senses })] })).observers[0];
    expect(at({ truesight: 0 })).toEqual({ id: "guard", canHideFrom: true, because: "invisible" });
    expect(at({ blindsight: 0 })).toEqual({ id: "guard", canHideFrom: true, because: "invisible" });
    expect(at({ truesight: 9 })).toEqual({ id: "guard", canHideFrom: false, because: null, blockedBy: "truesight" });
    expect(at({ truesight: 8.99 })).toEqual({ id: "guard", canHideFrom: true, because: "invisible" });
    expect(at({ blindsight: 9, truesight: 9 })).toEqual({
      id: "guard",
      canHideFrom: false,
      because: null,
      blockedBy: "blindsight",
    });
    expect(at({ blindsight: 0 }, { hiderObscurity: "heavy", invisible: false })).toEqual({
      id: "guard",
      canHideFrom: true,
      because: "obscured",
    });
  });
  it("at distance 0 a sense of range 0 is still no sense", () => {
    expect(
      canTryToHide(
        attempt({ invisible: true, observers: [guard({ distance: 0, senses: { blindsight: 0, truesight: 0 } })] }),
      ).observers[0],
    ).toEqual({ id: "guard", canHideFrom: true, because: "invisible" });
  });
  it("a hider seen in light is seen by the light, whatever senses see it too", () => {
    const seen = (over: Partial<HideAttemptInput>, senses: HideObserver["senses"]) =>
      canTryToHide(attempt({ ...over, observers: [guard({ senses })] })).observers[0];
    expect(seen({ ruleset: "dnd5e", hiderLight: "dim" }, { darkvision: 18 })).toEqual({
      id: "guard",
      canHideFrom: false,
      because: null,
      blockedBy: "light",
    });
    expect(seen({ hiderLight: "bright" }, { truesight: 18, blindsight: 18 })).toEqual({
      id: "guard",
      canHideFrom: false,
      because: null,
      blockedBy: "light",
    });
    expect(seen({ hiderLight: "dark" }, { darkvision: 18, truesight: 18 })).toEqual({
      id: "guard",
      canHideFrom: false,
      because: null,
      blockedBy: "truesight",
    });
  });
  it("the whole attempt: some observers hide it, some see it; at slow pace while travelling", () => {
    const r = canTryToHide(
      attempt({
        travelling: true,
        pace: "slow",
        observers: [
          guard({ id: "a" }),
          guard({ id: "b", hasLineOfSight: false }),
          guard({ id: "c", notWatching: true }),
        ],
      }),
    );
    expect(r).toEqual({
      ok: false,
      reasons: ["observerSees"],
      observers: [
        { id: "a", canHideFrom: false, because: null, blockedBy: "light" },
        { id: "b", canHideFrom: true, because: "cover" },
        { id: "c", canHideFrom: true, because: "notWatching" },
      ],
      hideableFrom: ["b", "c"],
      seenBy: ["a"],
    });
    expect(
      canTryToHide(attempt({ travelling: false, pace: "fast", observers: [guard({ hasLineOfSight: false })] })),
    ).toMatchObject({ ok: true, reasons: [], hideableFrom: ["guard"] });
  });
  it("hideResult names the score, the observer and its field", () => {
    const o = { id: "a", passivePerception: 10, searching: false };
    throwsError(() => hideResult(null as never), "Missing", { name: "input" });
    throwsError(() => hideResult({ stealthTotal: 12.5, observers: [o] }), "NotAnInteger", {
      name: "stealthTotal",
      value: 12.5,
    });
    throwsError(() => hideResult({ stealthTotal: 1001, observers: [o] }), "OutOfRange", {
      name: "stealthTotal",
      value: 1001,
      min: -1000,
      max: 1000,
    });
    throwsError(() => hideResult({ stealthTotal: -1001, observers: [o] }), "OutOfRange", {
      name: "stealthTotal",
      value: -1001,
      min: -1000,
      max: 1000,
    });
    expect(hideResult({ stealthTotal: -1000, observers: [{ ...o, passivePerception: 1000 }] })).toEqual({
      dc: -1000,
      spottedBy: ["a"],
      hiddenFrom: [],
    });
    throwsError(() => hideResult({ stealthTotal: 12, observers: Array.from({ length: 501 }, () => o) }), "OutOfRange", {
      name: "observers",
      value: 501,
      min: 0,
      max: 500,
    });
    throwsError(() => hideResult({ stealthTotal: 12, observers: [o, 4 as never] }), "Missing", {
      name: "observers[1]",
    });
    throwsError(() => hideResult({ stealthTotal: 12, observers: [o, { ...o, id: "" }] }), "Missing", {
      name: "observers[1].id",
    });
    throwsError(() => hideResult({ stealthTotal: 12, observers: [{ ...o, searching: null as never }] }), "Missing", {
      name: "observers[0].searching",
    });
    throwsError(() => hideResult({ stealthTotal: 12, observers: [{ ...o, passivePerception: null }] }), "NotANumber", {
      name: "observers[0].passivePerception",
      value: "null",
    });
    throwsError(() => hideResult({ stealthTotal: 12, observers: [{ ...o, passivePerception: 2000 }] }), "OutOfRange", {
      name: "observers[0].passivePerception",
      value: 2000,
      min: -1000,
      max: 1000,
    });
    throwsError(
      () => hideResult({ stealthTotal: 12, observers: [{ ...o, searching: true, perceptionRoll: null as never }] }),
      "Missing",
      { name: "observers[0].perceptionRoll" },
    );
    throwsError(
      () => hideResult({ stealthTotal: 12, observers: [{ ...o, searching: true, perceptionRoll: 3.5 }] }),
      "NotAnInteger",
      { name: "observers[0].perceptionRoll", value: 3.5 },
    );
    throwsError(() => hideResult({ stealthTotal: 12, observers: [{ ...o, perceptionRoll: 3.5 }] }), "NotAnInteger", {
      name: "observers[0].perceptionRoll",
      value: 3.5,
    });
  });
  it("a searching observer's passive, when given, must still be a score", () => {
    throwsError(
      () =>
        hideResult({
          stealthTotal: 12,
          observers: [{ id: "s", passivePerception: Number.NaN, searching: true, perceptionRoll: 12 }],
        }),
      "NotANumber",
      { name: "observers[0].passivePerception", value: "NaN" },
    );
  });
  it("a searching observer's passive may be absent too", () => {
    expect(
      hideResult({ stealthTotal: 12, observers: [{ id: "s", searching: true, perceptionRoll: 12 } as never] }),
    ).toEqual({ dc: 12, spottedBy: ["s"], hiddenFrom: [] });
  });
  it("a searching observer with a known passive still uses its roll; a passive below the DC stays hidden", () => {
    expect(
      hideResult({
        stealthTotal: 15,
        observers: [
          { id: "s", passivePerception: 20, searching: true, perceptionRoll: 14 },
          { id: "p", passivePerception: 14, searching: false, perceptionRoll: 20 },
        ],
      }),
    ).toEqual({
      dc: 15,
      spottedBy: [],
      hiddenFrom: ["s", "p"],
    });
  });
  it("hideEnds: the whole answer, and names an unknown event", () => {
    expect(hideEnds("noise")).toEqual({ event: "noise", endsHiding: true, perceptionCheck: false });
    expect(hideEnds("coverRemoved")).toEqual({ event: "coverRemoved", endsHiding: true, perceptionCheck: true });
    throwsError(() => hideEnds("sneeze" as never), "UnknownValue", {
      name: "event",
      value: "sneeze",
      allowed: "revealed, attacked, enteredView, seenByMover, coverRemoved, leftDarkness, noise",
    });
  });
});
