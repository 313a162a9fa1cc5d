/**
 * The state a card holds, as the tests read it: the system's source of a card of the module's sub-type
 * (`aventure.<kind>`, core/card-model.ts), or the flag of a card posted before it (flags.aventure.<flag>).
 */
import type { FakeChatMessage } from "../world/documents.js";

type Plain = Record<string, unknown>;

export function cardOf(m: FakeChatMessage, kind: string, flag = kind): Plain | undefined {
  if (m.type === `aventure.${kind}`) return m.systemSource;
  return (m.flags.aventure as Plain | undefined)?.[flag] as Plain | undefined;
}

/** The messages that are cards of `kind`. */
export const cardsOf = (messages: FakeChatMessage[], kind: string, flag = kind): FakeChatMessage[] =>
  messages.filter((m) => cardOf(m, kind, flag) !== undefined);
