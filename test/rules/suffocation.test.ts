/**
 * RULES.md §4.2 in play: the timeline of a creature that holds its breath (1 + CON modifier minutes, at least 30 s),
 * then survives CON modifier rounds out of air (at least 1), then drops to 0 HP at the start of the next round.
 * Values are the spec's, written out as literals.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { breathState, roundSeconds, suffocationTimeline, isRulesError } from "../../src/rules/index.js";

const key = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (e) {
    return isRulesError(e) ? e.key : `not a RulesError: ${String(e)}`;
  }
};

describe("suffocationTimeline (RULES.md §4.2)", () => {
  it("CON +2: 3 minutes of held breath, then 2 rounds, down at the start of the third (6 s rounds: 192 s)", () => {
    expect(suffocationTimeline(2, 6)).toEqual({ holdSeconds: 180, rounds: 2, roundSeconds: 6, dropSeconds: 192 });
  });
  it("CON −1: 30 seconds at least, then 1 round at least", () => {
    expect(suffocationTimeline(-1, 6)).toEqual({ holdSeconds: 30, rounds: 1, roundSeconds: 6, dropSeconds: 36 });
  });
  it("CON 0: 1 minute, then 1 round; ose's 10 s rounds", () => {
    expect(suffocationTimeline(0, roundSeconds("ose"))).toEqual({
      holdSeconds: 60,
      rounds: 1,
      roundSeconds: 10,
      dropSeconds: 70,
    });
  });
  it("CON +3 on a dnd5e round: 4 minutes, then 3 rounds", () => {
    expect(suffocationTimeline(3, roundSeconds("dnd5e")).dropSeconds).toBe(240 + 18);
  });
  it("refuses a round that is not a positive whole number of seconds", () => {
    expect(key(() => suffocationTimeline(2, 0))).toBe("AVENTURE.Error.OutOfRange");
    expect(key(() => suffocationTimeline(2, 6.5))).toBe("AVENTURE.Error.NotAnInteger");
    expect(key(() => suffocationTimeline(2, Number.NaN))).toBe("AVENTURE.Error.NotANumber");
    expect(key(() => suffocationTimeline(11, 6))).toBe("AVENTURE.Error.OutOfRange");
  });
});

describe("breathState (RULES.md §4.2)", () => {
  it("CON +2: holding for 180 s, out of air with 2 then 1 rounds left, down at 192 s", () => {
    expect(breathState(2, 6, 0)).toMatchObject({ phase: "holding", secondsLeft: 180, roundsLeft: 2 });
    expect(breathState(2, 6, 179)).toMatchObject({ phase: "holding", secondsLeft: 1 });
    expect(breathState(2, 6, 180)).toMatchObject({ phase: "outOfAir", secondsLeft: 12, roundsLeft: 2 });
    expect(breathState(2, 6, 186)).toMatchObject({ phase: "outOfAir", secondsLeft: 6, roundsLeft: 1 });
    expect(breathState(2, 6, 191)).toMatchObject({ phase: "outOfAir", secondsLeft: 1, roundsLeft: 1 });
    expect(breathState(2, 6, 192)).toMatchObject({ phase: "down", secondsLeft: 0, roundsLeft: 0 });
    expect(breathState(2, 6, 100_000)).toMatchObject({ phase: "down" });
  });
  it("CON −1: out of air after 30 s, down after one more round", () => {
    expect(breathState(-1, 6, 33)).toMatchObject({ phase: "outOfAir", secondsLeft: 3, roundsLeft: 1 });
    expect(breathState(-1, 6, 36).phase).toBe("down");
  });
  it("world time rewound before the start: the start itself", () => {
    expect(breathState(2, 6, -50)).toMatchObject({ phase: "holding", secondsLeft: 180 });
  });
  it("refuses an elapsed time that is not a finite number", () => {
    expect(key(() => breathState(2, 6, Number.POSITIVE_INFINITY))).toBe("AVENTURE.Error.NotANumber");
    expect(key(() => breathState(2, 6, 1e12))).toBe("AVENTURE.Error.OutOfRange");
  });

  it("property: the phase only moves forward with time, and the drop comes exactly at dropSeconds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 10 }),
        fc.constantFrom(6, 10),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 2000 }),
        (con, round, a, b) => {
          const [early, late] = a <= b ? [a, b] : [b, a];
          const order = { holding: 0, outOfAir: 1, down: 2 } as const;
          const x = breathState(con, round, early);
          const y = breathState(con, round, late);
          expect(order[x.phase]).toBeLessThanOrEqual(order[y.phase]);
          expect(breathState(con, round, x.dropSeconds).phase).toBe("down");
          expect(breathState(con, round, x.dropSeconds - 1).phase).toBe("outOfAir");
          expect(x.holdSeconds).toBeGreaterThanOrEqual(30);
          expect(x.rounds).toBeGreaterThanOrEqual(1);
          if (x.phase === "outOfAir") expect(x.roundsLeft).toBeLessThanOrEqual(x.rounds);
        },
      ),
    );
  });
});
