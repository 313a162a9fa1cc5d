/**
 * The sources of the "Aventure — Polaris" compendium: ready templates of Aventure's own Polaris character type
 * (`aventure.polaris`, src/polaris/actor-type.ts; docs/rules.md §9), a character and a creature in each language,
 * every value empty for the GM to type on the sheet. Compiled into dist/packs/polaris by scripts/build.mjs with the
 * Foundry CLI.
 *
 * *Decision:* the compendium holds one Adventure per language, not Actors: Foundry requires an Actor compendium of a
 * package to name the one game system it works with (foundryvtt/foundryvtt#7636, #7678; a system-agnostic Actor
 * compendium is an open request, #13505), while an Adventure compendium need not (#8262). Importing the adventure
 * creates its two actors in the world, under whatever system the world runs.
 */
const MODULE_ID = "aventure";
export const POLARIS_PACK_NAME = "polaris";
export const POLARIS_ACTOR_TYPE = `${MODULE_ID}.polaris`;
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
const ATTRIBUTES = ["for", "con", "coo", "ada", "per", "int", "vol", "pre"];

/** What each language names. The one skill the rules' text names as a skill (seed 003: "Escalade (Difficile ou -7)"). */
const TEXT = {
  fr: {
    adventure: "Polaris — modèles (français)",
    caption: "Un personnage et une créature Polaris à compléter",
    description:
      "<p>Importez cette aventure : elle crée un <strong>personnage Polaris</strong> et une <strong>créature Polaris</strong> dans le dossier « Aventure — Polaris ». Dupliquez le modèle pour chaque personnage et saisissez ses valeurs sur sa fiche.</p>",
    folder: "Aventure — Polaris",
    character: "Personnage Polaris",
    creature: "Créature Polaris",
    skills: { escalade: "Escalade" },
  },
  en: {
    adventure: "Polaris — templates (English)",
    caption: "A Polaris character and creature to fill in",
    description:
      '<p>Import this adventure: it creates a <strong>Polaris character</strong> and a <strong>Polaris creature</strong> in the "Aventure — Polaris" folder. Duplicate the template for each character and type its values on its sheet.</p>',
    folder: "Aventure — Polaris",
    character: "Polaris character",
    creature: "Polaris creature",
    skills: { climbing: "Climbing" },
  },
};

/** Stable 16-character ids. */
export const POLARIS_IDS = {
  fr: {
    adventure: "aventurePolAdvFr",
    folder: "aventurePolFoldF",
    character: "aventurePolCharF",
    creature: "aventurePolCreaF",
  },
  en: {
    adventure: "aventurePolAdvEn",
    folder: "aventurePolFoldE",
    character: "aventurePolCharE",
    creature: "aventurePolCreaE",
  },
};

/** An empty system of the type: every attribute, score and skill level empty (null), as the data model's initial values. */
export function emptySystem(skills = {}) {
  return {
    attributes: Object.fromEntries(ATTRIBUTES.map((k) => [k, { value: null }])),
    chance: null,
    reaction: null,
    initiative: null,
    skills: Object.fromEntries(
      Object.entries(skills).map(([key, label]) => [key, { label, attribute: null, level: null, mastery: null }]),
    ),
  };
}

function actor(id, name, img, system, token, folder) {
  return {
    _id: id,
    name,
    type: POLARIS_ACTOR_TYPE,
    img,
    system,
    prototypeToken: { name, actorLink: token.actorLink, disposition: token.disposition, texture: { src: img } },
    items: [],
    effects: [],
    folder,
    sort: 0,
    ownership: { default: 0 },
    flags: {},
    _stats: STATS,
  };
}

/** The adventures of the compendium, one per language, as the Foundry CLI packs them. */
export function polarisDocuments() {
  return Object.entries(TEXT).map(([lang, t], i) => {
    const ids = POLARIS_IDS[lang];
    return {
      _id: ids.adventure,
      _key: `!adventures!${ids.adventure}`,
      name: t.adventure,
      img: "icons/svg/d20-grey.svg",
      caption: t.caption,
      description: t.description,
      actors: [
        // A character is linked to its token (friendly); a creature's tokens are copies (hostile).
        actor(
          ids.character,
          t.character,
          "icons/svg/mystery-man.svg",
          emptySystem(t.skills),
          { actorLink: true, disposition: 1 },
          ids.folder,
        ),
        actor(
          ids.creature,
          t.creature,
          "icons/svg/skull.svg",
          emptySystem(),
          { actorLink: false, disposition: -1 },
          ids.folder,
        ),
      ],
      combats: [],
      items: [],
      journal: [],
      scenes: [],
      tables: [],
      macros: [],
      cards: [],
      playlists: [],
      folders: [
        {
          _id: ids.folder,
          name: t.folder,
          type: "Actor",
          folder: null,
          sorting: "a",
          sort: 0,
          color: "#8b5a2b",
          flags: {},
          _stats: STATS,
        },
      ],
      sort: (i + 1) * 100000,
      flags: {},
      folder: null,
      _stats: STATS,
    };
  });
}
