// Prints how long sign-up takes to answer for an address that has an account and for one that
// has none (issue 29: an outside probe measured 27 against 36 ms and could tell registered
// addresses apart). Both kinds are asked in pairs in a random order in the same run, on the
// embedded database, each request from a client address of its own so no limit answers instead;
// the figures are medians, and the median of the differences within pairs. Figures, not a test:
// server/features/auth/auth.int.test.ts checks that both do the same work.
// Run: node --import tsx scripts/bench/sign-up-timing.ts
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildApp } from '../../server/app'
import { loadConfig } from '../../server/config'
import { buildUser } from '../../tests/support/factories'
import { passHumanCheckIn } from '../../tests/support/human-check'
import { median } from './lib/stats'

const PAIRS = Number(process.env.PAIRS ?? 40)

const dataDir = mkdtempSync(path.join(tmpdir(), 'harmonize-bench-'))
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', CAPTCHA_COST: '1000' })
const app = await buildApp(config, { logger: false })
let requests = 0
try {
  const signUp = async (email: string) => {
    const n = ++requests
    const payload = {
      name: 'Bench Probe',
      email,
      password: 'Calm-Water-432',
      humanCheck: await passHumanCheckIn(app),
    }
    const started = performance.now()
    const response = await app.inject({
      method: 'POST',
      url: '/api/account/sign-up',
      payload,
      remoteAddress: `10.${100 + Math.floor(n / 60000)}.${Math.floor(n / 250) % 240}.${(n % 250) + 1}`,
    })
    const ms = performance.now() - started
    if (response.statusCode !== 200) throw new Error(`sign-up answered ${response.statusCode}`)
    return ms
  }
  const known: string[] = []
  for (let i = 0; i < PAIRS; i++) known.push((await buildUser(app)).user.email)
  for (let i = 0; i < 5; i++) await signUp(`warm-${i}@example.com`)
  const times = { known: [] as number[], fresh: [] as number[] }
  for (const email of known) {
    const fresh = `nobody-${randomBytes(6).toString('hex')}@example.com`
    if (Math.random() < 0.5) {
      times.known.push(await signUp(email))
      times.fresh.push(await signUp(fresh))
    } else {
      times.fresh.push(await signUp(fresh))
      times.known.push(await signUp(email))
    }
  }
  const differences = times.known.map((ms, i) => ms - (times.fresh[i] ?? 0))
  console.log(`Sign-up answer times, ${PAIRS} pairs in one run (median):`)
  console.log(`  registered address  ${median(times.known).toFixed(1)} ms`)
  console.log(`  new address         ${median(times.fresh).toFixed(1)} ms`)
  console.log(`  difference in pairs ${median(differences).toFixed(1)} ms (registered − new)`)
} finally {
  await app.close()
  rmSync(dataDir, { recursive: true, force: true })
}
