/**
 * The token HUD palette's template context (templates/hud/palette.hbs; pure: tested and screenshotted without Foundry).
 */

export interface PaletteAction {
  /** The action's id ("aventure-<id>" is its button's data-action). */
  id: string;
  /** Font Awesome classes. */
  icon: string;
  /** Lang key of its label and tooltip. */
  title: string;
  /**
   * docs/rules.md §0: "Rôle'n Play's rule" when the action's feature is borrowed from another game (shown after the
   * label).
   */
  borrowed?: string | null;
}

export interface PaletteContext extends Record<string, unknown> {
  paletteId: string;
  toggleLabel: string;
  open: boolean;
  actions: { id: string; icon: string; label: string }[];
}

/**
 * The palette of `actions` (those that apply to the token and the user, in registration order) for the token
 * `tokenId`: the button's label and each action's localized label. `open` draws it open (the screenshots; the HUD
 * always starts closed).
 */
export function hudPaletteContext(
  tokenId: string,
  actions: readonly PaletteAction[],
  localize: (key: string) => string,
  open = false,
): PaletteContext {
  return {
    paletteId: `aventure-hud-palette-${tokenId.replace(/[^\w-]/g, "")}`,
    toggleLabel: localize("AVENTURE.Hud.palette"),
    open,
    actions: actions.map((a) => ({
      id: a.id,
      icon: a.icon,
      label: a.borrowed ? `${localize(a.title)} (${a.borrowed})` : localize(a.title),
    })),
  };
}
