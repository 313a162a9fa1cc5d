/**
 * Samples for the token HUD's Aventure palette (see ../samples.ts), drawn open so that the screenshots show every
 * action a feature registers, with its icon and title, in registration order (test/foundry/token-hud.test.ts checks
 * that together they show every registered action):
 * - the GM on a character's token that is neither hidden, searching nor holding its breath (dnd5e);
 * - the GM in a Polaris world on a token that is hidden, searching and holding its breath: the other half of each
 *   pair of actions (End hiding, No longer searching, Breathe again) and the Polaris test.
 */
import { hudPaletteContext, type PaletteAction } from "../../../src/core/hud-palette-context.js";
import type { Sample } from "../samples.js";

const A: Record<string, PaletteAction> = Object.fromEntries(
  (
    [
      ["travel", "fa-solid fa-route", "AVENTURE.Travel.hud"],
      ["travelRoute", "fa-solid fa-map-location-dot", "AVENTURE.Travel.Route.hud"],
      ["hide", "fa-solid fa-user-secret", "AVENTURE.Light.Hide.button"],
      ["end-hide", "fa-solid fa-eye", "AVENTURE.Light.Hide.endButton"],
      ["search", "fa-solid fa-magnifying-glass", "AVENTURE.Light.Hide.searchButton"],
      ["stop-search", "fa-solid fa-magnifying-glass-minus", "AVENTURE.Light.Hide.stopSearchButton"],
      ["jumps", "fa-solid fa-person-arrow-up-from-line", "AVENTURE.Movement.Jump.hud"],
      ["fall", "fa-solid fa-person-falling", "AVENTURE.Movement.Fall.hud"],
      ["hold-breath", "fa-solid fa-lungs", "AVENTURE.Breath.hold"],
      ["breathe-again", "fa-solid fa-wind", "AVENTURE.Breath.release"],
      ["pursuit", "fa-solid fa-person-running", "AVENTURE.Pursuit.hud"],
      ["polaris-test", "fa-solid fa-dice-d20", "AVENTURE.Polaris.hudTest"],
    ] as const
  ).map(([id, icon, title]) => [id, { id, icon, title }]),
);
const actions = (...ids: string[]) => ids.map((id) => A[id]!);

export const SAMPLES: Record<string, Sample> = {
  "hud/palette.hbs": {
    kind: "hud",
    width: 380,
    height: 340,
    context: (l) =>
      hudPaletteContext(
        "aldric",
        actions("travel", "travelRoute", "hide", "search", "jumps", "fall", "hold-breath", "pursuit"),
        l,
        true,
      ),
  },
  "hud/palette.hbs#busy": {
    kind: "hud",
    width: 380,
    height: 380,
    context: (l) =>
      hudPaletteContext(
        "aldric",
        actions(
          "travel",
          "travelRoute",
          "end-hide",
          "stop-search",
          "jumps",
          "fall",
          "breathe-again",
          "pursuit",
          "polaris-test",
        ),
        l,
        true,
      ),
  },
};
