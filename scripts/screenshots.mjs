/**
 * npm run screenshots: the browser check (Vitest with vitest.browser.config.ts, extra arguments passed on).
 * On a machine without Chromium its tests skip, saying why. With REQUIRE_BROWSER=1 (set by .ci/run when it
 * has a Chromium, and by the GitHub workflows) a skipped test, or a run where no browser test passed, fails:
 * CI and releases cannot go green without the browser check.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const required = process.env.REQUIRE_BROWSER === "1";
const dir = mkdtempSync(join(tmpdir(), "aventure-browser-"));
const report = join(dir, "report.json");

const run = spawnSync(
  process.execPath,
  [
    join(ROOT, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--config",
    "vitest.browser.config.ts",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: ROOT, stdio: "inherit" },
);
let counts = null;
try {
  counts = JSON.parse(readFileSync(report, "utf8"));
} catch {
  // no report: Vitest failed before running; its exit status says so
}
rmSync(dir, { recursive: true, force: true });

if (run.status !== 0) process.exit(run.status ?? 1);
if (required) {
  const skipped = counts ? counts.numPendingTests + counts.numTodoTests : NaN;
  if (!counts || skipped > 0 || counts.numPassedTests === 0) {
    console.error(
      `REQUIRE_BROWSER=1 but the browser check did not run (${counts ? `${counts.numPassedTests} passed, ${skipped} skipped` : "no report"}): ` +
        "install Chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chrome or Chromium executable.",
    );
    process.exit(1);
  }
  console.log(`browser check required and run: ${counts.numPassedTests} passed.`);
}
