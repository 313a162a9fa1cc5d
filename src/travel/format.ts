/**
 * The travel windows' and cards' formatting: numbers, distances, durations, plurals, the arrival. Loaded with every
 * client (the journey card is rendered on each); the windows' view model (travel-context.ts) re-exports it.
 */
import type { TravelPlan } from "../rules/travel.js";
import { splitDuration } from "../rules/time.js";

export type Localize = (key: string, data?: Record<string, string | number>) => string;

export function formatNumber(v: number, lang: string, decimals = 1): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: decimals }).format(v);
}

export function formatKm(metres: number, lang: string): string {
  return `${formatNumber(metres / 1000, lang)} km`;
}

/** "2 d 10 h" / "2 j 10 h"; zero parts left out; "0 h" for nothing. */
export function formatDuration(seconds: number, localize: Localize): string {
  const d = splitDuration(seconds);
  const parts: string[] = [];
  if (d.days) parts.push(localize("AVENTURE.Travel.Unit.daysShort", { n: d.days }));
  if (d.hours) parts.push(localize("AVENTURE.Travel.Unit.hoursShort", { n: d.hours }));
  if (d.minutes) parts.push(localize("AVENTURE.Travel.Unit.minutesShort", { n: d.minutes }));
  return parts.length ? parts.join(" ") : localize("AVENTURE.Travel.Unit.hoursShort", { n: 0 });
}

/** "24 h" / "9 h 30 min": hours and minutes, never days (hours of march, not elapsed time). */
export function formatHours(seconds: number, localize: Localize): string {
  const minutes = Math.round(seconds / 60);
  const parts = [localize("AVENTURE.Travel.Unit.hoursShort", { n: Math.floor(minutes / 60) })];
  if (minutes % 60) parts.push(localize("AVENTURE.Travel.Unit.minutesShort", { n: minutes % 60 }));
  return parts.join(" ");
}

/**
 * A string chosen by count (lang keys `<key>.one` and `<key>.other`, picked with the language's plural rules: in
 * French 0 and 1 are singular), with `n` in its data.
 */
export function plural(
  localize: Localize,
  lang: string,
  key: string,
  n: number,
  data: Record<string, string | number> = {},
): string {
  let form: "one" | "other";
  try {
    form = new Intl.PluralRules(lang).select(n) === "one" ? "one" : "other";
  } catch {
    form = n === 1 ? "one" : "other";
  }
  return localize(`${key}.${form}`, { ...data, n });
}

/** The hour of the world clock a time falls on, "18:00" / "18 h 00" (a day of 24 hours, as the journey counts). */
export function clockText(seconds: number, localize: Localize): string {
  const s = ((Math.round(seconds) % 86400) + 86400) % 86400;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return localize("AVENTURE.Travel.Unit.clock", { h: String(h), m: String(m).padStart(2, "0") });
}

/** "Arrival: day 3, 18:00": the travel day the party arrives on and the hour of the world clock then. */
export function arrivalText(
  departure: number,
  plan: Pick<TravelPlan, "days" | "durationSeconds">,
  localize: Localize,
): string {
  if (!plan.days.length) return "";
  return localize("AVENTURE.Travel.Summary.arrival", {
    day: plan.days.length,
    time: clockText(departure + plan.durationSeconds, localize),
  });
}
