import { defineConfig } from 'vitest/config';

const rehearsing = process.env.COBRO_REHEARSAL === '1';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // A rehearsal function starts cold on its first call (a worker, its bundle parsed): a test that
    // walks through twenty functions for the first time needs longer than in-process.
    testTimeout: rehearsing ? 60_000 : 30_000,
    hookTimeout: 180_000,
    // Two cores: the CDK synth and DynamoDB Local compete; a small pool keeps timings stable.
    maxWorkers: 2,
  },
});
