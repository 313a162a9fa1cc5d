/**
 * The Aventure rules engine: pure TypeScript, no Foundry globals, metres and seconds, dice injected.
 * This object is also `game.modules.get("aventure").api.rules`. Documented in docs/api.md.
 */
export * from "./errors.js";
export * from "./validate.js";
export * from "./limits.js";
export * from "./rulesets.js";
export * from "./time.js";
export * from "./units.js";
export * from "./dice.js";
// Feature modules (one line each, keep sorted by feature):
export * from "./movement.js";
export * from "./light.js";
export * from "./stealth.js";
export * from "./polaris.js";
export * from "./encounter.js";
export * from "./pursuit.js";
export * from "./travel.js";
export * from "./suffocation.js";
export * from "./exploration.js";
export * from "./detection.js";
export * from "./ose-wilderness.js";
export * from "./features.js";
