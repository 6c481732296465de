import { type Challenge, solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'

/**
 * happy-dom runs no workers, so the human check's solver (ALTCHA's PBKDF2 worker) is stood in
 * for by this class, which answers the same messages with altcha-lib's own solver in Node. The
 * box, the challenge from the real server and the payload it checks are all the real ones.
 */
export class SolverWorker {
  onmessage: ((message: { data: unknown }) => void) | null = null
  onerror: ((error: unknown) => void) | null = null
  private controller = new AbortController()

  postMessage(data: {
    type: string
    challenge: Challenge
    counterStart?: number
    counterStep?: number
  }) {
    if (data.type !== 'work') return
    solveChallenge({
      challenge: data.challenge,
      deriveKey,
      counterStart: data.counterStart,
      counterStep: data.counterStep,
      controller: this.controller,
    }).then(
      (solution) => this.onmessage?.({ data: solution }),
      (error: unknown) => this.onerror?.(error),
    )
  }

  terminate() {
    this.controller.abort()
  }
}
