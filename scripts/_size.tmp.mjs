import { build } from "vite";
import { gzipSync } from "node:zlib";
const rows = [];
await build({
  configFile: "vite.config.ts",
  logLevel: "silent",
  root: process.cwd(),
  build: { outDir: "/tmp/bundle-size", write: false },
  plugins: [
    {
      name: "size",
      generateBundle(_o, bundle) {
        for (const [f, c] of Object.entries(bundle))
          if (c.type === "chunk") {
            for (const [id, m] of Object.entries(c.modules))
              rows.push([f, id.replace(process.cwd() + "/", ""), m.renderedLength]);
          }
      },
    },
  ],
});
rows.sort((a, b) => b[2] - a[2]);
const byFile = {};
for (const r of rows) byFile[r[0]] = (byFile[r[0]] ?? 0) + r[2];
console.log(byFile);
for (const r of rows.filter((r) => r[0] !== "aventure-quench.js").slice(0, +(process.argv[2] ?? 80)))
  console.log(String(r[2]).padStart(7), r[0].padEnd(22), r[1]);
