/**
 * The "Obscurity" region behaviour (`aventure.obscurity`, module.json documentTypes.RegionBehavior.obscurity): an area
 * lightly obscured (light fog, foliage) or heavily obscured (thick fog, dense foliage), independently of its light
 * (docs/rules.md §5 *Decision*). A token inside is seen at best in dim light (light) or not at all (heavy): the light
 * tracker reads it for each token (HUD, effects, hiding prerequisites, ambient detection).
 *
 * Nothing here reacts to region events: the level at a point is read from the viewed scene's regions when the light is
 * recomputed (RegionDocument#testPoint({x, y, elevation}), v13 API: regions may sit at elevations, v14 on levels). The
 * behaviour's own hooks (create/update/delete of a Region or RegionBehavior) mark every token for recomputation.
 */
import { OBSCURITY_LEVELS, type Obscurity } from "../rules/light.js";

export const OBSCURITY_BEHAVIOR_TYPE = "aventure.obscurity";
/** The type's label key (Foundry reads it itself from TYPES.RegionBehavior.<type>). */
export const OBSCURITY_BEHAVIOR_LABEL = "TYPES.RegionBehavior.aventure.obscurity";
export const OBSCURITY_BEHAVIOR_ICON = "fa-solid fa-smog";
/** The levels a behaviour may set (the "none" of the rules is no behaviour at all). */
export const OBSCURITY_BEHAVIOR_LEVELS = ["light", "heavy"] as const;

/** The surface of a RegionBehavior Aventure reads. */
export interface ObscurityBehaviorLike {
  type: string;
  disabled?: boolean;
  system?: unknown;
}

/** The surface of a RegionDocument Aventure reads (v13: testPoint takes an elevated point). */
export interface RegionLike {
  id: string | null;
  behaviors?: Iterable<ObscurityBehaviorLike>;
  testPoint?(point: { x: number; y: number; elevation: number }): boolean;
}

/** One obscured region of the scene, ready to be tested. */
export interface PlainObscurity {
  id: string;
  level: Exclude<Obscurity, "none">;
  test(x: number, y: number, elevation: number): boolean;
}

/** The level a behaviour sets, or null when it is not an enabled Obscurity behaviour with a known level. */
export function behaviorLevel(b: ObscurityBehaviorLike): Exclude<Obscurity, "none"> | null {
  if (b.type !== OBSCURITY_BEHAVIOR_TYPE || b.disabled === true) return null;
  const level = (b.system as { level?: unknown } | null | undefined)?.level;
  return level === "light" || level === "heavy" ? level : null;
}

/** The obscured regions of a scene (the heaviest enabled behaviour of each region). */
export function obscuritySources(regions: Iterable<RegionLike> | null | undefined): PlainObscurity[] {
  const out: PlainObscurity[] = [];
  for (const region of regions ?? []) {
    if (typeof region.testPoint !== "function" || !region.id) continue;
    let level: Exclude<Obscurity, "none"> | null = null;
    for (const b of region.behaviors ?? []) {
      const l = behaviorLevel(b);
      if (l === "heavy" || (l === "light" && level === null)) level = l;
    }
    if (!level) continue;
    out.push({ id: region.id, level, test: (x, y, elevation) => region.testPoint!({ x, y, elevation }) });
  }
  // Heavy first: a point in both is heavily obscured, and the first hit decides.
  return out.sort((a, b) => OBSCURITY_LEVELS.indexOf(b.level) - OBSCURITY_LEVELS.indexOf(a.level));
}

/** How obscured a point is: the heaviest region containing it at that elevation (sources sorted heavy first). */
export function obscurityAt(sources: readonly PlainObscurity[], x: number, y: number, elevation: number): Obscurity {
  for (const s of sources) if (s.test(x, y, elevation)) return s.level;
  return "none";
}

/**
 * The behaviour's data: its level (a lang key per choice; the form shows the label and hint of
 * AVENTURE.Light.ObscurityRegion.FIELDS.level).
 */
function obscuritySchema() {
  return {
    level: new foundry.data.fields.StringField({
      required: true,
      nullable: false,
      blank: false,
      initial: "light",
      choices: { light: "AVENTURE.Light.obscurity.light", heavy: "AVENTURE.Light.obscurity.heavy" },
    }),
  };
}
type ObscuritySchema = ReturnType<typeof obscuritySchema>;

/** Registers the behaviour type (call in `init`). */
export function registerObscurityBehavior(): void {
  class ObscurityRegionBehaviorType extends foundry.data.regionBehaviors.RegionBehaviorType<ObscuritySchema> {
    static override LOCALIZATION_PREFIXES = ["AVENTURE.Light.ObscurityRegion"];
    static override defineSchema(): ObscuritySchema {
      return obscuritySchema();
    }
  }
  CONFIG.RegionBehavior.dataModels[OBSCURITY_BEHAVIOR_TYPE] = ObscurityRegionBehaviorType;
  CONFIG.RegionBehavior.typeIcons[OBSCURITY_BEHAVIOR_TYPE] = OBSCURITY_BEHAVIOR_ICON;
}
