/** The settings of the first-run window (declared as core/settings.ts says; registered by src/settings.ts). */
import { declareSettings } from "../core/settings.js";

export const welcomeSettings = declareSettings(({ fields: f }) => ({
  // Set once a GM chose the world's game (WelcomeDialog.ts).
  welcomeDone: { scope: "world", config: false, type: new f.BooleanField(), default: false },
}));
