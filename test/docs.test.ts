/** Every export of the rules engine and every key of the module API is documented in docs/. */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import * as rules from "../src/rules/index.js";
import { ROOT } from "./fake/handlebars.js";
import { bootWorld } from "./world/index.js";

const docs = [join(ROOT, "docs/api.md"), ...readdirSync(join(ROOT, "docs/api")).map((f) => join(ROOT, "docs/api", f))]
  .map((f) => readFileSync(f, "utf8"))
  .join("\n");

describe("API documentation", () => {
  it("mentions every export of src/rules", () => {
    const missing = Object.keys(rules).filter((name) => !docs.includes(`\`${name}`) && !docs.includes(`${name}(`));
    expect(missing).toEqual([]);
  });

  it("mentions every key of the Foundry API object", async () => {
    const world = await bootWorld();
    const api = world.api<Record<string, unknown>>("gm1");
    const keys = Object.keys(api).filter((k) => k !== "rules");
    expect(keys.length).toBeGreaterThan(0);
    const missing = keys.filter((k) => !docs.includes(`api.${k}`));
    expect(missing).toEqual([]);
  });
});
