/**
 * The combat feature's registrations (called once from registerHooks in init):
 * - CONFIG.Combat.documentClass ← Aventure's subclass of the system's Combat class;
 * - requests "sideRound" (start a round: the active GM rolls it once and moves the combat), "rollSides" (the
 *   tracker's roll buttons) and "encounterStart" (the encounter dialog's Start combat, GMs only), through the trusted
 *   request channel; recovery of interrupted side-initiative rolls;
 * - hooks createCombatant, updateCombatant, deleteCombat, renderCombatTracker, getCombatTrackerContextOptions,
 *   combatStart and combatTurn (the turn of round 1 with surprised sides), combatTurnChange (whose turn started this
 *   round, recorded by the active GM), and dnd5e's
 *   dnd5e.preRollInitiativeDialogV2 (its initiative dialog is skipped when Aventure's initiative replaces the d20).
 */
import { combatStartTime } from "./flags.js";
import { MODULE_ID, template } from "../core/constants.js";
import { encounterEndAdvance } from "../rules/encounter.js";
import { contextEntry, loadTemplatesCompat, renderTemplateCompat } from "../core/compat.js";
import { isActiveGM } from "../core/gm.js";
import { guarded, t, UserError, notify } from "../core/i18n.js";
import { registerRecovery } from "../core/operations.js";
import { getSetting } from "../core/settings.js";
import { aventureCombatClass, type CombatCtor } from "./combat-class.js";
import { polarisPhasesActive, sideInitiativeActive } from "./side-initiative.js";
import { registerSideRoundCard } from "./side-round-card.js";
import { registerIntentionCard } from "./intention-card.js";
import { onCreateCombatant, onTurnChange, recoverSideInitiative, type TurnPoint } from "./side-ops.js";
import { registerSideRequests } from "./round.js";
import { registerEncounterRequests } from "../encounter/api.js";
import { drawTracker } from "./tracker.js";
import { onTurnHook } from "./turn-target.js";
import type { CombatLike, CombatantLike } from "./types.js";
import { delayChoices, polarisFlags, setDelay, setHasten } from "./polaris-phases.js";
import { isConfused } from "./polaris-confusion.js";
import { testedThisRound } from "./polaris-intention.js";
import { askIntention } from "./polaris-ask.js";
import { registerIntention } from "./polaris-intention.js";
import { onHook } from "../core/hooks-typed.js";
import { formText, formValues } from "../core/forms.js";

type CombatDoc = CombatLike & { getFlag(scope: "aventure", key: string): unknown };
type CombatantDoc = CombatantLike & {
  parent?: CombatDoc | null;
  update(data: Record<string, unknown>): Promise<unknown>;
};

/**
 * dnd5e 5.3.x: its tracker's roll button and the sheet call Actor5e#rollInitiativeDialog, which shows a d20 dialog
 * (advantage, bonus) after the hook `dnd5e.preRollInitiativeDialogV2` (module/dice/basic-roll.mjs buildConfigure:
 * returning false stops it), then calls actor.rollInitiative({createCombatants: true}). With side initiative or
 * Polaris phases no d20 is rolled, so that dialog would ask for nothing: Aventure stops it and calls dnd5e's own
 * Actor5e#rollInitiative instead (its dnd5e.preRollInitiative / dnd5e.rollInitiative hooks fire, core adds the
 * missing combatants and calls Combat#rollInitiative, which rolls the side or copies the Polaris score).
 */
export function onPreRollInitiativeDialog(config: { subject?: unknown } | undefined): boolean | void {
  if (!sideInitiativeActive() && !polarisPhasesActive()) return;
  const actor = config?.subject as
    { documentName?: string; rollInitiative?: (options: object) => Promise<unknown> } | undefined;
  if (!actor || typeof actor.rollInitiative !== "function") return;
  void guarded(() => actor.rollInitiative!({ createCombatants: true }));
  return false;
}

/** When a combat ends (pmt, ose, setting on): the encounter has taken one turn (active GM). */
export async function onDeleteCombat(combat: CombatDoc): Promise<void> {
  if (!isActiveGM() || !getSetting("encounterTurn")) return;
  const rs = getSetting("ruleset");
  if (rs !== "pmt" && rs !== "ose") return;
  if (!combat.started && combat.round < 1) return;
  const start = combatStartTime(combat);
  const elapsed = start === null ? 0 : Math.max(0, game.time.worldTime - start);
  const seconds = encounterEndAdvance(rs, elapsed);
  if (seconds <= 0) return;
  await game.time.advance(seconds);
  notify("info", t("AVENTURE.Combat.turnPassed", { minutes: Math.round(seconds / 60) }));
}

/** The combatant of a tracker row, in the combat the tracker views (it may not be the active one). */
function combatantOf(app: unknown, li: HTMLElement): CombatantDoc | null {
  const viewed = (app as { viewed?: CombatDoc | null } | null)?.viewed;
  const combat = viewed ?? game.combat;
  const id = li.dataset.combatantId ?? li.closest<HTMLElement>("[data-combatant-id]")?.dataset.combatantId;
  const c = id ? combat?.combatants.get(id) : undefined;
  return (c as CombatantDoc | undefined) ?? null;
}

/** Asks which later phase to delay to (DialogV2), then sets it. */
async function askDelay(c: CombatantDoc): Promise<void> {
  const combat = c.parent ?? game.combat;
  if (!combat) return; // the tracker's context menu shows only with a combat
  const choices = delayChoices(c, combat.round);
  if (!choices.length) throw new UserError("AVENTURE.Polaris.cannotDelay", { name: c.name ?? "" });
  const current = polarisFlags(c, combat.round).delayTo;
  const content = await renderTemplateCompat(template("polaris/delay.hbs"), {
    name: c.name,
    phases: choices.map((p) => ({
      value: p,
      label: t("AVENTURE.Polaris.phase", { phase: p }),
      selected: p === current,
    })),
    delayed: current !== null,
  });
  const picked = await foundry.applications.api.DialogV2.prompt({
    window: { title: t("AVENTURE.Polaris.delay") },
    content,
    rejectClose: false,
    ok: {
      label: t("AVENTURE.Polaris.delay"),
      callback: (_e: Event, button: HTMLButtonElement) => formText(formValues(button.form), "phase"),
    },
  });
  if (picked === undefined || picked === null) return;
  await setDelay(combat, c, picked === "" ? null : Number(picked));
}

function contextOptions(app: unknown, entries: Record<string, unknown>[]): void {
  const usable = (li: HTMLElement) => {
    const c = combatantOf(app, li);
    return (
      polarisPhasesActive() && !!c && c.isOwner && (c.parent?.started ?? false) && typeof c.initiative === "number"
    );
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
    // Changing intention (docs/rules.md §9.2): an Adaptation test, once per combatant and round (the active GM checks
    // it).
    contextEntry({
      name: t("AVENTURE.Polaris.intention.menu"),
      icon: '<i class="fa-solid fa-shuffle"></i>',
      condition: (li) => {
        const c = combatantOf(app, li);
        return usable(li) && !!c?.parent && !isConfused(c.parent, c) && !testedThisRound(c.parent, c);
      },
      callback: (li) => {
        const c = combatantOf(app, li);
        if (c?.parent) void guarded(() => askIntention(c.parent!, c));
      },
    }),
  );
}

export function registerCombatHooks(openEncounter: () => unknown): void {
  registerSideRoundCard();
  registerIntentionCard();
  const config = CONFIG as unknown as { Combat: { documentClass: CombatCtor } }; // cast: CONFIG.Combat.documentClass gets Aventure's subclass of the system's class (a mixin the pinned types cannot follow)
  // Always there in Foundry; a test world without combat simply gets no subclass.
  if ("Combat" in config) config.Combat.documentClass = aventureCombatClass(config.Combat.documentClass);
  registerSideRequests();
  registerEncounterRequests();
  registerIntention();
  registerRecovery("sideInitiative", recoverSideInitiative);
  // The encounter dialog shows its result with the chat card's template as a partial.
  void loadTemplatesCompat([template("encounter/card.hbs")]);
  onHook("createCombatant", (c: CombatantDoc) => guarded(() => onCreateCombatant(c)));
  onHook("updateCombatant", (c, changes: { flags?: Record<string, unknown> }) => {
    // Hasten/delay change the order without touching the initiative: sort again on every client.
    if (changes?.flags?.[MODULE_ID] !== undefined) c.parent?.debounceSetup?.();
  });
  onHook("deleteCombat", (combat: CombatDoc) => guarded(() => onDeleteCombat(combat)));
  onHook("renderCombatTracker", (app: unknown, html: HTMLElement) => {
    if (typeof html?.querySelectorAll === "function") return guarded(() => drawTracker(app, html, openEncounter));
  });
  onHook("getCombatTrackerContextOptions", contextOptions);
  onHook("combatStart", onTurnHook);
  onHook("combatTurn", onTurnHook);
  // Whose turn started this round (GM state: a player ends the round only once every turn started).
  onHook("combatTurnChange", (combat: CombatDoc, prior: TurnPoint, current: TurnPoint) =>
    guarded(() => onTurnChange(combat, prior, current)),
  );
  onHook("dnd5e.preRollInitiativeDialogV2", onPreRollInitiativeDialog);
}
