// The end-to-end web server: `npm start` on a throwaway data directory, sending its mail to a
// real SMTP server run by this harness. What that server receives is readable as JSON on
// E2E_MAIL_PORT, so tests can pick up e-mailed codes the way a person would.
import { mkdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { startTestSmtp } from '../../support/smtp'

import { e2eDataDir } from './data-dir'

// A known place (per port), so tests can run the operator command against this server.
const dataDir = e2eDataDir()
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })
process.env.DATA_DIR = dataDir
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }))

const smtp = await startTestSmtp()
process.env.SMTP_URL = smtp.url

const mailPort = Number(process.env.E2E_MAIL_PORT ?? 3112)
createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost')
  const to = url.searchParams.get('to')?.toLowerCase()
  const messages = smtp.messages.filter((message) => !to || message.to.includes(to))
  response.writeHead(200, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ messages }))
})
  .listen(mailPort, '127.0.0.1')
  .unref()

await import('../../../scripts/start')
