/**
 * A very small DOM for the combat tracker test: elements with classes, data attributes and children, a
 * parser for well-formed template output, and a selector engine for simple compound selectors
 * (`tag`, `.class`, `[data-x]`, `[data-x="v"]`, `:not(.class)`, comma lists, descendant chains).
 * Strict: an unsupported selector throws.
 */
const VOID = new Set(["input", "br", "img", "hr", "meta", "link"]);

export class FakeElement {
  readonly children: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  readonly attributes = new Map<string, string>();
  text = "";
  private listeners: Record<string, ((e: unknown) => void)[]> = {};
  constructor(
    readonly tagName: string,
    readonly ownerDocument: FakeDocument,
  ) {}
  get classList() {
    const el = this;
    const list = () => (el.attributes.get("class") ?? "").split(/\s+/).filter(Boolean);
    return {
      contains: (c: string) => list().includes(c),
      add: (...cs: string[]) => el.attributes.set("class", [...new Set([...list(), ...cs])].join(" ")),
    };
  }
  set className(v: string) {
    this.attributes.set("class", v);
  }
  get dataset(): Record<string, string> {
    const el = this;
    return new Proxy({} as Record<string, string>, {
      get: (_t, k: string) => el.attributes.get(`data-${k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`),
      set: (_t, k: string, v: string) => {
        el.attributes.set(`data-${k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`, String(v));
        return true;
      },
    });
  }
  set type(v: string) {
    this.attributes.set("type", v);
  }
  setAttribute(k: string, v: string): void {
    this.attributes.set(k, v);
  }
  set innerHTML(html: string) {
    this.children.length = 0;
    const root = parseRoot(html, this.ownerDocument);
    this.text = root.text;
    for (const c of [...root.children]) this.appendChild(c);
  }
  get content(): FakeElement {
    return this;
  }
  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join(" ");
  }
  appendChild(c: FakeElement): FakeElement {
    c.remove();
    c.parentNode = this;
    this.children.push(c);
    return c;
  }
  before(c: FakeElement): void {
    const p = this.parentNode;
    if (!p) throw new Error("before() on a detached element");
    c.remove();
    c.parentNode = p;
    p.children.splice(p.children.indexOf(this), 0, c);
  }
  remove(): void {
    if (!this.parentNode) return;
    const s = this.parentNode.children;
    s.splice(s.indexOf(this), 1);
    this.parentNode = null;
  }
  addEventListener(type: string, fn: (e: unknown) => void): void {
    (this.listeners[type] ??= []).push(fn);
  }
  click(): void {
    for (const fn of this.listeners.click ?? []) fn({ preventDefault() {} });
  }
  descendants(): FakeElement[] {
    return this.children.flatMap((c) => [c, ...c.descendants()]);
  }
  closest(sel: string): FakeElement | null {
    let cur: FakeElement | null = this;
    while (cur) {
      if (matches(cur, sel)) return cur;
      cur = cur.parentNode;
    }
    return null;
  }
  querySelectorAll(sel: string): FakeElement[] {
    return this.descendants().filter((el) => matches(el, sel, this));
  }
  querySelector(sel: string): FakeElement | null {
    return this.querySelectorAll(sel)[0] ?? null;
  }
}

export class FakeDocument {
  createElement(tag: string): FakeElement {
    return new FakeElement(tag, this);
  }
}

function matchCompound(el: FakeElement, compound: string): boolean {
  let rest = compound;
  const not = /:not\(([^)]*)\)/g;
  for (const m of compound.matchAll(not)) if (matchCompound(el, m[1]!)) return false;
  rest = rest.replace(not, "");
  const re = /^([a-z][a-z0-9-]*)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/g;
  let consumed = "";
  for (const m of rest.matchAll(re)) {
    consumed += m[0];
    if (m[1] && el.tagName !== m[1]) return false;
    if (m[2] && !el.classList.contains(m[2])) return false;
    if (m[3] && (!el.attributes.has(m[3]) || (m[4] !== undefined && el.attributes.get(m[3]) !== m[4]))) return false;
  }
  if (consumed !== rest) throw new Error(`Fake DOM: unsupported selector ${compound}`);
  return true;
}

function matches(el: FakeElement, selector: string, root?: FakeElement): boolean {
  return selector.split(",").some((alt) => {
    const parts = alt.trim().split(/\s+/);
    if (!matchCompound(el, parts.at(-1)!)) return false;
    let cur = el.parentNode;
    for (let i = parts.length - 2; i >= 0; i--) {
      while (cur && cur !== root && !matchCompound(cur, parts[i]!)) cur = cur.parentNode;
      if (!cur || cur === root) return false;
      cur = cur.parentNode;
    }
    return true;
  });
}

/** Parses well-formed markup (our templates' output). */
export function parse(html: string, doc: FakeDocument): FakeElement[] {
  return [...parseRoot(html, doc).children];
}

function parseRoot(html: string, doc: FakeDocument): FakeElement {
  const root = new FakeElement("#root", doc);
  let cur = root;
  const re = /<\/([a-z0-9-]+)\s*>|<([a-z0-9-]+)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*\/?>|([^<]+)/gi;
  for (const m of html.matchAll(re)) {
    if (m[1]) {
      if (cur.tagName !== m[1].toLowerCase()) throw new Error(`Fake DOM: </${m[1]}> closes <${cur.tagName}>`);
      cur = cur.parentNode!;
    } else if (m[2]) {
      const el = new FakeElement(m[2].toLowerCase(), doc);
      for (const a of (m[3] ?? "").matchAll(/([\w-]+)(?:="([^"]*)")?/g)) el.attributes.set(a[1]!, a[2] ?? "");
      el.parentNode = cur;
      cur.children.push(el);
      if (!VOID.has(el.tagName)) cur = el;
    } else if (m[4]?.trim()) cur.text += m[4].trim();
  }
  if (cur !== root) throw new Error(`Fake DOM: <${cur.tagName}> is not closed`);
  return root;
}
