/**
 * The GM guide: one source (packs-src/guide/<lang>/<key>.md) for the compendium and docs/guide/. Checks that every
 * page exists in both languages with its decisions, that docs/guide/ is what the sources give (run
 * `node packs-src/guide.mjs` after an edit), that the compendium's documents are what the Foundry CLI packs (ids,
 * keys, HTML, links that lead somewhere), that every setting is explained, the French typography and vocabulary, and
 * the "?" button and `openGuidePage` of src/core/guide.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Window } from "happy-dom";
import { windowFiles } from "./fake/windows.js";
import { ROOT } from "./fake/handlebars.js";
import {
  GUIDE_JOURNALS,
  GUIDE_LANGS,
  GUIDE_PAGES,
  frenchTypography,
  guideDocuments,
  guideMarkdownFiles,
  guideImages,
  guidePages,
  loadPages,
  markdownToHtml,
} from "../packs-src/guide.mjs";
import { declaredSettings } from "./fixtures/declared-settings.js";
import {
  GUIDE_PACK_ID,
  WINDOW_GUIDE_PAGES,
  guideLanguage,
  guidePageUuid,
  openGuidePage,
  withGuideButton,
} from "../src/core/guide.js";

const pages = guidePages(ROOT);
const sources = Object.fromEntries(GUIDE_LANGS.map((lang) => [lang, loadPages(ROOT, lang)]));
const FIRST_STEPS = ["start-rnp", "start-dnd5e", "start-pmt", "start-ose", "start-polaris"];
const FEATURES = ["travel", "movement", "falls", "light", "hiding", "encounters", "pursuit", "exploration", "polaris"];
const DECISIONS = { en: "## Decisions where the books are silent", fr: "## Décisions là où les livres se taisent" };

/** The text a reader sees in a page's Markdown: code spans, URLs and link targets removed. */
function prose(markdown: string): string {
  return markdown
    .replace(/`[^`]*`/g, "code")
    .replace(/\*\*\?\*\*/g, "") // the "?" button's name
    .replace(/!\[/g, "[") // a picture: its description is prose
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/https?:\/\/\S+/g, " ");
}

/** French typography problems in `text` (already without code): one string per problem. */
export function frenchProblems(text: string): string[] {
  const out: string[] = [];
  const around = (i: number) => JSON.stringify(text.slice(Math.max(0, i - 25), i + 5));
  for (const m of text.matchAll(/'/g)) out.push(`straight apostrophe: ${around(m.index!)}`);
  for (const m of text.matchAll(/(.)([:%])/g))
    if (m[1] !== "\u00a0" && m[1] !== "|") out.push(`no no-break space before "${m[2]}": ${around(m.index!)}`);
  for (const m of text.matchAll(/(.)([;!?])/g))
    if (m[1] !== "\u202f") out.push(`no narrow no-break space before "${m[2]}": ${around(m.index!)}`);
  for (const m of text.matchAll(/«(.)/g))
    if (m[1] !== "\u00a0") out.push(`no no-break space after «: ${around(m.index!)}`);
  for (const m of text.matchAll(/(.)»/g))
    if (m[1] !== "\u00a0") out.push(`no no-break space before »: ${around(m.index!)}`);
  for (const m of text.matchAll(/\((s|x|es)\)/g))
    out.push(`"(${m[1]})" plural: choose the words by number: ${around(m.index!)}`);
  return out;
}

/** One French term per concept (docs/glossary.md's choices for the guide; its Forbidden table is checked by lang.test.ts). */
const FRENCH_TERMS: { pattern: RegExp; use: string }[] = [
  { pattern: /\bmeneurs? de jeu\b|\bmaître du jeu\b/i, use: "MJ" },
  { pattern: /\btchat\b|\bchat\b|journal de discussion/i, use: "messagerie" },
  { pattern: /pénombre/i, use: "lumière faible" },
  {
    pattern: /jet de (Sagesse|Dextérité|Force)/i,
    use: "test de Sagesse (Perception), test de Dextérité (Discrétion)…",
  },
  { pattern: /Sagesse \(Perception\) passive|Perception passive \(Sagesse\)/i, use: "Perception passive" },
  { pattern: /\bJS\b(?! de Constitution DD)/, use: "JS de Constitution DD n, or jet de sauvegarde de Constitution" },
  { pattern: /\bréférent\b|\barbitre\b/i, use: "MJ" },
];
/** English: one word for the GM, no French spacing. */
const ENGLISH_TERMS: { pattern: RegExp; use: string }[] = [
  { pattern: /\breferee\b|\bMdT\b|\bMJ\b|\bDM\b/, use: "GM" },
  { pattern: /[\u00a0\u202f]/, use: "an ordinary space" },
  { pattern: /\s[:;!?]|\d %/, use: "no space before : ; ! ? %" },
];

describe("the guide's pages", () => {
  it("has every page in both languages, with a title and ids Foundry accepts", () => {
    expect(GUIDE_PAGES.map((p) => p.key)).toEqual(["overview", ...FIRST_STEPS, ...FEATURES, "settings", "trust"]);
    const ids = [
      ...Object.values(GUIDE_JOURNALS).map((j) => j.id),
      ...GUIDE_PAGES.flatMap((p) => Object.values(p.ids)),
    ];
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const lang of GUIDE_LANGS) {
      expect(sources[lang]!.map((p) => p.key)).toEqual(GUIDE_PAGES.map((p) => p.key));
      for (const p of sources[lang]!) expect(p.title.length, `${lang}/${p.key}`).toBeGreaterThan(3);
    }
  });

  it("states the decisions taken where the books are silent, on every feature page", () => {
    for (const lang of GUIDE_LANGS) {
      for (const key of FEATURES) {
        const p = pages.find((x) => x.lang === lang && x.key === key)!;
        expect(p.markdown, `${lang}/${key}`).toContain(DECISIONS[lang]);
        const section = p.markdown.split(DECISIONS[lang])[1]!.split("\n## ")[0]!;
        expect(section.match(/^- \*\*/gm)?.length ?? 0, `${lang}/${key}: decisions listed`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it("says where each feature's buttons are", () => {
    const where = { en: /## Where to find it/, fr: /## Où l[ae]s? trouver/ };
    for (const lang of GUIDE_LANGS) {
      for (const key of FEATURES)
        expect(pages.find((x) => x.lang === lang && x.key === key)!.markdown, `${lang}/${key}`).toMatch(where[lang]);
    }
  });

  it("has a First steps page per game: the system to install, the first-run choice, three things at the table, the buttons, what it does not do", () => {
    const sections = {
      en: [
        "## 1. Install the game system",
        "## 2. Choose the game",
        "## 3. What Aventure does at your table",
        "## Where its buttons are",
        "## What it does not do",
      ],
      fr: [
        "## 1. Installer le système de jeu",
        "## 2. Choisir le jeu",
        "## 3. Ce qu’Aventure fait à votre table",
        "## Où sont ses boutons",
        "## Ce qu’il ne fait pas",
      ],
    };
    // The Foundry system each game expects (the first-run window says the same: src/welcome/welcome-context.ts GAME_SYSTEMS).
    const systems: Record<string, string> = {
      "start-rnp": "`dnd5e`",
      "start-dnd5e": "`dnd5e`",
      "start-pmt": "`ose`",
      "start-ose": "`ose`",
      "start-polaris": "`worldbuilding`",
    };
    for (const lang of GUIDE_LANGS) {
      for (const key of FIRST_STEPS) {
        const md = pages.find((x) => x.lang === lang && x.key === key)!.markdown;
        let at = -1;
        for (const heading of sections[lang]) {
          const i = md.indexOf(heading);
          expect(i, `${lang}/${key}: ${heading}`).toBeGreaterThan(at);
          at = i;
        }
        const things = md.split(sections[lang][2]!)[1]!.split("\n## ")[0]!;
        expect(things.match(/^\d\. \*\*/gm), `${lang}/${key}: three things`).toHaveLength(3);
        expect(md, `${lang}/${key}`).toContain(systems[key]);
        expect(md, `${lang}/${key}: the first-run window`).toContain(lang === "en" ? "**Your game**" : "**Votre jeu**");
      }
    }
  });

  it("explains every setting of the settings window on the settings page of each language", () => {
    const shown = Object.entries(declaredSettings("dnd5e"))
      .filter(([, s]) => s.config)
      .map(([k]) => k);
    expect(shown.length).toBeGreaterThan(15);
    for (const lang of GUIDE_LANGS) {
      const source = readFileSync(join(ROOT, "packs-src", "guide", lang, "settings.md"), "utf8");
      const missing = shown.filter((k) => !source.includes(`{{setting:${k}}}`));
      expect(missing, `${lang}/settings.md`).toEqual([]);
      expect(source).toContain("{{t:AVENTURE.ActorData.menuLabel}}");
    }
  });

  it("keeps the French typography and one French term per concept", () => {
    const problems: string[] = [];
    for (const p of pages.filter((x) => x.lang === "fr")) {
      for (const issue of frenchProblems(prose(`${p.title}\n${p.markdown}`))) problems.push(`fr/${p.key}: ${issue}`);
    }
    for (const p of sources.fr!) {
      const text = prose(p.body.replace(/\{\{[^}]*\}\}/g, " "));
      for (const { pattern, use } of FRENCH_TERMS) {
        for (const m of text.matchAll(new RegExp(pattern.source, `g${pattern.flags}`)))
          problems.push(`fr/${p.key}: "${m[0]}" — say ${use}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps the English plain: one word for the GM, no French spacing", () => {
    const problems: string[] = [];
    for (const p of sources.en!) {
      const text = prose(`${p.title}\n${p.body}`.replace(/\{\{[^}]*\}\}/g, " "));
      for (const { pattern, use } of ENGLISH_TERMS) {
        for (const m of text.matchAll(new RegExp(pattern.source, "g")))
          problems.push(`en/${p.key}: ${JSON.stringify(m[0])} — use ${use}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("the typography check fails on bad French, and the label fixer repairs lang labels", () => {
    expect(frenchProblems("Le MJ dit : d'accord ; 50 % (s)")).toHaveLength(5);
    expect(frenchProblems("Dit\u00a0: d’accord\u202f; 50\u00a0%, «\u00a0oui\u00a0»")).toEqual([]);
    expect(frenchTypography("Voyage : suivre l'eau")).toBe("Voyage\u00a0: suivre l’eau");
    expect(frenchTypography("Risque (%)")).toBe("Risque (%)");
    expect(frenchProblems(frenchTypography("Règles : « oui » ! 3 %"))).toEqual([]);
  });
});

describe("one source for the compendium and docs/guide/", () => {
  it("docs/guide/ is what the sources give (run `node packs-src/guide.mjs` after editing packs-src/guide/)", () => {
    const files = guideMarkdownFiles(ROOT);
    for (const [path, content] of files) {
      expect(existsSync(join(ROOT, path)), `${path} is missing`).toBe(true);
      expect(readFileSync(join(ROOT, path), "utf8"), `${path} is out of date`).toBe(content);
    }
    for (const lang of GUIDE_LANGS) {
      const extra = readdirSync(join(ROOT, "docs", "guide", lang)).filter((f) => !files.has(`docs/guide/${lang}/${f}`));
      expect(extra, `docs/guide/${lang}: files no source gives`).toEqual([]);
    }
  });

  it("builds one journal per language with one HTML page per feature, in order, as the Foundry CLI packs them", () => {
    const docs = guideDocuments(ROOT);
    expect(docs.map((d) => d._id)).toEqual(GUIDE_LANGS.map((l) => GUIDE_JOURNALS[l].id));
    for (const [i, lang] of GUIDE_LANGS.entries()) {
      const journal = docs[i]!;
      expect(journal._key).toBe(`!journal!${journal._id}`);
      expect(journal.pages.map((p) => p._id)).toEqual(GUIDE_PAGES.map((p) => p.ids[lang]));
      for (const page of journal.pages) {
        expect(page._key).toBe(`!journal.pages!${journal._id}.${page._id}`);
        expect(page.type).toBe("text");
        expect(page.text.format).toBe(1);
        expect(page.text.content).toMatch(/^<(p|h2|ul)>/);
        expect(page.text.content).not.toMatch(/\{\{|\]\(page:|\*\*|^#/m);
      }
    }
  });

  it("links pages to each other with @UUID links that lead to a page of the same language", () => {
    const docs = guideDocuments(ROOT);
    const known = new Set(docs.flatMap((j) => j.pages.map((p) => `${j._id}.${p._id}`)));
    let links = 0;
    for (const [i, journal] of docs.entries()) {
      for (const page of journal.pages) {
        for (const m of page.text.content.matchAll(
          /@UUID\[Compendium\.aventure\.guide\.JournalEntry\.(\w+)\.JournalEntryPage\.(\w+)\]\{[^}]+\}/g,
        )) {
          links++;
          expect(m[1], `${journal.name} / ${page.name}`).toBe(GUIDE_JOURNALS[GUIDE_LANGS[i]!].id);
          expect(known.has(`${m[1]}.${m[2]}`)).toBe(true);
        }
      }
    }
    expect(links).toBeGreaterThan(20);
    expect(guidePageUuid("travel", "fr")).toBe(
      `Compendium.aventure.guide.JournalEntry.${GUIDE_JOURNALS.fr.id}.JournalEntryPage.${GUIDE_PAGES.find((p) => p.key === "travel")!.ids.fr}`,
    );
  });

  it("shows the pictures of docs/images/: an <img> of the module's images/ folder in Foundry, a relative link on GitHub", () => {
    expect(guideImages(ROOT)).toEqual(["travel_ose-map.en.png", "travel_ose-map.fr.png"]);
    const en = guideDocuments(ROOT)[0]!.pages.find((p) => p.flags.aventure.guide === "travel")!.text.content;
    expect(en).toContain('<img src="modules/aventure/images/travel_ose-map.en.png" alt="A painted map: ');
    expect(readFileSync(join(ROOT, "docs/guide/fr/travel.md"), "utf8")).toContain(
      "](../../images/travel_ose-map.fr.png)",
    );
    expect(markdownToHtml('![A *map* "here"](modules/aventure/images/a.png)')).toBe(
      '<p><img src="modules/aventure/images/a.png" alt="A *map* &quot;here&quot;"></p>',
    );
  });

  it("turns the guide's Markdown into the HTML Foundry shows", () => {
    const html = markdownToHtml(
      [
        "## Title",
        "",
        "Some **bold**, *italic*, `a<b`,",
        "two lines.",
        "",
        "- one",
        "  more",
        "- two",
        "",
        "1. first",
        "",
        "| a | b |",
        "|---|---|",
        "| 1 | 2 |",
        "",
        "> note",
      ].join("\n"),
    );
    expect(html).toBe(
      [
        "<h2>Title</h2>",
        "<p>Some <strong>bold</strong>, <em>italic</em>, <code>a&lt;b</code>, two lines.</p>",
        "<ul><li>one more</li><li>two</li></ul>",
        "<ol><li>first</li></ol>",
        "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>",
        "<blockquote><p>note</p></blockquote>",
      ].join("\n"),
    );
  });
});

describe('the "?" button of the Aventure windows', () => {
  const g = globalThis as Record<string, unknown>;
  const saved = { game: g.game, ui: g.ui };
  afterEach(() => {
    g.game = saved.game;
    g.ui = saved.ui;
  });

  function fakeFoundry(lang: string, withPack = true) {
    const render = vi.fn();
    const getDocument = vi.fn(async (id: string) =>
      Object.values(GUIDE_JOURNALS).some((j) => j.id === id) ? { sheet: { render } } : null,
    );
    const errors: string[] = [];
    g.game = {
      i18n: { lang, localize: (k: string) => `[${k}]`, format: (k: string) => `[${k}]`, has: () => true },
      packs: new Map(withPack ? [[GUIDE_PACK_ID, { getDocument }]] : []),
    };
    g.ui = { notifications: { error: (m: string) => errors.push(m) } };
    return { render, getDocument, errors };
  }

  it("names, for each window, a page that exists, and each window is a class in its feature folder", () => {
    for (const [cls, key] of Object.entries(WINDOW_GUIDE_PAGES)) {
      expect(
        GUIDE_PAGES.some((p) => p.key === key),
        `${cls} → ${key}`,
      ).toBe(true);
      expect(readFileSync(join(ROOT, windowFiles().get(cls) ?? "missing"), "utf8")).toContain(`class ${cls} `);
    }
  });

  it("reads the guide in French for a French user and in English otherwise", () => {
    expect(guideLanguage("fr")).toBe("fr");
    expect(guideLanguage("fr-CA")).toBe("fr");
    expect(guideLanguage("en")).toBe("en");
    expect(guideLanguage("de")).toBe("en");
    expect(guideLanguage(undefined)).toBe("en");
  });

  it("opens the page of the user's language at the right page", async () => {
    const { render, getDocument } = fakeFoundry("fr");
    await openGuidePage("pursuit");
    expect(getDocument).toHaveBeenCalledWith(GUIDE_JOURNALS.fr.id);
    expect(render).toHaveBeenCalledWith({ force: true, pageId: GUIDE_PAGES.find((p) => p.key === "pursuit")!.ids.fr });
    const en = fakeFoundry("en");
    await openGuidePage("settings");
    expect(en.getDocument).toHaveBeenCalledWith(GUIDE_JOURNALS.en.id);
    expect(en.render).toHaveBeenCalledWith({
      force: true,
      pageId: GUIDE_PAGES.find((p) => p.key === "settings")!.ids.en,
    });
  });

  it("says so when the compendium is missing", async () => {
    fakeFoundry("en", false);
    await expect(openGuidePage("travel")).rejects.toMatchObject({ key: "AVENTURE.Guide.missing" });
  });

  it("adds one button before the window's controls, which opens the window's page", async () => {
    const { render, errors } = fakeFoundry("en");
    const { document } = new Window();
    const frame = document.createElement("div");
    frame.innerHTML =
      '<header class="window-header"><h1 class="window-title">Travel</h1><button type="button" data-action="toggleControls"></button><button type="button" data-action="close"></button></header><section class="window-content"></section>';
    const el = frame as unknown as HTMLElement;
    expect(withGuideButton(el, "travel")).toBe(el);
    withGuideButton(el, "travel");
    const buttons = frame.querySelectorAll(".aventure-guide-button");
    expect(buttons.length).toBe(1);
    const button = buttons[0]!;
    expect(button.nextElementSibling?.getAttribute("data-action")).toBe("toggleControls");
    expect(button.getAttribute("aria-label")).toBe("[AVENTURE.Guide.open]");
    expect(button.className).toContain("fa-circle-question");
    (button as unknown as HTMLElement).click();
    await vi.waitFor(() =>
      expect(render).toHaveBeenCalledWith({ force: true, pageId: GUIDE_PAGES.find((p) => p.key === "travel")!.ids.en }),
    );
    expect(errors).toEqual([]);
  });

  it("leaves a window without a title bar alone", () => {
    fakeFoundry("en");
    const { document } = new Window();
    const frame = document.createElement("div");
    expect(withGuideButton(frame as unknown as HTMLElement, "falls").querySelector("button")).toBeNull();
  });
});
