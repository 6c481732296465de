import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS } from './tests/e2e/support/chromium'

const PORT = Number(process.env.E2E_PORT ?? 3111)
const baseURL = `http://localhost:${PORT}`

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  globalSetup: './tests/e2e/support/global-setup.ts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], channel: undefined },
      testIgnore: /.*\.mobile\.spec\.ts/,
    },
    {
      name: 'phone',
      use: { ...devices['Pixel 7'], channel: undefined },
      testMatch: /.*\.mobile\.spec\.ts/,
    },
  ],
  webServer: {
    command: 'node --import tsx tests/e2e/support/serve.ts',
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: String(PORT),
      NODE_ENV: 'test',
      CAPTCHA_COST: '1000',
      // Rate limits are keyed by client address (10 sign-up mails an hour, 30 sign-ins per
      // 15 minutes…). Believing X-Forwarded-For from this machine lets a test act as its own
      // visitor (tests/e2e/support/accounts.ts `ownClientAddress`); tests that send none share
      // the loopback address as before.
      TRUST_PROXY: '127.0.0.1,::1',
      LOG_LEVEL: 'warn',
    },
  },
})
