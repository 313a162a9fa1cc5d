/** Template check: every template compiles with the real Handlebars and renders its sample, in en and fr. */
import { describe, expect, it } from "vitest";
import { relative } from "node:path";
import { listTemplates, makeHandlebars, renderWith, TEMPLATES } from "../fake/handlebars.js";
import { FakeI18n } from "../fake/i18n.js";
import { SAMPLES } from "./samples.js";

const templates = listTemplates().map((f) => relative(TEMPLATES, f).replaceAll("\\", "/"));
/** Extra samples of a template in another state ("<template>#<variant>"): rendered and screenshotted too. */
const variants = Object.keys(SAMPLES).filter((k) => k.includes("#"));

describe.each(["en", "fr"] as const)("templates (%s)", (lang) => {
  const i18n = new FakeI18n(lang);
  const hb = makeHandlebars((k, d) => (d ? i18n.format(k, d) : i18n.localize(k)), lang);

  it.each([...templates, ...variants])("%s has a sample, compiles and renders", (name) => {
    const sample = SAMPLES[name];
    expect(sample, `no sample context for ${name} in test/templates/samples.ts`).toBeDefined();
    expect(templates, `${name} names no template`).toContain(name.split("#")[0]);
    const html = renderWith(
      hb,
      `modules/aventure/templates/${name.split("#")[0]}`,
      sample!.context((k, d) => (d ? i18n.format(k, d) : i18n.localize(k))),
    );
    expect(html.trim().length).toBeGreaterThan(0);
    expect(html).not.toMatch(/AVENTURE\.[A-Z]/); // no raw key left in the output
  });
});

it("the actor data sample flags a path that resolves to nothing", () => {
  const i18n = new FakeI18n("en");
  const ctx = SAMPLES["actor-data.hbs"]!.context((k) => i18n.localize(k)) as {
    fields: { key: string; missing: boolean; sample: string }[];
  };
  expect(ctx.fields.find((f) => f.key === "polarisInitiative")!.missing).toBe(true);
  expect(ctx.fields.find((f) => f.key === "strScore")!.sample).toBe("15");
  expect(ctx.fields.find((f) => f.key === "darkvision")!.missing).toBe(false);
});
