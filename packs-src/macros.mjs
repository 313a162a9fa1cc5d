/**
 * The sources of the "Aventure" macro compendium: one macro per feature, each calling the public API
 * (docs/api.md). Compiled into dist/packs/macros by scripts/build.mjs with the Foundry CLI.
 */
const ICONS = "icons/svg";

/** Each entry: stable 16-character id, bilingual name, icon, API call. */
export const MACROS = [
  { _id: "aventureTravel01", name: "Voyage / Travel", img: `${ICONS}/direction.svg`, call: "openTravel()" },
  { _id: "aventureEncount1", name: "Rencontre / Encounter", img: `${ICONS}/combat.svg`, call: "openEncounter()" },
  { _id: "aventurePursuit1", name: "Poursuite / Pursuit", img: `${ICONS}/wingfoot.svg`, call: "openPursuit()" },
  {
    _id: "aventurePolaris1",
    name: "Test Polaris / Polaris test",
    img: `${ICONS}/d20-grey.svg`,
    call: "openPolarisTest()",
  },
  { _id: "aventureFallMac1", name: "Chute / Fall", img: `${ICONS}/falling.svg`, call: "fallDialog()" },
  { _id: "aventureHideMac1", name: "Se cacher / Hide", img: `${ICONS}/mystery-man.svg`, call: "hideSelected()" },
  { _id: "aventureJumpMac1", name: "Sauts / Jumps", img: `${ICONS}/upgrade.svg`, call: "showJumps()" },
  { _id: "aventureExplore1", name: "Exploration", img: `${ICONS}/light.svg`, call: "openExploration()" },
];

export function macroCommand(call) {
  return [
    `// Aventure: see the module's docs/api.md`,
    `const api = game.modules.get("aventure")?.api;`,
    // Aventure's own strings are not loaded when it is not active: the two languages are here.
    `if (!api) ui.notifications.error(game.i18n.lang === "fr" ? "Aventure n’est pas activé." : "Aventure is not active.");`,
    `else api.${call};`,
  ].join("\n");
}

export function macroDocuments() {
  return MACROS.map((m) => ({
    _id: m._id,
    _key: `!macros!${m._id}`,
    name: m.name,
    type: "script",
    command: macroCommand(m.call),
    img: m.img,
    scope: "global",
    author: null,
    ownership: { default: 0 },
    folder: null,
    sort: 0,
    flags: {},
    _stats: {
      coreVersion: "13.351",
      systemId: null,
      systemVersion: null,
      createdTime: 0,
      modifiedTime: 0,
      lastModifiedBy: null,
      compendiumSource: null,
      duplicateSource: null,
    },
  }));
}
