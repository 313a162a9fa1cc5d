/** The settings of chases (declared as core/settings.ts says; registered by src/settings.ts). */
import { declareSettings } from "../core/settings.js";

export const pursuitSettings = declareSettings(({ fields: f }) => ({
  // Each further day of an outdoor chase advances world time by one day.
  pursuitAdvanceTime: { scope: "world", config: true, type: new f.BooleanField(), default: true },
}));
