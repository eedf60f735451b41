import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/s3-server-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // The suites share one S3 server; each works in buckets of its own.
          fileParallelism: true,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/e2e-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // One browser, one host, one story at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
