import { defineConfig } from 'vitest/config';

/**
 * Suites that need the in-process stack, left out when COBRO_REHEARSAL=1 runs the API suites against
 * a rehearsal stack: money-integrity arms the simulated acquirer's faults through the control
 * server, and those live in the stack's own process, which rehearsal functions (each its own
 * bundle, in its own worker) never read.
 */
const inProcessOnly = ['test/api/money-integrity.test.ts'];
const rehearsing = process.env.COBRO_REHEARSAL === '1';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(rehearsing ? inProcessOnly : [])],
    globalSetup: ['test/support/global-setup.ts'],
    // A rehearsal function starts cold on its first call (a worker, its bundle parsed): a test that
    // walks through twenty functions for the first time needs longer than in-process.
    testTimeout: rehearsing ? 60_000 : 30_000,
    hookTimeout: 180_000,
    // Two cores: the CDK synth and DynamoDB Local compete; a small pool keeps timings stable.
    maxWorkers: 2,
  },
});
