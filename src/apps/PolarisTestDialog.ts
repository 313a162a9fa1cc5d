/** The Polaris test dialog: chance, difficulty (12 levels or a modifier), secret (GM), retry penalty → 1d20. */
import { template } from "../constants.js";
import { parseChance, polarisDialogContext, type PolarisTestState } from "./polaris-context.js";
import { rollPolarisTest } from "../foundry/polaris/test.js";
import { POLARIS_DIFFICULTY_IDS, type PolarisDifficulty } from "../rules/polaris.js";
import { guarded, t } from "../foundry/i18n.js";
import { trackWindow, untrackWindow } from "../foundry/windows.js";
import { withGuideButton } from "../foundry/guide.js";

const { HandlebarsApplicationMixin, ApplicationV2 } = foundry.applications.api;

export class PolarisTestDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** The "?" button of the title bar opens this window's page of the GM guide. */
  protected override async _renderFrame(options: never): Promise<HTMLElement> {
    return withGuideButton(await super._renderFrame(options), "polaris");
  }

  #state: PolarisTestState;
  #rolling = false;

  constructor(options: Record<string, unknown> = {}) {
    super(options as never);
    const actor = canvas?.tokens?.controlled[0]?.actor ?? game.user.character ?? null;
    this.#state = {
      chance: "10",
      difficulty: "average",
      custom: 0,
      secret: false,
      attempt: 1,
      pressed: false,
      label: actor?.name ?? "",
      isGM: game.user.isGM,
    };
    trackWindow(this);
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-polaris-test",
    tag: "form",
    classes: ["aventure", "aventure-polaris"],
    window: { title: "AVENTURE.Polaris.title", icon: "fa-solid fa-dice-d20", resizable: false },
    position: { width: 400, height: "auto" as const },
    // Enter in a field rolls, like the button.
    form: { handler: PolarisTestDialog.#onRoll, submitOnChange: false, closeOnSubmit: false },
    actions: { roll: PolarisTestDialog.#onRoll },
  };

  static override PARTS = {
    form: { template: template("polaris/test-dialog.hbs") },
  };

  override async _prepareContext(): Promise<never> {
    return polarisDialogContext(this.#state, t) as never;
  }

  override _onChangeForm(formConfig: unknown, event: Event): void {
    super._onChangeForm(formConfig as never, event);
    const before = this.#state.difficulty;
    this.#readForm();
    if ((before === "custom") !== (this.#state.difficulty === "custom")) void this.render();
  }

  override _onClose(options: never): void {
    super._onClose(options);
    untrackWindow(this);
  }

  #readForm(): void {
    const form = this.element as HTMLFormElement | null;
    if (!form) return;
    const el = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
    const s = this.#state;
    s.chance = el("chance")?.value ?? s.chance;
    const d = el("difficulty")?.value ?? s.difficulty;
    s.difficulty = d === "custom" || (POLARIS_DIFFICULTY_IDS as readonly string[]).includes(d) ? (d as PolarisDifficulty | "custom") : s.difficulty;
    if (el("custom")) s.custom = Number(el("custom")!.value);
    s.secret = el("secret")?.checked === true;
    s.attempt = Number(el("attempt")?.value ?? 1);
    s.pressed = el("pressed")?.checked === true;
    s.label = el("label")?.value ?? "";
  }

  static async #onRoll(this: PolarisTestDialog): Promise<void> {
    // One roll at a time (Enter and the button, or a double click): the button is disabled while it runs.
    if (this.#rolling) return;
    this.#rolling = true;
    const button = this.element?.querySelector<HTMLButtonElement>("[data-action='roll']");
    if (button) button.disabled = true;
    try {
      await this.#roll();
    } finally {
      this.#rolling = false;
      if (button?.isConnected) button.disabled = false;
    }
  }

  async #roll(): Promise<void> {
    this.#readForm();
    const s = this.#state;
    const actor = canvas?.tokens?.controlled[0]?.actor ?? null;
    const done = await guarded(() =>
      rollPolarisTest({
        chance: parseChance(s.chance),
        difficulty: s.difficulty === "custom" ? s.custom : s.difficulty,
        secret: s.secret,
        attempt: s.attempt,
        pressed: s.pressed,
        label: s.label,
        speaker: ChatMessage.getSpeaker(actor ? { actor } : {}),
      }),
    );
    if (done) {
      s.attempt += 1; // a new try of the same test gets the next retry penalty
      await this.render();
    }
  }
}
