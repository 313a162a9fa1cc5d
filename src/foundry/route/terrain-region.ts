/**
 * The "Travel terrain" region behaviour (`aventure.travelTerrain`, module.json documentTypes.RegionBehavior
 * .travelTerrain): marks a region as normal or difficult ground for journeys along a route, with the name the journey
 * card shows ("Forêt de Brocéliande"; empty: the region's name). It reacts to no event: measure.ts reads it when a
 * route is measured. Registered like core's behaviour types: CONFIG.RegionBehavior.dataModels / typeIcons (v13),
 * labels from TYPES.RegionBehavior.aventure.travelTerrain and AVENTURE.Travel.TerrainRegion.FIELDS.
 */
import { TRAVEL_TERRAIN_BEHAVIOR } from "./measure.js";

export const TRAVEL_TERRAIN_ICON = "fa-solid fa-tree";

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
