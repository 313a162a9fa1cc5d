/**
 * Plain-data helpers of the fake world: how Foundry turns an update into the change it stores and broadcasts.
 *
 * Sources (public API documentation, v13):
 * - foundry.utils.expandObject: dotted keys ("flags.aventure.x") expand into nested objects.
 *   https://foundryvtt.com/api/v13/functions/foundry.utils.expandObject.html
 * - foundry.utils.mergeObject: plain objects merge key by key, arrays and other values replace, a "-=key" key
 *   deletes "key" (performDeletions). https://foundryvtt.com/api/v13/functions/foundry.utils.mergeObject.html
 * - foundry.utils.diffObject / Document#update: only the keys that really change are sent; an update that changes
 *   nothing is not sent and fires no hook. https://foundryvtt.com/api/v13/classes/foundry.abstract.Document.html#update
 * - NOTES.md "Documents and flags": setFlag with an object value merges into the existing object.
 * - v14: a key is deleted by the value `_del`, an instance of foundry.data.operators.ForcedDeletion
 *   (https://foundryvtt.com/api/modules/foundry.data.operators.html, v14: DataFieldOperator, ForcedDeletion,
 *   ForcedReplacement); dnd5e 5.3.3 writes `this.update({ [`system.activities.${id}`]: _del })`
 *   (module/documents/item.mjs). The "-=key" form is deprecated in v14 (NOTES.md "v14 Scene Levels..."): the world
 *   records it (FakeWorld#deprecations) rather than refusing it, as its exact v14 behaviour is not documented.
 */

/** foundry.data.operators.ForcedDeletion (v14): the operator a `_del` value is. */
export class ForcedDeletion {}
/** The `_del` global of v14. */
export const DEL = new ForcedDeletion();

export type Plain = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Plain {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A deep copy of plain data (class instances such as Rolls are kept as they are). */
export function clone<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => clone(x)) as T;
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)])) as T;
  return v;
}

/** What travels over Foundry's socket is JSON: functions, undefined and class identities are lost. */
export function jsonClone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** foundry.utils.expandObject: {"a.b": 1, "c.-=d": null} → {a: {b: 1}, c: {"-=d": null}}. */
export function expandObject(data: Plain): Plain {
  const out: Plain = {};
  for (const [key, value] of Object.entries(data)) {
    const parts = key.split(".");
    let cur = out;
    for (const p of parts.slice(0, -1)) {
      if (!isPlainObject(cur[p])) cur[p] = {};
      cur = cur[p] as Plain;
    }
    const last = parts.at(-1)!;
    const v = isPlainObject(value) ? expandObject(value) : clone(value);
    if (isPlainObject(v) && isPlainObject(cur[last])) mergeInto(cur[last] as Plain, v);
    else cur[last] = v;
  }
  return out;
}

function mergeInto(target: Plain, src: Plain): void {
  for (const [k, v] of Object.entries(src)) {
    if (isPlainObject(v) && isPlainObject(target[k])) mergeInto(target[k] as Plain, v);
    else target[k] = clone(v);
  }
}

function stripDeletions(v: unknown): unknown {
  if (!isPlainObject(v)) return clone(v);
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k, x]) => !k.startsWith("-=") && !(x instanceof ForcedDeletion))
      .map(([k, x]) => [k, stripDeletions(x)]),
  );
}

/**
 * The differential of `change` against `current` with mergeObject's rules: undefined when nothing would change.
 * A "-=key" survives only when `current` has that key.
 */
export function diffMerge(current: unknown, change: unknown): unknown {
  if (isPlainObject(change)) {
    if (!isPlainObject(current)) return stripDeletions(change);
    const out: Plain = {};
    for (const [k, v] of Object.entries(change)) {
      if (k.startsWith("-=")) {
        if (k.slice(2) in current) out[k] = null;
        continue;
      }
      if (v instanceof ForcedDeletion) {
        if (k in current) out[k] = v;
        continue;
      }
      const d = diffMerge(current[k], v);
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return deepEqual(current, change) ? undefined : clone(change);
}

/** Applies a differential computed by diffMerge (merge objects, replace the rest, perform deletions). */
export function applyMerge(target: Plain, diff: Plain): void {
  for (const [k, v] of Object.entries(diff)) {
    if (k.startsWith("-=") || v instanceof ForcedDeletion) {
      delete target[k.startsWith("-=") ? k.slice(2) : k];
      continue;
    }
    if (isPlainObject(v) && isPlainObject(target[k])) applyMerge(target[k] as Plain, v);
    else target[k] = clone(v);
  }
}

export function getProperty(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Plain)[p];
  }
  return cur;
}

let counter = 0;
/**
 * An id like foundry.utils.randomID (deterministic in the fake: a counter), `length` characters. The counter is padded
 * on its left, so that two ids never collide ("x1" and "x10" padded on the right would both read "x10000…").
 */
export function randomID(prefix = "x", length = 16): string {
  counter += 1;
  return `${prefix}${counter.toString(36).padStart(length - prefix.length, "0")}`.slice(-length);
}
