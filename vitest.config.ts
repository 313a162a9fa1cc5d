import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    // A test world boots a whole client per user; on a loaded 2-core machine that can pass 5 s (the default).
    testTimeout: 20_000,
    include: ["test/**/*.test.ts"],
    // Expected error logs (a crash or a refused write a test injected) are captured, not printed.
    setupFiles: ["test/setup/quiet.ts"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
});
