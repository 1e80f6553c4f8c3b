// The Vitest environment of the rune-store specs (vitest.config.ts, project 'svelte'): Vitest's
// Node environment — no DOM, no jsdom — whose modules go through Vite's *client* transform, as
// jsdom's do. vite-plugin-svelte then compiles `.svelte.ts` modules for the browser, and
// `svelte` resolves to its client runtime: the $state and $derived the renderer really runs
// (under the default 'ssr' transform a $state is a plain field and flushSync does nothing).
import { builtinEnvironments, type Environment } from 'vitest/runtime'

export default { ...builtinEnvironments.node, name: 'svelte-client', viteEnvironment: 'client' } satisfies Environment
