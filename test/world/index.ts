/**
 * The fake world's entry point for tests: boots a world with a game system and users, each user's client loading its
 * own copy of the module. See world.ts for what is modelled and from which sources.
 */
import "./statics.js";
import { FakeWorld, type FakeClient, type UserSpec } from "./world.js";
import { systemFor } from "./systems.js";
import type { Lang } from "../fake/i18n.js";

export {
  FakeWorld,
  ClientCrashed,
  InjectedFailure,
  type FakeClient,
  type UserSpec,
  type WriteRecord,
} from "./world.js";
export * from "./documents.js";
export {
  addDnd5eActor,
  addDnd5eGroup,
  addDnd5eVehicle,
  DND5E_STATUS_IDS,
  CORE_STATUS_IDS,
  staticID,
  dnd5eSystem,
  dnd5eTerrainCost,
  coreSystem,
  oseSystem,
  systemFor,
} from "./systems.js";
export {
  viewScene,
  control,
  moveToken,
  regionEvent,
  rulerPath,
  FakeTokenRuler,
  FakeTokenObject,
  FakeSource,
  type FakeWaypoint,
} from "./canvas.js";
export { FakeApplicationV2, FakeRoll, DialogV2, mergeOptions } from "./statics.js";
export { sceneControls, clickTool, type FakeControl, type FakeTool } from "./controls.js";
export {
  FakeCombat,
  FakeCombat5e,
  FakeCombatant,
  FakeCombatTracker,
  FakeCombatTracker5e,
  activeCombat,
  turnLog,
  setSkipDefeated,
  seedCombat,
} from "./combat.js";

export interface BootOptions {
  system?: string;
  users?: UserSpec[];
  lang?: Lang;
  generation?: number;
  load?: () => Promise<unknown>;
  extend?: (client: FakeClient) => void;
  onDemand?: "with the module" | "when used";
}

export const GM = { id: "gm1", isGM: true } as const;
export const GM2 = { id: "gm2", isGM: true } as const;
export const PLAYER = { id: "p1", isGM: false } as const;
export const PLAYER2 = { id: "p2", isGM: false } as const;

/** Boots a world: default one GM (gm1) on dnd5e, English. */
export function bootWorld(options: BootOptions = {}): Promise<FakeWorld> {
  return FakeWorld.boot({
    system: systemFor(options.system ?? "dnd5e"),
    users: options.users ?? [GM],
    lang: options.lang,
    generation: options.generation,
    load: options.load,
    extend: options.extend,
    onDemand: options.onDemand,
  });
}
export { forgeRequest, forgeCard, isRequestPlumbing, gameWrites } from "./attacks.js";
