/** The settings of side initiative (declared as core/settings.ts says; registered by src/settings.ts). */
import { SIDE_TIES, type SideTies } from "../rules/index.js";
import { choiceField, choicesOf, declareSettings } from "../core/settings.js";

export const combatSettings = declareSettings(({ fields: f }) => ({
  sideInitiative: { scope: "world", config: true, type: new f.BooleanField(), default: false },
  sideTies: {
    scope: "world",
    config: true,
    type: choiceField(f, choicesOf(SIDE_TIES, "AVENTURE.Settings.sideTies.choices")),
    default: "simultaneous" as SideTies,
  },
  // The 0.1.x combatant sides were moved to their combats (side-ops.ts migrateCombatSides), once per world.
  combatSidesMigrated: { scope: "world", config: false, type: new f.BooleanField(), default: false },
}));
