/** What the exploration feature offers the other features and the composition root (CONTRIBUTING.md). */
export { openExploration, refreshExplorationPanel } from "./ExplorationPanel.js";
export { explorationApi } from "./client.js";
