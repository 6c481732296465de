import { defineConfig } from 'vitest/config'

// Vitest gets its own config (the client's Vite root is client/, which would hide the tests).
// Three projects: fast pure unit tests; component tests (`*.test.tsx`: React pieces rendered
// into a DOM with Testing Library, talking to a real server where they fetch); and integration
// tests that open a real database and talk HTTP through Fastify's inject. CI runs the
// integration project a second time against PostgreSQL by setting TEST_DATABASE_URL.
export default defineConfig({
  test: {
    reporters: ['default'],
    // Three on two cores: the integration files wait on timers and job polling for a fifth of
    // their time, and a third worker fills it (the whole run 212 s with two, 172 s with three,
    // 167 s with four, measured one after another on this machine).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          root: '.',
          // tests/content: checks over the texts of every part (medical-claims.test.ts).
          include: ['{domain,server,db,client,scripts}/**/*.test.ts', 'tests/content/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          environment: 'node',
          setupFiles: ['tests/support/fail-on-console-error.ts'],
        },
      },
      {
        test: {
          name: 'component',
          root: '.',
          include: ['client/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/support/fail-on-console-error.ts', 'client/test-setup.ts'],
          testTimeout: 30_000,
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
          // The files of a worker share its modules instead of importing the whole server again
          // for each (42 files; the project ran 187 and 199 s isolated, 117 and 135 s not, on two
          // shared cores). Each file already builds its own apps on its own database, and must
          // leave the process as it found it: apps closed, environments destroyed, spies, fake
          // timers and the umask put back. The console.error check still runs around each test.
          isolate: false,
          // Opening a fresh PGlite database took over a minute on a machine with every core
          // busy; the bound is for a hang, not for a slow start.
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
