// `npm run dev`: the API server (restarted on change by tsx watch) and Vite's dev server with
// hot reload, which proxies /api to it. Open http://localhost:5173.
import { spawn } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development' },
  }),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], {
    cwd: root,
    stdio: 'inherit',
  }),
]

const stop = () => {
  for (const child of children) child.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children) {
  child.on('exit', (code) => {
    stop()
    process.exitCode = code ?? 0
  })
}
