/**
 * Build: src/module.ts → dist/aventure.js (ES module, minified, source map, class names kept: Foundry derives
 * render<ClassName> hook names from them) with dist/aventure-common.js, everything it imports statically: what every
 * client loads. The rest is loaded on demand (src/core/on-demand.ts), one file each: a window,
 * dist/aventure-<Window>.js; a GM executor, dist/aventure-<file>.js; what several of them share,
 * dist/aventure-shared-<name>.js; the in-world tests, dist/aventure-quench.js (only with Quench).
 * Dev: `npm run dev` serves /modules/aventure/ from source on :30001 and proxies everything else, websockets
 * included, to a local Foundry on :30000.
 */
import { resolve } from "node:path";
import { defineConfig, type Plugin } from "vite";

const ENTRY = resolve(import.meta.dirname, "src/module.ts");

interface GraphInfo {
  importedIds: readonly string[];
}
/** The modules the entry imports statically, directly or not: what every client loads. */
function staticGraph(getModuleInfo: (id: string) => GraphInfo | null): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const d of getModuleInfo(id)?.importedIds ?? []) visit(d);
  };
  visit(ENTRY);
  return seen;
}
/** The entry's static graph, computed once per build (when the chunks are made). */
let loadedByEveryClient: Set<string> | null = null;
const forgetGraph: Plugin = { name: "aventure-static-graph", buildStart: () => void (loadedByEveryClient = null) };

/**
 * The name of a file loaded on demand, from its source: a window keeps its class's name (src/travel/TravelDialog.ts →
 * TravelDialog), any other file gets its feature's (src/travel/apply.ts → travel-apply; src/encounter/encounter.ts →
 * encounter), the Quench batches "quench".
 */
function onDemandName(source: string): string {
  const m = /src\/([^/]+)\/(?:.*\/)?([^/]+)\.ts$/.exec(source.replaceAll("\\", "/"));
  if (!m) return "[name]";
  const [, feature, file] = m as unknown as [string, string, string];
  if (feature === "quench") return "quench";
  return /^[A-Z]/.test(file) ? file : file === feature ? feature : `${feature}-${file}`;
}

/** What files loaded on demand share (src/travel/travel-context.ts…): named after their features (shared-travel). */
function sharedName(sources: readonly string[]): string {
  const features = new Set(sources.flatMap((s) => /src\/([^/]+)\//.exec(s.replaceAll("\\", "/"))?.[1] ?? []));
  return [...features].sort().join("-") || "[name]";
}

/** In dev, Foundry asks for the built entry: serve the TypeScript source instead. */
function serveEntryFromSource(): Plugin {
  return {
    name: "aventure-dev-entry",
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url?.startsWith("/modules/aventure/aventure.js")) req.url = "/modules/aventure/src/module.ts";
        next();
      });
    },
  };
}

export default defineConfig({
  publicDir: false,
  plugins: [serveEntryFromSource(), forgetGraph],
  base: "/modules/aventure/",
  server: {
    port: 30001,
    open: false,
    proxy: {
      "^(?!/modules/aventure/)": "http://localhost:30000/",
      "/socket.io": { target: "ws://localhost:30000", ws: true },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    sourcemap: true,
    minify: true,
    target: "es2022",
    lib: {
      entry: "src/module.ts",
      formats: ["es"],
      fileName: () => "aventure.js",
    },
    rollupOptions: {
      // Class names kept through minification (Foundry derives render<ClassName> hook names from them; the
      // bundler's keepNames keeps the names it changes, the minifier's those of classes); whitespace removed too (Vite
      // keeps it for an ES library, which this is not: Foundry loads it as is).
      output: {
        keepNames: true,
        minify: {
          compress: true,
          mangle: { toplevel: true, keepNames: { function: false, class: true } },
          codegen: { removeWhitespace: true },
        },
        codeSplitting: {
          groups: [
            {
              // Everything the entry imports statically, in one file (one request, one gzip stream), whoever else
              // imports it too.
              debugName: "common",
              name: (id: string, ctx: { getModuleInfo(id: string): GraphInfo | null }) =>
                id !== ENTRY &&
                (id.includes("rolldown/runtime") ||
                  (loadedByEveryClient ??= staticGraph((m) => ctx.getModuleInfo(m))).has(id))
                  ? "common"
                  : null,
            },
          ],
        },
        chunkFileNames: (chunk: {
          isDynamicEntry?: boolean;
          name?: string;
          facadeModuleId?: string | null;
          moduleIds?: readonly string[];
        }) =>
          chunk.isDynamicEntry
            ? `aventure-${onDemandName(chunk.facadeModuleId ?? "")}.js`
            : chunk.name === "common"
              ? "aventure-common.js"
              : chunk.name === "rolldown-runtime"
                ? "aventure-runtime.js"
                : `aventure-shared-${sharedName(chunk.moduleIds ?? [])}.js`,
      } as Record<string, unknown>,
    },
  },
});
