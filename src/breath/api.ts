/** What the breath feature offers the other features and the composition root (CONTRIBUTING.md). */
export { breatheAgainFor, holdBreathFor } from "./breath.js";
