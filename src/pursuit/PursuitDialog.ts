/**
 * The Pursuit dialog: place (dungeon / outdoors), the two groups prefilled from the selected tokens by
 * disposition (size, speed from the adapter in metres per round; editable), who flees, surprise, woods,
 * pursuers twice as fast, dropped treasure or food; a live preview from the rules (the escape chance with
 * the band used, or the dungeon outcome); then Start, and Next day outdoors or round by round in the
 * dungeon. Each step runs on the active GM (request "pursuit", chase.ts) and is written to chat; a player's
 * flight that needs a GM's decision is sent to the GMs as a proposal. The buttons are disabled while a step
 * runs. Import only once Foundry's globals exist.
 */
import { featureRuleset } from "../core/features.js";
import { template } from "../core/constants.js";
import { adapterFor } from "../actors/api.js";
import { errorMessage, reportError, t, notify } from "../core/i18n.js";
import { sendRequest } from "../core/requests.js";
import { AventureApplication } from "../core/application.js";
import {
  combatUnderway,
  latestChase,
  resumableChase,
  validateSetup,
  PURSUIT_REQUEST,
  type PursuitReply,
  type PursuitRequest,
} from "./chase.js";
import { groupTokens, PURSUIT_SIDES, type PursuitSide, type PursuitToken } from "./groups.js";
import {
  applySetupChange,
  defaultSetup,
  pursuitDialogContext,
  type ChaseRecord,
  type PursuitPlace,
  type PursuitSetup,
  type SurpriseChoice,
} from "./pursuit-context.js";
import type { DUNGEON_CHASE_ENDS } from "../rules/pursuit.js";
import { usualSpeed } from "../rules/movement.js";
import { formText } from "../core/forms.js";

/** The token surface the dialog reads (a TokenDocument satisfies it). */
export interface DialogToken {
  id: string | null;
  name: string;
  disposition: number;
  actor: unknown;
  parent?: { id: string | null } | null;
}

export interface PursuitDialogOptions {
  /** Tokens to prefill the groups with (default: the controlled tokens). */
  tokens?: DialogToken[];
  /** Continue this chase (its latest card in the chat log). */
  chaseId?: string;
  /** Prefill from an encounter: the place, who flees, who was surprised, a monster reaction already rolled. */
  place?: PursuitPlace;
  fleeingSide?: PursuitSide;
  surprise?: SurpriseChoice;
  reactionTotal?: number | null;
}

/** A setup prefilled from tokens: friendly tokens form the party, the others its opponents. */
export function setupFromTokens(tokens: readonly DialogToken[]): PursuitSetup {
  const adapter = adapterFor();
  const infos: PursuitToken[] = tokens
    .filter((tk) => tk.id)
    .map((tk) => {
      let speed: number | null = null;
      // cast: a dialog token's actor is a document the caller gave (the canvas's, or a Quench batch's)
      const speeds = tk.actor ? adapter.read(tk.actor as never).speeds : null;
      // One that only flies or swims chases at that speed; a speed the rules refuse (negative) is left to the GM.
      if (speeds) {
        try {
          speed = usualSpeed(speeds);
        } catch {
          speed = null;
        }
      }
      return { id: tk.id!, name: tk.name, disposition: tk.disposition, speed };
    });
  const drafts = groupTokens(infos);
  const setup = defaultSetup();
  setup.sceneId = tokens.find((tk) => tk.parent?.id)?.parent?.id ?? null;
  // An encounter that went on to a fight: flight is no longer possible (docs/rules.md §8.1, §8.3).
  setup.combatStarted = combatUnderway(infos.map((x) => x.id));
  for (const side of PURSUIT_SIDES) {
    const d = drafts[side];
    setup.groups[side] = {
      count: Math.max(1, d.count),
      speed: d.speed ?? Number.NaN,
      tokenIds: d.tokens.map((x) => x.id),
      names: d.tokens.map((x) => x.name),
    };
  }
  return setup;
}

/** The setup a chase was started with (to show it again when resuming). */
function setupOfRecord(r: ChaseRecord): PursuitSetup {
  const s = defaultSetup();
  s.place = r.place;
  s.fleeingSide = r.fleeingSide;
  s.sceneId = r.sceneId;
  s.groups = structuredClone(r.groups);
  s.surprise = r.surprise;
  if (r.outdoors) {
    s.woods = r.outdoors.fleeingBonus > 0;
    if (s.woods) s.woodsBonus = r.outdoors.fleeingBonus;
    s.twiceFast = r.outdoors.pursuerBonus > 0;
    if (s.twiceFast) s.fastBonus = r.outdoors.pursuerBonus;
  }
  return s;
}

function controlled(): DialogToken[] {
  return (canvas?.tokens?.controlled ?? []).map((x) => x.document);
}

export class PursuitDialog extends AventureApplication {
  static override GUIDE = "pursuit" as const;

  #setup: PursuitSetup;
  #record: ChaseRecord | null = null;
  #busy = false;

  constructor(options: PursuitDialogOptions = {}) {
    super({});
    this.#setup = setupFromTokens(options.tokens ?? controlled());
    // Same path as the form's fields: unknown values are ignored, numbers that do not parse are refused on Start.
    for (const key of ["place", "fleeingSide", "surprise", "reactionTotal"] as const) {
      // A reaction already rolled is the GM's to give (the GM refuses it from a player).
      if (key === "reactionTotal" && !game.user.isGM) continue;
      const v = options[key];
      if (v !== undefined) this.#setup = applySetupChange(this.#setup, key, v === null ? "" : String(v));
    }
    if (options.chaseId) {
      const r = latestChase(options.chaseId);
      if (r) this.#adopt(r);
    }
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-pursuit-{id}",
    classes: ["aventure-pursuit"],
    window: { title: "AVENTURE.Pursuit.title", icon: "fa-solid fa-person-running" },
    position: { width: 600 },
    form: { handler: PursuitDialog.#onSubmit },
    actions: {
      start: PursuitDialog.#onStart,
      nextDay: PursuitDialog.#onNextDay,
      nextRound: PursuitDialog.#onNextRound,
      drop: PursuitDialog.#onDrop,
      outOfSight: PursuitDialog.#onOutOfSight,
      gaveUp: PursuitDialog.#onGaveUp,
      caught: PursuitDialog.#onCaught,
      reset: PursuitDialog.#onReset,
      resume: PursuitDialog.#onResume,
    },
  };

  static override PARTS = {
    form: { template: template("pursuit/dialog.hbs"), scrollable: [".aventure-pursuit-log"] },
  };

  /** The form's setup (a copy), for macros and tests. */
  get setup(): PursuitSetup {
    return structuredClone(this.#setup);
  }

  /** The chase in progress (a copy), or null before Start. */
  get chase(): ChaseRecord | null {
    return this.#record ? structuredClone(this.#record) : null;
  }

  #adopt(r: ChaseRecord): void {
    this.#record = r;
    this.#setup = setupOfRecord(r);
  }

  // fvtt-types types the context as RenderContext; ours is a plain object for the template.
  override async _prepareContext(): Promise<never> {
    return pursuitDialogContext(this.#setup, this.#record, {
      ruleset: this.#record?.ruleset ?? featureRuleset("pursuit"),
      isGM: game.user.isGM,
      localize: (k, d) => t(k, d),
      errorText: errorMessage,
      resumable: !this.#record && resumableChase(game.user) !== null,
      busy: this.#busy,
    }) as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    const target = event.target as HTMLInputElement | HTMLSelectElement | null;
    if (!target?.name) return;
    const value = this.formValues()[target.name];
    void this.change(target.name, typeof value === "boolean" ? value : (formText({ value }, "value") ?? ""));
  }

  /** Changes one field as the form does, and re-renders the preview. */
  change(name: string, value: string | boolean): Promise<unknown> {
    this.#setup = applySetupChange(this.#setup, name, value);
    return this.render();
  }

  /** Disables every button of the window at once (a second click before the next render does nothing). */
  #lock(): void {
    const buttons = this.element?.querySelectorAll<HTMLButtonElement>("button[data-action]") ?? [];
    for (const b of buttons) b.disabled = true;
  }

  async #send(request: PursuitRequest): Promise<ChaseRecord | null> {
    if (this.#busy) return null;
    this.#busy = true;
    this.#lock();
    try {
      // Checked here first (a clear message at once), and again by the GM (a client can send anything).
      if (request.op === "start") validateSetup(request.setup);
      const reply = await sendRequest<PursuitReply>(PURSUIT_REQUEST, request);
      if ("proposed" in reply) {
        notify("info", t("AVENTURE.Pursuit.proposal.sent"));
        return null;
      }
      this.#record = reply;
      this.#setup.groups = structuredClone(reply.groups);
      return reply;
    } catch (e) {
      reportError(e);
      return null;
    } finally {
      this.#busy = false;
      await this.render();
    }
  }

  /** Starts the flight (the first day outdoors, the flight itself in the dungeon). */
  start(): Promise<ChaseRecord | null> {
    return this.#send({ op: "start", setup: this.#setup });
  }

  #at(): { chaseId: string; step: number } | null {
    return this.#record ? { chaseId: this.#record.id, step: this.#record.step } : null;
  }

  /** Outdoors: plays the next day (with the woods and twice-as-fast adjustments as now set). */
  nextDay(): Promise<ChaseRecord | null> {
    const at = this.#at();
    if (!at) return Promise.resolve(null);
    const s = this.#setup;
    return this.#send({
      op: "day",
      ...at,
      woods: s.woods,
      woodsBonus: s.woodsBonus,
      twiceFast: s.twiceFast,
      fastBonus: s.fastBonus,
    });
  }

  /** Dungeon: one more round of running, a drop of treasure or food, or the referee's end of the chase. */
  dungeon(op: "round" | "drop"): Promise<ChaseRecord | null> {
    const at = this.#at();
    return at ? this.#send({ op, ...at }) : Promise.resolve(null);
  }

  end(how: (typeof DUNGEON_CHASE_ENDS)[number]): Promise<ChaseRecord | null> {
    const at = this.#at();
    return at ? this.#send({ op: "end", ...at, how }) : Promise.resolve(null);
  }

  /** Back to the setup for a new chase (the finished one stays in the chat log). */
  reset(): Promise<unknown> {
    this.#record = null;
    return this.render();
  }

  /** Continues the newest unfinished chase of the chat log. */
  resume(): Promise<unknown> {
    const r = resumableChase(game.user);
    if (r) this.#adopt(r);
    return this.render();
  }

  static async #onStart(this: PursuitDialog): Promise<void> {
    await this.start();
  }
  static async #onNextDay(this: PursuitDialog): Promise<void> {
    await this.nextDay();
  }
  static async #onNextRound(this: PursuitDialog): Promise<void> {
    await this.dungeon("round");
  }
  static async #onDrop(this: PursuitDialog): Promise<void> {
    await this.dungeon("drop");
  }
  static async #onOutOfSight(this: PursuitDialog): Promise<void> {
    await this.end("outOfSight");
  }
  static async #onGaveUp(this: PursuitDialog): Promise<void> {
    await this.end("gaveUp");
  }
  static async #onCaught(this: PursuitDialog): Promise<void> {
    await this.end("caught");
  }
  static async #onReset(this: PursuitDialog): Promise<void> {
    await this.reset();
  }
  static async #onResume(this: PursuitDialog): Promise<void> {
    await this.resume();
  }
  /** Enter in a field submits the form: treat it as a change, never as Start. */
  static async #onSubmit(this: PursuitDialog): Promise<void> {
    await this.render();
  }
}

/** api.openPursuit(): opens the Pursuit dialog (prefilled from the selected tokens, or on a chase by id). */
export function openPursuit(options: PursuitDialogOptions = {}): PursuitDialog {
  const app = new PursuitDialog(options);
  void app.render({ force: true });
  return app;
}
