/**
 * Browser check: renders every template's sample with the real Handlebars and the module's CSS in headless
 * Chromium (Debian's chromium, driven by playwright-core), in English and French, and writes PNG
 * screenshots to screenshots/ (git-ignored). Run with `npm run screenshots` (part of `npm test`).
 * Skips, saying why, when no Chromium is installed.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { chromium } from "playwright-core";
import { listTemplates, makeHandlebars, renderWith, ROOT, TEMPLATES } from "../fake/handlebars.js";
import { FakeI18n } from "../fake/i18n.js";
import { SAMPLES } from "../templates/samples.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const OUT = join(ROOT, "screenshots");
const manifest = JSON.parse(readFileSync(join(ROOT, "module.json"), "utf8")) as { styles: string[] };
const css = manifest.styles.map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
const shim = readFileSync(join(ROOT, "test/browser/foundry-shim.css"), "utf8");

function page(body: string, lang: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><style>${shim}</style><style>${css}</style></head><body>${body}</body></html>`;
}

function frame(kind: string, html: string, title: string, width: number): string {
  if (kind === "card") {
    return `<div id="chat"><div class="chat-message"><header class="message-header">Aventure</header><div class="message-content">${html}</div></div></div>`;
  }
  if (kind === "hud") return `<div id="token-hud">${html}</div>`;
  return `<div class="application aventure" style="width:${width}px"><header class="window-header">${title}</header><div class="window-content">${html}</div></div>`;
}

const templates = listTemplates().map((f) => relative(TEMPLATES, f).replaceAll("\\", "/"));

describe.skipIf(!CHROMIUM)("screenshots in headless Chromium", () => {
  it("renders every template in en and fr without console errors", async () => {
    mkdirSync(OUT, { recursive: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM!,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    try {
      const written: string[] = [];
      for (const lang of ["en", "fr"] as const) {
        const i18n = new FakeI18n(lang);
        const localize = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
        const hb = makeHandlebars(localize, lang);
        for (const name of templates) {
          const sample = SAMPLES[name];
          expect(sample, `no sample for ${name}`).toBeDefined();
          const html = renderWith(hb, `modules/aventure/templates/${name}`, sample!.context(localize));
          const title = sample!.title ? i18n.localize(sample!.title) : "";
          const p = await browser.newPage({ viewport: { width: (sample!.width ?? 480) + 40, height: 1000 }, deviceScaleFactor: 1 });
          const errors: string[] = [];
          p.on("pageerror", (e) => errors.push(String(e)));
          await p.setContent(page(frame(sample!.kind, html, title, sample!.width ?? 480), lang));
          const target = p.locator("body > *").first();
          const file = join(OUT, `${name.replace(/\.hbs$/, "").replaceAll("/", "_")}.${lang}.png`);
          await target.screenshot({ path: file });
          written.push(relative(ROOT, file));
          expect(errors).toEqual([]);
          await p.close();
        }
      }
      writeFileSync(join(OUT, "index.txt"), written.join("\n") + "\n");
      console.log(`screenshots: ${written.length} PNG files in screenshots/`);
    } finally {
      await browser.close();
    }
  }, 120_000);
});

if (!CHROMIUM) {
  console.log("screenshots skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)");
}
