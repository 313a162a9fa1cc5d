/** Internal (not exported by index.ts): a readable text for any value, for error data. */

/** String(value), or its [object …] tag when String() throws (objects without a prototype, arrays holding a symbol). */
export function show(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
