/**
 * The Polaris test dialog: a skill (with its mastery) or an attribute, picked from the actor where the Actor data
 * paths give them or typed; the chance; the difficulty (12 levels or a modifier) and "harder by N degrees"; a secret
 * difficulty (GM); the retry penalty; and a countdown (GM: a maximum of attempts, what a catastrophe costs, the
 * attempts left, the retry penalty applied automatically) → 1d20 and one chat card per click.
 *
 * Two parts: the fields ("form", rendered again only when the fields themselves change: a kind, a skill, the custom
 * difficulty, a countdown turned on or off) and what will be rolled with the last roll and the buttons ("summary",
 * rendered on every change), so that typing in a field keeps its focus.
 */
import { template } from "../core/constants.js";
import {
  countdownMax,
  nextAttempt,
  parseChance,
  parseWhole,
  polarisDialogContext,
  type PolarisTestState,
  initialPolarisState,
} from "./polaris-context.js";
import { rollPolarisTest, type PolarisTestRequest } from "./test.js";
import { actorAttributes, actorSkills } from "./actor.js";
import {
  POLARIS_DIFFICULTY_IDS,
  POLARIS_TEST_KINDS,
  type PolarisDifficulty,
  type PolarisTestKind,
} from "../rules/polaris.js";
import { guarded, t } from "../core/i18n.js";
import { AventureApplication } from "../core/application.js";
import { formChecked, formText } from "../core/forms.js";

export interface PolarisTestDialogOptions {
  /** The actor tested (default: the selected token's, else the user's character). */
  actor?: Actor | null;
}

export class PolarisTestDialog extends AventureApplication {
  static override GUIDE = "polaris" as const;

  #state: PolarisTestState;
  #actor: Actor | null;
  #rolling = false;
  /** What the fields were last rendered with: the form part is rendered again only when it changes. */
  #formKey = "";

  constructor(options: PolarisTestDialogOptions = {}) {
    super({});
    const actor = options.actor ?? canvas?.tokens?.controlled[0]?.actor ?? game.user.character ?? null;
    this.#actor = actor;
    this.#state = initialPolarisState({
      label: actor?.name ?? "",
      isGM: game.user.isGM,
      actorName: actor?.name ?? "",
      skills: actorSkills(actor),
      attributes: actorAttributes(actor),
    });
    this.#formKey = this.#shapeKey();
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-polaris-test",
    classes: ["aventure-polaris"],
    window: { title: "AVENTURE.Polaris.title", icon: "fa-solid fa-dice-d20" },
    position: { width: 480 },
    // Enter in a field rolls, like the button.
    form: { handler: PolarisTestDialog.#onRoll },
    actions: { roll: PolarisTestDialog.#onRoll, reset: PolarisTestDialog.#onReset },
  };

  static override PARTS = {
    form: { template: template("polaris/test-dialog.hbs") },
    summary: { template: template("polaris/test-summary.hbs") },
  };

  /** The dialog's state (read by tests and macros). */
  get test(): Readonly<PolarisTestState> {
    return this.#state;
  }

  override async _prepareContext(): Promise<never> {
    return polarisDialogContext(this.#state, t) as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  /** The fields that change what the form part shows (not what is typed in it). */
  #shapeKey(): string {
    const s = this.#state;
    return JSON.stringify([
      s.kind,
      s.skill,
      s.attribute,
      s.difficulty === "custom",
      countdownMax(s) === null,
      s.countdown.tests.length > 0,
    ]);
  }

  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    const name = (event.target as HTMLInputElement | null)?.name ?? "";
    this.#readForm();
    if (name === "skill") this.#pickSkill();
    else if (name === "attribute") this.#pickAttribute();
    const key = this.#shapeKey();
    const parts = key === this.#formKey && name !== "skill" && name !== "attribute" ? ["summary"] : ["form", "summary"];
    this.#formKey = key;
    void this.render({ parts });
  }

  /** A skill picked from the actor: its level is the chance, its mastery and name fill their fields. */
  #pickSkill(): void {
    const s = this.#state;
    const skill = s.skills.find((x) => x.key === s.skill);
    if (!skill) return;
    s.chance = String(skill.level);
    s.mastery = skill.mastery === null ? "" : String(skill.mastery);
    s.label = s.actorName ? `${s.actorName} — ${skill.label}` : skill.label;
  }

  #pickAttribute(): void {
    const s = this.#state;
    const attribute = s.attributes.find((x) => x.key === s.attribute);
    if (!attribute) return;
    s.chance = String(attribute.level);
    s.label = s.actorName ? `${s.actorName} — ${attribute.label}` : attribute.label;
  }

  #readForm(): void {
    const values = this.formValues();
    const text = (name: string) => formText(values, name);
    const s = this.#state;
    s.label = text("label") ?? s.label;
    const kind = text("kind");
    if ((POLARIS_TEST_KINDS as readonly string[]).includes(kind ?? "")) s.kind = kind as PolarisTestKind;
    s.skill = text("skill") ?? s.skill;
    s.attribute = text("attribute") ?? s.attribute;
    s.chance = text("chance") ?? s.chance;
    s.mastery = text("mastery") ?? s.mastery;
    const d = text("difficulty") ?? s.difficulty;
    s.difficulty =
      d === "custom" || (POLARIS_DIFFICULTY_IDS as readonly string[]).includes(d)
        ? (d as PolarisDifficulty | "custom")
        : s.difficulty;
    if ("custom" in values) s.custom = Number(values.custom);
    s.harder = text("harder") ?? s.harder;
    s.secret = formChecked(values, "secret");
    s.countdown.max = text("countdownMax") ?? s.countdown.max;
    if ("catastropheCost" in values) s.countdown.catastropheCost = text("catastropheCost") === "2" ? 2 : 1;
    if ("attempt" in values) s.attempt = Number(values.attempt);
    s.pressed = formChecked(values, "pressed");
  }

  /** What the fields ask for, as the API's request (the rules validate every number before anything is rolled). */
  #request(): PolarisTestRequest {
    const s = this.#state;
    const max = countdownMax(s);
    const actor = this.#actor;
    return {
      chance: parseChance(s.chance),
      kind: s.kind,
      ...(s.kind === "skill" ? { mastery: parseWhole(s.mastery, 0) } : {}),
      difficulty: s.difficulty === "custom" ? s.custom : s.difficulty,
      ...(s.difficulty !== "custom" ? { harder: parseWhole(s.harder, 0) } : {}),
      secret: s.secret,
      attempt: nextAttempt(s),
      pressed: s.pressed,
      ...(s.isGM && max !== null
        ? { countdown: { maxAttempts: max, catastropheCost: s.countdown.catastropheCost, tests: s.countdown.tests } }
        : {}),
      label: s.label,
      speaker: ChatMessage.getSpeaker(actor ? { actor } : {}),
    };
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
    const req = this.#request();
    const done = await guarded(() => rollPolarisTest(req));
    if (!done) return;
    s.last = { die: done.die, result: done.result, kind: s.kind };
    if (req.countdown) s.countdown.tests = [...s.countdown.tests, done.result];
    else s.attempt += 1; // a new try of the same test gets the next retry penalty
    this.#formKey = this.#shapeKey();
    await this.render({ parts: ["form", "summary"] });
  }

  /** "New test": the attempts (and a countdown's) start again; the fields stay. */
  static async #onReset(this: PolarisTestDialog): Promise<void> {
    this.#readForm();
    const s = this.#state;
    s.attempt = 1;
    s.countdown.tests = [];
    s.last = null;
    this.#formKey = this.#shapeKey();
    await this.render({ parts: ["form", "summary"] });
  }
}
