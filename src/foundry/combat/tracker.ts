/**
 * The combat tracker (renderCombatTracker, v13 passes an HTMLElement): side headers with the side's roll
 * and "simultaneous" / "surprised" badges, or Polaris "Phase N" headers with hasten/delay badges, and an
 * "Encounter" button for the GM. Rows are `li.combatant[data-combatant-id]`; what we add is removed and
 * drawn again on every render.
 */
import { template } from "../../constants.js";
import { renderTemplateCompat } from "../compat.js";
import { guarded, t } from "../i18n.js";
import type { CombatLike } from "./types.js";
import { combatantSide, isSkipped, polarisPhasesActive, sideInitiativeActive } from "./side-initiative.js";
import { phaseHeadersContext, sideHeadersContext } from "./tracker-context.js";
import { actingPhase, polarisFlags } from "../polaris/phases.js";

const ADDED = "aventure-tracker-added";

function viewedCombat(app: unknown): CombatLike | null {
  const viewed = (app as { viewed?: CombatLike | null }).viewed;
  return viewed ?? ((game as unknown as { combat?: CombatLike | null }).combat ?? null);
}

function rows(html: HTMLElement): HTMLElement[] {
  return [...html.querySelectorAll<HTMLElement>("li.combatant[data-combatant-id]")];
}

/** Inserts the rendered headers (li[data-before]) and badges (span[data-for]) into the tracker rows. */
function insert(html: HTMLElement, markup: string): void {
  const doc = html.ownerDocument;
  const holder = doc.createElement("template");
  holder.innerHTML = markup;
  for (const h of [...holder.content.querySelectorAll<HTMLElement>("[data-before]")]) {
    const row = html.querySelector(`li.combatant[data-combatant-id="${h.dataset.before}"]`);
    h.classList.add(ADDED);
    row?.before(h);
  }
  for (const b of [...holder.content.querySelectorAll<HTMLElement>("[data-for]")]) {
    const row = html.querySelector(`li.combatant[data-combatant-id="${b.dataset.for}"]`);
    b.classList.add(ADDED);
    (row?.querySelector(".token-name") ?? row)?.appendChild(b);
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
  button.innerHTML = `<i class="fa-solid fa-eye"></i> ${t("AVENTURE.Encounter.short")}`;
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
  let markup = "";
  if (sideInitiativeActive()) {
    const ctx = sideHeadersContext(
      list.map((c) => ({ id: c.id!, side: combatantSide(c), initiative: c.initiative, skipped: isSkipped(combat, c) })),
      t,
    );
    markup = await renderTemplateCompat(template("encounter/tracker-sides.hbs"), ctx);
  } else if (polarisPhasesActive()) {
    const ctx = phaseHeadersContext(
      list.map((c) => {
        const f = polarisFlags(c, combat.round);
        return { id: c.id!, phase: actingPhase(c, combat.round), hasten: f.hasten, delayTo: f.delayTo };
      }),
      t,
    );
    markup = await renderTemplateCompat(template("polaris/tracker-phases.hbs"), ctx);
  } else return;
  for (const el of [...html.querySelectorAll(`.${ADDED}:not(.aventure-encounter-button)`)]) el.remove();
  insert(html, markup);
}
