import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'
import { SolverWorker } from './lib/testing/solver-worker'

// happy-dom has no workers; the human check's solver runs in Node instead (solver-worker.ts).
globalThis.Worker = SolverWorker as unknown as typeof Worker

// Each component test starts from an empty document and its own storage.
afterEach(() => {
  cleanup()
  localStorage.clear()
  sessionStorage.clear()
})
