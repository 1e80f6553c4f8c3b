// Unit and integration tests run under plain Node (no Electron, no DOM).
// The browser UI is tested separately by Playwright (test/e2e, see playwright.config.ts).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**', 'out/**', 'test-results/**'],
    // Child processes rather than worker threads: native addons (better-sqlite3, keytar)
    // are safest loaded once per process.
    pool: 'forks',
    // Integration tests talk to the simulator over loopback HTTP and to the OS keychain;
    // a slow 2-core CI box needs headroom.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    teardownTimeout: 10_000,
  },
})
