/**
 * The combat feature's registrations (called once from registerHooks in init):
 * - CONFIG.Combat.documentClass ← Aventure's subclass of the system's Combat class;
 * - queries "rollSides" (a player's roll button → the active GM rolls for the sides) and "sideRound"
 *   (another client advances the round → the active GM rolls it);
 * - hooks createCombatant, updateCombatant, deleteCombat, renderCombatTracker, getCombatTrackerContextOptions.
 */
import { MODULE_ID, template } from "../../constants.js";
import { encounterEndAdvance } from "../../rules/encounter.js";
import { contextEntry, loadTemplatesCompat, renderTemplateCompat } from "../compat.js";
import { canControl, isActiveGM, registerQuery } from "../gm.js";
import { guarded, t, UserError } from "../i18n.js";
import { getSetting } from "../settings.js";
import { aventureCombatClass, type CombatCtor } from "./combat-class.js";
import { onCreateCombatant, polarisPhasesActive, rollSidesFor } from "./side-initiative.js";
import { drawTracker } from "./tracker.js";
import { sideRoundQuery } from "./round.js";
import type { CombatLike, CombatantLike } from "./types.js";
import { delayChoices, polarisFlags, setDelay, setHasten } from "../polaris/phases.js";

type CombatDoc = CombatLike & { getFlag(scope: "aventure", key: string): unknown };
type CombatantDoc = CombatantLike & { parent?: CombatDoc | null; update(data: Record<string, unknown>): Promise<unknown> };

function combatById(id: unknown): CombatDoc {
  const combat = typeof id === "string" ? (game.combats?.get(id) as unknown as CombatDoc | undefined) : undefined;
  if (!combat) throw new UserError("AVENTURE.Combat.noCombat");
  return combat;
}

/**
 * "rollSides" query: validates the combat, the ids and that the sender owns each combatant; a player may
 * only roll for a side that has no initiative yet (the GM may roll a side again).
 */
async function rollSidesQuery(data: { combatId?: unknown; combatantIds?: unknown }, sender: User): Promise<boolean> {
  const combat = combatById(data.combatId);
  const ids = data.combatantIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 500 || !ids.every((x) => typeof x === "string")) {
    throw new UserError("AVENTURE.Combat.badRequest");
  }
  for (const id of ids as string[]) {
    const c = combat.combatants.get(id);
    if (!c) throw new UserError("AVENTURE.Combat.badRequest");
    if (!canControl(sender, c as never)) throw new UserError("AVENTURE.Error.NotOwner", { name: c.name });
    // Like core's roll button (shown only without an initiative): a player rolls a side once a round.
    if (!sender.isGM && c.initiative !== null) throw new UserError("AVENTURE.Combat.alreadyRolled");
  }
  await rollSidesFor(combat, ids as string[]);
  return true;
}

/** When a combat ends (pmt, ose, setting on): the encounter has taken one turn (active GM). */
export async function onDeleteCombat(combat: CombatDoc): Promise<void> {
  if (!isActiveGM() || !getSetting("encounterTurn")) return;
  const rs = getSetting("ruleset");
  if (rs !== "pmt" && rs !== "ose") return;
  if (!combat.started && combat.round < 1) return;
  const start = combat.getFlag(MODULE_ID, "startTime");
  const elapsed = typeof start === "number" ? Math.max(0, game.time.worldTime - start) : 0;
  const seconds = encounterEndAdvance(rs, elapsed);
  if (seconds <= 0) return;
  await game.time.advance(seconds);
  ui.notifications?.info(t("AVENTURE.Combat.turnPassed", { minutes: Math.round(seconds / 60) }));
}

/** The combatant of a tracker row, in the combat the tracker views (it may not be the active one). */
function combatantOf(app: unknown, li: HTMLElement): CombatantDoc | null {
  const viewed = (app as { viewed?: CombatDoc | null } | null)?.viewed;
  const combat = viewed ?? (game as unknown as { combat?: CombatDoc | null }).combat;
  const id = li.dataset.combatantId ?? li.closest<HTMLElement>("[data-combatant-id]")?.dataset.combatantId;
  const c = id ? combat?.combatants.get(id) : undefined;
  return (c as CombatantDoc | undefined) ?? null;
}

/** Asks which later phase to delay to (DialogV2), then sets it. */
async function askDelay(c: CombatantDoc): Promise<void> {
  const combat = c.parent ?? (game as unknown as { combat: CombatDoc }).combat;
  const choices = delayChoices(c, combat.round);
  if (!choices.length) throw new UserError("AVENTURE.Polaris.cannotDelay", { name: c.name });
  const current = polarisFlags(c, combat.round).delayTo;
  const content = await renderTemplateCompat(template("polaris/delay.hbs"), {
    name: c.name,
    phases: choices.map((p) => ({ value: p, label: t("AVENTURE.Polaris.phase", { phase: p }), selected: p === current })),
    delayed: current !== null,
  });
  const DialogV2 = foundry.applications.api.DialogV2 as unknown as {
    prompt(o: object): Promise<unknown>;
  };
  const picked = await DialogV2.prompt({
    window: { title: t("AVENTURE.Polaris.delay") },
    content,
    rejectClose: false,
    ok: {
      label: t("AVENTURE.Polaris.delay"),
      callback: (_e: Event, button: HTMLButtonElement) => (button.form?.elements.namedItem("phase") as HTMLSelectElement | null)?.value,
    },
  });
  if (picked === undefined || picked === null) return;
  await setDelay(combat, c, picked === "" ? null : Number(picked));
}

function contextOptions(app: unknown, entries: Record<string, unknown>[]): void {
  const usable = (li: HTMLElement) => {
    const c = combatantOf(app, li);
    return polarisPhasesActive() && !!c && c.isOwner && (c.parent?.started ?? false) && typeof c.initiative === "number";
  };
  entries.push(
    contextEntry({
      name: t("AVENTURE.Polaris.hasten"),
      icon: '<i class="fa-solid fa-forward"></i>',
      condition: usable,
      callback: (li) => {
        const c = combatantOf(app, li);
        if (!c?.parent) return;
        void guarded(() => setHasten(c.parent!, c, !polarisFlags(c, c.parent!.round).hasten));
      },
    }),
    contextEntry({
      name: t("AVENTURE.Polaris.delay"),
      icon: '<i class="fa-solid fa-hourglass-half"></i>',
      condition: usable,
      callback: (li) => {
        const c = combatantOf(app, li);
        if (c) void guarded(() => askDelay(c));
      },
    }),
  );
}

export function registerCombatHooks(openEncounter: () => unknown): void {
  const config = CONFIG as unknown as { Combat: { documentClass: CombatCtor } };
  // Always there in Foundry; a test world without combat simply gets no subclass.
  if ("Combat" in config) config.Combat.documentClass = aventureCombatClass(config.Combat.documentClass);
  registerQuery("rollSides", rollSidesQuery);
  registerQuery("sideRound", (data: { combatId?: unknown; round?: unknown }, sender: User) =>
    sideRoundQuery(typeof data?.combatId === "string" ? (game.combats?.get(data.combatId) as unknown as CombatLike | undefined) : undefined, data ?? {}, sender),
  );
  // The encounter dialog shows its result with the chat card's template as a partial.
  void loadTemplatesCompat([template("encounter/card.hbs")]);
  Hooks.on("createCombatant", ((c: CombatantDoc) => void guarded(() => onCreateCombatant(c))) as never);
  Hooks.on("updateCombatant", ((c: CombatantDoc, changes: { flags?: Record<string, unknown> }) => {
    // Hasten/delay change the order without touching the initiative: sort again on every client.
    if (changes?.flags?.[MODULE_ID] !== undefined) (c.parent as unknown as { debounceSetup?: () => void })?.debounceSetup?.();
  }) as never);
  Hooks.on("deleteCombat", ((combat: CombatDoc) => void guarded(() => onDeleteCombat(combat))) as never);
  Hooks.on("renderCombatTracker", ((app: unknown, html: HTMLElement) => {
    if (typeof html?.querySelectorAll === "function") void guarded(() => drawTracker(app, html, openEncounter));
  }) as never);
  Hooks.on("getCombatTrackerContextOptions", contextOptions as never);
}
