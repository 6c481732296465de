import { defineConfig } from 'vitest/config'

// `npm run test:scale` (in .ci/run, not in `npm test`): two built servers behind nginx on this
// machine's PostgreSQL and Redis (tests/scale/cluster.ts). One file at a time: each starts a
// cluster of its own, which takes the machine's two cores.
export default defineConfig({
  test: {
    name: 'scale',
    root: '.',
    include: ['tests/scale/**/*.scale.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
    reporters: ['default'],
  },
})
