// The linter of the browser client (src/spielcenter/web/static/js): ES modules in the browser,
// ESLint's recommended rules, plus what catches slips a no-build client cannot catch otherwise:
// a name never defined (no-undef over the browser's globals), one never used, a loose `==`.
// tests/unit/test_js_lint.py runs it (npm ci into ~/.cache/spielcenter, never the work tree).

import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: globals.browser,
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-unused-vars": "error",
      "no-undef": "error",
      eqeqeq: ["error", "always"],
    },
  },
];
