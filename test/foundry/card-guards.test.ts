/**
 * What keeps the card layer to Aventure's own cards: a card's state is posted only through its card model (postCard
 * has no raw flags option), and a feature's card part runs on Aventure's cards and buttons, never on another module's
 * message for its own `data-action` buttons (the journey card's part selected `[data-action]`, any button at all).
 */
import { describe, expect, it } from "vitest";
import { Window } from "happy-dom";
import { postCard } from "../../src/core/chat.js";
import { onRenderChatMessage, registerCardPart } from "../../src/core/cards.js";
import { TRAVEL_CARD_PART } from "../../src/travel/hooks.js";
import { bootWorld, GM } from "../world/index.js";

function rendered(content: string): HTMLElement {
  const { document } = new Window();
  const li = document.createElement("li");
  li.innerHTML = `<div class="message-content">${content}</div>`;
  return li as unknown as HTMLElement;
}

describe("postCard: a card's state only through its model", () => {
  it("has no flags option: raw flags given to it are not written to the message", async () => {
    const world = await bootWorld({ system: "dnd5e", users: [GM] });
    const message = (await world.as("gm1", () =>
      postCard({
        template: "modules/aventure/templates/proposal-card.hbs",
        context: {},
        // @ts-expect-error: postCard takes no raw flags (a card's state goes through `card`, its model)
        flags: { travel: { status: "applied" } },
      }),
    )) as unknown as { flags: Record<string, unknown>; type?: string };
    expect(message).toBeDefined();
    expect(message.flags.aventure).toBeUndefined();
    expect(world.messages.contents.map((m) => (m as unknown as { flags: object }).flags)).toEqual([{}]);
  });
});

describe("the journey card's part: Aventure's journey cards only", () => {
  const ran: string[] = [];
  // The registered part, its render observed (the part itself is tested with the journeys, test/foundry/travel.test.ts).
  registerCardPart({ ...TRAVEL_CARD_PART, render: () => void ran.push("travel") });
  const message = (type = "base") => ({ type, flags: { "other-module": { roll: 1 } } }) as unknown as ChatMessage;

  it("another module's message with its own data-action buttons gets no Aventure handler", () => {
    ran.length = 0;
    onRenderChatMessage(
      message(),
      rendered(`<div class="other-card"><button type="button" data-action="roll">Roll</button></div>`),
    );
    onRenderChatMessage(message("other-module.card"), rendered(`<a data-action="expand">More</a>`));
    expect(ran).toEqual([]);
  });

  it("runs on a journey card (its sub-type, or its markup from before the sub-type) and on a forged Undo/Continue", () => {
    ran.length = 0;
    onRenderChatMessage(message("aventure.travel"), rendered(`<p></p>`));
    onRenderChatMessage(message(), rendered(`<div class="aventure aventure-card aventure-travel-card"></div>`));
    // A message carrying the journey card's buttons: the part runs, and removes them when it is not a GM's journey.
    onRenderChatMessage(message(), rendered(`<button type="button" data-action="aventure-travel-undo">Undo</button>`));
    onRenderChatMessage(
      message(),
      rendered(`<button type="button" data-action="aventure-travel-continue">Go</button>`),
    );
    expect(ran).toEqual(["travel", "travel", "travel", "travel"]);
  });
});
