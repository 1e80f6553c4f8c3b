// The README's pictures, taken from the real app on the incident desk (`npm run screenshots`):
// the same Chromium and flags as the end-to-end tests, writing into docs/images/. Not a test:
// `npm test` never runs it, and it changes files of the repository on purpose.
import { defineConfig } from '@playwright/test'
import base from '../../playwright.config'

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.shots.ts',
  outputDir: '../../test-results/screenshots-run',
  retries: 0,
  timeout: 240_000,
  reporter: [['list']]
})
