/** Distances for display, following the "Distances shown in" setting (metres, or the scene's grid units). */
import { fromMetres, parseUnit, type Unit } from "../rules/units.js";
import { getSetting } from "./settings.js";

function numberFormat(value: number, decimals: number): string {
  return new Intl.NumberFormat(game.i18n.lang, { maximumFractionDigits: decimals }).format(value);
}

/** The unit to display distances in: metres, or the current scene's grid units when they are a known unit. */
export function displayUnit(): { unit: Unit | null; label: string } {
  if (getSetting("distanceDisplay") === "grid") {
    const raw = (canvas?.scene?.grid as { units?: string } | undefined)?.units ?? "";
    try {
      return { unit: parseUnit(raw, "m"), label: raw || "m" };
    } catch {
      return { unit: null, label: raw };
    }
  }
  return { unit: "m", label: "m" };
}

/** "9 m", "30 ft", "1,5 km" (locale-aware); metres above 1000 become km when showing metres. */
export function formatDistance(metres: number, decimals = 1): string {
  if (!Number.isFinite(metres)) return "—";
  const { unit, label } = displayUnit();
  if (unit === null || unit === "m") {
    if (Math.abs(metres) >= 1000) return `${numberFormat(metres / 1000, 2)} km`;
    return `${numberFormat(metres, decimals)} m`;
  }
  const factor = unit === "ft" ? getSetting("feetFactor") : undefined;
  return `${numberFormat(fromMetres(metres, unit, factor), decimals)} ${label}`;
}
