// Vitest configuration for mutation testing (npm run mutate): the fast rules tests only.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 20_000,
    include: ["test/rules/**/*.test.ts"],
    setupFiles: ["test/setup/quiet.ts"],
  },
});
