/** Samples for the first-run window, "Which game do you play here?" (see ../samples.ts). */
import { welcomeContext } from "../../../src/welcome/welcome-context.js";
import type { Sample } from "../samples.js";

export const SAMPLES: Record<string, Sample> = {
  // A new world on the OSE system: Portes, Monstres & Trésors and Old-School Essentials fit it.
  "welcome.hbs": {
    kind: "dialog",
    title: "AVENTURE.Welcome.title",
    width: 560,
    context: (l) =>
      welcomeContext({ systemId: "ose", systemTitle: "Old-School Essentials", ruleset: null }, (k, d) => l(k, d)),
  },
  // Opened again from the settings in a D&D 5e world where Rôle'n Play was chosen.
  "welcome.hbs#chosen": {
    kind: "dialog",
    title: "AVENTURE.Welcome.title",
    width: 560,
    context: (l) =>
      welcomeContext({ systemId: "dnd5e", systemTitle: "Dungeons & Dragons Fifth Edition", ruleset: "rnp" }, (k, d) =>
        l(k, d),
      ),
  },
};
