/** The manifest derived at build time: version from package.json, release URLs from its repository, never faked. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { manifestFor, repositoryUrl } from "../scripts/build.mjs";
import { ROOT } from "./fake/handlebars.js";

const source = JSON.parse(readFileSync(join(ROOT, "module.json"), "utf8")) as Record<string, unknown>;

describe("module.json at build time", () => {
  it("takes its version from package.json and leaves the URLs out without a repository", () => {
    const m = manifestFor(source, { version: "1.2.3" }) as Record<string, unknown>;
    expect(m.version).toBe("1.2.3");
    expect(m.url).toBeUndefined();
    expect(m.manifest).toBeUndefined();
    expect(m.download).toBeUndefined();
  });

  it("derives url, manifest (latest release) and download (the version's tag) from the repository", () => {
    const m = manifestFor(source, { version: "1.2.3", repository: { type: "git", url: "git+https://github.com/jdr-fr/aventure.git" } }) as Record<string, unknown>;
    expect(m.url).toBe("https://github.com/jdr-fr/aventure");
    expect(m.manifest).toBe("https://github.com/jdr-fr/aventure/releases/latest/download/module.json");
    expect(m.download).toBe("https://github.com/jdr-fr/aventure/releases/download/v1.2.3/aventure.zip");
  });

  it("understands the short repository forms", () => {
    expect(repositoryUrl({ repository: "github:jdr-fr/aventure" })).toBe("https://github.com/jdr-fr/aventure");
    expect(repositoryUrl({ repository: "jdr-fr/aventure" })).toBe("https://github.com/jdr-fr/aventure");
    expect(repositoryUrl({})).toBeNull();
  });

  it("declares Foundry v13 as minimum and verified, with no maximum, and no socket (queries are used)", () => {
    expect(source.compatibility).toEqual({ minimum: "13", verified: "13" });
    expect(source.socket).toBeUndefined();
  });
});
