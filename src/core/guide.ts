/**
 * The GM guide inside Foundry: the "Aventure — Guide" compendium (packs-src/guide.mjs builds it from the Markdown in
 * packs-src/guide/) holds one journal per language with one page per feature. `openGuidePage(key)` opens a page in
 * the user's language; `withGuideButton(frame, key)` adds the "?" button that does it to an Aventure window's title
 * bar. The page ids are shared with the build through packs-src/guide/pages.mjs.
 */
import { MODULE_ID } from "./constants.js";
import { GUIDE_JOURNALS, GUIDE_PACK_NAME, GUIDE_PAGES } from "../../packs-src/guide/pages.mjs";
import { guarded, t, UserError } from "./i18n.js";

export type GuideLang = keyof typeof GUIDE_JOURNALS;
export type GuidePageKey = (typeof GUIDE_PAGES)[number]["key"];

/** The compendium's id, as Foundry names it. */
export const GUIDE_PACK_ID = `${MODULE_ID}.${GUIDE_PACK_NAME}`;

/** The page each Aventure window opens from its "?" button, by class name. */
export const WINDOW_GUIDE_PAGES = {
  TravelDialog: "travel",
  OseTravelDialog: "travel",
  EncounterDialog: "encounters",
  PursuitDialog: "pursuit",
  PolarisTestDialog: "polaris",
  PolarisActorSheet: "start-polaris",
  FallDialog: "falls",
  JumpPanel: "movement",
  ExplorationPanel: "exploration",
  ActorDataMenu: "settings",
  WelcomeDialog: "overview",
} as const satisfies Record<string, GuidePageKey>;

/** The guide's language for a Foundry language: French for "fr" (and "fr-…"), English for any other. */
export function guideLanguage(lang: string | undefined): GuideLang {
  return /^fr\b/i.test(lang ?? "") ? "fr" : "en";
}

/** Where a page is: the journal and page ids in a language (undefined for an unknown key). */
export function guidePageIds(key: string, lang: GuideLang): { journalId: string; pageId: string } | undefined {
  const page = GUIDE_PAGES.find((p) => p.key === key);
  return page ? { journalId: GUIDE_JOURNALS[lang].id, pageId: page.ids[lang] } : undefined;
}

/** The @UUID of a page, e.g. for a link in a chat card: @UUID[<this>]{label}. */
export function guidePageUuid(key: GuidePageKey, lang: GuideLang): string {
  const ids = guidePageIds(key, lang)!;
  return `Compendium.${GUIDE_PACK_ID}.JournalEntry.${ids.journalId}.JournalEntryPage.${ids.pageId}`;
}

interface GuideJournal {
  sheet: { render(options: { force: boolean; pageId: string }): unknown } | null;
}
interface GuidePack {
  getDocument(id: string): Promise<GuideJournal | null | undefined>;
}

/**
 * Opens page `key` of the guide in the user's language (v13 and v14: the journal sheet renders at `pageId`).
 * Throws a UserError when the compendium or the page is missing.
 */
export async function openGuidePage(key: GuidePageKey): Promise<void> {
  const lang = guideLanguage(game.i18n?.lang);
  const ids = guidePageIds(key, lang);
  // cast: the pinned JournalEntrySheet render options lack v13's `pageId` (the page to open)
  const pack = game.packs?.get(GUIDE_PACK_ID) as unknown as GuidePack | undefined;
  if (!ids || !pack) throw new UserError("AVENTURE.Guide.missing");
  const journal = await pack.getDocument(ids.journalId);
  if (!journal?.sheet) throw new UserError("AVENTURE.Guide.missing");
  await journal.sheet.render({ force: true, pageId: ids.pageId });
}

/**
 * Adds the "?" button to an Aventure window's title bar, before its controls and close buttons; a click opens page
 * `key` of the guide. Each window calls it from its `_renderFrame` override (WINDOW_GUIDE_PAGES names the page):
 *
 *   protected override async _renderFrame(options: never): Promise<HTMLElement> {
 *     return withGuideButton(await super._renderFrame(options), "travel");
 *   }
 *
 * Returns the frame. A frame without a header (an unframed window) is returned as it is; a second call adds nothing.
 */
export function withGuideButton<T extends HTMLElement>(frame: T, key: GuidePageKey): T {
  const header = frame.querySelector(".window-header");
  if (!header || header.querySelector(".aventure-guide-button")) return frame;
  const label = t("AVENTURE.Guide.open");
  const button = frame.ownerDocument.createElement("button");
  button.type = "button";
  button.className = "header-control icon fa-solid fa-circle-question aventure-guide-button";
  button.dataset.tooltip = label;
  button.setAttribute("aria-label", label);
  button.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    void guarded(() => openGuidePage(key));
  });
  const before =
    header.querySelector('[data-action="toggleControls"]') ?? header.querySelector('[data-action="close"]');
  if (before) header.insertBefore(button, before);
  else header.appendChild(button);
  return frame;
}

/**
 * The same as an entry of the window's controls menu (ApplicationV2 `window.controls`), for a window that prefers the
 * menu to a button: `window: { controls: [guideHeaderControl("travel")] }` and, in `actions`,
 * `[GUIDE_ACTION]: () => openGuidePage("travel")`.
 */
export const GUIDE_ACTION = "aventureGuide";
export function guideHeaderControl(key: GuidePageKey): {
  action: string;
  icon: string;
  label: string;
  onClick: () => void;
} {
  return {
    action: GUIDE_ACTION,
    icon: "fa-solid fa-circle-question",
    label: "AVENTURE.Guide.open",
    onClick: () => void guarded(() => openGuidePage(key)),
  };
}
