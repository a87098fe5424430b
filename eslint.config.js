// Lint rules: type-aware typescript-eslint; process.env only in src/config.ts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  // test/fixtures scripts are pages' own JavaScript, run in Chromium by tests (modelled web apps), not project code.
  // clients/ts/src/schema.d.ts is generated from /openapi.json (a test holds it equal), not written by hand.
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'test/fixtures/**/*.js',
      'clients/ts/dist/**',
      'clients/ts/src/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '.dependency-cruiser.mjs', 'src/prestart.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify handlers and hooks are async by contract even when a body happens not to await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read config, not process.env (src/config.ts only).' },
      ],
    },
  },
  {
    files: ['src/config.ts', 'test/**', 'bench/**', 'vitest.config.ts', 'eslint.config.js', 'clients/ts/scripts/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.test.ts', 'test/**', '**/*.contract.ts'],
    rules: {
      // Tests inspect JSON bodies of unknown shape; asserting on them is the point.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
