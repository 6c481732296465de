import { defineConfig } from 'vitest/config'

// Vitest gets its own config (the client's Vite root is client/, which would hide the tests).
// Two projects: fast pure unit tests, and integration tests that open a real database and
// talk HTTP through Fastify's inject. CI runs the integration project a second time against
// PostgreSQL by setting TEST_DATABASE_URL.
export default defineConfig({
  test: {
    reporters: ['default'],
    // Two cores: more workers only make PGlite-heavy files fight for them.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          root: '.',
          include: ['{domain,server,db,client,scripts}/**/*.test.{ts,tsx}'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          environment: 'node',
          setupFiles: ['tests/support/fail-on-console-error.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          root: '.',
          include: ['{server,db,tests}/**/*.int.test.ts'],
          environment: 'node',
          setupFiles: ['tests/support/fail-on-console-error.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
