/**
 * The Quench batch context Aventure's in-world tests use (Ethaks/FVTT-Quench: Mocha's describe/it/before/after and
 * Chai's assert), kept to what the batches call so that the same batch functions also run under Vitest in CI through
 * a small adapter (test/quench.test.ts).
 */
export interface Assert {
  ok(value: unknown, message?: string): void;
  equal(actual: unknown, expected: unknown, message?: string): void;
  strictEqual(actual: unknown, expected: unknown, message?: string): void;
  deepEqual(actual: unknown, expected: unknown, message?: string): void;
  isTrue(value: unknown, message?: string): void;
  isFalse(value: unknown, message?: string): void;
  isAbove(value: number, above: number, message?: string): void;
  isAtMost(value: number, most: number, message?: string): void;
  include(haystack: string | unknown[], needle: unknown, message?: string): void;
  lengthOf(value: { length: number }, length: number, message?: string): void;
}

export interface BatchContext {
  describe(name: string, fn: () => void): void;
  it(name: string, fn: () => Promise<void> | void): void;
  before(fn: () => Promise<void> | void): void;
  after(fn: () => Promise<void> | void): void;
  assert: Assert;
}

export interface Batch {
  /** Quench batch key: "aventure.<feature>". */
  key: string;
  displayName: string;
  fn(context: BatchContext): void;
}

export interface Quench {
  registerBatch(key: string, fn: (context: BatchContext) => void, options?: { displayName?: string }): void;
}
