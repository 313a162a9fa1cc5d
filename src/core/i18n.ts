/** Localization helpers and user-facing error reporting. */
import { isRulesError } from "../rules/errors.js";

export function t(key: string, data?: Record<string, string | number>): string {
  return data ? game.i18n.format(key, data as Record<string, string>) : game.i18n.localize(key);
}

/**
 * An error for the user, carrying a localization key (the glue's twin of RulesError). `forPlayers`: what a player may
 * read of it, when the message names what only GMs may know (a refused hide that names a creature the player cannot
 * see); a proposal's proposer is told that version.
 */
export class UserError extends Error {
  constructor(
    readonly key: string,
    readonly data: Record<string, string | number> = {},
    readonly forPlayers?: { key: string; data: Record<string, string | number> },
  ) {
    super(key);
    this.name = "UserError";
  }
}

/** The localized text of an error raised by the rules or the glue. Argument names are localized too. */
export function errorMessage(e: unknown): string {
  if (isRulesError(e) || e instanceof UserError) {
    const data: Record<string, string | number> = { ...e.data };
    if (typeof data.name === "string") {
      const argKey = `AVENTURE.Arg.${data.name}`;
      if (game.i18n.has(argKey)) data.name = game.i18n.localize(argKey);
    }
    return t(e.key, data);
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * Shows a notification. Messages carry names users typed (a token called "<img onerror=…>"): Foundry is asked to clean
 * them as untrusted input (NotificationOptions#clean, v13 and v14 API).
 */
export function notify(type: "info" | "warn" | "error", message: string): void {
  ui.notifications?.[type]?.(message, { clean: true });
}

/** Shows an error notification in the user's language; unexpected errors are also logged. */
export function reportError(e: unknown): void {
  if (!isRulesError(e) && !(e instanceof UserError)) console.error("aventure |", e);
  notify("error", errorMessage(e));
}

/** Runs `fn` and reports any error to the user instead of throwing; returns undefined on error. */
export async function guarded<T>(fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    reportError(e);
    return undefined;
  }
}

/** The text of `s` for HTML: & < > " ' escaped (names come from users: a token may be called "<img onerror=…>"). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `t` for a string that Foundry shows as HTML (a roll's flavor, a message's content, a dialog's content): every
 * string argument is escaped first, and the result is escaped text too (the lang files hold no markup).
 */
export function tHtml(key: string, data?: Record<string, string | number>): string {
  if (!data) return escapeHtml(t(key));
  const safe: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(data)) safe[k] = typeof v === "string" ? escapeHtml(v) : v;
  return t(key, safe);
}
