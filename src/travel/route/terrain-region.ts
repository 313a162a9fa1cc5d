/**
 * The "Travel terrain" region behaviour (`aventure.travelTerrain`, module.json documentTypes.RegionBehavior
 * .travelTerrain): marks a region as normal or difficult ground for journeys along a route, with the name the journey
 * card shows ("Forêt de Brocéliande"; empty: the region's name), and for Old-School Essentials its wilderness terrain
 * (docs/rules.md §12: clear, forest, road…; empty: none, the route's open ground). It reacts to no event: measure.ts
 * and ose-legs.ts read it when a route is measured. Registered like core's behaviour types:
 * CONFIG.RegionBehavior.dataModels / typeIcons (v13),
 * labels from TYPES.RegionBehavior.aventure.travelTerrain and AVENTURE.Travel.TerrainRegion.FIELDS.
 */
import { OSE_TERRAINS } from "../../rules/ose-wilderness.js";
import { TRAVEL_TERRAIN_BEHAVIOR } from "./measure.js";

export const TRAVEL_TERRAIN_ICON = "fa-solid fa-tree";

/** The OSE terrain select's choices: each id of OSE_TERRAINS with its label key (the blank choice is "none"). */
export function oseTerrainChoices(): Record<string, string> {
  return Object.fromEntries(OSE_TERRAINS.map((t) => [t, `AVENTURE.Wilderness.Terrain.${t}`]));
}

/** Registers the behaviour type (call in `init`). */
export function registerTravelTerrainBehavior(): void {
  const { RegionBehaviorType } = foundry.data.regionBehaviors;
  const { StringField } = foundry.data.fields;
  const schema = () => ({
    terrain: new StringField({
      required: true,
      blank: false,
      initial: "difficult",
      choices: { normal: "AVENTURE.Travel.Leg.normal", difficult: "AVENTURE.Travel.Leg.difficult" },
    }),
    label: new StringField({ required: true, blank: true, initial: "" }),
    oseTerrain: new StringField({ required: true, blank: true, initial: "", choices: oseTerrainChoices() }),
  });
  class TravelTerrainRegionBehaviorType extends RegionBehaviorType<ReturnType<typeof schema>> {
    static override LOCALIZATION_PREFIXES = ["AVENTURE.Travel.TerrainRegion"];
    static override defineSchema() {
      return schema();
    }
  }
  CONFIG.RegionBehavior.dataModels[TRAVEL_TERRAIN_BEHAVIOR] = TravelTerrainRegionBehaviorType;
  CONFIG.RegionBehavior.typeIcons[TRAVEL_TERRAIN_BEHAVIOR] = TRAVEL_TERRAIN_ICON;
}
