// The end-to-end web server: the built client and the server's sources (not the compiled bundle
// `npm start` runs: the factories below need the app in this process) on a throwaway data
// directory, sending its mail to a real SMTP server run by this harness. Beside it, on a loopback-only harness port, the test
// factories run on the live app and what the SMTP server received is readable as JSON
// (tests/e2e/support/harness-server.ts).
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { buildClient, clientNeedsBuild } from '../../../scripts/build-client'
import { copyPgliteTemplate } from '../../support/pglite-template'
import { startTestSmtp } from '../../support/smtp'
import { e2eDataDir } from './data-dir'
import { harnessPort } from './harness-protocol'
import { startHarnessServer } from './harness-server'

const dataDir = e2eDataDir()
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })
process.env.DATA_DIR = dataDir
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }))
// The embedded database starts as a copy of the machine's migrated template (where the server
// would put it, DATA_DIR/pgdata) instead of a fresh initdb.
if (!process.env.DATABASE_URL) await copyPgliteTemplate(path.join(dataDir, 'pgdata'))

const smtp = await startTestSmtp()
process.env.SMTP_URL = smtp.url

if (clientNeedsBuild()) {
  process.stdout.write('Building the app (first start, or the sources changed)…\n')
  buildClient()
}
const { running } = await import('../../../server/server')
startHarnessServer(harnessPort(), smtp, running)
