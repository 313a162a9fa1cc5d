/**
 * The Exploration panel (GM; scene controls, the compendium macro, `api.openExploration()`): the turn count, the
 * turns since the last rest and the penalty once the rest is overdue, the party's light sources with their turns
 * left, and the buttons that advance exploration time (+1 turn, rest, search; Rôle'n Play's minutes). Every button
 * asks the active GM (request "exploration"), naming the revision the panel shows; the panel re-renders whenever the
 * record, the settings or world time change.
 */
import { template } from "../core/constants.js";
import { LIGHT_KINDS, type LightKind } from "../rules/index.js";
import { explorationOptions } from "./options.js";
import { panelInput, requestExploration, selectedTokens } from "./client.js";
import { guarded, t } from "../core/i18n.js";
import { assertGM } from "../light/api.js";
import { AventureApplication } from "../core/application.js";
import { openSingle, renderedWindow } from "../core/windows.js";
import { explorationPanelContext } from "./exploration-context.js";

/** The panel's id: one per client, found in Foundry's registry of rendered windows (core/windows.ts). */
const EXPLORATION_PANEL = "aventure-exploration";

export class ExplorationPanel extends AventureApplication {
  static override GUIDE = "exploration" as const;

  /** A request is on its way: the buttons are disabled until it is answered. */
  #busy = false;

  static override DEFAULT_OPTIONS = {
    id: EXPLORATION_PANEL,
    // Nothing to submit (the base's form): every button is an action.
    classes: ["aventure-exploration"],
    window: { title: "AVENTURE.Exploration.title", icon: "fa-solid fa-dungeon" },
    position: { width: 460 },
    actions: {
      start: ExplorationPanel.#onStart,
      end: ExplorationPanel.#onEnd,
      party: ExplorationPanel.#onParty,
      advance: ExplorationPanel.#onAdvance,
      light: ExplorationPanel.#onLight,
      putOut: ExplorationPanel.#onPutOut,
    },
  };

  static override PARTS = {
    form: { template: template("exploration/panel.hbs") },
  };

  override async _prepareContext(options: Parameters<AventureApplication["_prepareContext"]>[0]) {
    const base = await super._prepareContext(options);
    const { options: rules, bad } = explorationOptions();
    return { ...base, ...explorationPanelContext({ ...panelInput(), options: rules, bad, busy: this.#busy }, t) };
  }

  /** The revision this panel shows (a request made from it names it). */
  #rev(): number {
    const raw = this.element?.querySelector<HTMLElement>("[data-rev]")?.dataset.rev;
    return Number(raw ?? NaN);
  }

  /** Sends one request at a time: the buttons are disabled while it runs, then the panel shows the new state. */
  async #send(data: Record<string, unknown>): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    for (const b of this.element?.querySelectorAll<HTMLButtonElement>("button[data-action]") ?? []) b.disabled = true;
    try {
      await requestExploration({ ...data, rev: this.#rev() });
    } finally {
      this.#busy = false;
      if (this.rendered) await this.render();
    }
  }

  static async #onStart(this: ExplorationPanel): Promise<void> {
    await this.#send({ op: "start", tokens: selectedTokens() });
  }

  static async #onEnd(this: ExplorationPanel): Promise<void> {
    await this.#send({ op: "end" });
  }

  static async #onParty(this: ExplorationPanel): Promise<void> {
    await this.#send({ op: "party", tokens: selectedTokens() });
  }

  static async #onAdvance(this: ExplorationPanel, _event: Event, target: HTMLElement): Promise<void> {
    const action = target.dataset.advance;
    const amount = Number(target.dataset.amount);
    await this.#send(
      action === "spend" ? { op: "advance", action, seconds: amount } : { op: "advance", action, turns: amount },
    );
  }

  /** The token of the row a button is in. */
  static #token(target: HTMLElement): { sceneId: string | undefined; tokenId: string | undefined } {
    const row = target.closest<HTMLElement>("[data-token-id]");
    return { sceneId: row?.dataset.sceneId, tokenId: row?.dataset.tokenId };
  }

  static async #onLight(this: ExplorationPanel, _event: Event, target: HTMLElement): Promise<void> {
    const kind = target.dataset.kind;
    const custom = kind === "custom";
    if (!(LIGHT_KINDS as readonly string[]).includes(kind ?? "")) return;
    const data: Record<string, unknown> = {
      op: "light",
      token: ExplorationPanel.#token(target),
      kind: kind as LightKind,
    };
    if (custom) data.turns = Number(this.formValues().customTurns);
    await this.#send(data);
  }

  static async #onPutOut(this: ExplorationPanel, _event: Event, target: HTMLElement): Promise<void> {
    await this.#send({ op: "putOut", token: ExplorationPanel.#token(target) });
  }
}

/** api.openExploration(): opens the panel (GMs only), or brings the open one to the front. */
export async function openExploration(): Promise<ExplorationPanel | undefined> {
  return guarded(async () => {
    assertGM();
    return openSingle(ExplorationPanel, EXPLORATION_PANEL);
  });
}

/** Re-renders the panel if it is open (the record, a setting or world time changed). */
export function refreshExplorationPanel(): void {
  void renderedWindow(ExplorationPanel, EXPLORATION_PANEL)?.render();
}
