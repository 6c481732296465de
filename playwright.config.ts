import { defineConfig, devices } from '@playwright/test'
import { BASE_URL as baseURL, E2E_PORT as PORT } from './tests/e2e/support/base-url'
import { CHROMIUM_ARGS } from './tests/e2e/support/chromium'

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: 2,
  // Bounds, not waits: a passing test takes what it needs. On two shared cores (and under
  // stress-ng) a cold page load with its chunks and API calls can take several seconds, so the
  // budgets leave room for that rather than Playwright's defaults (30 s, 5 s).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  globalSetup: './tests/e2e/support/global-setup.ts',
  use: {
    baseURL,
    // Recording a trace for every test (to keep the failures' ones) cost about a quarter of the
    // suite's time on two cores (ADR 0022). A failure still leaves its screenshot and the page's
    // accessibility snapshot; E2E_TRACE=1 records traces again to look into one.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
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
