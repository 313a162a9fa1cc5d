/** The settings of encounters (declared as core/settings.ts says; registered by src/settings.ts). */
import { declareSettings } from "../core/settings.js";

export const encounterSettings = declareSettings(({ fields: f }) => ({
  encounterTurn: { scope: "world", config: true, type: new f.BooleanField(), default: true },
}));
