/** Chat cards: rendered from templates, optionally whispered to the GMs, with the rolls attached. */
import { renderTemplateCompat } from "./compat.js";

export interface CardOptions {
  template: string;
  context: Record<string, unknown>;
  rolls?: Roll[];
  gmOnly?: boolean;
  speaker?: ChatMessage.SpeakerData;
  flags?: Record<string, unknown>;
}

export function gmIds(): string[] {
  return game.users.filter((u) => u.isGM).map((u) => u.id!);
}

export async function postCard(opts: CardOptions): Promise<ChatMessage | undefined> {
  const content = await renderTemplateCompat(opts.template, opts.context);
  const data: Record<string, unknown> = { content, speaker: opts.speaker ?? ChatMessage.getSpeaker() };
  if (opts.rolls?.length) data.rolls = opts.rolls;
  if (opts.gmOnly) data.whisper = gmIds();
  if (opts.flags) data.flags = { aventure: opts.flags };
  return (await ChatMessage.implementation.create(data as never)) ?? undefined; // cast: card data with flags.aventure built by each feature (checked by its own card reader)
}
