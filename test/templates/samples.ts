/**
 * A sample context for every template, used by the template check and the browser screenshots.
 * Each feature keeps its samples in samples/<feature>.ts exporting `SAMPLES`; they are collected here.
 * Add one when you add a template: the check fails for a template without a sample.
 */
export type Localize = (key: string, data?: Record<string, unknown>) => string;

export interface Sample {
  /** How the screenshot frames it: a window, a chat card (sidebar width), rows added to the combat tracker, a
   *  token HUD panel or a ruler label on the canvas. */
  kind: "dialog" | "card" | "tracker" | "hud" | "ruler";
  /** Window title (a lang key) for dialogs. */
  title?: string;
  width?: number;
  /** For "hud": the stand-in HUD's height (a palette drawn open overflows the default). */
  height?: number;
  /** For "tracker": the combatant rows the markup is inserted into, in the tracker's order. */
  rows?: { id: string; name: string; initiative?: number | string }[];
  /**
   * For a dialog Foundry builds (DialogV2.prompt with the template as its content): the footer's buttons (lang keys
   * of their labels, the icon core gives them), drawn under the content as DialogV2 draws them.
   */
  buttons?: { label: string; icon?: string }[];
  /** For "card": the most its common case may take in the chat log, in pixels (default CARD_HEIGHT_BUDGET). */
  heightBudget?: number;
  context: (localize: Localize) => Record<string, unknown>;
}

/** How tall a card's common case may be in the chat log (a 300 px wide sidebar): about two thirds of a laptop's log. */
export const CARD_HEIGHT_BUDGET = 520;

const modules = import.meta.glob<{ SAMPLES: Record<string, Sample> }>("./samples/*.ts", { eager: true });

export const SAMPLES: Record<string, Sample> = Object.assign({}, ...Object.values(modules).map((m) => m.SAMPLES));
