/**
 * npm run bundle:report: what takes the space in the bundle, by source file (its length in the output before
 * minification, as the bundler reports it), grouped by the file that ships it: aventure-common.js is what every
 * client loads with aventure.js, the others load on demand. Writes nothing (the build is kept in memory).
 * `npm run bundle:report -- 40` shows the 40 biggest sources of each file (default 15).
 */
import { build } from "vite";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const top = Number(process.argv[2] ?? 15);
const files = new Map();
await build({
  configFile: join(ROOT, "vite.config.ts"),
  root: ROOT,
  logLevel: "warn",
  build: { write: false },
  plugins: [
    {
      name: "aventure-bundle-report",
      generateBundle(_options, bundle) {
        for (const [name, out] of Object.entries(bundle)) {
          if (out.type !== "chunk") continue;
          const sources = Object.entries(out.modules).map(([id, m]) => [
            relative(ROOT, id).replaceAll("\\", "/"),
            m.renderedLength,
          ]);
          files.set(
            name,
            sources.sort((a, b) => b[1] - a[1]),
          );
        }
      },
    },
  ],
});
const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(9);
for (const [name, sources] of [...files].sort((a, b) => a[0].localeCompare(b[0]))) {
  console.log(`${name}: ${kb(sources.reduce((a, s) => a + s[1], 0))} before minification, ${sources.length} sources`);
  for (const [source, length] of sources.slice(0, top)) console.log(`  ${kb(length)}  ${source}`);
}
