/**
 * The Token HUD: features register buttons here, and one `renderTokenHUD` hook draws them (v13 passes an
 * HTMLElement). A button may be GM only; otherwise it shows to the token's owners.
 */
import { t, guarded } from "./i18n.js";

export interface HudButton {
  /** Unique id, also the data-action value ("aventure-<id>"). */
  id: string;
  /** Font Awesome classes, e.g. "fa-solid fa-person-falling". */
  icon: string;
  /** Lang key of the tooltip. */
  title: string;
  column: "left" | "right";
  gmOnly?: boolean;
  /** Whether to show it for this token (default: always). */
  visible?: (token: TokenDocument) => boolean;
  onClick: (token: TokenDocument, event: MouseEvent) => unknown;
}

const buttons: HudButton[] = [];

export function addHudButton(b: HudButton): void {
  if (buttons.some((x) => x.id === b.id)) throw new Error(`aventure | HUD button ${b.id} registered twice`);
  buttons.push(b);
}

export function hudButtons(): readonly HudButton[] {
  return buttons;
}

/** Extra HTML panels that features append to the HUD (e.g. the light level). */
type HudPanel = (token: TokenDocument) => HTMLElement | null;
const panels: HudPanel[] = [];
export function addHudPanel(p: HudPanel): void {
  panels.push(p);
}

export function onRenderTokenHUD(hud: { document?: TokenDocument; object?: { document: TokenDocument } }, html: HTMLElement): void {
  const token = hud.document ?? hud.object?.document;
  if (!token) return;
  const isOwner = game.user.isGM || (token as unknown as { isOwner: boolean }).isOwner;
  for (const b of buttons) {
    if (b.gmOnly && !game.user.isGM) continue;
    if (!isOwner) continue;
    if (b.visible && !b.visible(token)) continue;
    const col = html.querySelector(`.col.${b.column}`) ?? html;
    const el = document.createElement("button");
    el.type = "button";
    el.className = "control-icon aventure-hud-button";
    el.dataset.action = `aventure-${b.id}`;
    el.dataset.tooltip = t(b.title);
    el.setAttribute("aria-label", t(b.title));
    el.innerHTML = `<i class="${b.icon}"></i>`;
    el.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
      void guarded(() => b.onClick(token, event));
    });
    col.appendChild(el);
  }
  for (const p of panels) {
    const el = p(token);
    if (el) html.appendChild(el);
  }
}
