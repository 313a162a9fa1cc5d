/**
 * Font Awesome Free for the browser checks (a devDependency, for the screenshots only: Foundry ships its own), its
 * fonts inlined as data URLs so a page set with `setContent` draws the icons.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

let faCss = "";
export function fontAwesome(): string {
  if (faCss) return faCss;
  const dir = join(createRequire(import.meta.url).resolve("@fortawesome/fontawesome-free/package.json"), "..");
  faCss = ["fontawesome", "solid", "regular"]
    .map((f) => readFileSync(join(dir, "css", `${f}.css`), "utf8"))
    .join("\n")
    .replace(/src:\s*url\("\.\.\/webfonts\/([\w-]+)\.woff2"\)[^;]*;/g, (_, font: string) => {
      const data = readFileSync(join(dir, "webfonts", `${font}.woff2`)).toString("base64");
      return `src: url(data:font/woff2;base64,${data}) format("woff2");`;
    });
  return faCss;
}
