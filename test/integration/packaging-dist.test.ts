// Packaging for real, without Electron: the fuse hook against stand-in executables, electron-builder
// itself packing the built app around a stand-in Electron, and `npm run dist` where Electron
// cannot be had (here, always).
import { execFile, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { createRequire } from 'node:module'
import { createServer as createNetServer } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { describe, expect, it } from 'vitest'
import afterPack from '../../scripts/packaging/after-pack.js'
import type { AfterPackContext } from '../../scripts/packaging/after-pack.js'
import { electronAvailability, electronZipName } from '../../scripts/packaging/electron-download.js'
import { FUSES } from '../../scripts/packaging/fuses.js'
import { tempDirs } from '../support/temp-dirs'

const root = resolve(import.meta.dirname, '../..')
const require = createRequire(import.meta.url)
const asar: { listPackage(file: string, options?: object): string[] } = createRequire(
  require.resolve('app-builder-lib/package.json')
)('@electron/asar')

const tempDir = tempDirs('eventwatch-dist-')

// ---------------------------------------------------------------------------------------------
// A stand-in Electron executable: bytes around the fuse wire as Electron lays it out
// (@electron/fuses: the sentinel, the wire version, its length, then one byte per fuse).

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
const ON = '1'.charCodeAt(0)
const OFF = '0'.charCodeAt(0)
// Electron's defaults, in FuseV1Options order: RunAsNode on, cookie encryption off,
// NODE_OPTIONS on, --inspect on, asar integrity off, only-asar off, V8 snapshot off, file:// on;
// a ninth fuse as a newer Electron might have, which must be left alone.
const DEFAULT_WIRE = '101100011'

function writeStandInElectron(file: string, wire = DEFAULT_WIRE): void {
  mkdirSync(dirname(file), { recursive: true })
  const fuses = Buffer.concat([Buffer.from(SENTINEL, 'ascii'), Buffer.from([1, wire.length]), Buffer.from(wire, 'ascii')])
  writeFileSync(file, Buffer.concat([Buffer.alloc(2048, 0x7f), fuses, Buffer.alloc(2048, 0x7f)]))
  chmodSync(file, 0o755)
}

/** Every fuse set as fuses.js says; the rest as Electron shipped them. */
async function expectFusesSet(executable: string): Promise<void> {
  const wire = (await getCurrentFuseWire(executable)) as unknown as Record<string, number>
  const expected: Record<number, number> = {}
  for (let i = 0; i < DEFAULT_WIRE.length; i++) expected[i] = DEFAULT_WIRE.charCodeAt(i)
  for (const [name, on] of Object.entries(FUSES)) expected[FuseV1Options[name as keyof typeof FuseV1Options]] = on ? ON : OFF
  const { version, ...states } = wire
  expect(version).toBe('1')
  expect(states).toEqual(expected)
  // Spelled out once, by name, for the reader.
  expect(states[FuseV1Options.RunAsNode]).toBe(OFF)
  expect(states[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(OFF)
  expect(states[FuseV1Options.EnableNodeCliInspectArguments]).toBe(OFF)
  expect(states[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ON)
  expect(states[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ON)
  expect(states[FuseV1Options.EnableCookieEncryption]).toBe(ON)
}

const context = (appOutDir: string, electronPlatformName: string, arch = 1): AfterPackContext => ({
  appOutDir,
  electronPlatformName,
  arch,
  packager: { appInfo: { productFilename: 'Eventwatch' }, executableName: 'eventwatch' }
})

describe('the afterPack hook', () => {
  it.each([
    ['linux', 'eventwatch', 'eventwatch'],
    ['win32', 'Eventwatch.exe', 'Eventwatch.exe'],
    // On macOS the wire is in the framework; @electron/fuses finds it from the .app.
    ['darwin', 'Eventwatch.app/Contents/Frameworks/Electron Framework.framework/Electron Framework', 'Eventwatch.app']
  ])('sets the fuses on the %s executable', async (platform, wireFile, executable) => {
    const out = tempDir()
    writeStandInElectron(join(out, wireFile))
    await afterPack(context(out, platform))
    await expectFusesSet(join(out, executable))
  })

  it('fails the build when the executable has no fuse wire', async () => {
    const out = tempDir()
    writeFileSync(join(out, 'eventwatch'), 'not electron')
    await expect(afterPack(context(out, 'linux'))).rejects.toThrow(/sentinel/)
  })

  it('refuses a platform it does not know', async () => {
    await expect(afterPack(context(tempDir(), 'beos'))).rejects.toThrow(/beos/)
  })
})

// ---------------------------------------------------------------------------------------------

describe('electron-builder with a stand-in Electron', () => {
  const BUILT = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']

  it('packs the built app into app.asar, unpacks the native modules and sets the fuses', async () => {
    for (const file of BUILT) expect(existsSync(join(root, file)), `${file} (run "npm run build" first)`).toBe(true)
    const electronDist = tempDir()
    writeStandInElectron(join(electronDist, 'electron'))
    writeFileSync(join(electronDist, 'LICENSE'), 'stand-in')
    const output = tempDir()

    // The real CLI and configuration; only the Electron runtime is a stand-in, and native
    // modules are not rebuilt (that needs Electron's headers from the network).
    await promisify(execFile)(
      process.execPath,
      [
        join(root, 'node_modules', 'electron-builder', 'cli.js'),
        '--linux',
        'dir',
        '--publish',
        'never',
        `--config.electronDist=${electronDist}`,
        '--config.npmRebuild=false',
        `--config.directories.output=${output}`
      ],
      { cwd: root, env: { ...process.env, CI: '1' }, maxBuffer: 16 * 1024 * 1024 }
    )

    const app = join(output, 'linux-unpacked')
    await expectFusesSet(join(app, 'eventwatch'))

    const entries = asar.listPackage(join(app, 'resources', 'app.asar'), { isPack: false }).map((e) => e.replaceAll('\\', '/'))
    for (const file of ['package.json', ...BUILT, 'resources/tray/tray-ok.png', 'resources/tray/tray-pausedTemplate@2x.png']) {
      expect(entries, file).toContain(`/${file}`)
    }
    expect(entries.filter((e) => e.startsWith('/resources/tray/') && e.endsWith('.png'))).toHaveLength(20)
    const strays = entries.filter((e) =>
      ['/src', '/test', '/scripts', '/out/cli', '/.native', '/resources/icon.png', '/resources/README.md', '/node_modules/tsx'].some(
        (prefix) => e === prefix || e.startsWith(`${prefix}/`)
      )
    )
    expect(strays).toEqual([])

    for (const binary of ['better-sqlite3/build/Release/better_sqlite3.node', 'keytar/build/Release/keytar.node']) {
      expect(existsSync(join(app, 'resources', 'app.asar.unpacked', 'node_modules', binary)), binary).toBe(true)
    }
    // Their build leftovers and sources stay behind.
    expect(existsSync(join(app, 'resources', 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'deps'))).toBe(false)
  }, 180_000)
})

// ---------------------------------------------------------------------------------------------

/** A loopback port nothing listens on: connections to it are refused at once. */
async function refusingPort(): Promise<number> {
  const server = createNetServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}

/** A mirror that has exactly the files named, counting requests. */
async function mirror(files: string[]): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    response.writeHead(files.includes(request.url ?? '') ? 200 : 404).end()
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}/`, requests, server }
}

const isolatedEnv = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
  const env = { ...process.env }
  for (const key of Object.keys(env)) {
    if (/^(npm_config_electron_mirror|electron_(mirror|cache|custom_dir|custom_filename)|https?_proxy)$/i.test(key)) delete env[key]
  }
  return { ...env, ...extra }
}

describe('can electron-builder get Electron?', () => {
  const targets = [{ platform: 'win32', arch: 'x64' }]
  const zip = electronZipName('40.1.0', 'win32', 'x64')

  it('yes, when the mirror has the zip (asked with one HEAD request)', async () => {
    const { url, requests, server } = await mirror([`/40.1.0/${zip}`])
    try {
      const env = isolatedEnv({ ELECTRON_MIRROR: url, ELECTRON_CACHE: tempDir() })
      await expect(electronAvailability({ version: '40.1.0', targets, env })).resolves.toEqual({ ok: true })
      expect(requests).toEqual([`HEAD /40.1.0/${zip}`])
    } finally {
      server.close()
    }
  })

  it('no, when the mirror does not have it', async () => {
    const { url, server } = await mirror([])
    try {
      const env = isolatedEnv({ ELECTRON_MIRROR: url, ELECTRON_CACHE: tempDir() })
      const result = await electronAvailability({ version: '40.1.0', targets, env })
      expect(result).toMatchObject({ ok: false, reason: expect.stringContaining('HTTP 404') })
    } finally {
      server.close()
    }
  })

  it('yes, without asking, when the zip is cached', async () => {
    const { url, requests, server } = await mirror([])
    try {
      const cache = tempDir()
      writeFileSync(join(cache, zip), '')
      const env = isolatedEnv({ ELECTRON_MIRROR: url, ELECTRON_CACHE: cache })
      await expect(electronAvailability({ version: '40.1.0', targets, env })).resolves.toEqual({ ok: true })
      expect(requests).toEqual([])
    } finally {
      server.close()
    }
  })
})

describe('npm run dist where Electron cannot be had', () => {
  it('says so in one line, with where it looked, and exits 1', async () => {
    const port = await refusingPort()
    const cache = tempDir()
    // A platform other than this one, so an installed Electron runtime is not used instead.
    const target = process.platform === 'linux' ? '--win' : '--linux'
    const result = spawnSync(process.execPath, [join(root, 'scripts', 'dist.js'), target], {
      cwd: root,
      encoding: 'utf8',
      env: isolatedEnv({ ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, ELECTRON_CACHE: cache }),
      timeout: 30_000
    })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    const lines = result.stderr.split('\n').filter(Boolean)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^Eventwatch: cannot build the installers here: the Electron \S+ runtime for \S+ is not in /)
    expect(lines[0]).toContain(cache)
    expect(lines[0]).toContain(`http://127.0.0.1:${port}/`)
    expect(lines[0]).toContain('ECONNREFUSED')
  })
})
