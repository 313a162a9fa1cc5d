/**
 * The small light icon on each token (sun / half / moon), drawn as a PIXI text child of the token, for the GM and the
 * token's owners; the client setting "lightIcons" hides it. Redrawn only when the level changes or the token is
 * redrawn.
 */
import type { LightLevel } from "../rules/light.js";
import { getSetting } from "../core/settings.js";
import type { TokenObjLike } from "./scene.js";

export const LIGHT_GLYPHS: Readonly<Record<LightLevel, string>> = Object.freeze({ bright: "☀", dim: "◐", dark: "☾" });
const COLOURS: Readonly<Record<LightLevel, number>> = Object.freeze({
  bright: 0xffd54a,
  dim: 0xc9c2a8,
  dark: 0x8fa6ff,
});

interface IconLike {
  text: string;
  destroyed?: boolean;
  width: number;
  name?: string | null;
  eventMode?: string;
  style: { fill?: unknown };
  position: { set(x: number, y: number): void };
  destroy(): void;
}

const icons = new WeakMap<object, IconLike>();

/** Whether the current user sees the light icon of `token`. */
export function showsLightIcon(token: TokenObjLike): boolean {
  if (!getSetting("lightIcons")) return false;
  return game.user.isGM || token.document.isOwner;
}

/** Draws, updates or removes the icon; `level` null removes it. */
export function drawLightIcon(token: TokenObjLike, level: LightLevel | null): void {
  if (token.destroyed) return;
  let icon = icons.get(token);
  if (level === null || !showsLightIcon(token)) {
    if (icon && !icon.destroyed) {
      token.removeChild?.(icon);
      icon.destroy();
    }
    icons.delete(token);
    return;
  }
  if (!icon || icon.destroyed) {
    icon = new PIXI.Text(LIGHT_GLYPHS[level], {
      fontSize: 22,
      fill: COLOURS[level],
      stroke: 0x000000,
      strokeThickness: 4,
      fontWeight: "bold",
    });
    icon.name = "aventure-light-icon";
    icon.eventMode = "none";
    token.addChild?.(icon);
    icons.set(token, icon);
  }
  icon.text = LIGHT_GLYPHS[level];
  icon.style.fill = COLOURS[level];
  icon.position.set(Math.max(0, (token.w ?? 100) - icon.width - 2), 2);
}

/** The glyph currently shown on a token (tests, and to avoid redundant redraws). */
export function lightIconOf(token: TokenObjLike): string | null {
  const icon = icons.get(token);
  return icon && !icon.destroyed ? icon.text : null;
}
