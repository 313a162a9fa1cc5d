/**
 * The combat tracker (renderCombatTracker, v13 passes an HTMLElement): side headers with the side's roll
 * and "simultaneous" / "surprised" badges, or Polaris "Phase N" headers with hasten/delay badges, and an
 * "Encounter" button for the GM. Rows are `li.combatant[data-combatant-id]`; what we add is removed and
 * drawn again on every render.
 *
 * dnd5e 5.x groups rows first, in its own renderCombatTracker handler (module/applications/combat/combat-tracker.mjs
 * renderGroups): unlinked combatants with the same initiative, disposition and base actor move into a collapsible
 * `li.combatant-group > … > ol.group-children`. With side initiative a whole side shares one initiative, so a header
 * put "before the side's first row" would land inside a collapsed group. So: a group whose rows belong to more than
 * one section (side and value, or Polaris phase) is taken apart, its rows back in turn order; a header goes before
 * the group that holds its first row; a row's badges are also shown on its group's header.
 */
import { template } from "../core/constants.js";
import { renderTemplateCompat } from "../core/compat.js";
import { guarded, t, tHtml } from "../core/i18n.js";
import type { CombatLike } from "./types.js";
import { combatantSide, isSkipped, polarisPhasesActive, sideInitiativeActive } from "./side-initiative.js";
import { phaseHeadersContext, sideHeadersContext } from "./tracker-context.js";
import { actingPhase, polarisFlags } from "./polaris-phases.js";
import { isConfused } from "./polaris-confusion.js";

const ADDED = "aventure-tracker-added";
const GROUP = "li.combatant-group";

function viewedCombat(app: unknown): CombatLike | null {
  const viewed = (app as { viewed?: CombatLike | null }).viewed;
  return viewed ?? game.combat ?? null;
}

function rows(html: HTMLElement): HTMLElement[] {
  return [...html.querySelectorAll<HTMLElement>("li.combatant[data-combatant-id]")];
}

const rowOf = (html: HTMLElement, id: string | undefined) =>
  id ? (rows(html).find((r) => r.dataset.combatantId === id) ?? null) : null;
const groupOf = (row: HTMLElement) => row.parentElement?.closest<HTMLElement>(GROUP) ?? null;
const groupRows = (group: HTMLElement) => [...group.querySelectorAll<HTMLElement>("li.combatant[data-combatant-id]")];

/** Takes a dnd5e group apart: its rows where the group was. */
function dissolve(group: HTMLElement): void {
  group.replaceWith(...groupRows(group));
}

/** The tracker list's top-level items (rows and groups) back in turn order. */
function reorder(html: HTMLElement, order: Map<string, number>): void {
  const first = rows(html)[0];
  const list = (first && (groupOf(first) ?? first).parentElement) as HTMLElement | null;
  if (!list) return;
  const rank = (el: Element) => {
    const ids = el.matches("li.combatant[data-combatant-id]")
      ? [(el as HTMLElement).dataset.combatantId]
      : groupRows(el as HTMLElement).map((r) => r.dataset.combatantId);
    return Math.min(...ids.map((id) => order.get(id ?? "") ?? Number.MAX_SAFE_INTEGER));
  };
  const items = [...list.children].filter((el) => el.matches("li.combatant"));
  const sorted = [...items].sort((a, b) => rank(a) - rank(b));
  if (sorted.every((el, i) => el === items[i])) return;
  for (const el of sorted) list.appendChild(el);
}

/**
 * dnd5e's groups against Aventure's sections: every group whose rows are in more than one section (or whose rows do
 * not start a section where a header goes) is taken apart, then the list is put back in turn order.
 */
function fitGroups(
  html: HTMLElement,
  sectionOf: Map<string, string>,
  headerRows: Set<string>,
  order: Map<string, number>,
): void {
  let changed = false;
  for (const group of [...html.querySelectorAll<HTMLElement>(GROUP)]) {
    const ids = groupRows(group).map((r) => r.dataset.combatantId ?? "");
    const sections = new Set(ids.map((id) => sectionOf.get(id) ?? ""));
    const headerInside = ids.slice(1).some((id) => headerRows.has(id));
    if (sections.size > 1 || headerInside) {
      dissolve(group);
      changed = true;
    }
  }
  if (changed) reorder(html, order);
}

/** Inserts the rendered headers (li[data-before]) and badges (span[data-for]) into the tracker rows. */
function insert(html: HTMLElement, markup: string): void {
  const doc = html.ownerDocument;
  const holder = doc.createElement("template");
  holder.innerHTML = markup;
  for (const h of [...holder.content.querySelectorAll<HTMLElement>("[data-before]")]) {
    const row = rowOf(html, h.dataset.before);
    if (!row) continue;
    h.classList.add(ADDED);
    // Before the group that holds the row (it is the group's first row: fitGroups saw to it), never inside it.
    (groupOf(row) ?? row).before(h);
  }
  for (const b of [...holder.content.querySelectorAll<HTMLElement>("[data-for]")]) {
    const row = rowOf(html, b.dataset.for);
    if (!row) continue;
    b.classList.add(ADDED);
    (row.querySelector(".token-name") ?? row).appendChild(b);
    // A collapsed group hides its rows: its header shows the badge too (once per distinct badge).
    const group = groupOf(row);
    const header = group?.querySelector<HTMLElement>(".group-header .token-name, .group-header");
    if (header && ![...header.querySelectorAll(`.${ADDED}`)].some((x) => x.textContent === b.textContent)) {
      const copy = b.cloneNode(true) as HTMLElement;
      copy.removeAttribute("data-for");
      header.appendChild(copy);
    }
  }
}

function addEncounterButton(html: HTMLElement, open: () => unknown): void {
  if (!game.user.isGM) return;
  const header = html.querySelector(".combat-tracker-header, header") ?? html;
  const button = html.ownerDocument.createElement("button");
  button.type = "button";
  button.className = `aventure aventure-encounter-button ${ADDED}`;
  button.dataset.tooltip = t("AVENTURE.Encounter.open");
  button.setAttribute("aria-label", t("AVENTURE.Encounter.open"));
  button.innerHTML = `<i class="fa-solid fa-eye"></i> ${tHtml("AVENTURE.Encounter.short")}`;
  button.addEventListener("click", (event) => {
    event.preventDefault();
    void guarded(open);
  });
  header.appendChild(button);
}

export async function drawTracker(app: unknown, html: HTMLElement, openEncounter: () => unknown): Promise<void> {
  for (const el of [...html.querySelectorAll(`.${ADDED}`)]) el.remove();
  addEncounterButton(html, openEncounter);
  const combat = viewedCombat(app);
  if (!combat) return;
  const list = rows(html)
    .map((li) => combat.combatants.get(li.dataset.combatantId ?? ""))
    .filter((c) => c !== undefined);
  if (!list.length) return;
  const order = new Map(combat.turns.map((c, i) => [c.id ?? "", i]));
  list.sort((a, b) => (order.get(a.id ?? "") ?? 0) - (order.get(b.id ?? "") ?? 0));
  let markup: string;
  const sectionOf = new Map<string, string>();
  let headerRows: Set<string>;
  if (sideInitiativeActive()) {
    const input = list.map((c) => ({
      id: c.id!,
      side: combatantSide(c),
      initiative: c.initiative,
      skipped: isSkipped(combat, c),
    }));
    for (const r of input) sectionOf.set(r.id, `${r.side}:${r.initiative ?? ""}`);
    const ctx = sideHeadersContext(input, t);
    headerRows = new Set(ctx.headers.map((h) => h.before));
    markup = await renderTemplateCompat(template("encounter/tracker-sides.hbs"), ctx);
  } else if (polarisPhasesActive()) {
    const input = list.map((c) => {
      const f = polarisFlags(c, combat.round);
      return {
        id: c.id!,
        phase: actingPhase(c, combat.round),
        hasten: f.hasten,
        delayTo: f.delayTo,
        confused: isConfused(combat, c),
      };
    });
    for (const r of input) sectionOf.set(r.id, String(r.phase));
    const ctx = phaseHeadersContext(input, t);
    headerRows = new Set(ctx.headers.map((h) => h.before));
    markup = await renderTemplateCompat(template("polaris/tracker-phases.hbs"), ctx);
  } else return;
  for (const el of [...html.querySelectorAll(`.${ADDED}:not(.aventure-encounter-button)`)]) el.remove();
  fitGroups(html, sectionOf, headerRows, order);
  insert(html, markup);
}
