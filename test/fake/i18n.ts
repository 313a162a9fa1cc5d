/** Translations backed by the real lang files; unknown keys throw (real Foundry would show the key). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./handlebars.js";

export type Lang = "en" | "fr";

export function flatten(obj: Record<string, unknown>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") Object.assign(out, flatten(v as Record<string, unknown>, key));
    else out[key] = String(v);
  }
  return out;
}

export function loadLang(lang: Lang): Record<string, string> {
  return flatten(JSON.parse(readFileSync(join(ROOT, "lang", `${lang}.json`), "utf8")));
}

export class FakeI18n {
  readonly translations: Record<string, string>;
  readonly used = new Set<string>();
  constructor(readonly lang: Lang = "en") {
    this.translations = loadLang(lang);
  }
  has(key: string): boolean {
    return key in this.translations;
  }
  localize(key: string): string {
    const v = this.translations[key];
    if (v === undefined) throw new Error(`Missing translation key: ${key}`);
    this.used.add(key);
    return v;
  }
  format(key: string, data: Record<string, unknown> = {}): string {
    return this.localize(key).replace(/\{(\w+)\}/g, (m, name: string) => {
      if (!(name in data)) throw new Error(`Missing format argument {${name}} for ${key}`);
      return String(data[name]);
    });
  }
}
