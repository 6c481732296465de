// What other features may use of leaving: My Account's section, with its code and its texts
// in a chunk of their own (the sign-in page never loads them).

import { lazy } from 'react'
import { leavingTextsReady } from './texts'

/** "Your data": download my data, delete my account. Render inside a Suspense boundary. */
export const LeavingSection = lazy(() =>
  Promise.all([import('./components/leaving-section'), leavingTextsReady()]).then(([module]) => ({
    default: module.LeavingSection,
  })),
)
