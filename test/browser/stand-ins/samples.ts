/**
 * Stand-ins of Foundry's own forms that show Aventure's texts (the browser check renders them like the module's
 * templates): the module settings form and the region behaviours' configuration sheets. Foundry builds these from
 * the registrations (names, hints, choices; the behaviours' LOCALIZATION_PREFIXES); the stand-ins take the same
 * texts from the same declarations and lang keys.
 */
import { declaredSettings } from "../../fixtures/declared-settings.js";
import { settingVisibility } from "../../../src/core/feature-visibility.js";
import { features, type FeatureBorrowings, type RulesetId } from "../../../src/rules/index.js";
import { OSE_TERRAINS } from "../../../src/rules/ose-wilderness.js";
import type { Sample } from "../../templates/samples.js";

type L = (key: string, data?: Record<string, unknown>) => string;

/**
 * The settings form as a GM of `game` sees it (docs/rules.md §0: src/core/settings-form.ts hides the rows of
 * features that are off, and labels the rows of borrowed ones); without a game, every setting (the screenshots).
 */
export function settingsContext(l: L, game?: RulesetId, borrowed: FeatureBorrowings = {}) {
  const schema = declaredSettings("dnd5e");
  const state = game ? features(game, borrowed) : null;
  const settings = Object.entries(schema)
    .filter(([, d]) => d.config)
    .map(([key, d]) => ({
      key,
      d,
      v: game && state ? settingVisibility(key, game, state) : { show: true, borrowedFrom: null },
    }))
    .filter(({ v }) => v.show)
    .map(({ key, d, v }) => ({
      key,
      borrowed: v.borrowedFrom ? l(`AVENTURE.Feature.from.${v.borrowedFrom}`) : "",
      name: l(`AVENTURE.Settings.${key}.name`),
      hint: l(`AVENTURE.Settings.${key}.hint`),
      boolean: d.kind === "boolean",
      value: d.kind === "boolean" ? d.default === true : String(d.default ?? ""),
      choices: d.choices
        ? Object.entries(d.choices).map(([v, label]) => ({
            label: l(label),
            selected: v === (key === "ruleset" && game ? game : d.default),
          }))
        : [],
    }));
  const menus = [
    {
      name: l("AVENTURE.Welcome.menuName"),
      label: l("AVENTURE.Welcome.menuLabel"),
      hint: l("AVENTURE.Welcome.menuHint"),
      icon: "fa-solid fa-dice-d20",
    },
    {
      name: l("AVENTURE.ActorData.menuName"),
      label: l("AVENTURE.ActorData.menuLabel"),
      hint: l("AVENTURE.ActorData.menuHint"),
      icon: "fa-solid fa-database",
    },
  ];
  return { settings, menus };
}

function behaviorsContext(l: L) {
  const field = (prefix: string, name: string, choices: string[] = [], value = "") => ({
    label: l(`${prefix}.FIELDS.${name}.label`),
    hint: l(`${prefix}.FIELDS.${name}.hint`),
    choices,
    value,
  });
  return {
    behaviors: [
      {
        name: l("TYPES.RegionBehavior.aventure.travelTerrain"),
        fields: [
          field("AVENTURE.Travel.TerrainRegion", "terrain", [
            l("AVENTURE.Travel.Leg.normal"),
            l("AVENTURE.Travel.Leg.difficult"),
          ]),
          field("AVENTURE.Travel.TerrainRegion", "label", [], "Brocéliande"),
          field("AVENTURE.Travel.TerrainRegion", "oseTerrain", [
            "",
            ...OSE_TERRAINS.map((t) => l(`AVENTURE.Wilderness.Terrain.${t}`)),
          ]),
        ],
      },
      {
        name: l("TYPES.RegionBehavior.aventure.fall"),
        fields: [field("AVENTURE.Movement.FallRegion", "height", [], "6")],
      },
      {
        name: l("TYPES.RegionBehavior.aventure.obscurity"),
        fields: [
          field("AVENTURE.Light.ObscurityRegion", "level", [
            l("AVENTURE.Light.obscurity.light"),
            l("AVENTURE.Light.obscurity.heavy"),
          ]),
        ],
      },
    ],
  };
}

export const STAND_INS: Record<string, Sample> = {
  "settings-form.hbs": { kind: "dialog", title: "Configure Settings", width: 640, context: (l) => settingsContext(l) },
  "region-behavior.hbs": { kind: "dialog", title: "Region Behavior", width: 520, context: (l) => behaviorsContext(l) },
};
