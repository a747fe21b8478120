// ESLint flat config: typescript-eslint's type-aware rules over every package, plus import cycles.
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.nx/**", "**/coverage/**", "bench/tmp/**", ".servicenet/**"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each package's tsconfig.test.json covers its sources, tests, benches and Vitest configs;
        // tsconfig.tools.json covers the root scripts and this file.
        project: ["packages/*/tsconfig.test.json", "tsconfig.tools.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".mts", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".mts"] },
      "import-x/resolver-next": [importX.createNodeResolver({ extensions: [".ts", ".js", ".mjs"] })],
    },
    rules: {
      "import-x/no-cycle": "error",
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
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
);
