/**
 * The module settings form shows the settings of the world's game only (docs/rules.md §0): a setting that belongs to
 * features that are off (feature-visibility.ts) has its row hidden, and a setting shown only for a borrowed rule
 * is labelled with the game it comes from.
 *
 * Why rows hidden on renderSettingsConfig rather than `config: false`: Foundry reads `config` once, when the setting
 * is registered (init), but the world's game and its borrowings are world settings that change while the world runs —
 * a GM who switches from Rôle'n Play to Old-School Essentials, or who borrows a rule, would keep seeing the old rows
 * (or never see the new ones) until every client reloaded. So every setting stays registered `config: true`, and the
 * rows are hidden each time the form renders, and again as the GM changes the game or a borrowing in the open form
 * (before saving): what the form shows always matches the game it would save. A hidden row keeps its input, so saving
 * the form leaves that setting's value as it was.
 */
import { MODULE_ID } from "./constants.js";
import { features, isRuleset, type FeatureBorrowings, type RulesetId } from "../rules/index.js";
import { settingVisibility } from "./feature-visibility.js";
import { getSetting, type SettingKey } from "./settings.js";
import { BORROWABLE_FEATURES, borrowSettingKey } from "./core-settings.js";
import { t } from "./i18n.js";

/** An element (duck-typed: the document's own classes are not globals everywhere). */
function isElement(v: unknown): v is HTMLElement {
  return (
    !!v && typeof v === "object" && "querySelector" in v && typeof v.querySelector === "function" && "getAttribute" in v
  );
}

/** The form roots already listening for changes (a re-render of the same window passes the same element). */
const listening = new WeakSet<HTMLElement>();

/** A setting's row in core's form: the form-group core stamps with the setting's id, or the one holding its field. */
function rowOf(root: HTMLElement, key: string): HTMLElement | null {
  const id = `${MODULE_ID}.${key}`;
  const stamped = root.querySelector<HTMLElement>(`[data-setting-id="${id}"]`);
  if (stamped) return stamped;
  return root.querySelector<HTMLElement>(`[name="${id}"]`)?.closest<HTMLElement>(".form-group") ?? null;
}

/** The value the open form holds for a setting (what the GM chose, maybe not saved yet), else the saved one. */
function formValue(root: HTMLElement, key: SettingKey): unknown {
  const field = root.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${MODULE_ID}.${key}"]`);
  if (!field) return getSetting(key);
  if (field.tagName === "INPUT" && (field as HTMLInputElement).type === "checkbox")
    return (field as HTMLInputElement).checked;
  return field.value;
}

/** Hides and labels the rows of the form for the game and borrowings it currently holds. */
export function filterSettingsForm(root: HTMLElement): void {
  const chosen = formValue(root, "ruleset");
  const ruleset: RulesetId = isRuleset(chosen) ? chosen : getSetting("ruleset");
  const borrowed: FeatureBorrowings = {};
  for (const f of BORROWABLE_FEATURES) {
    const v = formValue(root, borrowSettingKey(f));
    if (isRuleset(v)) borrowed[f] = v;
  }
  const state = features(ruleset, borrowed);
  // The saved value: unticking it in the open form does not make its row vanish before the form is saved.
  const sideInitiative = getSetting("sideInitiative") === true;
  // The module's settings shown in the form (ClientSettings#settings: every registered setting by "<namespace>.<key>").
  for (const [id, setting] of game.settings.settings) {
    if (!setting.config || !id.startsWith(`${MODULE_ID}.`)) continue;
    const key = id.slice(MODULE_ID.length + 1);
    const row = rowOf(root, key);
    if (!row) continue;
    const v = settingVisibility(key, ruleset, state, { sideInitiative });
    row.classList.toggle("aventure-off", !v.show);
    row.style.display = v.show ? "" : "none";
    row.querySelector(".aventure-borrowed")?.remove();
    const label = row.querySelector("label");
    if (v.show && v.borrowedFrom && label) {
      const span = row.ownerDocument.createElement("span");
      span.className = "aventure-borrowed";
      span.textContent = ` (${t(`AVENTURE.Feature.from.${v.borrowedFrom}`)})`;
      label.append(span);
    }
  }
}

/**
 * renderSettingsConfig (v13 and v14: the html is the window's element; an older jQuery wrapper is unwrapped):
 * filters the rows, then again whenever the game or a borrowing changes in the open form.
 */
export function onRenderSettingsConfig(_app: unknown, html: unknown): void {
  const root = isElement(html)
    ? html
    : html && typeof html === "object" && 0 in html && isElement((html as Record<number, unknown>)[0])
      ? (html as Record<number, HTMLElement>)[0]
      : null;
  if (!root) return;
  filterSettingsForm(root);
  if (listening.has(root)) return;
  listening.add(root);
  root.addEventListener("change", (event) => {
    const name = isElement(event.target) ? event.target.getAttribute("name") : null;
    if (name === `${MODULE_ID}.ruleset` || name?.startsWith(`${MODULE_ID}.borrow`)) filterSettingsForm(root);
  });
}
