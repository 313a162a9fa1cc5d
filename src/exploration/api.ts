/** What the exploration feature offers the other features and the composition root (CONTRIBUTING.md). */
export { openExploration, refreshExplorationPanel } from "./ExplorationPanel.js";
export { explorationApi } from "./client.js";

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { explorationSettings } from "./settings.js";
