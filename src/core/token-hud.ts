/**
 * The Token HUD: features register actions here (`addHudButton`), and one `renderTokenHUD` hook draws them (v13
 * passes an HTMLElement) as ONE Aventure button in the HUD's right column that opens a small palette of the actions
 * that apply to this token and this user — instead of a column of buttons. An action may be GM only; otherwise it
 * shows to the token's owners (and the GM). The palette (templates/hud/palette.hbs) is keyboard accessible: real
 * buttons with labels, Escape closes it; a second click on the Aventure button closes it, and so does the HUD
 * closing or re-rendering (the palette lives in the HUD's element). Features may also add panels (the light badge).
 */
import paletteSource from "../../templates/hud/palette.hbs?raw";
import { hudPaletteContext } from "./hud-palette-context.js";
import { t, guarded } from "./i18n.js";
import type { FeatureId } from "../rules/features.js";
import { worldFeatures } from "./features.js";
import { aventureActs, type Dnd5eOverlap } from "./dnd5e-owners.js";

export interface HudButton {
  /** Unique id, also the data-action value ("aventure-<id>"). */
  id: string;
  /** Font Awesome classes, e.g. "fa-solid fa-person-falling"; each action has its own icon. */
  icon: string;
  /** Lang key of its label and tooltip. */
  title: string;
  /**
   * Where the button used to be drawn; every action is now in the Aventure palette (kept so registrations need no
   * change).
   */
  column?: "left" | "right";
  gmOnly?: boolean;
  /**
   * The feature it belongs to (docs/rules.md §0): shown only while the feature is on in this world (its own or
   * borrowed).
   */
  feature?: FeatureId;
  /**
   * The feature whose "borrowed from" label the action carries (default: `feature`), for an action gated by `visible`.
   */
  labelFeature?: FeatureId;
  /** A rule dnd5e may own in a dnd5e world (dnd5e-owners.ts): the action is hidden while dnd5e owns it. */
  owner?: Dnd5eOverlap;
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

/** The actions of the palette for this token and the current user, in registration order. */
export function hudActionsFor(token: TokenDocument): HudButton[] {
  const isGM = game.user.isGM;
  if (!isGM && !token.isOwner) return [];
  const features = worldFeatures();
  return buttons.filter(
    (b) =>
      (!b.feature || features[b.feature].on) &&
      (!b.owner || aventureActs(b.owner)) &&
      (!b.gmOnly || isGM) &&
      (!b.visible || b.visible(token)),
  );
}

type Template = (context: object) => string;
/** The palette's template compiled once per Handlebars environment (Foundry has one; the test world one per client). */
const compiled = new WeakMap<object, Template>();
function paletteTemplate(): Template {
  let fn = compiled.get(Handlebars);
  if (!fn) {
    fn = Handlebars.compile(paletteSource) as Template;
    compiled.set(Handlebars, fn);
  }
  return fn;
}

/** Opens or closes a palette; opened from the keyboard, the first action takes the focus. */
function setOpen(root: HTMLElement, open: boolean, focus: "first" | "toggle" | null = null): void {
  const toggle = root.querySelector<HTMLButtonElement>(".aventure-hud-toggle");
  const palette = root.querySelector<HTMLElement>(".aventure-hud-palette");
  if (!toggle || !palette) return;
  palette.hidden = !open;
  toggle.classList.toggle("active", open);
  toggle.setAttribute("aria-expanded", String(open));
  if (focus === "first") palette.querySelector<HTMLButtonElement>("button")?.focus();
  else if (focus === "toggle") toggle.focus();
}

/**
 * Draws the Aventure button and its palette. It is built synchronously from the template compiled with Foundry's
 * Handlebars, so that the HUD's buttons exist as soon as `renderTokenHUD` returns.
 */
function drawPalette(token: TokenDocument, html: HTMLElement, actions: HudButton[]): void {
  const doc = html.ownerDocument;
  const holder = doc.createElement("div");
  const features = worldFeatures();
  const labelled = actions.map((b) => {
    const f = b.labelFeature ?? b.feature;
    const state = f ? features[f] : null;
    return { ...b, borrowed: state?.borrowed && state.from ? t(`AVENTURE.Feature.from.${state.from}`) : null };
  });
  holder.innerHTML = paletteTemplate()(hudPaletteContext(token.id ?? "token", labelled, (k) => t(k)));
  const root = holder.querySelector<HTMLElement>(".aventure-hud");
  if (!root) return;
  root.querySelector(".aventure-hud-toggle")?.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    const open = root.querySelector<HTMLElement>(".aventure-hud-palette")?.hidden === true;
    // A keyboard activation (Enter, Space) is a click with detail 0: move the focus into the palette.
    setOpen(root, open, open && (event as MouseEvent).detail === 0 ? "first" : null);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || root.querySelector<HTMLElement>(".aventure-hud-palette")?.hidden) return;
    event.preventDefault();
    event.stopPropagation();
    setOpen(root, false, "toggle");
  });
  for (const b of actions) {
    const el = root.querySelector<HTMLButtonElement>(`.aventure-hud-palette [data-action="aventure-${b.id}"]`);
    el?.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
      setOpen(root, false);
      void guarded(() => b.onClick(token, event));
    });
  }
  (html.querySelector(".col.right") ?? html).appendChild(root);
}

export function onRenderTokenHUD(
  hud: { document?: TokenDocument; object?: { document: TokenDocument } | null },
  html: HTMLElement,
): void {
  const token = hud.document ?? hud.object?.document;
  if (!token) return;
  const actions = hudActionsFor(token);
  if (actions.length) drawPalette(token, html, actions);
  for (const p of panels) {
    const el = p(token);
    if (el) html.appendChild(el);
  }
}
