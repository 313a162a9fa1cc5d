/** Handlebars helpers and partials of the module (registered in init). */
import { template } from "./constants.js";
import { loadTemplatesCompat } from "./compat.js";

export const PARTIALS: string[] = [];

export async function registerHandlebars(): Promise<void> {
  // "4,5 m" in French, "4.5 m" in English.
  Handlebars.registerHelper("aventureMetres", (value: unknown) =>
    typeof value === "number" && Number.isFinite(value)
      ? `${new Intl.NumberFormat(game.i18n.lang, { maximumFractionDigits: 1 }).format(value)} m`
      : "—",
  );
  if (PARTIALS.length) await loadTemplatesCompat(PARTIALS.map(template));
}
