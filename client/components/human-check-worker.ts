// The human check's solver: ALTCHA's own PBKDF2 worker, which answers `{ type: 'work' }`
// messages on its own once loaded. A file of ours so the component can start it with
// `new Worker(new URL(…))`, which Vite bundles and tests can stand in for.
import 'altcha/workers/pbkdf2'
