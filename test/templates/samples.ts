/**
 * A sample context for every template, used by the template check and the browser screenshots.
 * Add one when you add a template: the check fails for a template without a sample.
 */
import { actorDataContext } from "../../src/apps/actor-data-context.js";
import { DND5E_PATHS } from "../../src/foundry/adapters/presets.js";

export type Localize = (key: string) => string;
export type SampleFactory = (localize: Localize) => Record<string, unknown>;

const hero = {
  id: "hero",
  name: "Aldric",
  system: {
    abilities: { str: { value: 15, mod: 2 }, dex: { value: 14, mod: 2 }, con: { value: 13, mod: 1 }, cha: { value: 8, mod: -1 } },
    skills: { prc: { passive: 13 } },
    attributes: {
      senses: { darkvision: 60, units: "ft" },
      movement: { walk: 30, units: "ft" },
      hp: { value: 12, max: 12 },
      exhaustion: 0,
    },
  },
};

export const SAMPLES: Record<string, SampleFactory> = {
  "actor-data.hbs": (l) =>
    actorDataContext({ ...DND5E_PATHS, polarisInitiative: "system.polaris.init" }, [hero, { id: "b", name: "Brune" }], hero, l),
};
