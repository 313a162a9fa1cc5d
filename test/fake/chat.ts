/**
 * Chat messages as documents (id, flags, getFlag/setFlag) on top of FakeWorld's message capture, and a tiny
 * stand-in for a rendered card's HTMLElement (renderChatMessageHTML handlers look up and wire buttons).
 * Strict like the rest of the fake: only a GM or the author may change a message, flags only in "aventure".
 */
import type { FakeWorld } from "./foundry.js";
import { readFlag } from "./foundry.js";

export class FakeChatMessage {
  readonly id: string;
  readonly author: string;
  content?: string;
  whisper?: string[];
  rolls?: unknown[];
  flavor?: string;
  speaker?: unknown;
  flags: Record<string, Record<string, unknown>>;
  readonly updates: Record<string, unknown>[] = [];
  /** The user who made each update (the client that ran it). */
  readonly updatedBy: string[] = [];
  constructor(
    private readonly world: FakeWorld,
    data: Record<string, unknown>,
    n: number,
  ) {
    this.id = `msg${n}`;
    this.author = world.game.user.id;
    Object.assign(this, { ...data, flags: structuredClone((data.flags as Record<string, Record<string, unknown>>) ?? {}) });
    this.flags ??= {};
  }
  getFlag(scope: string, key: string): unknown {
    return readFlag(this.flags, scope, key);
  }
  async setFlag(scope: string, key: string, value: unknown): Promise<this> {
    if (scope !== "aventure") throw new Error(`Flag scope ${scope} is not allowed`);
    const user = this.world.game.user;
    if (!user.isGM && user.id !== this.author) throw new Error(`User ${user.id} cannot update message ${this.id}`);
    (this.flags[scope] ??= {})[key] = structuredClone(value);
    this.updates.push({ [`flags.${scope}.${key}`]: structuredClone(value) });
    this.updatedBy.push(user.id);
    return this;
  }
}

/**
 * Makes ChatMessage.create return FakeChatMessage documents (still captured in world.messages), and adds
 * `game.messages` (get by id: undefined for an unknown id, as Collection#get).
 */
export function installChatDocuments(world: FakeWorld): FakeChatMessage[] {
  const docs: FakeChatMessage[] = [];
  Object.defineProperty(world.game, "messages", {
    configurable: true,
    value: { get: (id: string) => docs.find((m) => m.id === id) },
  });
  world.ChatMessage.create = async (data: Record<string, unknown>) => {
    const msg = new FakeChatMessage(world, data, docs.length + 1);
    docs.push(msg);
    world.messages.push(msg as never);
    return msg as never;
  };
  return docs;
}

/** A fake element: querySelector finds the children given by selector; buttons record their listeners. */
export class FakeElement {
  hidden = false;
  disabled = false;
  removed = false;
  readonly listeners: ((event: { preventDefault(): void }) => unknown)[] = [];
  constructor(private readonly children: Record<string, FakeElement> = {}) {}
  querySelector(selector: string): FakeElement | null {
    const child = this.children[selector];
    return child && !child.removed ? child : null;
  }
  addEventListener(type: string, fn: (event: { preventDefault(): void }) => unknown): void {
    if (type !== "click") throw new Error(`Fake element: ${type} listeners are not modelled`);
    this.listeners.push(fn);
  }
  remove(): void {
    this.removed = true;
  }
  click(): void {
    for (const fn of this.listeners) fn({ preventDefault() {} });
  }
}

/** The rendered journey card: its Undo button and its "undone" label. */
export function travelCardElement(): { html: FakeElement; button: FakeElement; undone: FakeElement } {
  const button = new FakeElement();
  const undone = new FakeElement();
  const html = new FakeElement({ '[data-action="aventure-travel-undo"]': button, ".aventure-travel-undone": undone });
  return { html, button, undone };
}
