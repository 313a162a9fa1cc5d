/**
 * Aventure's windows in the source tree: each window is a class in a file named after it (`PascalCase.ts`), in its
 * feature's folder (src/<feature>/), as CONTRIBUTING.md says.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./handlebars.js";

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Every window file under src/, as class name → path relative to the repository. */
export function windowFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of walk(join(ROOT, "src"))) {
    const m = /([A-Z]\w+)\.ts$/.exec(p);
    if (m) out.set(m[1]!, relative(ROOT, p).replaceAll("\\", "/"));
  }
  return out;
}
