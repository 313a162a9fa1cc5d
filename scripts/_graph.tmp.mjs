import { build } from "vite";
const want = process.argv.slice(2);
await build({
  configFile: "vite.config.ts",
  logLevel: "silent",
  root: process.cwd(),
  build: { outDir: "/tmp/bundle-size", write: false },
  plugins: [
    {
      name: "g",
      generateBundle() {
        for (const id of this.getModuleIds()) {
          const rel = id.replace(process.cwd() + "/", "");
          if (!want.some((w) => rel.includes(w))) continue;
          const i = this.getModuleInfo(id);
          console.log(
            rel,
            "<=",
            i.importers.map((x) => x.replace(process.cwd() + "/", "")).join(", "),
            "| dyn:",
            i.dynamicImporters.map((x) => x.replace(process.cwd() + "/", "")).join(", "),
          );
        }
      },
    },
  ],
});
