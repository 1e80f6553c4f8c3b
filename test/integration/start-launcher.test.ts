// `npm start` where no Electron binary exists: one clear line, then the browser host's URL.
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { electronBinary } from '../../scripts/lib/electron-runtime.js'
import { tempDirs } from '../support/temp-dirs'

const root = resolve(import.meta.dirname, '../..')
const tempDir = tempDirs('eventwatch-start-')

describe('electron runtime detection', () => {
  it('finds no binary without path.txt, or when path.txt names a missing file', () => {
    const dir = tempDir()
    expect(electronBinary(dir, {})).toBeNull()
    writeFileSync(join(dir, 'path.txt'), 'electron')
    expect(electronBinary(dir, {})).toBeNull()
  })

  it('finds the binary that path.txt names under dist/', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'path.txt'), 'electron')
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'dist', 'electron'), '')
    expect(electronBinary(dir, {})).toBe(join(dir, 'dist', 'electron'))
  })
})

describe('npm start without Electron', () => {
  it('says so in one line and serves the UI on 127.0.0.1', async () => {
    const home = tempDir()
    const child = spawn(process.execPath, [join(root, 'scripts', 'start.js'), '--port', '0', '--db', join(home, 'c.db')], {
      cwd: root,
      env: { ...process.env, HOME: home, EVENTWATCH_SKIP_ELECTRON_DOWNLOAD: '1', ELECTRON_OVERRIDE_DIST_PATH: join(home, 'none') },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in time:\n${stdout}\n${stderr}`)), 90_000)
        child.stdout.on('data', (c: Buffer) => {
          stdout += c.toString()
          const match = /serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(stdout)
          if (match?.[1]) {
            clearTimeout(timer)
            resolveUrl(match[1])
          }
        })
        child.once('exit', (code) => reject(new Error(`exited ${code}:\n${stdout}\n${stderr}`)))
      })
      const lines = stdout.trim().split('\n')
      expect(lines[0]).toMatch(/no Electron runtime here .* starting the browser host instead/)
      expect(stdout + stderr).not.toMatch(/\n\s+at /) // no stack trace
      // The printed address carries the launch's token; a script presents it as a Bearer header.
      const page = await fetch(new URL('/', url), { headers: { Authorization: `Bearer ${new URL(url).searchParams.get('token')}` } })
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('<div id="app">')
    } finally {
      child.kill('SIGTERM')
    }
  }, 120_000)
})
