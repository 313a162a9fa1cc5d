/** Samples for the suffocation templates (see ../samples.ts): the token HUD panel, the tracker badges, the drop card. */
import { breathHudContext, breathTrackerContext, suffocationCardContext } from "../../../src/breath/breath-context.js";
import { breathState } from "../../../src/rules/suffocation.js";
import type { Sample } from "../samples.js";

/** CON +2 on 6 s rounds, 100 s after it started holding its breath: holding, 1 min 20 s left. */
const holding = breathState(2, 6, 100);

export const SAMPLES: Record<string, Sample> = {
  "breath/hud.hbs": {
    kind: "hud",
    width: 320,
    context: (l) => breathHudContext(holding, (k, d) => l(k, d)),
  },
  "breath/tracker.hbs": {
    kind: "tracker",
    width: 300,
    rows: [
      { id: "a", name: "Aldric" },
      { id: "b", name: "Brune" },
      { id: "c", name: "Colporteur" },
    ],
    context: (l) =>
      breathTrackerContext(
        [
          { id: "a", ...breathState(2, 6, 100) },
          { id: "b", ...breathState(-1, 6, 31) },
          { id: "c", ...breathState(0, 6, 80) },
        ],
        (k, d) => l(k, d),
      ),
  },
  "breath/card.hbs": {
    kind: "card",
    context: (l) =>
      suffocationCardContext(
        { name: "Brune", hpBefore: 14, holdSeconds: 180, rounds: 2, status: "applied", unconscious: true },
        (k, d) => l(k, d),
      ),
  },
};
