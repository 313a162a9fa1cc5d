/** Chat cards: rendered from templates, optionally whispered to the GMs, with the rolls attached. */
import { renderTemplateCompat } from "./compat.js";
/** An actor as a speaker needs it (structural: a Foundry Actor, or an adapter's `ActorLike`, satisfies it). */
type ActorLike = { readonly id: string | null; readonly name: string };
import { cardData, type CardKind } from "./card-model.js";

export interface CardOptions {
  template: string;
  context: Record<string, unknown>;
  rolls?: Roll[];
  gmOnly?: boolean;
  speaker?: ChatMessage.SpeakerData;
  /**
   * A card of one of the module's sub-types (card-model.ts): its kind and state. A card's state goes through its
   * model, never as raw flags (card-model.ts, docs/security.md).
   */
  card?: { kind: CardKind; state: object };
}

/**
 * ChatMessage.getSpeaker for an actor as the adapters see it (`ActorLike`: in Foundry an Actor, in the adapters'
 * tests a structural double).
 */
export function speakerOf(actor: ActorLike): ReturnType<typeof ChatMessage.getSpeaker> {
  return ChatMessage.getSpeaker({ actor: actor as never }); // cast: an ActorLike is an Actor in Foundry (structural in the adapters' tests)
}

export function gmIds(): string[] {
  // Foundry's own: the users a whisper "to GM" reaches.
  return ChatMessage.getWhisperRecipients("GM").map((u) => u.id!);
}

export async function postCard(opts: CardOptions): Promise<ChatMessage | undefined> {
  const content = await renderTemplateCompat(opts.template, opts.context);
  const data: ChatMessage.CreateData = { content, speaker: opts.speaker ?? ChatMessage.getSpeaker() };
  if (opts.rolls?.length) data.rolls = opts.rolls;
  if (opts.gmOnly) data.whisper = gmIds();
  if (opts.card) Object.assign(data, cardData(opts.card.kind, opts.card.state));
  return (await ChatMessage.implementation.create(data)) ?? undefined;
}
