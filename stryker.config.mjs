// Mutation testing of the rules engine (npm run mutate, see CONTRIBUTING.md).
// scripts/mutate.mjs runs Stryker once per file of src/rules/ with this configuration and its own `mutate`.
//
// Ignore list: mutants that cannot be killed are not listed here but next to the code, as a
// `// Stryker disable next-line <mutator>: <reason>` comment, so the reason stays with the line it excuses.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.mjs", related: false },
  coverageAnalysis: "perTest",
  concurrency: 1,
  timeoutMS: 10_000,
  reporters: ["html", "json", "progress"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  incremental: false,
  ignorePatterns: ["dist", "screenshots", "coverage", "reports", ".vite", "bench", "test/browser"],
};
