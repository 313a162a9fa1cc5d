/** What the adapters offer other features beyond adapter.ts and read.ts: the built-in data paths of the presets. */
export { DND5E_PATHS, OSE_PATHS, POLARIS_PATHS, PRESETS, type PresetId } from "./presets.js";
export {
  type ActorAdapter,
  type ActorLike,
  type AdapterId,
  Dnd5eAdapter,
  OWN_STATUS,
  adapterFor,
  isOwnStatus,
  onPreCreateOwnStatus,
  setOwnCondition,
} from "./adapter.js";
export { type Speeds, keyedNumbers, readKeyed, readNumber, readStats } from "./read.js";
