/**
 * `npm run screenshots`: test/docs/screenshots.ts alone, against a local stack the browser tests'
 * global setup starts and stops. Not part of `npm test` (its include names *.test.ts files only):
 * it writes files into docs/ rather than checking anything the suites do not.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    include: ['test/docs/screenshots.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 180_000,
    maxWorkers: 1,
  },
});
