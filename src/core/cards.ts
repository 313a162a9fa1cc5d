/**
 * Trusted chat cards: Aventure keeps state on the chat cards the active GM posts (a journey, a fall, a chase...). Any
 * user can create a message with any flags, and its author can edit it, so state is read ONLY from a message whose
 * author is a GM, and rebuilt through its card's data model before use (card-model.ts, docs/security.md).
 *
 * The card layer (below): one renderChatMessageHTML listener dispatches to the part each feature registers for its
 * cards, and the buttons of every card are wired by one function (wireButtons).
 */
import { MODULE_ID } from "./constants.js";
import { onHook } from "./hooks-typed.js";
import { reportError } from "./i18n.js";

interface MessageLike {
  author?: unknown;
  flags?: unknown;
}

/** True when a GM wrote the message (ChatMessage#author is a User in v12+; a user id is accepted too). */
export function authoredByGM(message: MessageLike | null | undefined): boolean {
  const author = message?.author;
  if (typeof author === "string") return game.users.get(author)?.isGM === true;
  return (author as { isGM?: boolean } | null | undefined)?.isGM === true;
}

// ------------------------------------------------------------------------------------------------ the card layer

/**
 * What a feature adds to the chat cards it posts when they are rendered (its buttons, a footer read from the card's
 * state). `selector`: the part runs only on a message whose HTML holds a match (its buttons, its card's class); without
 * one it runs on every message (the requests' part hides plumbing messages).
 */
export interface CardPart {
  kind: string;
  selector?: string;
  /**
   * The card's sub-type (card-model.ts, `aventure.<type>`): the part runs on every message of that type; on any other
   * message (a card posted before the sub-type, or a message whose content carries the part's buttons, which the part
   * removes when the message is not its card) it runs when the selector matches.
   */
  type?: string;
  render(message: ChatMessage, html: HTMLElement): void;
}

const parts: CardPart[] = [];

/** Registers a feature's card part (init, once per kind): rendered by the one renderChatMessageHTML listener. */
export function registerCardPart(part: CardPart): void {
  if (parts.some((p) => p.kind === part.kind)) throw new Error(`aventure | card part "${part.kind}" registered twice`);
  parts.push(part);
}

/**
 * renderChatMessageHTML, the module's only listener: in registration order, each registered part of the message's
 * type (a card of one of the module's sub-types), or whose selector matches the message (any other message). A part
 * that throws is logged and the others still run (a card with a broken part keeps the
 * buttons of the others, and the chat log renders).
 */
export function onRenderChatMessage(message: ChatMessage, html: HTMLElement): void {
  const type = (message as { type?: unknown }).type;
  const own = typeof type === "string" ? type : null;
  for (const part of parts) {
    const ofType = !!part.type && own === `${MODULE_ID}.${part.type}`;
    if (!ofType && part.selector && !html.querySelector(part.selector)) continue;
    try {
      part.render(message, html);
    } catch (e) {
      console.error(`aventure | the ${part.kind} card part failed`, e);
    }
  }
}

export function registerCardLayer(): void {
  onHook("renderChatMessageHTML", onRenderChatMessage);
}

/** How a card's buttons of one `data-action` are wired (wireButtons). */
export interface ButtonWiring {
  /** Whether this user may use this button now (false: the button is removed from this user's card). */
  allowed(button: HTMLButtonElement): boolean;
  /**
   * The click. While the promise it returns runs, the button and `together` are disabled (a second click does
   * nothing); a rejection is reported to the user.
   */
  run(button: HTMLButtonElement): unknown;
  /** The buttons disabled with the one clicked (e.g. Apply and Decline of one proposal); default: itself. */
  together?(button: HTMLButtonElement, all: HTMLButtonElement[]): HTMLButtonElement[];
}

/**
 * The button wiring written once: the buttons `[data-action="<action>"]` of a rendered card, each removed when
 * `allowed` says no, otherwise its click wired (default prevented, ignored while disabled, the group disabled until the
 * click's work settles, an error reported). Returns the buttons kept.
 */
export function wireButtons(html: HTMLElement, action: string, wiring: ButtonWiring): HTMLButtonElement[] {
  const all = [...html.querySelectorAll<HTMLButtonElement>(`[data-action="${action}"]`)];
  const kept = all.filter((b) => {
    if (wiring.allowed(b)) return true;
    b.remove();
    return false;
  });
  for (const b of kept)
    wireClick(
      b,
      () => wiring.run(b),
      () => wiring.together?.(b, kept) ?? [b],
    );
  return kept;
}

/** One button's click, wired as wireButtons does (for a button a part creates itself). */
export function wireClick(
  button: HTMLButtonElement,
  run: () => unknown,
  group: () => HTMLButtonElement[] = () => [button],
): void {
  button.addEventListener("click", (event) => {
    event.preventDefault();
    if (button.disabled) return;
    const buttons = group();
    for (const x of buttons) x.disabled = true;
    void Promise.resolve()
      .then(run)
      .catch((e: unknown) => reportError(e))
      .finally(() => {
        for (const x of buttons) x.disabled = false;
      });
  });
}
