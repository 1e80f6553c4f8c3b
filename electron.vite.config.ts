// One config for the three builds: Electron main, the sandboxed preload, the Svelte renderer.
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { defineConfig } from 'electron-vite'
import { resolve } from 'node:path'

export default defineConfig({
  main: {
    // Native modules (better-sqlite3, keytar) and other dependencies load from node_modules;
    // keytar is an optional dependency, which electron-vite does not externalize by itself.
    build: {
      externalizeDeps: { include: ['keytar'] },
      // The cache writer runs on a worker thread from its own file beside index.js (viewer-writer.ts).
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          'viewer-writer-worker': resolve('src/main/core/store/viewer-writer-worker.ts')
        }
      }
    }
  },
  preload: {
    // A sandboxed preload cannot require() packages: bundle everything, emit CommonJS.
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [svelte()],
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } }
    }
  }
})
