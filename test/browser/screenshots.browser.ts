/**
 * Browser check: renders every template's sample with the real Handlebars and the module's CSS in headless
 * Chromium (Debian's chromium, driven by playwright-core), in English and French and in both of Foundry v13's
 * themes (dark and light, with the stand-in of test/browser/foundry-shim.css and Font Awesome Free), writes
 * PNG screenshots to screenshots/ (git-ignored) as `<template>.<lang>.<theme>.png`, and measures the contrast
 * of every visible text and icon (test/browser/probe.js): a text under 4.5:1 (3:1 when large), an icon under
 * 3:1 or an icon that draws nothing fails, naming the template, theme, language, element and ratio.
 * Run with `npm run screenshots` (part of `npm test`). Skips, saying why, when no Chromium is installed.
 * `AVENTURE_DOCS_IMAGES=1 npm run screenshots` also refreshes docs/images/<name>.png (the README's pictures)
 * from the dark screenshots, keeping their names.
 */
import { afterAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";
import { listTemplates, makeHandlebars, renderWith, ROOT, TEMPLATES } from "../fake/handlebars.js";
import { FakeI18n } from "../fake/i18n.js";
import { CARD_HEIGHT_BUDGET, SAMPLES, type Sample } from "../templates/samples.js";
import { STAND_INS } from "./stand-ins/samples.js";
import { CHECKED_GAMES, GAME_SAMPLES, gameViews } from "./games.js";
import { forbiddenTerms } from "../forbidden-terms.js";
import { guideDocuments } from "../../packs-src/guide.mjs";
import { RULESETS, type FeatureBorrowings, type RulesetId } from "../../src/rules/index.js";

const CHROMIUM =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const OUT = join(ROOT, "screenshots");
const manifest = JSON.parse(readFileSync(join(ROOT, "module.json"), "utf8")) as { styles: string[] };
const css = manifest.styles.map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
const shim = readFileSync(join(ROOT, "test/browser/foundry-shim.css"), "utf8");
const probe = readFileSync(join(ROOT, "test/browser/probe.js"), "utf8");
const layout = readFileSync(join(ROOT, "test/browser/layout.js"), "utf8");
const visibleText = readFileSync(join(ROOT, "test/browser/visible-text.js"), "utf8");

/** Font Awesome Free (a devDependency, for the screenshots only: Foundry ships its own), fonts inlined. */
let faCss = "";
function fontAwesome(): string {
  if (faCss) return faCss;
  const dir = join(createRequire(import.meta.url).resolve("@fortawesome/fontawesome-free/package.json"), "..");
  faCss = ["fontawesome", "solid", "regular"]
    .map((f) => readFileSync(join(dir, "css", `${f}.css`), "utf8"))
    .join("\n")
    .replace(/src:\s*url\("\.\.\/webfonts\/([\w-]+)\.woff2"\)[^;]*;/g, (_, font: string) => {
      const data = readFileSync(join(dir, "webfonts", `${font}.woff2`)).toString("base64");
      return `src: url(data:font/woff2;base64,${data}) format("woff2");`;
    });
  return faCss;
}

const THEMES = ["dark", "light"] as const;
type Theme = (typeof THEMES)[number];
const other = (t: Theme): Theme => (t === "dark" ? "light" : "dark");

interface Framed {
  bodyClass: string;
  html: string;
  /** What is screenshot and measured. */
  target: string;
}

/**
 * Where each kind of template lives in Foundry v13, themed the way core themes it:
 * - a window carries its application's theme, which may differ from the interface theme on <body> (so the
 *   window is put in a body of the other theme: the window's own theme must win);
 * - a chat card sits in the chat log, which core stamps `themed theme-light` inside a sidebar of the interface
 *   theme; systems may make the log dark (dnd5e's dark chat log). Light: dark interface, light log (v13's
 *   default); dark: light interface, dark log — the card must follow the nearest theme either way;
 * - the combat tracker and the token HUD follow the interface theme; a ruler label is drawn over the canvas.
 */
/** The stand-in's words that core writes (its buttons' labels), in the page's language. */
const CORE_WORDS = {
  en: {
    close: "Close Window",
    hidden: "Toggle Visibility",
    defeated: "Toggle Defeated Status",
    ping: "Ping Combatant",
  },
  fr: {
    close: "Fermer la fenêtre",
    hidden: "Afficher ou masquer",
    defeated: "Marquer comme vaincu",
    ping: "Signaler le combattant",
  },
} as const;

/** A token's picture in the tracker: a coloured disc (the stand-in of a token image, 32 px as in v13). */
const tokenImage = (i: number) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="${["#8a5a2b", "#3d6b8c", "#6b3d8c", "#2b8a5a", "#8c3d3d"][i % 5]}" stroke="#000" stroke-width="1"/></svg>`)}`;

/**
 * `guideLabel`: the "?" title-bar button's label (AVENTURE.Guide.open), drawn in every window's header as
 * withGuideButton adds it (src/core/guide.ts), before core's close button.
 */
function frame(
  sample: Sample,
  html: string,
  title: string,
  theme: Theme,
  lang: "en" | "fr" = "en",
  guideLabel = "",
): Framed {
  const w = sample.width ?? 480;
  const words = CORE_WORDS[lang];
  switch (sample.kind) {
    case "card":
      return {
        bodyClass: `theme-${other(theme)}`,
        html: `<section id="sidebar" class="themed theme-${other(theme)}"><div id="chat"><ol class="chat-log themed theme-${theme}"><li class="chat-message message"><header class="message-header">Aventure</header><div class="message-content">${html}</div></li></ol></div></section>`,
        target: "ol.chat-log",
      };
    case "tracker": {
      // A core v13 row: the token's image, its name with the combatant controls under it (icon buttons with their
      // labels), the initiative on the right; Aventure's badges go into .token-name, as src/combat/tracker.ts puts them.
      const control = (icon: string, label: string) =>
        `<button type="button" class="inline-control combatant-control icon fa-solid ${icon}" data-tooltip="${label}" aria-label="${label}"></button>`;
      const rows = (sample.rows ?? [])
        .map(
          (r, i) =>
            `<li class="combatant" data-combatant-id="${r.id}"><img class="token-image" src="${tokenImage(i)}" alt="">` +
            `<div class="token-name"><strong class="name">${r.name}</strong><div class="combatant-controls">${control("fa-eye-slash", words.hidden)}${control("fa-skull", words.defeated)}${control("fa-bullseye", words.ping)}</div></div>` +
            `<div class="token-initiative"><span class="initiative">${r.initiative ?? 20 - i * 3}</span></div></li>`,
        )
        .join("");
      return {
        bodyClass: `theme-${theme}`,
        html: `<section id="sidebar" class="themed theme-${theme}" style="width:${w}px"><section id="combat" class="combat-sidebar"><header class="combat-tracker-header"><span>Round 1</span></header><ol class="combat-tracker plain">${rows}</ol><template id="aventure-markup">${html}</template></section></section>`,
        target: "#sidebar",
      };
    }
    case "hud":
      return {
        bodyClass: `theme-${theme}`,
        html: `<div id="hud"><div id="token-hud" style="width:${w}px${sample.height ? `;min-height:${sample.height}px` : ""}">${html}</div></div>`,
        target: "#token-hud",
      };
    case "ruler":
      return { bodyClass: `theme-${theme}`, html: `<div id="ruler-stand-in">${html}</div>`, target: "#ruler-stand-in" };
    default:
      return {
        bodyClass: `theme-${other(theme)}`,
        html:
          `<div class="application themed theme-${theme} aventure" style="width:${w}px"><header class="window-header"><span class="window-title">${title}</span>` +
          (guideLabel
            ? `<button type="button" class="header-control icon fa-solid fa-circle-question aventure-guide-button" data-tooltip="${guideLabel}" aria-label="${guideLabel}"></button>`
            : "") +
          `<button type="button" class="header-control icon fa-solid fa-xmark" data-action="close" data-tooltip="${words.close}" aria-label="${words.close}"></button></header><div class="window-content">${html}</div></div>`,
        target: ".application",
      };
  }
}

/** For tracker samples: the headers and badges inserted into the rows the way src/combat/tracker.ts
 *  does, and the Encounter button in the tracker's header. */
const TRACKER_SCRIPT = `(() => {
  const holder = document.getElementById("aventure-markup");
  if (!holder) return;
  const list = document.querySelector(".combat-tracker");
  for (const h of holder.content.querySelectorAll("[data-before]")) list.querySelector('li.combatant[data-combatant-id="' + h.dataset.before + '"]')?.before(h);
  for (const b of holder.content.querySelectorAll("[data-for]")) {
    const row = list.querySelector('li.combatant[data-combatant-id="' + b.dataset.for + '"]');
    (row?.querySelector(".token-name") ?? row)?.appendChild(b);
  }
  const button = document.createElement("button");
  button.type = "button";
  button.className = "aventure aventure-encounter-button";
  button.innerHTML = '<i class="fa-solid fa-eye"></i> ' + (document.documentElement.lang === "fr" ? "Rencontre" : "Encounter");
  document.querySelector(".combat-tracker-header").appendChild(button);
  holder.remove();
})()`;

interface Row {
  el: string;
  text: string;
  min: number;
  ratio: number;
  kind: "text" | "icon";
  fg?: string;
  bg?: string;
  why?: string;
}
interface Report {
  texts: Row[];
  icons: Row[];
  failures: Row[];
}

async function show(p: Page, framed: Framed, width: number): Promise<Report> {
  await p.setViewportSize({ width: width + 60, height: 1000 });
  await p.evaluate(
    ([cls, html]) => {
      document.body.className = cls!;
      document.body.innerHTML = html!;
    },
    [framed.bodyClass, framed.html],
  );
  await p.evaluate(TRACKER_SCRIPT);
  await p.evaluate("document.fonts.ready.then(() => true)");
  return (await p.evaluate(`(${probe})(document.querySelector(${JSON.stringify(framed.target)}))`)) as Report;
}

function line(where: string, r: Row): string {
  const what = r.why ?? `${r.ratio.toFixed(2)}:1 < ${r.min}:1 (${r.fg} on ${r.bg})`;
  return `${where}: ${r.kind} ${r.el} "${r.text}" — ${what}`;
}

const templates = listTemplates().map((f) => relative(TEMPLATES, f).replaceAll("\\", "/"));
/** Every template's sample, then the extra samples of a template in another state ("<template>#<variant>"). */
const samples = [
  ...templates,
  ...Object.keys(SAMPLES).filter((k) => k.includes("#") && templates.includes(k.split("#")[0]!)),
];
/** Stand-ins of Foundry's own forms showing Aventure's texts (test/browser/stand-ins/): "stand-in/<file>". */
const standIns = Object.keys(STAND_INS).map((k) => `stand-in/${k}`);

/** One Chromium for every test of the file (launched by the first, closed after the last). */
let shared: Browser | null = null;
async function launch(): Promise<Browser> {
  shared ??= await chromium.launch({
    executablePath: CHROMIUM!,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return shared;
}
afterAll(async () => {
  await shared?.close();
  shared = null;
});

function head(lang: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><style>${fontAwesome()}</style><style>${shim}</style><style>${css}</style></head><body></body></html>`;
}

/**
 * A sample's HTML: a template of templates/ ("<template>#<variant>" renders <template>) or a stand-in of
 * test/browser/stand-ins/ ("stand-in/<file>"); a DialogV2 prompt gets its content in its form, the buttons in the footer.
 */
function sampleHtml(
  hb: ReturnType<typeof makeHandlebars>,
  name: string,
  sample: Sample,
  localize: (k: string, d?: Record<string, unknown>) => string,
): string {
  const content = name.startsWith("stand-in/")
    ? hb.compile(readFileSync(join(ROOT, "test/browser/stand-ins", name.slice("stand-in/".length)), "utf8"), {
        strict: false,
      })(sample.context(localize))
    : renderWith(hb, `modules/aventure/templates/${name.split("#")[0]}`, sample.context(localize));
  return sample.buttons
    ? `<form class="dialog-form standard-form"><div class="dialog-content standard-form">${content}</div><footer class="form-footer">${sample.buttons
        .map(
          (b, i) =>
            `<button type="submit" data-action="${i ? `b${i}` : "ok"}"${i ? "" : ' class="default"'}>${b.icon ? `<i class="${b.icon}"></i> ` : ""}<span>${localize(b.label)}</span></button>`,
        )
        .join("")}</footer></form>`
    : content;
}

describe.skipIf(!CHROMIUM)("screenshots in headless Chromium", () => {
  it("renders every template in en and fr, dark and light, with readable text and drawn icons", async () => {
    mkdirSync(OUT, { recursive: true });
    const browser = await launch();
    try {
      const written: string[] = [];
      const problems: string[] = [];
      const errors: string[] = [];
      const layoutProblems: string[] = [];
      let tallest = 0;
      const stats = new Map<Theme, { texts: number; icons: number; min: number; where: string }>();
      for (const theme of THEMES) {
        for (const lang of ["en", "fr"] as const) {
          const i18n = new FakeI18n(lang);
          const localize = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
          const hb = makeHandlebars(localize, lang);
          const p = await browser.newPage({ viewport: { width: 520, height: 1000 }, deviceScaleFactor: 1 });
          p.on("pageerror", (e) => errors.push(`${theme}/${lang}: ${String(e)}`));
          await p.setContent(head(lang));
          for (const name of [...samples, ...standIns]) {
            const standIn = name.startsWith("stand-in/");
            const sample = standIn ? STAND_INS[name.slice("stand-in/".length)] : SAMPLES[name];
            expect(sample, `no sample for ${name}`).toBeDefined();
            const html = sampleHtml(hb, name, sample!, localize);
            const title = sample!.title ? (standIn ? sample!.title : i18n.localize(sample!.title)) : "";
            const framed = frame(sample!, html, title, theme, lang, i18n.localize("AVENTURE.Guide.open"));
            const report = await show(p, framed, sample!.width ?? 480);
            const file = join(
              OUT,
              `${name
                .replace(/\.hbs(#|$)/, "$1")
                .replaceAll("/", "_")
                .replace("#", "-")}.${lang}.${theme}.png`,
            );
            await p.locator(framed.target).first().screenshot({ path: file });
            written.push(relative(ROOT, file));
            const where = `${name} [${theme}, ${lang}]`;
            for (const f of report.failures) problems.push(line(where, f));
            const found = (await p.evaluate(
              `(${layout})(document.querySelector(${JSON.stringify(framed.target)}), ${JSON.stringify(lang)})`,
            )) as string[];
            for (const f of found) layoutProblems.push(`${where}: ${f}`);
            if (sample!.kind === "card") {
              const height = (await p.evaluate(
                `document.querySelector(".chat-message").getBoundingClientRect().height`,
              )) as number;
              const budget = sample!.heightBudget ?? CARD_HEIGHT_BUDGET;
              if (height > budget)
                layoutProblems.push(
                  `${where}: the card is ${Math.round(height)} px tall, over its budget of ${budget} px`,
                );
              tallest = Math.max(tallest, height);
            }
            const s = stats.get(theme) ?? { texts: 0, icons: 0, min: Infinity, where: "" };
            s.texts += report.texts.length;
            s.icons += report.icons.length;
            for (const r of report.texts)
              if (r.ratio < s.min)
                Object.assign(s, { min: r.ratio, where: `${where}: ${r.el} "${r.text}" (${r.fg} on ${r.bg})` });
            stats.set(theme, s);
            expect(report.texts.length, `${where}: no text measured`).toBeGreaterThan(0);
          }
          await p.close();
        }
      }
      writeFileSync(join(OUT, "index.txt"), written.join("\n") + "\n");
      console.log(`screenshots: ${written.length} PNG files in screenshots/`);
      for (const [theme, s] of stats) {
        console.log(
          `contrast (${theme}): ${s.texts} texts and ${s.icons} icons measured; lowest text ${s.min.toFixed(2)}:1 — ${s.where}`,
        );
      }
      if (process.env.AVENTURE_DOCS_IMAGES) {
        const docs = join(ROOT, "docs/images");
        for (const f of readdirSync(docs).filter((f) => f.endsWith(".png"))) {
          const from = join(OUT, f.replace(/\.png$/, ".dark.png"));
          if (existsSync(from)) copyFileSync(from, join(docs, f));
        }
      }
      console.log(
        `layout: no cut text, lone word, unlabelled icon control or other-language word; tallest card ${Math.round(tallest)} px`,
      );
      expect(errors).toEqual([]);
      expect(problems, `contrast or icon failures:\n${problems.join("\n")}`).toEqual([]);
      expect(layoutProblems, `layout failures:\n${layoutProblems.join("\n")}`).toEqual([]);
    } finally {
      for (const c of browser.contexts()) await c.close();
    }
  }, 600_000);

  it("the contrast check can fail: red #b3261e text and a missing icon in a dark window", async () => {
    const browser = await launch();
    try {
      const p = await browser.newPage({ viewport: { width: 520, height: 400 }, deviceScaleFactor: 1 });
      await p.setContent(head("en"));
      const framed = frame(
        { kind: "dialog", context: () => ({}) },
        `<p class="hint">A readable hint</p><p style="color:#b3261e">Failure</p><p><i class="fa-solid fa-swords"></i> Start</p><button disabled style="color:#b3261e">Disabled is exempt</button>`,
        "Probe",
        "dark",
      );
      const report = await show(p, framed, 480);
      expect(report.failures.map((f) => `${f.kind} ${f.text}`)).toEqual(["text Failure", "icon fa-solid fa-swords"]);
      expect(report.failures[0]!.ratio).toBeLessThan(4.5);
    } finally {
      for (const c of browser.contexts()) await c.close();
    }
  }, 60_000);
});

describe.skipIf(!CHROMIUM)("the layout check can fail", () => {
  it("finds cut text, a word alone in a badge, an unlabelled icon button and English in French", async () => {
    const browser = await launch();
    try {
      const p = await browser.newPage({ viewport: { width: 520, height: 400 }, deviceScaleFactor: 1 });
      await p.setContent(head("fr"));
      const framed = frame(
        { kind: "dialog", context: () => ({}) },
        `<p style="width:60px;overflow:hidden;white-space:nowrap">Un texte beaucoup trop long</p>` +
          `<span class="aventure-badge" style="display:inline-block;width:40px;white-space:normal">Lancer combat</span>` +
          `<button type="button"><i class="fa-solid fa-xmark"></i></button>` +
          `<p>Jet de sauvegarde with the dice</p><p>Réglage correct</p>`,
        "Sonde",
        "dark",
      );
      await show(p, framed, 480);
      const found = (await p.evaluate(`(${layout})(document.querySelector(".application"), "fr")`)) as string[];
      // And a card over its height budget is measured as such (the same measure as the main loop's).
      await show(
        p,
        frame(
          { kind: "card", context: () => ({}) },
          `<div class="aventure aventure-card">${"<p>Une ligne de carte.</p>".repeat(40)}</div>`,
          "",
          "dark",
        ),
        300,
      );
      const height = (await p.evaluate(
        `document.querySelector(".chat-message").getBoundingClientRect().height`,
      )) as number;
      expect(height).toBeGreaterThan(CARD_HEIGHT_BUDGET);
      expect(found.map((f) => f.split(":")[0])).toEqual([
        "cut text",
        "a word alone on a line",
        "icon-only control without a label (aria-label and tooltip)",
        "words of the other language (with, the)",
      ]);
    } finally {
      for (const c of browser.contexts()) await c.close();
    }
  }, 60_000);
});

/** The words a user sees in a part rendered in the page, borrowed rules' rows left out (test/browser/visible-text.js). */
async function visibleWords(p: Page, framed: Framed, exempt: readonly string[]): Promise<string> {
  return (
    (await p.evaluate(
      `(${visibleText})([document.querySelector(${JSON.stringify(framed.target)}), ${JSON.stringify(exempt)}])`,
    )) as string[]
  ).join("\n");
}

/**
 * A First steps page of the guide as the journal sheet shows it: the compendium's own page (packs-src/guide.mjs), its
 * @UUID links drawn as Foundry's enricher draws a content link (an icon and the label).
 */
function guideSample(key: string, lang: "en" | "fr"): { sample: Sample; html: string } {
  const journal = (
    guideDocuments(ROOT) as {
      flags: { aventure: { guide: string } };
      pages: { name: string; text: { content: string }; flags: { aventure: { guide: string } } }[];
    }[]
  ).find((j) => j.flags.aventure.guide === lang)!;
  const page = journal.pages.find((p) => p.flags.aventure.guide === key)!;
  const content = page.text.content.replace(
    /@UUID\[[^\]]+\]\{([^}]+)\}/g,
    '<a class="content-link"><i class="fa-solid fa-file-lines" aria-hidden="true"></i> $1</a>',
  );
  return {
    sample: { kind: "dialog", title: page.name, width: 600, context: () => ({}) },
    html: `<article class="journal-entry-page text"><section class="journal-page-content">${content}</section></article>`,
  };
}

describe.skipIf(!CHROMIUM)("no 5e term in a game that has none (docs/rules.md §0)", () => {
  it("pmt, ose and polaris: every window, card and HUD part each shows, in en and fr, has none (borrowed rules labelled, exempt)", async () => {
    const browser = await launch();
    try {
      const all = [...samples, ...standIns];
      expect(
        all.filter((n) => !(n in GAME_SAMPLES)),
        "samples not classified in test/browser/games.ts",
      ).toEqual([]);
      const problems: string[] = [];
      const written: string[] = [];
      let checked = 0;
      for (const lang of ["en", "fr"] as const) {
        const i18n = new FakeI18n(lang);
        const localize = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
        const hb = makeHandlebars(localize, lang);
        const exempt = [
          ...RULESETS.map((r) => localize(`AVENTURE.Feature.from.${r}`)),
          localize("AVENTURE.Feature.from.rnpDnd5e"),
        ];
        const p = await browser.newPage({ viewport: { width: 520, height: 1000 }, deviceScaleFactor: 1 });
        await p.setContent(head(lang));
        const check = async (
          where: string,
          games: readonly string[],
          sample: Sample,
          html: string,
          title: string,
          file?: string,
        ) => {
          const framed = frame(sample, html, title, "dark", lang, localize("AVENTURE.Guide.open"));
          await show(p, framed, sample.width ?? 480);
          if (file) {
            await p
              .locator(framed.target)
              .first()
              .screenshot({ path: join(OUT, file) });
            written.push(file);
          }
          const words = await visibleWords(p, framed, exempt);
          expect(words.length, `${where}: no visible text`).toBeGreaterThan(0);
          if (where === "actor-data.hbs (pmt-borrowing)") {
            // Not vacuous: the borrowed rules' rows do hold 5e words, left out only for their label.
            expect(forbiddenTerms(await visibleWords(p, framed, []), lang).length, where).toBeGreaterThan(0);
          }
          for (const term of forbiddenTerms(words, lang))
            problems.push(`${where} [${games.join(", ")}, ${lang}]: "${term}"`);
          checked++;
        };
        // The same in every game: rendered once, checked for the games (of the three) that show it.
        for (const name of all) {
          const games = GAME_SAMPLES[name];
          const mine = Array.isArray(games)
            ? games.filter((g) => (CHECKED_GAMES as readonly string[]).includes(g))
            : [];
          if (!mine.length) continue;
          const sample = (name.startsWith("stand-in/") ? STAND_INS[name.slice("stand-in/".length)] : SAMPLES[name])!;
          const title = sample.title ? (name.startsWith("stand-in/") ? sample.title : localize(sample.title)) : "";
          await check(name, mine, sample, sampleHtml(hb, name, sample, localize), title);
        }
        // What changes with the game, for each game; and Portes, Monstres & Trésors with three rules borrowed (labelled).
        const runs: [RulesetId, FeatureBorrowings][] = [
          ...CHECKED_GAMES.map((g): [RulesetId, FeatureBorrowings] => [g, {}]),
          ["pmt", { hiding: "rnp", falls: "rnp", travel: "dnd5e" }],
        ];
        for (const [game, borrowed] of runs) {
          const tag = Object.keys(borrowed).length ? `${game}-borrowing` : game;
          for (const [name, view] of Object.entries(gameViews(game, borrowed))) {
            const title = view.title ? (name.startsWith("stand-in/") ? view.title : localize(view.title)) : "";
            await check(
              `${name} (${tag})`,
              [tag],
              view,
              sampleHtml(hb, view.template, view, localize),
              title,
              `games_${tag}_${name.replace(/\.hbs$/, "").replaceAll("/", "_")}.${lang}.dark.png`,
            );
          }
        }
        // The First steps page the first-run window opens for each of these games (screenshots: guide_start-<game>).
        for (const game of CHECKED_GAMES) {
          const { sample, html } = guideSample(`start-${game}`, lang);
          await check(
            `guide start-${game}`,
            [game],
            sample,
            html,
            sample.title!,
            `guide_start-${game}.${lang}.dark.png`,
          );
        }
        await p.close();
      }
      console.log(
        `forbidden 5e terms: ${checked} parts read under pmt, ose and polaris in en and fr; ${written.length} more PNG files (games_*, guide_start-*)`,
      );
      expect(problems, `5e terms in a game without them:\n${problems.join("\n")}`).toEqual([]);
    } finally {
      for (const c of browser.contexts()) await c.close();
    }
  }, 300_000);

  it("the check catches a planted term, and leaves out hidden text and a borrowed rule's labelled row", async () => {
    const browser = await launch();
    try {
      const p = await browser.newPage({ viewport: { width: 520, height: 600 }, deviceScaleFactor: 1 });
      for (const lang of ["en", "fr"] as const) {
        await p.setContent(head(lang));
        const i18n = new FakeI18n(lang);
        const localize = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
        const hb = makeHandlebars(localize, lang);
        const view = gameViews("pmt")["hud/palette.hbs"]!;
        const planted = {
          en: ["Make a DC 10 check", "Stealth", "Athletics"],
          fr: ["Faites un test DD 10", "Discrétion", "Athlétisme"],
        }[lang];
        const html =
          sampleHtml(hb, view.template, view, localize) +
          `<p class="aventure-note">${planted[0]}</p>` +
          `<p style="display:none">${planted[1]}</p>` +
          `<p>${planted[2]} (${localize("AVENTURE.Feature.from.rnp")})</p>` +
          `<button type="button" data-tooltip="${planted[1]}"><i class="fa-solid fa-eye"></i> OK</button>`;
        const framed = frame(view, html, "", "dark", lang);
        await show(p, framed, view.width ?? 480);
        const words = await visibleWords(
          p,
          framed,
          RULESETS.map((r) => localize(`AVENTURE.Feature.from.${r}`)),
        );
        // The planted sentence and the tooltip are caught; the hidden paragraph and the borrowed (labelled) one are not.
        expect(forbiddenTerms(words, lang)).toEqual(lang === "en" ? ["DC", "Stealth"] : ["DD", "Discrétion"]);
        expect(words).toContain(localize("AVENTURE.Pursuit.hud"));
      }
    } finally {
      for (const c of browser.contexts()) await c.close();
    }
  }, 60_000);
});

if (!CHROMIUM) {
  console.log("screenshots skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)");
}
