/** The Polaris card explains a critical success and shows the improved margin (rules §9.1). */
import { describe, expect, it } from "vitest";
import { polarisCardContext, type PolarisCardInput } from "../../src/apps/polaris-context.js";
import { polarisTest } from "../../src/rules/polaris.js";
import { FakeI18n } from "../fake/i18n.js";

const l = (i18n: FakeI18n) => (k: string, d?: Record<string, string | number>) => (d ? i18n.format(k, d) : i18n.localize(k));
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
    const ctx = polarisCardContext(card({ die: 12, result: polarisTest({ chance: 12, difficulty: "average", roll: 12, mastery: 4 }) }), en);
    expect(ctx.degree).toBe("Fair");
    expect(ctx.modifier).toBe("+1");
    expect(ctx.marginText).toBe("Margin 4 (0 + 4, critical success: mastery)");
    expect(ctx.critical).toBe("Critical success!");
    expect(ctx.criticalExplain).toBe("A critical success improves the margin by the skill's mastery level: +4. The degree reads the improved margin.");
  });
  it("says so when no mastery was given, instead of a bare Barely (0)", () => {
    const ctx = polarisCardContext(card({ die: 12, result: polarisTest({ chance: 12, difficulty: "average", roll: 12 }) }), en);
    expect(ctx.criticalExplain).toBe("A critical success improves the margin by the skill's mastery level; no mastery was given, so the margin stays 0.");
  });
  it("an attribute test, and a bonus set by the GM", () => {
    const attr = polarisTest({ chance: 14, difficulty: "average", roll: 14, kind: "attribute", attributeLevel: 14 });
    expect(polarisCardContext(card({ die: 14, chance: 14, result: attr, kind: "attribute" }), fr).criticalExplain).toBe(
      "Une réussite critique à un test d\u2019attribut améliore la marge de la moitié du niveau de l\u2019attribut, arrondie à l\u2019inférieur\u00a0: +7. Le degré se lit sur la marge améliorée.",
    );
    const set = polarisTest({ chance: 12, difficulty: "average", roll: 12, criticalBonus: 6 });
    expect(polarisCardContext(card({ die: 12, result: set, criticalOverride: true }), en).marginText).toBe("Margin 6 (0 + 6, critical success: the GM's bonus)");
  });
  it("nothing to explain otherwise", () => {
    const ctx = polarisCardContext(card({ die: 10, result: polarisTest({ chance: 12, difficulty: "average", roll: 10, mastery: 4 }) }), en);
    expect(ctx.marginText).toBe("Margin 2");
    expect(ctx.criticalExplain).toBe("");
  });
});
