// Unit, integration and store contract tests (test/contract/store: docs/store.md) run under plain
// Node (no Electron, no DOM).
// The browser UI is tested separately by Playwright (test/e2e, see playwright.config.ts).
//
// Three projects: 'node' for everything but the store contract, 'contract' for that and the
// PostgreSQL store's own tests (they need a PostgreSQL cluster, started once per run), and 'svelte' for the specs of the renderer's rune stores
// (test/unit/**/*.svelte.test.ts, DESIGN.md "Store specs"), which import `.svelte.ts` modules
// that use $state and $derived. Those run under Node too, but compiled for the browser by the
// Svelte plugin and against Svelte's client runtime — see test/unit/stores/client-environment.ts.
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { defineConfig } from 'vitest/config'

const SVELTE_SPECS = 'test/unit/**/*.svelte.test.ts'
// Tests of the PostgreSQL store beyond the contract (several servers on one database).
const POSTGRES_TESTS = 'test/integration/store-postgres*.test.ts'

export default defineConfig({
  plugins: [svelte({ configFile: false })],
  test: {
    exclude: ['test/e2e/**', 'node_modules/**', 'out/**', 'test-results/**'],
    // Child processes rather than worker threads: native addons (better-sqlite3, keytar)
    // are safest loaded once per process.
    pool: 'forks',
    // Integration tests talk to the simulator over loopback HTTP and to the OS keychain;
    // a slow 2-core CI box needs headroom.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    teardownTimeout: 10_000,
    // As Playwright does in CI: a test that fails once is run again. One that then passes is
    // still named as flaky in npm test's summary (scripts/test-all.js), never hidden.
    retry: process.env.CI ? 1 : 0,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: [SVELTE_SPECS, POSTGRES_TESTS],
        },
      },
      {
        extends: true,
        // The store contract runs on every backend (test/contract/store/backends.ts), PostgreSQL
        // on one throwaway cluster per run, started only when a file of this project is in the run.
        test: {
          name: 'contract',
          environment: 'node',
          include: ['test/contract/**/*.test.ts', POSTGRES_TESTS],
          globalSetup: ['test/support/postgres-global-setup.ts'],
        },
      },
      {
        extends: true,
        // `svelte` (and esm-env) resolve to their browser builds, also where Node imports them
        // natively, so a spec's own `import { flushSync } from 'svelte'` is the client one.
        resolve: { conditions: ['browser'] },
        test: {
          name: 'svelte',
          environment: './test/unit/stores/client-environment.ts',
          include: [SVELTE_SPECS],
        },
      },
    ],
  },
})
