/** The first-run window's entry for the composition root: its settings (src/settings.ts). */
export { welcomeSettings } from "./settings.js";
