/** What the adapters offer other features beyond adapter.ts and read.ts: the built-in data paths of the presets. */
export { DND5E_PATHS, OSE_PATHS, POLARIS_PATHS, PRESETS, type PresetId } from "./presets.js";
