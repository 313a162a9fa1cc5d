#!/usr/bin/env node
// Mutation testing of the rules engine: `npm run mutate [src/rules/file.ts ...]`.
// `--ignore-static`: leave out the static mutants (module-level tables and constants, whose every mutant reruns all
// the tests: most of the time of a file); they then count as ignored, not valid. The release run counts them.
// Runs Stryker (stryker.config.mjs) once per file of src/rules/ (default: every file) against the fast tests
// (test/rules/), one at a time with one worker, writes each file's HTML and JSON reports under reports/mutation/,
// then prints a table per file: killed + timed out over valid mutants (valid = killed, timed out, survived,
// not covered; compile and runtime errors and mutants disabled by a `Stryker disable` comment are not valid).
// Not part of `npm test` (minutes per file): run it before a release; docs/mutation.md keeps the latest figures.
import { readdirSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { Stryker } from "@stryker-mutator/core";

const GOAL = 90;
const RULES = "src/rules";
const OUT = "reports/mutation";

const argv = process.argv.slice(2);
const ignoreStatic = argv.includes("--ignore-static");
const args = argv.filter((a) => a !== "--ignore-static");
const files = (
  args.length > 0
    ? args
    : readdirSync(RULES)
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join(RULES, f))
).map((f) => relative(process.cwd(), f).replaceAll("\\", "/"));
for (const f of files) {
  if (!f.startsWith(`${RULES}/`) || !f.endsWith(".ts")) {
    console.error(`mutate: ${f} is not a file of ${RULES}/`);
    process.exit(2);
  }
}
mkdirSync(OUT, { recursive: true });

const VALID = new Set(["Killed", "Timeout", "Survived", "NoCoverage"]);
const rows = [];
for (const file of files) {
  const name = basename(file, ".ts");
  console.log(`\n=== ${file}`);
  const stryker = new Stryker({
    configFile: "stryker.config.mjs",
    mutate: [file],
    ignoreStatic,
    htmlReporter: { fileName: `${OUT}/${name}.html` },
    jsonReporter: { fileName: `${OUT}/${name}.json` },
  });
  const results = await stryker.runMutationTest();
  const count = (s) => results.filter((r) => r.status === s).length;
  const valid = results.filter((r) => VALID.has(r.status)).length;
  const caught = count("Killed") + count("Timeout");
  const score = valid === 0 ? 100 : (100 * caught) / valid;
  rows.push({
    file,
    caught,
    valid,
    survived: count("Survived"),
    noCoverage: count("NoCoverage"),
    ignored: count("Ignored"),
    score,
  });
  const survivors = results.filter((r) => r.status === "Survived" || r.status === "NoCoverage");
  writeFileSync(
    `${OUT}/${name}.survivors.txt`,
    survivors
      .map(
        (r) =>
          `${r.location.start.line}:${r.location.start.column} ${r.status} ${r.mutatorName}: ${JSON.stringify(r.replacement)}`,
      )
      .join("\n") + "\n",
  );
}

const pad = (s, n) => String(s).padEnd(n);
const lines = [
  `${pad("file", 28)} ${pad("killed+timeout / valid", 24)} ${pad("score", 8)} ${pad("survived", 9)} ${pad("no cover", 9)} ignored`,
  ...rows.map(
    (r) =>
      `${pad(r.file, 28)} ${pad(`${r.caught} / ${r.valid}`, 24)} ${pad(`${r.score.toFixed(1)} %`, 8)} ${pad(r.survived, 9)} ${pad(r.noCoverage, 9)} ${r.ignored}${r.score < GOAL ? `  below ${GOAL} %` : ""}`,
  ),
];
console.log(`\n${lines.join("\n")}\n\nReports: ${OUT}/<file>.html, <file>.json, <file>.survivors.txt`);
writeFileSync(`${OUT}/summary.txt`, `${lines.join("\n")}\n`);
process.exitCode = rows.some((r) => r.score < GOAL) ? 1 : 0;
