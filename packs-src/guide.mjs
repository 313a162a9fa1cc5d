/**
 * The GM guide, from one source: the Markdown pages in packs-src/guide/<lang>/<key>.md (structure and ids in
 * packs-src/guide/pages.mjs) become
 *  - the "Aventure — Guide" JournalEntry compendium (one journal per language, one HTML text page per feature),
 *    compiled by scripts/build.mjs with the Foundry CLI, and
 *  - docs/guide/ (one Markdown file per page and language, and an index), for readers on GitHub.
 *
 * `node packs-src/guide.mjs` rewrites docs/guide/ from the sources; test/guide.test.ts fails when it is out of date.
 *
 * The source is plain Markdown with three additions:
 *  - `[label](page:travel)`: a link to another page of the guide (a @UUID link in Foundry, a relative link on GitHub);
 *  - `{{t:AVENTURE.Some.key}}`: the text of a lang key in the page's language (button and window names, so the guide
 *    always names what the user sees);
 *  - `{{setting:movementCosts}}`: the name of a setting as the settings window shows it;
 *  - `![alt](image:travel_ose-map.en.png)`: a picture of docs/images/ (shipped in the module's images/ folder for the
 *    compendium, a relative link on GitHub).
 * Pages are stored as HTML (text.format 1): Foundry v13 and v14 display a text page from its HTML, while a
 * Markdown-format page holds the Markdown only for its editor.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { GUIDE_JOURNALS, GUIDE_LANGS, GUIDE_PACK_NAME, GUIDE_PAGES } from "./guide/pages.mjs";

export { GUIDE_JOURNALS, GUIDE_LANGS, GUIDE_PACK_NAME, GUIDE_PAGES };

const HERE = import.meta.dirname;
export const DEFAULT_ROOT = resolve(HERE, "..");
const MODULE_ID = "aventure";
const HTML_FORMAT = 1;
const STATS = {
  coreVersion: "13.351",
  systemId: null,
  systemVersion: null,
  createdTime: 0,
  modifiedTime: 0,
  lastModifiedBy: null,
  compendiumSource: null,
  duplicateSource: null,
};

/** The lang file of `lang`, flattened to "AVENTURE.A.B" → text. */
export function readLang(root, lang) {
  const out = {};
  const walk = (obj, prefix) => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === "object") walk(v, key);
      else out[key] = String(v);
    }
  };
  walk(JSON.parse(readFileSync(join(root, "lang", `${lang}.json`), "utf8")), "");
  return out;
}

/**
 * French typography for a label taken from the lang files: typographic apostrophe, a no-break space before : and %
 * and inside « », a narrow no-break space before ; ! ?. Already typeset text is left as it is.
 */
export function frenchTypography(s) {
  return s
    .replace(/'/g, "’")
    .replace(/(?<=[\p{L}\p{N})»’])[ \u00a0\u202f]?([:%])(?=\s|$|[).,])/gu, "\u00a0$1")
    .replace(/(?<=[\p{L}\p{N})»’])[ \u00a0\u202f]?([;!?])(?=\s|$|[).,])/gu, "\u202f$1")
    .replace(/«[ \u00a0\u202f]?/g, "«\u00a0")
    .replace(/[ \u00a0\u202f]?»/g, "\u00a0»");
}

/** Resolves {{t:key}} and {{setting:key}} in `text` for `lang`. Throws on an unknown key. */
export function resolvePlaceholders(text, lang, translations, where = "") {
  return text.replace(/\{\{(t|setting):([A-Za-z0-9_.-]+)\}\}/g, (_m, kind, name) => {
    const key = kind === "setting" ? `AVENTURE.Settings.${name}.name` : name;
    const value = translations[key];
    if (value === undefined) throw new Error(`guide ${where}: unknown lang key ${key}`);
    return lang === "fr" ? frenchTypography(value) : value;
  });
}

/** The pages of one language, in order: { key, id, title, body } with body the Markdown after the title line. */
export function loadPages(root, lang) {
  return GUIDE_PAGES.map((p) => {
    const file = join(root, "packs-src", "guide", lang, `${p.key}.md`);
    if (!existsSync(file)) throw new Error(`guide: ${relative(root, file)} is missing`);
    const source = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
    const m = /^# (.+)\n/.exec(source);
    if (!m) throw new Error(`guide: ${relative(root, file)} must start with "# <page title>"`);
    return { key: p.key, id: p.ids[lang], title: m[1].trim(), body: source.slice(m[0].length).trim() + "\n", file };
  });
}

/** Replaces [label](page:key) links with `link(label, key)`. Throws on an unknown page. */
function pageLinks(text, link, where) {
  return text.replace(/\[([^\]]+)\]\(page:([a-z][a-z0-9-]*)\)/g, (_m, label, key) => {
    if (!GUIDE_PAGES.some((p) => p.key === key)) throw new Error(`guide ${where}: link to unknown page ${key}`);
    return link(label, key);
  });
}

/** Where the compendium's pages find the guide's pictures: the module's images/ folder (scripts/build.mjs). */
export const GUIDE_IMAGE_PATH = `modules/${MODULE_ID}/images`;
const IMAGE = /!\[([^\]]*)\]\(image:([\w.-]+\.(?:png|webp))\)/g;

/** Replaces ![alt](image:name) with `link(alt, name)`. Throws on a picture docs/images/ does not have. */
function imageLinks(text, link, where, root) {
  return text.replace(IMAGE, (_m, alt, name) => {
    if (!existsSync(join(root, "docs", "images", name)))
      throw new Error(`guide ${where}: no picture docs/images/${name}`);
    return link(alt, name);
  });
}

/** The pictures of docs/images/ the guide shows (the build ships them in images/). */
export function guideImages(root = DEFAULT_ROOT) {
  const names = new Set();
  for (const p of guidePages(root)) for (const m of p.markdown.matchAll(IMAGE)) names.add(m[2]);
  return [...names].sort();
}

export function pageUuid(lang, key) {
  const page = GUIDE_PAGES.find((p) => p.key === key);
  return `Compendium.${MODULE_ID}.${GUIDE_PACK_NAME}.JournalEntry.${GUIDE_JOURNALS[lang].id}.JournalEntryPage.${page.ids[lang]}`;
}

// ---------------------------------------------------------------------------------------------- Markdown → HTML

const escapeHtml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Inline Markdown: `code`, **bold**, *italic*, [label](https://…), a picture `<img>` already resolved by imageLinks.
 * Foundry's @UUID[…]{…} links pass through.
 */
export function inlineHtml(text) {
  const codes = [];
  let s = text.replace(/`([^`]+)`/g, (_m, code) => {
    codes.push(`<code>${escapeHtml(code)}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  // A picture first (its description is an attribute: no markup in it), kept aside as the code is.
  s = s.replace(/!\[([^\]]*)\]\((modules\/[\w./-]+)\)/g, (_m, alt, src) => {
    codes.push(`<img src="${src}" alt="${escapeHtml(alt).replace(/"/g, "&quot;")}">`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  s = escapeHtml(s)
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*\s][^*]*)\*/g, "<em>$1</em>")
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>');
  // eslint-disable-next-line no-control-regex -- NUL marks the placeholders put aside above; no text holds one
  return s.replace(/\u0000(\d+)\u0000/g, (_m, i) => codes[Number(i)]);
}

function cells(line) {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());
}

/**
 * The Markdown subset the guide uses, as HTML: headings (## to ####), paragraphs, lists (- and 1., with
 * continuation lines indented by two spaces), tables, block quotes. Anything else is a paragraph.
 */
export function markdownToHtml(md) {
  const lines = md.replace(/\r\n/g, "\n").split("\n");
  const out = [];
  let i = 0;
  const isBlockStart = (l) => /^(#{2,4} |- |\d+\. |\||> )/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const h = /^(#{2,4}) (.+)$/.exec(line);
    if (h) {
      out.push(`<h${h[1].length}>${inlineHtml(h[2].trim())}</h${h[1].length}>`);
      i++;
      continue;
    }
    const list = /^(- |\d+\. )/.exec(line);
    if (list) {
      const ordered = list[1] !== "- ";
      const items = [];
      while (i < lines.length && (ordered ? /^\d+\. /.test(lines[i]) : lines[i].startsWith("- "))) {
        let item = lines[i].replace(/^(- |\d+\. )/, "");
        i++;
        while (i < lines.length && /^ {2,}\S/.test(lines[i])) item += " " + lines[i++].trim();
        items.push(`<li>${inlineHtml(item)}</li>`);
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.join("")}</${tag}>`);
      continue;
    }
    if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      const [head, sep, ...body] = rows;
      if (!sep || !/^\|[\s:|-]+\|$/.test(sep.trim()))
        throw new Error(`guide: a table needs a |---| line after its header: ${head}`);
      const th = cells(head)
        .map((c) => `<th>${inlineHtml(c)}</th>`)
        .join("");
      const tr = body
        .map(
          (r) =>
            `<tr>${cells(r)
              .map((c) => `<td>${inlineHtml(c)}</td>`)
              .join("")}</tr>`,
        )
        .join("");
      out.push(`<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`);
      continue;
    }
    if (line.startsWith("> ")) {
      const quote = [];
      while (i < lines.length && lines[i].startsWith(">")) quote.push(lines[i++].replace(/^> ?/, ""));
      out.push(`<blockquote><p>${inlineHtml(quote.join(" ").trim())}</p></blockquote>`);
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !(para.length && isBlockStart(lines[i])))
      para.push(lines[i++].trim());
    out.push(`<p>${inlineHtml(para.join(" "))}</p>`);
  }
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------- outputs

/** Every page of every language, resolved: { lang, key, id, title, markdown (links unresolved), file }. */
export function guidePages(root = DEFAULT_ROOT) {
  const out = [];
  for (const lang of GUIDE_LANGS) {
    const translations = readLang(root, lang);
    for (const p of loadPages(root, lang)) {
      const where = relative(root, p.file);
      out.push({
        ...p,
        lang,
        title: resolvePlaceholders(p.title, lang, translations, where),
        markdown: resolvePlaceholders(p.body, lang, translations, where),
        where,
      });
    }
  }
  return out;
}

/** The compendium's sources: one JournalEntry per language with its pages, each with its CLI `_key`. */
export function guideDocuments(root = DEFAULT_ROOT) {
  const pages = guidePages(root);
  return GUIDE_LANGS.map((lang, li) => {
    const journal = GUIDE_JOURNALS[lang];
    return {
      _id: journal.id,
      _key: `!journal!${journal.id}`,
      name: journal.name,
      pages: pages
        .filter((p) => p.lang === lang)
        .map((p, i) => ({
          _id: p.id,
          _key: `!journal.pages!${journal.id}.${p.id}`,
          name: p.title,
          type: "text",
          title: { show: true, level: 1 },
          text: {
            format: HTML_FORMAT,
            content: markdownToHtml(
              imageLinks(
                pageLinks(p.markdown, (label, key) => `@UUID[${pageUuid(lang, key)}]{${label}}`, p.where),
                (alt, name) => `![${alt}](${GUIDE_IMAGE_PATH}/${name})`,
                p.where,
                root,
              ),
            ),
          },
          sort: (i + 1) * 100000,
          ownership: { default: -1 },
          flags: { [MODULE_ID]: { guide: p.key } },
          _stats: STATS,
        })),
      folder: null,
      sort: (li + 1) * 100000,
      ownership: { default: 2 },
      flags: { [MODULE_ID]: { guide: lang } },
      _stats: STATS,
    };
  });
}

const GENERATED = (source) =>
  `<!-- Generated from ${source} by packs-src/guide.mjs: edit the source, then run \`node packs-src/guide.mjs\`. -->\n`;

const INDEX_TITLE = { en: "English", fr: "Français" };

/** docs/guide/: path (relative to the repository) → content. */
export function guideMarkdownFiles(root = DEFAULT_ROOT) {
  const pages = guidePages(root);
  const files = new Map();
  for (const p of pages) {
    const body = imageLinks(
      pageLinks(p.markdown, (label, key) => `[${label}](${key}.md)`, p.where),
      (alt, name) => `![${alt}](../../images/${name})`,
      p.where,
      root,
    );
    const nav = `[${p.lang === "fr" ? "Sommaire du guide" : "Guide contents"}](../README.md)`;
    files.set(
      `docs/guide/${p.lang}/${p.key}.md`,
      `${GENERATED(`packs-src/guide/${p.lang}/${p.key}.md`)}# ${p.title}\n\n${nav}\n\n${body}`,
    );
  }
  const rows = GUIDE_PAGES.map((g) => {
    const cellsFor = GUIDE_LANGS.map((lang) => {
      const p = pages.find((x) => x.lang === lang && x.key === g.key);
      return `[${p.title}](${lang}/${g.key}.md)`;
    });
    return `| ${cellsFor.join(" | ")} |`;
  });
  files.set(
    "docs/guide/README.md",
    [
      GENERATED("packs-src/guide/"),
      "# Aventure — Guide",
      "",
      "The GM's guide, one page per feature, in English and in French. In Foundry the same pages are in the",
      "compendium **Aventure — Guide**, and the **?** button of each Aventure window opens its page.",
      "",
      "Le guide du MJ, une page par fonction, en anglais et en français. Dans Foundry, les mêmes pages sont",
      "dans le compendium **Aventure — Guide**, et le bouton **?** de chaque fenêtre d’Aventure ouvre la sienne.",
      "",
      `| ${GUIDE_LANGS.map((l) => INDEX_TITLE[l]).join(" | ")} |`,
      `|${GUIDE_LANGS.map(() => "---").join("|")}|`,
      ...rows,
      "",
    ].join("\n"),
  );
  return files;
}

/** Writes docs/guide/ and removes the Markdown files there that the sources no longer produce. */
export function writeGuideDocs(root = DEFAULT_ROOT) {
  const files = guideMarkdownFiles(root);
  const dir = join(root, "docs", "guide");
  for (const lang of GUIDE_LANGS) {
    const d = join(dir, lang);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d)) if (f.endsWith(".md") && !files.has(`docs/guide/${lang}/${f}`)) rmSync(join(d, f));
  }
  for (const [path, content] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return [...files.keys()];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const written = writeGuideDocs();
  console.log(`Guide: ${written.length} files written under docs/guide/.`);
}
