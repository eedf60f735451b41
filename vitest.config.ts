import { defineConfig } from 'vitest/config';

// expect.poll gives up after 1 s by default: on a loaded 2-core CI machine a host, a browser and a
// store can each take longer than that to catch up. A longer wait costs only tests that fail.
const pollingUnderLoad = { poll: { timeout: 15_000 } };

export default defineConfig({
  test: {
    projects: [
      // Under the unit tests' 5 s limit, so that a poll that gives up says what it waited for.
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], expect: { poll: { timeout: 4_000 } } } },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/s3-server-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: pollingUnderLoad,
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
          expect: pollingUnderLoad,
          // One browser, one host, one story at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
