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
  rows?: { id: string; name: string }[];
  context: (localize: Localize) => Record<string, unknown>;
}

const modules = import.meta.glob<{ SAMPLES: Record<string, Sample> }>("./samples/*.ts", { eager: true });

export const SAMPLES: Record<string, Sample> = Object.assign({}, ...Object.values(modules).map((m) => m.SAMPLES));
