/**
 * Trusted chat cards: Aventure keeps state on the chat cards the active GM posts (a journey, a fall, a chase...). Any
 * user can create a message with any flags, and its author can edit it, so state is read ONLY from a message whose
 * author is a GM, and each feature still validates it field by field before use (docs/security.md).
 */
import { MODULE_ID } from "../constants.js";

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

/** The raw `flags.aventure.<key>` of a card a GM wrote; undefined for any other message. Validate before use. */
export function gmCardFlag(message: MessageLike | null | undefined, key: string): unknown {
  if (!message || !authoredByGM(message)) return undefined;
  const flags = (message.flags as Record<string, Record<string, unknown> | undefined> | undefined)?.[MODULE_ID];
  return flags?.[key];
}
