/** The Polaris card explains a critical success and shows the improved margin (rules §9.1). */
import { describe, expect, it } from "vitest";
import { polarisCardContext, type PolarisCardInput } from "../../src/polaris/polaris-context.js";
import { polarisTest } from "../../src/rules/polaris.js";
import { FakeI18n } from "../fake/i18n.js";

const l = (i18n: FakeI18n) => (k: string, d?: Record<string, string | number>) =>
  d ? i18n.format(k, d) : i18n.localize(k);
const en = l(new FakeI18n("en"));
const fr = l(new FakeI18n("fr"));
const card = (over: Partial<PolarisCardInput> & Pick<PolarisCardInput, "result" | "die">): PolarisCardInput => ({
  label: "",
  chance: 12,
  difficulty: "average",
  retryPenalty: 0,
  hideDifficulty: false,
  ...over,
});

describe("Polaris card: critical success", () => {
  it("chance 12, Moyenne, die 12, mastery 4: Correct (+1), margin 4 = 0 + 4, explained", () => {
    const ctx = polarisCardContext(
      card({ die: 12, result: polarisTest({ chance: 12, difficulty: "average", roll: 12, mastery: 4 }) }),
      en,
    );
    expect(ctx.degree).toBe("Fair");
    expect(ctx.modifier).toBe("+1");
    expect(ctx.marginText).toBe("Margin 4 (0 + 4: mastery)");
    expect(ctx.critical).toBe("Critical success!");
    expect(ctx.criticalExplain).toBe(
      "A critical success improves the margin by the skill's mastery level: +4. The degree reads the improved margin.",
    );
  });
  it("says so when no mastery was given, instead of a bare Barely (0)", () => {
    const ctx = polarisCardContext(
      card({ die: 12, result: polarisTest({ chance: 12, difficulty: "average", roll: 12 }) }),
      en,
    );
    expect(ctx.criticalExplain).toBe(
      "A critical success improves the margin by the skill's mastery level; no mastery was given, so the margin stays 0.",
    );
  });
  it("an attribute test, and a bonus set by the GM", () => {
    const attr = polarisTest({ chance: 14, difficulty: "average", roll: 14, kind: "attribute", attributeLevel: 14 });
    expect(polarisCardContext(card({ die: 14, chance: 14, result: attr, kind: "attribute" }), fr).criticalExplain).toBe(
      "Une réussite critique à un test d\u2019attribut améliore la marge de la moitié du niveau de l\u2019attribut, arrondie à l\u2019inférieur\u00a0: +7. Le degré se lit sur la marge améliorée.",
    );
    const set = polarisTest({ chance: 12, difficulty: "average", roll: 12, criticalBonus: 6 });
    expect(polarisCardContext(card({ die: 12, result: set, criticalOverride: true }), en).marginText).toBe(
      "Margin 6 (0 + 6: the GM's bonus)",
    );
  });
  it("nothing to explain otherwise", () => {
    const ctx = polarisCardContext(
      card({ die: 10, result: polarisTest({ chance: 12, difficulty: "average", roll: 10, mastery: 4 }) }),
      en,
    );
    expect(ctx.marginText).toBe("Margin 2");
    expect(ctx.criticalExplain).toBe("");
  });
});

import { countdownLeft } from "../../src/rules/polaris.js";
import {
  effectiveDifficulty,
  initialPolarisState,
  nextAttempt,
  polarisDialogContext,
  type PolarisTestState,
} from "../../src/polaris/polaris-context.js";
import { isKeyedPath, keyedNumbers, readKeyed, unresolvedPaths } from "../../src/actors/read.js";
import { EMPTY_PATHS } from "../../src/core/core-settings.js";

const base = (over: Partial<PolarisTestState> = {}): PolarisTestState => ({
  ...initialPolarisState({ label: "", isGM: true, actorName: "", skills: [], attributes: [] }),
  ...over,
});

describe("Polaris dialog context", () => {
  it("harderDifficulty along the table: Moyenne + 1 = Assez difficile; a plain modifier has no degrees", () => {
    expect(effectiveDifficulty("average", 1)).toBe("fairlyHard");
    expect(effectiveDifficulty("average", -20)).toBe("extremelyEasy");
    expect(effectiveDifficulty(-4, 0)).toBe(-4);
    expect(() => effectiveDifficulty(-4, 1)).toThrow(/UnknownValue/);
    expect(polarisDialogContext(base({ harder: "2" }), fr).rolledAt).toBe(
      "Difficulté du jet\u00a0: Difficile (−5), relevée de 2 degrés depuis Moyenne",
    );
  });

  it("with a countdown the attempt is the attempts made + 1 and the retry penalty follows it (pressed: −3 each)", () => {
    const fail = polarisTest({ chance: 10, difficulty: "average", roll: 13 });
    const s = base({ pressed: true, attempt: 7, countdown: { max: "4", catastropheCost: 1, tests: [fail, fail] } });
    expect(nextAttempt(s)).toBe(3);
    const ctx = polarisDialogContext(s, en);
    expect(ctx.penalty).toBe("Retry penalty −6 (attempt 3)");
    expect(ctx.countdownStatus).toBe("Attempt 3: 2 attempts left out of 4.");
    expect(ctx.canRoll).toBe(true);
    // Without a countdown the field counts.
    expect(nextAttempt(base({ attempt: 7 }))).toBe(7);
  });

  it("a countdown that ran out says the planned event happens and stops the rolls; players never see one", () => {
    const cat = polarisTest({ chance: 1, difficulty: "average", roll: 16 });
    const fail = polarisTest({ chance: 10, difficulty: "average", roll: 13 });
    expect(countdownLeft(3, [fail, cat])).toEqual({ left: 0, succeeded: false, exhausted: true });
    const ctx = polarisDialogContext(base({ countdown: { max: "3", catastropheCost: 1, tests: [fail, cat] } }), en);
    expect(ctx.countdownEnded).toBe("The countdown runs out: the planned event happens.");
    expect(ctx.canRoll).toBe(false);
    expect(
      polarisDialogContext(base({ isGM: false, countdown: { max: "3", catastropheCost: 1, tests: [fail, cat] } }), en)
        .canRoll,
    ).toBe(true);
    // A maximum the rules refuse shows no countdown (the roll says why).
    expect(polarisDialogContext(base({ countdown: { max: "0", catastropheCost: 1, tests: [] } }), en).countdownOn).toBe(
      false,
    );
  });

  it("the critical preview: mastery, half the attribute's level, or nothing to add", () => {
    expect(polarisDialogContext(base({ mastery: "4" }), en).criticalPreview).toBe(
      "Critical success: margin +4 (mastery).",
    );
    expect(polarisDialogContext(base({ kind: "attribute", chance: "15" }), en).criticalPreview).toBe(
      "Critical success: margin +7 (half of 15, rounded down).",
    );
    expect(polarisDialogContext(base(), en).criticalPreview).toBe(
      "Critical success: no mastery given, so the margin is not improved.",
    );
  });
});

describe("keyed Actor data paths (system.skills.*.value)", () => {
  const actor = {
    system: {
      skills: {
        adaptation: { label: "Adaptation", value: 11, mastery: 2 },
        pilotage: { value: "14", mastery: 4 },
        broken: { value: "x" },
        "../x": { value: 3 },
      },
      list: [1, 2],
    },
  };
  it("lists every key with a number, in order; reads one key; rejects odd keys and non-objects", () => {
    expect(isKeyedPath("system.skills.*.value")).toBe(true);
    expect(keyedNumbers(actor, "system.skills.*.value")).toEqual([
      { key: "adaptation", label: "Adaptation", value: 11 },
      { key: "pilotage", label: "pilotage", value: 14 },
    ]);
    expect(readKeyed(actor, "system.skills.*.mastery", "pilotage")).toBe(4);
    expect(readKeyed(actor, "system.skills.*.mastery", "constructor")).toBeNull();
    expect(readKeyed(actor, "system.skills.*.mastery", "../x")).toBeNull();
    expect(keyedNumbers(actor, "system.list.*")).toEqual([]);
    expect(keyedNumbers(actor, "system.nothing.*.value|system.skills.*.mastery").map((s) => s.value)).toEqual([2, 4]);
    expect(keyedNumbers(actor, "system.*.*.value")).toEqual([]); // one * only
    const many = { s: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])) };
    expect(keyedNumbers(many, "s.*")).toHaveLength(200);
  });
  it("the Actor data menu flags a keyed path with nothing behind it", () => {
    expect(
      unresolvedPaths(actor, {
        ...EMPTY_PATHS,
        polarisSkillLevel: "system.skills.*.value",
        polarisAttributeLevel: "system.attributes.*.value",
      }),
    ).toEqual(["polarisAttributeLevel"]);
  });
});

describe("initialPolarisState", () => {
  it("opens at chance 10, Moyenne, a skill test, first attempt, no countdown, nothing rolled", () => {
    const s = initialPolarisState({
      label: "Mercenaire",
      isGM: false,
      actorName: "Mercenaire",
      skills: [],
      attributes: [],
    });
    expect(s).toMatchObject({
      chance: "10",
      kind: "skill",
      difficulty: "average",
      harder: "",
      attempt: 1,
      pressed: false,
      secret: false,
      last: null,
    });
    expect(s.countdown).toEqual({ max: "", catastropheCost: 1, tests: [] });
    expect([s.label, s.isGM]).toEqual(["Mercenaire", false]);
  });
});
