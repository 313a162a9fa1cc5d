/**
 * The settings of exploration time (declared as core/settings.ts says; registered by src/settings.ts). Every default
 * of the rules is a world setting (checked by the rules when used, options.ts: a bad value is reported and the default
 * used); the exploration itself is a record only GMs write (record.ts).
 */
import { EXPLORATION_DEFAULTS } from "../rules/index.js";
import { declareSettings } from "../core/settings.js";
import { EMPTY_RECORD, recordField } from "./record.js";

export const explorationSettings = declareSettings(({ fields: f }) => {
  const option = (initial: number) => ({
    scope: "world" as const,
    config: true,
    type: new f.NumberField({ required: true, nullable: false }),
    default: initial,
  });
  return {
    explorationTurnSeconds: option(EXPLORATION_DEFAULTS.turnSeconds),
    explorationWanderingEvery: option(EXPLORATION_DEFAULTS.wanderingEvery),
    explorationWanderingDie: option(EXPLORATION_DEFAULTS.wanderingDie),
    explorationWanderingChance: option(EXPLORATION_DEFAULTS.wanderingChance),
    explorationRestEvery: option(EXPLORATION_DEFAULTS.restEvery),
    explorationRestPenalty: option(EXPLORATION_DEFAULTS.restPenalty),
    explorationTorchTurns: option(EXPLORATION_DEFAULTS.torchTurns),
    explorationLanternTurns: option(EXPLORATION_DEFAULTS.lanternTurns),
    explorationState: { scope: "world", config: false, type: recordField(f), default: EMPTY_RECORD },
  };
});
