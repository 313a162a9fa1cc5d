/**
 * ESLint (typescript-eslint's recommended rules) over the module, its tests and its scripts; formatting is Prettier's
 * (.prettierrc.json: 120 columns), so eslint-config-prettier turns the stylistic rules off. Run by `npm test` (`npm run lint`).
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "coverage/**",
      "reports/**",
      "screenshots/**",
      ".stryker-tmp/**",
      "packs/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore names a parameter a signature needs but the body does not use (Foundry's hook arguments).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
    },
  },
  // Node scripts and the build's sources.
  {
    files: ["scripts/**/*.mjs", "packs-src/**/*.mjs", "*.mjs", "*.config.*"],
    languageOptions: { globals: globals.node },
  },
  // Scripts the browser check evaluates inside the page (a function expression given to page.evaluate).
  {
    files: ["test/browser/**/*.js"],
    languageOptions: { globals: globals.browser },
    rules: { "@typescript-eslint/no-unused-expressions": "off" },
  },
  prettier,
  // Prettier wraps code at 120 columns but never a comment: comments in src/ are held to 120 too (a string, a template
  // or a trailing comment after code is Prettier's to place).
  {
    files: ["src/**/*.ts"],
    rules: {
      "max-len": [
        "error",
        {
          code: 120,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
          ignoreTrailingComments: true,
        },
      ],
    },
  },
);
