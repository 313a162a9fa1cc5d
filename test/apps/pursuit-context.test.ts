/** The Pursuit dialog's preview: a surprised fleeing side may flee (rules §8.2); ose running is OSE's own rule. */
import { describe, expect, it } from "vitest";
import { defaultSetup, pursuitDialogContext, type PursuitSetup } from "../../src/pursuit/pursuit-context.js";
import { FakeI18n } from "../fake/i18n.js";

const en = new FakeI18n("en");
const env = {
  ruleset: "ose" as const,
  isGM: true,
  localize: (k: string, d?: Record<string, string | number>) => (d ? en.format(k, d) : en.localize(k)),
  errorText: (e: unknown) => String(e),
  resumable: false,
  busy: false,
};
const lines = (setup: PursuitSetup, ruleset: "ose" | "pmt" = "ose") =>
  (pursuitDialogContext(setup, null, { ...env, ruleset }).preview as { text: string }[]).map((x) => x.text);

describe("pursuit preview", () => {
  it("outdoors, a surprised fleeing side still gets its escape chance (4 vs 2: 70 %)", () => {
    const s: PursuitSetup = { ...defaultSetup(), place: "outdoors", surprise: "fleeing" };
    s.groups = { party: { ...s.groups.party, count: 4 }, opponents: { ...s.groups.opponents, count: 2 } };
    const t = lines(s);
    expect(t[0]).toContain("The fleeing side is surprised: it may still flee");
    expect(t.some((x) => x.includes("70%"))).toBe(true);
  });
  it("in the dungeon, the ose running limit says it is OSE's own rule", () => {
    const s: PursuitSetup = {
      ...defaultSetup(),
      groups: {
        party: { ...defaultSetup().groups.party, speed: 9 },
        opponents: { ...defaultSetup().groups.opponents, speed: 12 },
      },
    };
    expect(lines(s)).toContain(
      "Running: at most 30 rounds, then \u22122 to attacks, damage and AC until 3 turns of rest (an Old-School Essentials rule; the French text Aventure follows has none).",
    );
  });
});
