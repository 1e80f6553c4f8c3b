// End-to-end UI tests: Playwright drives Debian's Chromium against the browser host.
// The tests start the browser host themselves (no webServer here). Never run
// `npx playwright install`: there is no download access; the system Chromium is used.
import { defineConfig } from '@playwright/test'

const isCI = Boolean(process.env.CI)

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  // Playwright empties this directory at the start of a run.
  outputDir: 'test-results',
  workers: 1,
  fullyParallel: false,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  // scripts/test-all.js reads the JSON report to count results.
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    headless: true,
    // The app's theme follows the system by default: the specs' system is a dark NOC room, as the
    // screenshots always were; theme.spec.ts emulates light and forced colours on its own pages.
    colorScheme: 'dark',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
})
