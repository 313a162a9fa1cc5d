/**
 * The card layer (src/core/cards.ts): one renderChatMessageHTML listener per client dispatching to the part each
 * feature registers, and the button wiring written once. The dispatcher and the wiring are tested on their own (a DOM
 * from happy-dom); the test world checks that a booted client has exactly one listener and that every feature's
 * card part is registered with it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Window } from "happy-dom";
import { onRenderChatMessage, registerCardPart, wireButtons } from "../../src/core/cards.js";
import { bootWorld, GM, PLAYER } from "../world/index.js";
import { expectLogged, expectedLogs } from "../setup/quiet.js";

const message = {} as ChatMessage;

function card(html: string): HTMLElement {
  const { document } = new Window();
  const el = document.createElement("li");
  el.innerHTML = html;
  return el as unknown as HTMLElement;
}

const settle = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  vi.restoreAllMocks();
  delete (globalThis as { ui?: unknown }).ui;
});

describe("one renderChatMessageHTML listener", () => {
  it("a booted client registers one listener, whatever the features", async () => {
    const world = await bootWorld({ system: "dnd5e", users: [GM, PLAYER] });
    for (const user of ["gm1", "p1"])
      expect(world.clientOf(user).hooks.handlers.get("renderChatMessageHTML")?.length, user).toBe(1);
  });

  it("dispatches to the parts whose selector matches, in registration order; a part that throws leaves the others", () => {
    const ran: string[] = [];
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    registerCardPart({ kind: "t-always", render: () => void ran.push("always") });
    registerCardPart({
      kind: "t-broken",
      selector: ".t-broken",
      render: () => {
        throw new Error("broken part");
      },
    });
    registerCardPart({ kind: "t-a", selector: "[data-action='t-a']", render: () => void ran.push("a") });
    registerCardPart({ kind: "t-b", selector: "[data-action='t-b']", render: () => void ran.push("b") });
    onRenderChatMessage(message, card(`<div class="t-broken"><button data-action="t-b"></button></div>`));
    expect(ran).toEqual(["always", "b"]);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toBe("aventure | the t-broken card part failed");
    expect(() => registerCardPart({ kind: "t-a", render: () => undefined })).toThrow(
      'card part "t-a" registered twice',
    );
  });
});

describe("dispatch by the message's type", () => {
  it("a part of a sub-type runs on every message of that type; on any other message by its selector", () => {
    const ran: string[] = [];
    registerCardPart({ kind: "t-kind", type: "t-kind", selector: ".t-old", render: () => void ran.push("kind") });
    registerCardPart({ kind: "t-other", type: "t-other", selector: ".t-old", render: () => void ran.push("other") });
    const typed = (type: string) => ({ type }) as unknown as ChatMessage;
    onRenderChatMessage(typed("aventure.t-kind"), card(`<p>no selector match</p>`));
    expect(ran).toEqual(["kind"]);
    ran.length = 0;
    // A message of another type carrying a part's markup still reaches that part (which removes its buttons).
    onRenderChatMessage(typed("aventure.t-other"), card(`<div class="t-old"></div>`));
    expect(ran).toEqual(["kind", "other"]);
    ran.length = 0;
    onRenderChatMessage(typed("base"), card(`<div class="t-old"></div>`));
    expect(ran).toEqual(["kind", "other"]);
    ran.length = 0;
    onRenderChatMessage(typed("base"), card(`<p></p>`));
    onRenderChatMessage(typed("other.t-kind"), card(`<p></p>`));
    expect(ran).toEqual([]);
  });
});

describe("the button wiring, written once", () => {
  it("removes the buttons this user may not use and keeps the others", () => {
    const html = card(
      `<button data-action="go" data-row="0"></button><button data-action="go" data-row="1"></button><button data-action="other"></button>`,
    );
    const kept = wireButtons(html, "go", { allowed: (b) => b.dataset.row === "1", run: () => undefined });
    expect(kept.map((b) => b.dataset.row)).toEqual(["1"]);
    expect([...html.querySelectorAll("button")].map((b) => b.dataset.action + (b.dataset.row ?? ""))).toEqual([
      "go1",
      "other",
    ]);
  });

  it("a click runs once while its work runs: the group is disabled, then enabled again", async () => {
    const html = card(
      `<button data-action="go" data-accept="true"></button><button data-action="go" data-accept="false"></button>`,
    );
    let finish!: () => void;
    const runs: string[] = [];
    const [yes, no] = wireButtons(html, "go", {
      allowed: () => true,
      run: (b) => {
        runs.push(b.dataset.accept!);
        return new Promise<void>((r) => (finish = r));
      },
      together: (_b, all) => all,
    });
    yes!.click();
    await settle();
    expect([yes!.disabled, no!.disabled]).toEqual([true, true]);
    yes!.click();
    no!.click();
    await settle();
    expect(runs).toEqual(["true"]);
    finish();
    await settle();
    expect([yes!.disabled, no!.disabled]).toEqual([false, false]);
  });

  it("a click whose work fails tells the user and enables the button again", async () => {
    const errors: string[] = [];
    (globalThis as { ui?: unknown }).ui = { notifications: { error: (m: string) => void errors.push(m) } };
    // The unexpected error is logged once, with its stack, besides the user's message.
    expectLogged(/^aventure \| Error: server refused$/);
    const html = card(`<button data-action="go"></button>`);
    const [b] = wireButtons(html, "go", {
      allowed: () => true,
      run: () => Promise.reject(new Error("server refused")),
    });
    b!.click();
    await settle();
    await settle();
    expect(errors).toEqual(["server refused"]);
    expect(b!.disabled).toBe(false);
    expect(expectedLogs()).toHaveLength(1);
  });
});
