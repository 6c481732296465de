import { afterEach, beforeEach, expect, vi } from 'vitest'

// An unexpected console.error is a bug somebody will otherwise never read: fail the test.
let spy: ReturnType<typeof vi.spyOn>

beforeEach(() => {
  spy = vi.spyOn(console, 'error')
})

afterEach(() => {
  const calls = spy.mock.calls
  spy.mockRestore()
  expect(calls, 'console.error was called').toEqual([])
})
