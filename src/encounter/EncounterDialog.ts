/**
 * The encounter dialog (GM): sides from the selected tokens by disposition (a token can be moved to another
 * side), per side "already aware", the place, who speaks to the monsters; "Roll" posts one chat card
 * (optionally GM only) and shows the results; "Start combat" creates the combat with these tokens.
 */
import { featureRuleset } from "../core/features.js";
import { template } from "../core/constants.js";
import { encounterDialogContext, type EncounterDialogState } from "./encounter-context.js";
import { fleeOptions, rollEncounter, startEncounterCombat, tokensFromSelection } from "./encounter.js";
import { openPursuit, type PursuitDialog } from "../pursuit/api.js";
import { isSideId } from "../core/sides.js";
import { ENCOUNTER_PLACES, type EncounterPlace } from "../rules/encounter.js";
import { guarded, t } from "../core/i18n.js";
import { AventureApplication } from "../core/application.js";
import { formChecked, formText } from "../core/forms.js";

export class EncounterDialog extends AventureApplication {
  static override GUIDE = "encounters" as const;

  #state: EncounterDialogState;
  #pursuit: PursuitDialog | null = null;
  /** The actions running now (each runs once at a time). */
  readonly #running = new Set<string>();

  /** `options.where` prefills the place (default: the dungeon). */
  constructor(options: Record<string, unknown> = {}) {
    super(options as never); // cast: options.where is Aventure's own option, not an ApplicationV2 one
    const where = options.where;
    const tokens = tokensFromSelection();
    this.#state = {
      ruleset: featureRuleset("encounter"),
      where: (ENCOUNTER_PLACES as readonly unknown[]).includes(where) ? (where as EncounterPlace) : "dungeon",
      tokens,
      aware: {},
      speakerId: tokens.find((tk) => tk.side !== "hostile")?.id ?? "",
      rollReaction: true,
      gmOnly: false,
      result: null,
    };
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-encounter",
    classes: ["aventure-encounter"],
    window: { title: "AVENTURE.Encounter.title", icon: "fa-solid fa-eye" },
    position: { width: 480 },
    actions: {
      roll: EncounterDialog.#onRoll,
      start: EncounterDialog.#onStart,
      flee: EncounterDialog.#onFlee,
      selection: EncounterDialog.#onSelection,
    },
  };

  static override PARTS = {
    form: { template: template("encounter/dialog.hbs") },
  };

  /** The Pursuit dialog the last "Flee" opened, if any. */
  get pursuit(): PursuitDialog | null {
    return this.#pursuit;
  }

  /** The dialog's current state (read by tests and macros). */
  get encounter(): EncounterDialogState {
    return this.#state;
  }

  override async _prepareContext(): Promise<never> {
    this.#state.ruleset = featureRuleset("encounter");
    return encounterDialogContext(this.#state, t) as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    this.#readForm();
    void this.render();
  }

  #readForm(): void {
    const values = this.formValues();
    const value = (name: string) => formText(values, name);
    const checked = (name: string) => formChecked(values, name);
    const where = value("where");
    if ((ENCOUNTER_PLACES as readonly string[]).includes(where ?? "")) this.#state.where = where as EncounterPlace;
    for (const tk of this.#state.tokens) {
      const side = value(`side.${tk.id}`);
      if (isSideId(side)) tk.side = side;
    }
    for (const side of ["friendly", "neutral", "hostile"] as const) {
      if (`aware.${side}` in values) this.#state.aware[side] = checked(`aware.${side}`);
    }
    this.#state.speakerId = value("speakerId") ?? "";
    this.#state.rollReaction = checked("rollReaction");
    this.#state.gmOnly = checked("gmOnly");
  }

  /**
   * Runs a button's action once at a time: the button is disabled while it runs, and a second click (a double
   * click, or the same action from a re-rendered button) is ignored until the first has finished.
   */
  async #once<T>(action: string, target: HTMLElement | undefined, fn: () => Promise<T>): Promise<T | undefined> {
    if (this.#running.has(action)) return undefined;
    this.#running.add(action);
    const button = target as HTMLButtonElement | undefined;
    if (button) button.disabled = true;
    try {
      return await fn();
    } finally {
      this.#running.delete(action);
      if (button) button.disabled = false;
    }
  }

  static async #onRoll(this: EncounterDialog, _event?: Event, target?: HTMLElement): Promise<void> {
    await this.#once("roll", target, async () => {
      this.#readForm();
      const result = await guarded(() => rollEncounter(this.#state));
      if (result) {
        this.#state.result = result;
        await this.render();
      }
    });
  }

  /** "Start combat": one combat, however often it is clicked (the active GM refuses a second one too). */
  static async #onStart(this: EncounterDialog, _event?: Event, target?: HTMLElement): Promise<void> {
    await this.#once("start", target, async () => {
      this.#readForm();
      const combat = await guarded(() => startEncounterCombat(this.#state, this.#state.result));
      if (combat) await this.close();
    });
  }

  /** "Flee": the Pursuit dialog prefilled from this encounter (the encounter dialog stays open). */
  static async #onFlee(this: EncounterDialog): Promise<void> {
    this.#readForm();
    const pursuit = await guarded(() => openPursuit(fleeOptions(this.#state)));
    if (pursuit) this.#pursuit = pursuit;
  }

  static async #onSelection(this: EncounterDialog): Promise<void> {
    this.#readForm();
    this.#state.tokens = tokensFromSelection();
    this.#state.result = null;
    if (!this.#state.tokens.some((tk) => tk.id === this.#state.speakerId)) {
      this.#state.speakerId = this.#state.tokens.find((tk) => tk.side !== "hostile")?.id ?? "";
    }
    await this.render();
  }
}
