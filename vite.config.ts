/**
 * Build: src/module.ts → dist/aventure.js (ES module, minified, source map, class names kept: Foundry derives
 * render<ClassName> hook names from them) and dist/aventure-quench.js (the in-world tests, loaded only with Quench). Dev: `npm run dev` serves /modules/aventure/ from source on
 * :30001 and proxies everything else, websockets included, to a local Foundry on :30000.
 */
import { defineConfig, type Plugin } from "vite";

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
  plugins: [serveEntryFromSource()],
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
      // Class names kept through minification (Foundry derives render<ClassName> hook names from them); the Quench
      // batches (src/quench/index.ts, imported on demand) in their own chunk, and each window imported on demand in
      // its own (aventure-<Window>.js).
      // What the entry and the batches share goes to aventure-common.js, loaded with the entry.
      output: {
        keepNames: true,
        chunkFileNames: (chunk: { isDynamicEntry?: boolean; name?: string }) =>
          chunk.isDynamicEntry
            ? chunk.name === "index"
              ? "aventure-quench.js"
              : "aventure-[name].js"
            : chunk.name === "rolldown-runtime"
              ? "aventure-runtime.js"
              : "aventure-common.js",
      } as Record<string, unknown>,
    },
  },
});
