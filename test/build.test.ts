/**
 * The manifest derived at build time: version from package.json; url/manifest/download only in a release build,
 * from the release's environment (repository and tag), never guessed; and the dist check of those URLs.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { manifestFor, releaseUrls, urlProblems } from "../scripts/manifest.mjs";
import { CLIENT_LOAD_BUDGET, clientLoad } from "../scripts/build.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const source = JSON.parse(readFileSync(join(ROOT, "module.json"), "utf8")) as Record<string, unknown>;

/** What GitHub Actions sets for a run of release.yml on the tag v1.2.3 of a fork. */
const RELEASE = {
  GITHUB_REF_TYPE: "tag",
  GITHUB_REF_NAME: "v1.2.3",
  GITHUB_REPOSITORY: "a-fork/aventure",
  GITHUB_SERVER_URL: "https://github.com",
};

describe("module.json at build time", () => {
  it("takes its version from package.json and writes no URL outside a release (local build, CI on a branch)", () => {
    for (const env of [
      {},
      { GITHUB_REF_TYPE: "branch", GITHUB_REF_NAME: "main", GITHUB_REPOSITORY: "a-fork/aventure" },
    ]) {
      const m = manifestFor({ ...source, url: "https://example.invalid", manifest: "x", download: "y" }, "1.2.3", env);
      expect(m.version).toBe("1.2.3");
      expect(m.url).toBeUndefined();
      expect(m.manifest).toBeUndefined();
      expect(m.download).toBeUndefined();
      expect(urlProblems(m, "1.2.3", env)).toEqual([]);
    }
  });

  it("in a release, takes url, manifest (latest release) and download (this tag's zip) from the repository and tag", () => {
    const m = manifestFor(source, "1.2.3", RELEASE);
    expect(m.url).toBe("https://github.com/a-fork/aventure");
    expect(m.manifest).toBe("https://github.com/a-fork/aventure/releases/latest/download/module.json");
    expect(m.download).toBe("https://github.com/a-fork/aventure/releases/download/v1.2.3/aventure.zip");
    expect(urlProblems(m, "1.2.3", RELEASE)).toEqual([]);
    // Another GitHub server (GitHub Enterprise) is followed too.
    expect(releaseUrls({ ...RELEASE, GITHUB_SERVER_URL: "https://git.example.org/" }, "1.2.3")?.manifest).toBe(
      "https://git.example.org/a-fork/aventure/releases/latest/download/module.json",
    );
  });

  it("refuses a release whose tag is not v<version> or whose repository is unreadable", () => {
    expect(() => releaseUrls({ ...RELEASE, GITHUB_REF_NAME: "v1.2.4" }, "1.2.3")).toThrow(/v1\.2\.3/);
    expect(() => releaseUrls({ ...RELEASE, GITHUB_REPOSITORY: "" }, "1.2.3")).toThrow(/owner\/name/);
    expect(() => manifestFor(source, "1.2.3", { ...RELEASE, GITHUB_REF_NAME: "1.2.3" })).toThrow();
  });

  it("the dist check finds URLs that are missing, partial or inconsistent", () => {
    const good = manifestFor(source, "1.2.3", RELEASE);
    // A release build without its URLs, or with another repository's.
    expect(urlProblems(manifestFor(source, "1.2.3", {}), "1.2.3", RELEASE)).toHaveLength(3);
    expect(
      urlProblems({ ...good, download: String(good.download).replace("a-fork", "someone") }, "1.2.3", RELEASE),
    ).toHaveLength(1);
    // Outside a release: none is fine, all three must agree when present.
    expect(urlProblems(good, "1.2.3", {})).toEqual([]);
    expect(urlProblems({ ...good, download: undefined }, "1.2.3", {})).toEqual([
      "module.json: url, manifest without download",
    ]);
    expect(urlProblems(good, "1.2.4", {})).toEqual([expect.stringContaining("tag v1.2.4")]);
    expect(
      urlProblems(
        { ...good, manifest: "https://github.com/a-fork/aventure/releases/download/v1.2.3/module.json" },
        "1.2.3",
        {},
      ),
    ).toHaveLength(1);
    expect(urlProblems({ ...good, url: "http://github.com/a-fork/aventure" }, "1.2.3", {}).length).toBeGreaterThan(0);
  });

  it("declares Foundry v13 as minimum and verified, with no maximum, and no socket (queries are used)", () => {
    expect(source.compatibility).toEqual({ minimum: "13", verified: "13" });
    expect(source.socket).toBeUndefined();
  });

  it("counts what every client loads: the entry and its static imports, not what it imports on demand", () => {
    const dir = mkdtempSync(join(tmpdir(), "aventure-load-"));
    const files = {
      // As the minifier writes them: static imports with quotes, dynamic ones with backquotes.
      "aventure.js": 'import"./aventure-runtime.js";import{a as e}from"./aventure-common.js";e();',
      "aventure-common.js": 'export{a};const a=()=>import(`./aventure-TravelDialog.js`);import"./aventure-runtime.js";',
      "aventure-runtime.js": "export const r=1;",
      "aventure-TravelDialog.js": 'import{a}from"./aventure-common.js";export class TravelDialog{}',
    };
    for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, name), code);
    const load = clientLoad(dir, "aventure.js");
    rmSync(dir, { recursive: true, force: true });
    expect(load.files).toEqual(["aventure.js", "aventure-runtime.js", "aventure-common.js"]);
    expect(load.bytes).toBe(files["aventure.js"].length + files["aventure-common.js"].length + 17);
    // The budget the build and the dist check hold it to (README, "For contributors").
    expect(CLIENT_LOAD_BUDGET).toBe(120 * 1024);
  });
});
