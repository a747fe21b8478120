// ESLint flat config: typescript-eslint's type-aware rules over every package (import cycles are
// scripts/check-cycles.mjs's job: it sees type-only imports too, and is much faster).
import { readdirSync } from "node:fs";
import tseslint from "typescript-eslint";

const root = import.meta.dirname;
const packages = readdirSync(`${root}/packages`);

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.nx/**", "**/coverage/**", "bench/tmp/**", ".servicenet/**"] },
  ...tseslint.configs.recommendedTypeChecked,
  // One TypeScript program per package: its tsconfig.test.json covers sources, tests, benches and Vitest
  // configs; tsconfig.tools.json covers the root scripts and this file.
  ...packages.map((p) => ({
    files: [`packages/${p}/**`],
    languageOptions: { parserOptions: { project: [`packages/${p}/tsconfig.test.json`], tsconfigRootDir: root } },
  })),
  { files: ["*.mjs", "scripts/**"], languageOptions: { parserOptions: { project: ["tsconfig.tools.json"], tsconfigRootDir: root } } },
  {
    rules: {
      // Off: decoded JSON, YAML and HTTP bodies are `any` by design and are checked by validation, not types.
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // Off: storage engines, allocators and test fakes implement Promise-returning interfaces with `async`
      // so that a synchronous throw (CompactedError, StatusError) reaches the caller as a rejection.
      "@typescript-eslint/require-await": "off",
      // TypeScript's own convention: a leading underscore marks a deliberately unused binding.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
);
