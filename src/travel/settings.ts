/** The settings of journeys (declared as core/settings.ts says; registered by src/settings.ts). */
import { declareSettings } from "../core/settings.js";

export const travelSettings = declareSettings(({ fields: f }) => {
  const flag = (initial: boolean) => ({
    scope: "world" as const,
    config: true,
    type: new f.BooleanField(),
    default: initial,
  });
  return {
    travelHoursPerDay: {
      scope: "world",
      config: true,
      type: new f.NumberField({ required: true, nullable: false, min: 1, max: 24, step: 0.5 }),
      default: 8,
    },
    travelTrackFood: flag(true),
    travelAdvanceTime: flag(true),
    // Players propose, GMs dispose: off, a player's journey is a proposal for the GMs.
    travelPlayersApply: flag(false),
    // pmt borrowing Old-School Essentials' journeys (docs/rules.md §12): its own d100 getting-lost roll (§2.7) instead
    // of the terrain's chance.
    travelPmtLostRoll: flag(false),
    // Journeys along a route: a scene unit of the GM's own and the metres it stands for (0: none).
    travelCustomUnit: {
      scope: "world",
      config: true,
      type: new f.StringField({ required: true, blank: true }),
      default: "",
    },
    travelCustomUnitMetres: {
      scope: "world",
      config: true,
      type: new f.NumberField({ required: true, nullable: false }),
      default: 0,
    },
  };
});
