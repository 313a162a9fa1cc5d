/**
 * Aventure's in-world test batches for Quench (Ethaks/FVTT-Quench), registered on `quenchReady` (the hook never fires
 * without Quench: nothing for users). In a test world with Quench enabled, open Quench and run the "Aventure" batches:
 * each creates a throwaway scene, actors and tokens, drives a feature end to end through Foundry's real API, asserts
 * on documents and chat, and deletes what it created. CI runs the same batch functions against the test world
 * (test/quench.test.ts).
 *
 * This module and the batches are a separate chunk of the build (dist/aventure-quench.js): only register.ts is in the
 * bundle every client loads, and it imports this chunk when Quench is active.
 */
import { LIGHT_BATCH } from "./light.js";
import { MOVEMENT_BATCH } from "./movement.js";
import { PURSUIT_BATCH } from "./pursuit.js";
import { EXPLORATION_BATCH } from "./exploration.js";
import { POLARIS_BATCH } from "./polaris.js";
import { ENCOUNTER_BATCH } from "./encounter.js";
import { TRAVEL_BATCH } from "./travel.js";
import { WILDERNESS_BATCH } from "./wilderness.js";
import { V14_BATCH } from "./v14.js";
import { MODELS_BATCH } from "./models.js";
import type { Batch } from "./types.js";

export const BATCHES: readonly Batch[] = [
  TRAVEL_BATCH,
  MOVEMENT_BATCH,
  LIGHT_BATCH,
  ENCOUNTER_BATCH,
  PURSUIT_BATCH,
  POLARIS_BATCH,
  EXPLORATION_BATCH,
  WILDERNESS_BATCH,
  V14_BATCH,
  MODELS_BATCH,
];
