/**
 * The guide's pictures that are not a single template: an Old-School Essentials journey on a painted map beside the
 * GM's journey card. The map is drawn here as Foundry draws what the GM made (no Foundry runs in this check): three
 * *Travel terrain* regions painted over a wilderness scene (a maintained road, a forest, a swamp: the route of the
 * wilderness samples, test/templates/samples/wilderness.ts), the route as a drawn polyline, the party's token where
 * the journey leaves it and a numbered mark where each day ends — placed from the journey the card shows, rolled
 * through the rules (`endMetres` of each day). The card is the real template with the module's CSS.
 *
 * Writes screenshots/guide_travel_ose-map.<lang>.png; with AVENTURE_DOCS_IMAGES=1 also docs/images/travel_ose-map.<lang>.png
 * (the guide's *Travel* page shows them). Contrast and layout are checked as in screenshots.browser.ts.
 */
import { describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { makeHandlebars, renderWith, ROOT } from "../fake/handlebars.js";
import { FakeI18n } from "../fake/i18n.js";
import { SAMPLES } from "../templates/samples.js";
import { journey, ROUTE } from "../templates/samples/wilderness.js";
import { fontAwesome } from "./font-awesome.js";

const CHROMIUM =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const OUT = join(ROOT, "screenshots");
const manifest = JSON.parse(readFileSync(join(ROOT, "module.json"), "utf8")) as { styles: string[] };
const css = manifest.styles.map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
const shim = readFileSync(join(ROOT, "test/browser/foundry-shim.css"), "utf8");
const probe = readFileSync(join(ROOT, "test/browser/probe.js"), "utf8");

/** The map's size and where the route runs on it (px); the route is 78 km long. */
const MAP = { width: 760, height: 420, left: 40, right: 720, y: 210 };
const ROUTE_METRES = ROUTE.legs.reduce((s, l) => s + l.metres, 0);
const xAt = (metres: number) => MAP.left + ((MAP.right - MAP.left) * metres) / ROUTE_METRES;

/** Region fills as a GM would pick them in the region's config (Foundry draws a region in its colour, translucent). */
const FILL: Record<string, string> = { road: "#c9a227", forest: "#2f6b2f", swamp: "#4b6b5e" };

function mapSvg(terrainName: (t: string) => string): string {
  const grid = Array.from({ length: Math.floor(ROUTE_METRES / 6000) + 2 }, (_, i) => xAt(i * 6000))
    .map((x) => `<line x1="${x}" y1="0" x2="${x}" y2="${MAP.height}" stroke="#00000022"/>`)
    .join("");
  const rows = Array.from({ length: 8 }, (_, i) => MAP.y - 4 * 52 + i * 52 + 26)
    .map((y) => `<line x1="0" y1="${y}" x2="${MAP.width}" y2="${y}" stroke="#00000022"/>`)
    .join("");
  const regions = ROUTE.legs
    .map((leg) => {
      const x0 = xAt(leg.from);
      const x1 = xAt(leg.to);
      // The road is painted as a strip along the way; the forest and the swamp as wide areas.
      const [top, height] = leg.terrain === "road" ? [MAP.y - 26, 52] : [MAP.y - 150, 300];
      const label = `${leg.regions[0]} — ${terrainName(leg.terrain)}`;
      return (
        `<rect x="${x0}" y="${top}" width="${x1 - x0}" height="${height}" fill="${FILL[leg.terrain]}" fill-opacity="0.45" stroke="${FILL[leg.terrain]}" stroke-width="2"/>` +
        `<text x="${(x0 + x1) / 2}" y="${top - 10}" text-anchor="middle" class="label">${label}</text>`
      );
    })
    .join("");
  const route = `<polyline points="${xAt(0)},${MAP.y} ${xAt(ROUTE_METRES)},${MAP.y}" fill="none" stroke="#f4ead5" stroke-width="4" stroke-dasharray="10 6"/>`;
  // A mark where each day ends (a lost day ends where it started: its mark sits on the day before's).
  const marks = journey.days
    .map((d, i) => {
      const x = xAt(d.endMetres);
      const y = MAP.y + 44 + journey.days.slice(0, i).filter((e) => e.endMetres === d.endMetres).length * 30;
      return `<line x1="${x}" y1="${MAP.y}" x2="${x}" y2="${y - 12}" stroke="#1b1b1b" stroke-width="2"/><circle cx="${x}" cy="${y}" r="12" fill="#f4ead5" stroke="#1b1b1b" stroke-width="2"/><text x="${x}" y="${y + 5}" text-anchor="middle" class="day">${d.day}</text>`;
    })
    .join("");
  const token = `<circle cx="${xAt(journey.endMetres)}" cy="${MAP.y}" r="16" fill="#3d6b8c" stroke="#f4ead5" stroke-width="3"/><circle cx="${xAt(0)}" cy="${MAP.y}" r="6" fill="#f4ead5"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${MAP.width}" height="${MAP.height}" viewBox="0 0 ${MAP.width} ${MAP.height}">` +
    `<style>.label{font:600 14px Signika,sans-serif;fill:#f4ead5;paint-order:stroke;stroke:#1b1b1b;stroke-width:3px}.day{font:700 13px Signika,sans-serif;fill:#1b1b1b}</style>` +
    `<rect width="100%" height="100%" fill="#6f7f4f"/>${grid}${rows}${regions}${route}${marks}${token}</svg>`
  );
}

describe.skipIf(!CHROMIUM)("the guide's pictures", () => {
  it("an OSE journey: the painted map, where each day ends, and the GM's card (en, fr)", async () => {
    mkdirSync(OUT, { recursive: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM!,
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    try {
      for (const lang of ["en", "fr"] as const) {
        const i18n = new FakeI18n(lang);
        const localize = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
        const hb = makeHandlebars(localize, lang);
        const card = renderWith(
          hb,
          "modules/aventure/templates/travel/ose-card.hbs",
          SAMPLES["travel/ose-card.hbs"]!.context(localize),
        );
        const p = await browser.newPage({ viewport: { width: MAP.width + 360, height: 1100 }, deviceScaleFactor: 1 });
        await p.setContent(
          `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><style>${fontAwesome()}</style><style>${shim}</style><style>${css}</style></head>` +
            `<body class="theme-light"><div id="picture" style="display:flex;gap:16px;align-items:flex-start;padding:8px;width:max-content">` +
            `<div>${mapSvg((t) => i18n.localize(`AVENTURE.Wilderness.Terrain.${t}`))}</div>` +
            `<section id="sidebar" class="themed theme-light"><div id="chat"><ol class="chat-log themed theme-dark" style="width:300px">` +
            `<li class="chat-message message"><header class="message-header">Aventure</header><div class="message-content">${card}</div></li></ol></div></section>` +
            `</div></body></html>`,
        );
        // The days unfolded, as the GM reads them after clicking "Day by day".
        await p.evaluate("document.querySelectorAll('#picture details').forEach((d) => { d.open = true; })");
        await p.evaluate("document.fonts.ready.then(() => true)");
        const report = (await p.evaluate(`(${probe})(document.querySelector("ol.chat-log"))`)) as {
          failures: unknown[];
          texts: unknown[];
        };
        expect(report.texts.length).toBeGreaterThan(0);
        expect(report.failures, `${lang}: contrast failures on the card`).toEqual([]);
        // Every day of the journey has its mark on the map, and the card lists every day.
        expect(await p.locator("svg text.day").count()).toBe(journey.days.length);
        const file = join(OUT, `guide_travel_ose-map.${lang}.png`);
        await p.locator("#picture").screenshot({ path: file });
        if (process.env.AVENTURE_DOCS_IMAGES)
          copyFileSync(file, join(ROOT, "docs/images", `travel_ose-map.${lang}.png`));
        await p.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
