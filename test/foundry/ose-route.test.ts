/**
 * Old-School Essentials terrain on the map (docs/rules.md §12, §11): the Travel terrain behaviour's OSE terrain select,
 * and a route split into legs by OSE terrain (src/travel/route/ose-legs.ts, pure). Expectations worked by hand: a
 * 1 km grid space of 100 px, so 1 px = 10 m.
 */
import { describe, expect, it } from "vitest";
import { bootWorld } from "../world/index.js";
import { OSE_TERRAINS, oseJourney, fixedDice } from "../../src/rules/index.js";
import { dominantOseTerrain, measureOseRoute, regionOseTerrain } from "../../src/travel/route/ose-legs.js";
import type { RegionLike, UnitSettings } from "../../src/travel/route/measure.js";
import { loadLang } from "../fake/i18n.js";

const UNITS: UnitSettings = { feetFactor: 0.3, customUnit: "", customMetres: 0 };
const GRID = { size: 100, distance: 1, units: "km" };
const terrainRegion = (id: string, system: object, x: number, width: number, name = id): RegionLike => ({
  id,
  name,
  shapes: [{ type: "rectangle", x, y: -100, width, height: 200 }],
  behaviors: [{ type: "aventure.travelTerrain", system: { terrain: "normal", label: "", ...system } }],
});
const errorKey = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { key?: string }).key;
  }
  return null;
};

describe("the Travel terrain behaviour's OSE terrain", () => {
  it("is a select of the twelve OSE terrains, empty by default, each labelled in English and French", async () => {
    const world = await bootWorld();
    const model = world.as(
      "gm1",
      () =>
        CONFIG.RegionBehavior.dataModels["aventure.travelTerrain"] as unknown as {
          defineSchema(): Record<
            string,
            { options: { choices: Record<string, string>; initial: string; blank: boolean } }
          >;
        },
    );
    const field = model.defineSchema().oseTerrain!;
    expect(Object.keys(field.options.choices)).toEqual([...OSE_TERRAINS]);
    expect(field.options).toMatchObject({ initial: "", blank: true });
    const en = loadLang("en");
    const fr = loadLang("fr");
    expect(Object.values(field.options.choices).map((k) => en[k])).toEqual([
      "clear",
      "grasslands",
      "maintained road",
      "barren lands",
      "broken lands",
      "desert",
      "forest",
      "hills",
      "mountains",
      "woods",
      "jungle",
      "swamp",
    ]);
    expect(fr["AVENTURE.Wilderness.Terrain.swamp"]).toBe("marais");
  });

  it("a region gives its OSE terrain and name; empty, disabled or another behaviour gives none; a hand-written value is flagged", () => {
    expect(
      regionOseTerrain(terrainRegion("f", { oseTerrain: "forest", label: "Forêt de Brocéliande" }, 0, 10)),
    ).toEqual({ terrain: "forest", name: "Forêt de Brocéliande" });
    expect(regionOseTerrain(terrainRegion("f", { oseTerrain: "" }, 0, 10))).toBeNull();
    expect(regionOseTerrain(terrainRegion("f", {}, 0, 10))).toBeNull();
    expect(
      regionOseTerrain({
        ...terrainRegion("f", {}, 0, 10),
        behaviors: [{ type: "aventure.travelTerrain", disabled: true, system: { oseTerrain: "swamp" } }],
      }),
    ).toBeNull();
    expect(
      regionOseTerrain({
        ...terrainRegion("f", {}, 0, 10),
        behaviors: [{ type: "modifyMovementCost", system: { difficulties: { walk: 2 } } }],
      }),
    ).toBeNull();
    expect(regionOseTerrain(terrainRegion("f", { oseTerrain: "tundra" }, 0, 10))).toEqual({
      unknown: "tundra",
      name: "f",
    });
  });

  it("overlapping terrains: a road wins, otherwise the slowest, then the likeliest to get lost", () => {
    expect(dominantOseTerrain(["forest", "road", "swamp"])).toBe("road");
    expect(dominantOseTerrain(["forest", "mountains"])).toBe("mountains");
    expect(dominantOseTerrain(["forest", "desert"])).toBe("desert");
    expect(dominantOseTerrain(["clear", "barren"])).toBe("barren");
    expect(dominantOseTerrain([])).toBeNull();
  });
});

describe("a route split by OSE terrain", () => {
  // Road 0–27 km (x 0–2700), forest 27–51 km, swamp 51–78 km; the route runs 0 → 7800 px on y = 0.
  const scene = {
    grid: GRID,
    regions: [
      terrainRegion("road", { oseTerrain: "road", label: "Chemin royal" }, -100, 2800),
      terrainRegion("forest", { oseTerrain: "forest" }, 2700, 2400, "Bois Noir"),
      terrainRegion("swamp", { oseTerrain: "swamp" }, 5100, 2800, "Marais de Fangeval"),
    ],
  };

  it("gives each leg its OSE terrain and regions; three days across road, forest and swamp end where the rules say", async () => {
    const m = measureOseRoute(
      [
        { x: 0, y: 0 },
        { x: 7800, y: 0 },
      ],
      scene,
      UNITS,
    );
    expect(m.legs).toEqual([
      { metres: 27000, terrain: "road", regions: ["Chemin royal"], from: 0, to: 27000 },
      { metres: 24000, terrain: "forest", regions: ["Bois Noir"], from: 27000, to: 51000 },
      { metres: 27000, terrain: "swamp", regions: ["Marais de Fangeval"], from: 51000, to: 78000 },
    ]);
    const j = await oseJourney(
      { baseMetres: 36, characters: 3, legs: m.legs },
      fixedDice(Array.from({ length: 20 }, () => 6)),
    );
    expect(j.days.map((d) => d.endMetres)).toEqual([39000, 60000, 78000]);
  });

  it("open ground takes the terrain the GM picks (clear by default); a road across a forest wins where they overlap", () => {
    const partial = {
      grid: GRID,
      regions: [
        terrainRegion("forest", { oseTerrain: "forest" }, 1000, 1000, "Bois"),
        terrainRegion("road", { oseTerrain: "road" }, 1400, 200, "Gué"),
      ],
    };
    expect(
      measureOseRoute(
        [
          { x: 0, y: 0 },
          { x: 3000, y: 0 },
        ],
        partial,
        UNITS,
      ).legs.map((l) => [l.terrain, l.metres]),
    ).toEqual([
      ["clear", 10000],
      ["forest", 4000],
      ["road", 2000],
      ["forest", 4000],
      ["clear", 10000],
    ]);
    expect(
      measureOseRoute(
        [
          { x: 0, y: 0 },
          { x: 3000, y: 0 },
        ],
        partial,
        UNITS,
        "hills",
      ).legs[0],
    ).toMatchObject({ terrain: "hills", regions: [] });
  });

  it("regions without an OSE terrain (dnd5e difficult terrain, a Travel terrain left empty) do not cut the route", () => {
    const other = {
      grid: GRID,
      regions: [
        { ...terrainRegion("d", {}, 1000, 1000), behaviors: [{ type: "dnd5e.difficultTerrain", system: {} }] },
        terrainRegion("e", { terrain: "difficult", oseTerrain: "" }, 2000, 500),
      ],
    };
    expect(
      measureOseRoute(
        [
          { x: 0, y: 0 },
          { x: 3000, y: 0 },
        ],
        other,
        UNITS,
      ).legs,
    ).toEqual([{ metres: 30000, terrain: "clear", regions: [], from: 0, to: 30000 }]);
  });

  it("refuses a region with an OSE terrain Aventure cannot read where the route enters it, and a bad open terrain", () => {
    const bad = { grid: GRID, regions: [terrainRegion("t", { oseTerrain: "tundra" }, 1000, 1000, "Toundra")] };
    expect(
      errorKey(() =>
        measureOseRoute(
          [
            { x: 0, y: 0 },
            { x: 3000, y: 0 },
          ],
          bad,
          UNITS,
        ),
      ),
    ).toBe("AVENTURE.Travel.Route.Error.unknownRegion");
    expect(
      measureOseRoute(
        [
          { x: 0, y: 500 },
          { x: 3000, y: 500 },
        ],
        bad,
        UNITS,
      ).legs,
    ).toHaveLength(1);
    expect(
      errorKey(() =>
        measureOseRoute(
          [
            { x: 0, y: 0 },
            { x: 3000, y: 0 },
          ],
          scene,
          UNITS,
          "lava" as never,
        ),
      ),
    ).toBe("AVENTURE.Error.UnknownValue");
    expect(
      errorKey(() =>
        measureOseRoute(
          [
            { x: 0, y: 0 },
            { x: 0, y: 0 },
          ],
          scene,
          UNITS,
        ),
      ),
    ).toBe("AVENTURE.Travel.Route.Error.zeroLength");
  });

  it("regions at another elevation do not count", () => {
    const high = {
      grid: GRID,
      regions: [{ ...terrainRegion("m", { oseTerrain: "mountains" }, 0, 3000), elevation: { bottom: 100, top: null } }],
    };
    expect(
      measureOseRoute(
        [
          { x: 0, y: 0 },
          { x: 1000, y: 0 },
        ],
        high,
        UNITS,
      ).legs[0]!.terrain,
    ).toBe("clear");
    expect(
      measureOseRoute(
        [
          { x: 0, y: 0 },
          { x: 1000, y: 0 },
        ],
        high,
        UNITS,
        "clear",
        150,
      ).legs[0]!.terrain,
    ).toBe("mountains");
  });
});
