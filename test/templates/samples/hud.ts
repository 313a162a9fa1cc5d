/**
 * Sample for the token HUD's Aventure palette (see ../samples.ts), drawn open: the actions a GM sees on a
 * character's token that is neither hidden nor searching, with the icons and titles the features register.
 */
import { hudPaletteContext } from "../../../src/apps/hud-palette-context.js";
import type { Sample } from "../samples.js";

export const SAMPLES: Record<string, Sample> = {
  "hud/palette.hbs": {
    kind: "hud",
    width: 380,
    height: 260,
    context: (l) =>
      hudPaletteContext(
        "aldric",
        [
          { id: "travel", icon: "fa-solid fa-route", title: "AVENTURE.Travel.hud" },
          { id: "jumps", icon: "fa-solid fa-person-arrow-up-from-line", title: "AVENTURE.Movement.Jump.hud" },
          { id: "fall", icon: "fa-solid fa-person-falling", title: "AVENTURE.Movement.Fall.hud" },
          { id: "pursuit", icon: "fa-solid fa-person-running", title: "AVENTURE.Pursuit.hud" },
          { id: "hide", icon: "fa-solid fa-user-secret", title: "AVENTURE.Light.Hide.button" },
          { id: "search", icon: "fa-solid fa-magnifying-glass", title: "AVENTURE.Light.Hide.searchButton" },
        ],
        l,
        true,
      ),
  },
};
