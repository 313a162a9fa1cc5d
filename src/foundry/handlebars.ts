/** Handlebars helpers and partials of the module (registered in init). */
import { template } from "../constants.js";
import { loadTemplatesCompat } from "./compat.js";

export const PARTIALS: string[] = [];

export async function registerHandlebars(): Promise<void> {
  Handlebars.registerHelper("aventureMetres", (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) ? `${Math.round(value * 10) / 10} m` : "—",
  );
  if (PARTIALS.length) await loadTemplatesCompat(PARTIALS.map(template));
}
