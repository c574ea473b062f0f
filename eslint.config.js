// @ts-check
// The house rules, checked by `npm run lint` (part of `npm test`). Formatting is Prettier's
// (`npm run format:check`); eslint-config-prettier turns off every rule that would fight it.
// The one-way dependency rule is dependency-cruiser's (.dependency-cruiser.cjs), not ESLint's.
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments'
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'native/**',
      'coverage/**',
      'test-artifacts/**',
      'test-results/**',
      'bench/results/**',
      'test/architecture/fixtures/**',
      // electron-vite's temporary bundle of its config, present only while a build runs.
      'electron.vite.config.ts.*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The two programs of the type checks: Node (main, service, tests) and the web (renderer).
        project: ['./tsconfig.node.json', './tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `import type` for types; `typeof import('undici')` stays allowed: it names a lazily loaded module.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Passing on what a catch caught (unknown) is right; inventing an Error around it is not.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `let x` read by a handler declared before x is assigned (handlers go in first) cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // An async function without await is a contract here, not a slip: Fastify handlers return
      // their answer from an async function, and the storage port is async over a sync driver.
      '@typescript-eslint/require-await': 'off',
      // Callbacks in props and option types are declared with method shorthand (`onChange(v): void`)
      // and are always called detached; no class here hands out a method that uses `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Tests and benchmarks read untyped JSON answers (`response.json()`) and check them with expect.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript outside both tsconfigs: syntax rules only, no type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    // Node-side source (everything but the renderer, which has its own block): no `!`, and sizes
    // a reader can hold. A `!` asserts what the code did not check; narrow, throw a named error,
    // or say why with an eslint-disable reason.
    files: ['src/**/*.ts'],
    ignores: ['src/renderer/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      // Raw lines: a file past 600 holds more than one concern; a function past 150 (code only) more than one step.
      'max-lines': ['error', { max: 600 }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // The audio and text-analysis engines walk typed arrays and token lists by index; inside a
    // bounds-checked loop `samples[i]!` is the honest form, and a check per sample would only add noise.
    files: ['src/engines/audio/**', 'src/engines/ai-content/**', 'src/engines/dialogue/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Every eslint-disable says why (`// eslint-disable-next-line rule -- reason`), so the next reader
    // can judge whether the reason still holds.
    files: ['src/**', 'test/**', 'bench/**'],
    plugins: { '@eslint-community/eslint-comments': eslintComments },
    rules: { '@eslint-community/eslint-comments/require-description': 'error' },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: globals.browser },
    rules: {
      // Only a build that runs the React Compiler needs to hear which libraries it skips; ours does not.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    // Size and honesty rules, the renderer first (issue 24); the other folders of src follow.
    // A `!` tells the compiler "trust me" where a check, a named error or a truer type would say
    // why; a component over 150 lines or a file over 600 is several rooms that want their own names.
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true }],
      'max-lines': ['error', { max: 600 }],
    },
  },
  prettier,
)
