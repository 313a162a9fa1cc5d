/**
 * The GM guide's structure, shared by the build (packs-src/guide.mjs → the "Aventure — Guide" compendium and
 * docs/guide/) and the module (src/core/guide.ts opens a page from a window's "?" button). Plain data: stable
 * ids (16 letters or digits, as Foundry requires), never reused for another page. The text of each page is in
 * packs-src/guide/<lang>/<key>.md.
 */

/** The compendium's name in module.json (the pack id is "aventure.guide"). */
export const GUIDE_PACK_NAME = "guide";

/** The guide's languages: one journal each. A user whose language is not French reads the English one. */
export const GUIDE_LANGS = /** @type {const} */ (["en", "fr"]);

/** One JournalEntry per language. */
export const GUIDE_JOURNALS = {
  en: { id: "aventureGuideEn0", name: "Aventure — Guide (English)" },
  fr: { id: "aventureGuideFr0", name: "Aventure — Guide (français)" },
};

/** One page per feature, in reading order. */
export const GUIDE_PAGES = /** @type {const} */ ([
  { key: "overview", ids: { en: "agEnOverview0000", fr: "agFrOverview0000" } },
  // First steps, one page per game (the first-run window opens the chosen game's page).
  { key: "start-rnp", ids: { en: "agEnStartRnp0000", fr: "agFrStartRnp0000" } },
  { key: "start-dnd5e", ids: { en: "agEnStartDnd5e00", fr: "agFrStartDnd5e00" } },
  { key: "start-pmt", ids: { en: "agEnStartPmt0000", fr: "agFrStartPmt0000" } },
  { key: "start-ose", ids: { en: "agEnStartOse0000", fr: "agFrStartOse0000" } },
  { key: "start-polaris", ids: { en: "agEnStartPolaris", fr: "agFrStartPolaris" } },
  { key: "travel", ids: { en: "agEnTravel000000", fr: "agFrTravel000000" } },
  { key: "movement", ids: { en: "agEnMovement0000", fr: "agFrMovement0000" } },
  { key: "falls", ids: { en: "agEnFalls0000000", fr: "agFrFalls0000000" } },
  { key: "light", ids: { en: "agEnLight0000000", fr: "agFrLight0000000" } },
  { key: "hiding", ids: { en: "agEnHiding000000", fr: "agFrHiding000000" } },
  { key: "encounters", ids: { en: "agEnEncounters00", fr: "agFrEncounters00" } },
  { key: "pursuit", ids: { en: "agEnPursuit00000", fr: "agFrPursuit00000" } },
  { key: "exploration", ids: { en: "agEnExploration0", fr: "agFrExploration0" } },
  { key: "polaris", ids: { en: "agEnPolaris00000", fr: "agFrPolaris00000" } },
  { key: "settings", ids: { en: "agEnSettings0000", fr: "agFrSettings0000" } },
  { key: "trust", ids: { en: "agEnTrust0000000", fr: "agFrTrust0000000" } },
]);
