/**
 * Code loaded on demand: what not every client needs at start (the windows, the code only the active GM runs to
 * apply a request) is a chunk of its own (dist/aventure-<name>.js), imported the first time it is needed, once.
 * A feature's api.ts (a window) or the file that registers a request (its executor) wraps the `import()` in
 * `onDemand`; every caller awaits the loader before using what it loads. CONTRIBUTING.md "How a window is loaded".
 */

/** The loaders of this module instance, in the order they were made. */
const loaders: (() => Promise<unknown>)[] = [];

/** A loader that imports once: the first call starts the import, every call gets the same promise. */
export function onDemand<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  const loader = (): Promise<T> => {
    loading ??= load().catch((e: unknown) => {
      loading = null; // a chunk that failed to load (a dropped connection) is tried again on the next call
      throw e;
    });
    return loading;
  };
  loaders.push(loader);
  return loader;
}

/**
 * Loads everything loaded on demand now. For the test world only: each of its clients is a module instance of its
 * own, and an `import()` made later would bind the loaded file to whichever instance was loaded last.
 */
export async function loadAllOnDemand(): Promise<void> {
  await Promise.all(loaders.map((l) => l()));
}
