/**
 * Every fvtt-types declaration of the module lives here: setting keys, flags, the module API, added hooks.
 * (Lancer keeps a single file like this; so do we.)
 */
import type { RulesetId } from "./rules/rulesets.js";
import type { ActorDataPaths, DetectionMode, DetectionObservers, DistanceDisplay, FallOnDrop } from "./foundry/settings-schema.js";
import type { AventureApi } from "./foundry/api.js";
import type { SideTies } from "./rules/encounter.js";
import type { AventureActorFlags, AventureMessageFlags, AventureSceneFlags } from "./foundry/flags.js";
import type { ExplorationRecord } from "./foundry/exploration/record.js";

declare module "fvtt-types/configuration" {
  interface AssumeHookRan {
    ready: never;
  }

  interface SettingConfig {
    "aventure.ruleset": RulesetId;
    "aventure.distanceDisplay": DistanceDisplay;
    "aventure.feetFactor": number;
    "aventure.actorData": ActorDataPaths;
    "aventure.sideInitiative": boolean;
    "aventure.sideTies": SideTies;
    "aventure.encounterTurn": boolean;
    "aventure.travelHoursPerDay": number;
    "aventure.travelTrackFood": boolean;
    "aventure.travelAdvanceTime": boolean;
    "aventure.travelPlayersApply": boolean;
    "aventure.travelCustomUnit": string;
    "aventure.travelCustomUnitMetres": number;
    "aventure.pursuitAdvanceTime": boolean;
    "aventure.movementCosts": boolean;
    "aventure.movementRefuse": boolean;
    "aventure.jumpWarning": boolean;
    "aventure.athleticsReminder": boolean;
    "aventure.fallRegions": boolean;
    "aventure.fallOnDrop": FallOnDrop;
    "aventure.lightEffects": boolean;
    "aventure.lightIcons": boolean;
    "aventure.lightThresholdBright": number;
    "aventure.lightThresholdDim": number;
    "aventure.explorationTurnSeconds": number;
    "aventure.explorationWanderingEvery": number;
    "aventure.explorationWanderingDie": number;
    "aventure.explorationWanderingChance": number;
    "aventure.explorationRestEvery": number;
    "aventure.explorationRestPenalty": number;
    "aventure.explorationTorchTurns": number;
    "aventure.explorationLanternTurns": number;
    "aventure.explorationState": ExplorationRecord;
    "aventure.detectionMode": DetectionMode;
    "aventure.detectionObservers": DetectionObservers;
  }

  interface FlagConfig {
    Actor: {
      aventure: AventureActorFlags;
    };
    ChatMessage: {
      aventure: AventureMessageFlags;
    };
    Scene: {
      aventure: AventureSceneFlags;
    };
  }

  interface ModuleConfig {
    aventure: { api: AventureApi };
  }

  /** Hooks the pinned types lack (NOTES.md "Known gaps of the 13.346 types"). */
  namespace Hooks {
    interface HookConfig {
      /**
       * v13 hookEvents.preMoveToken(document, movement, operation): the moving user's client only, before the update;
       * the waypoints are final; returning false refuses the whole movement.
       */
      preMoveToken: (document: TokenDocument, movement: AventureMovementWaypoints, operation: object) => boolean | void;
    }
  }
}

declare global {
  /** What Aventure reads of a v13 token movement: its origin and waypoints (top-left corners, sizes in grid spaces). */
  interface AventureMovementWaypoints {
    origin: { x: number; y: number; width: number; height: number };
    passed?: { waypoints: readonly { x: number; y: number; width: number; height: number }[] };
    pending: { waypoints: readonly { x: number; y: number; width: number; height: number }[] };
  }
}
