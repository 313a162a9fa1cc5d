/** What the exploration feature offers the other features and the composition root (CONTRIBUTING.md). */
import type { ExplorationPanel } from "./ExplorationPanel.js";
import { onDemand } from "../core/on-demand.js";
import { guarded } from "../core/i18n.js";

/** The panel's file (dist/aventure-ExplorationPanel.js), loaded when the panel is first opened. */
let panelModule: typeof import("./ExplorationPanel.js") | null = null;
const panelFile = onDemand(async () => (panelModule = await import("./ExplorationPanel.js")));

/** api.openExploration(): the Exploration panel (GM). */
export async function openExploration(): Promise<ExplorationPanel | undefined> {
  return guarded(async () => (await panelFile()).openExploration());
}

/** Re-renders the panel if it is open (the record, a setting or world time changed); nothing before it was loaded. */
export function refreshExplorationPanel(): void {
  panelModule?.refreshExplorationPanel();
}
export { explorationApi } from "./client.js";

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { explorationSettings } from "./settings.js";
