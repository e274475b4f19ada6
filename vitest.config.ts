import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Two cores: the CDK synth and DynamoDB Local compete; a small pool keeps timings stable.
    maxWorkers: 2,
  },
});
