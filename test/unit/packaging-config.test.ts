// The electron-builder configuration, checked with electron-builder's own loader, schema and
// icon converter, and the small pieces `npm run dist` is made of.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildTargets } from '../../scripts/packaging/build-targets.js'
import {
  electronCacheDir,
  electronDownloadUrl,
  electronZipName,
  findCachedElectronZip
} from '../../scripts/packaging/electron-download.js'
import { FUSES } from '../../scripts/packaging/fuses.js'
import { keepingNodeBuilds, NATIVE_MODULES } from '../../scripts/packaging/native-builds.js'
import { tempDirs } from '../support/temp-dirs'

const root = resolve(import.meta.dirname, '../..')
const require = createRequire(import.meta.url)
// electron-builder's internals, resolved the way electron-builder resolves them.
const builderRequire = createRequire(require.resolve('app-builder-lib/package.json'))
const { getConfig, validateConfiguration } = builderRequire('./out/util/config/config.js')
const minimatchModule = builderRequire('minimatch')
const minimatch: (path: string, pattern: string, options?: object) => boolean = minimatchModule.minimatch ?? minimatchModule

const tempDir = tempDirs('eventwatch-pack-')

const quietLogger = { isEnabled: false, add: () => undefined }
const config = await getConfig(root, null, null)

/** Width and height from a PNG's IHDR, and its colour type. */
function pngHeader(file: string): { width: number; height: number; bitDepth: number; colourType: number } {
  const bytes = readFileSync(file)
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bitDepth: bytes[24]!, colourType: bytes[25]! }
}

const filePatterns = (): { include: string[]; exclude: string[] } => {
  // getConfig normalises `files` to [{ filter: [...patterns] }].
  const patterns = (config.files as Array<string | { filter?: string[] }>).flatMap((f) => (typeof f === 'string' ? [f] : (f.filter ?? [])))
  expect(patterns.length).toBeGreaterThan(0)
  return {
    include: patterns.filter((p) => !p.startsWith('!')),
    exclude: patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1))
  }
}
/** Whether electron-builder's `files` would take a project-relative path (positive then negative patterns). */
const packaged = (path: string): boolean => {
  const { include, exclude } = filePatterns()
  return include.some((p) => minimatch(path, p, { dot: true })) && !exclude.some((p) => minimatch(path, p, { dot: true }))
}

describe('electron-builder.yml', () => {
  it('is what electron-builder loads, and passes its own schema', async () => {
    expect(config.appId).toBe('com.eventwatch.desktop')
    expect(config.productName).toBe('Eventwatch')
    await expect(validateConfiguration(structuredClone(config), quietLogger)).resolves.toBeUndefined()
  })

  it('a misspelt option fails that schema (so the check above can fail)', async () => {
    const broken = { ...structuredClone(config), linux: { ...config.linux, targte: ['deb'] } }
    // electron-builder 26 names the section at fault, not the key.
    await expect(validateConfiguration(broken, quietLogger)).rejects.toThrow(/configuration\.linux should be/)
  })

  it('builds AppImage and deb on Linux, dmg on macOS, nsis on Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb'])
    expect(config.mac.target).toBe('dmg')
    expect(config.win.target).toBe('nsis')
    expect(config.directories.output).toBe('dist')
    expect(readFileSync(join(root, '.gitignore'), 'utf8').split('\n')).toContain('dist/')
  })

  it('rebuilds native modules for Electron and unpacks them from the asar', () => {
    expect(config.npmRebuild).toBe(true)
    expect(config.asar).toBe(true)
    for (const name of NATIVE_MODULES) {
      const binary = `node_modules/${name}/build/Release/${name.replace('-', '_')}.node`
      expect(existsSync(join(root, binary)), binary).toBe(true)
      expect(
        (config.asarUnpack as string[]).some((p) => minimatch(binary, p, { dot: true, matchBase: true })),
        binary
      ).toBe(true)
    }
  })

  it('packages what the desktop app loads, and not sources, tests, the CLI or .native', () => {
    for (const path of [
      'package.json',
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-1234.js',
      'resources/tray/tray-ok.png',
      'resources/tray/tray-okTemplate@2x.png'
    ]) {
      expect(packaged(path), path).toBe(true)
    }
    for (const path of [
      'src/main/index.ts',
      'test/unit/packaging-config.test.ts',
      'out/cli/eventwatch.mjs',
      '.native/electron-45.5.0/better_sqlite3.node',
      'scripts/dist.js',
      'resources/README.md',
      'resources/icon.png',
      'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c',
      'node_modules/esbuild/bin/esbuild'
    ]) {
      expect(packaged(path), path).toBe(false)
    }
  })

  it('claims eventwatch:// links: the Linux .desktop file electron-builder writes names the scheme, with the link as argument', async () => {
    const { LinuxTargetHelper } = builderRequire('./out/targets/LinuxTargetHelper.js')
    // The parts of electron-builder's packager the .desktop entry is written from.
    const packager = {
      config,
      platformSpecificBuildOptions: config.linux,
      fileAssociations: [],
      executableName: config.linux.executableName,
      info: { metadata: { desktopName: 'eventwatch.desktop' } },
      appInfo: { productName: config.productName, sanitizedProductName: config.productName, description: 'Eventwatch' }
    }
    const entry: string = await new LinuxTargetHelper(packager).computeDesktopEntry(config.linux)
    const lines = entry.split('\n')
    expect(lines).toContain('MimeType=x-scheme-handler/eventwatch;')
    expect(lines.find((l) => l.startsWith('Exec='))).toMatch(/ %U$/)
  })

  it('shows notification actions on macOS: alerts, not banners', () => {
    expect(config.mac.extendInfo).toMatchObject({ NSUserNotificationAlertStyle: 'alert' })
  })

  it('runs the fuse hook after packing', () => {
    expect(config.afterPack).toBe('./scripts/packaging/after-pack.js')
    expect(existsSync(resolve(root, config.afterPack))).toBe(true)
  })
})

describe('icons', () => {
  it('the app icon is a 1024×1024 RGBA PNG that every platform uses', () => {
    expect(pngHeader(join(root, 'resources', 'icon.png'))).toEqual({ width: 1024, height: 1024, bitDepth: 8, colourType: 6 })
    for (const platform of ['linux', 'mac', 'win']) expect(config[platform].icon, platform).toBe('resources/icon.png')
  })

  it('the tray icons the app loads at run time are there', () => {
    for (const state of ['ok', 'warning', 'critical', 'blind', 'paused']) {
      expect(pngHeader(join(root, 'resources', 'tray', `tray-${state}.png`))).toMatchObject({ width: 16, height: 16 })
    }
  })
})

describe('fuses', () => {
  it('are the ones the issue asks for', () => {
    expect(FUSES).toEqual({
      RunAsNode: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      EnableCookieEncryption: true
    })
  })
})

describe('dist targets', () => {
  it('defaults to this machine', () => {
    expect(buildTargets([], 'linux', 'x64')).toEqual([{ platform: 'linux', arch: 'x64' }])
    expect(buildTargets(['--dir'], 'darwin', 'arm64')).toEqual([{ platform: 'darwin', arch: 'arm64' }])
    expect(buildTargets([], 'linux', 'arm')).toEqual([{ platform: 'linux', arch: 'armv7l' }])
  })

  it('follows platform and arch flags, a universal mac app needing both runtimes', () => {
    expect(buildTargets(['--linux', 'deb'], 'darwin', 'arm64')).toEqual([{ platform: 'linux', arch: 'arm64' }])
    expect(buildTargets(['-w', '--ia32', '--x64'], 'linux', 'x64')).toEqual([
      { platform: 'win32', arch: 'x64' },
      { platform: 'win32', arch: 'ia32' }
    ])
    expect(buildTargets(['--mac', '--universal'], 'linux', 'x64')).toEqual([
      { platform: 'darwin', arch: 'x64' },
      { platform: 'darwin', arch: 'arm64' }
    ])
  })
})

describe('where electron-builder gets Electron', () => {
  it('names the zip and the cache the way electron-builder does', () => {
    expect(electronZipName('40.1.0', 'win32', 'x64')).toBe('electron-v40.1.0-win32-x64.zip')
    expect(electronCacheDir({ ELECTRON_CACHE: '/c' }, 'linux', '/home/u')).toBe('/c')
    expect(electronCacheDir({}, 'linux', '/home/u')).toBe(join('/home/u', '.cache', 'electron'))
    expect(electronCacheDir({ XDG_CACHE_HOME: '/x' }, 'linux', '/home/u')).toBe(join('/x', 'electron'))
    expect(electronCacheDir({}, 'darwin', '/Users/u')).toBe(join('/Users/u', 'Library', 'Caches', 'electron'))
    expect(electronCacheDir({ LOCALAPPDATA: 'C:/L' }, 'win32', 'C:/U')).toBe(join('C:/L', 'electron', 'Cache'))
  })

  it('finds a cached zip directly in the cache or one directory down, and nothing else', () => {
    const zip = electronZipName('40.1.0', 'linux', 'x64')
    const empty = tempDir()
    expect(findCachedElectronZip(empty, zip)).toBeNull()
    expect(findCachedElectronZip(join(empty, 'missing'), zip)).toBeNull()
    writeFileSync(join(empty, electronZipName('40.1.0', 'linux', 'arm64')), '')
    expect(findCachedElectronZip(empty, zip)).toBeNull()

    const flat = tempDir()
    writeFileSync(join(flat, zip), '')
    expect(findCachedElectronZip(flat, zip)).toBe(join(flat, zip))

    const hashed = tempDir()
    mkdirSync(join(hashed, 'a1b2c3'))
    writeFileSync(join(hashed, 'a1b2c3', zip), '')
    expect(findCachedElectronZip(hashed, zip)).toBe(join(hashed, 'a1b2c3', zip))
  })

  it('downloads from the mirror electron-builder would use, npm config first', () => {
    const file = 'electron-v40.1.0-linux-x64.zip'
    expect(electronDownloadUrl('40.1.0', 'linux', 'x64', {})).toBe(
      `https://github.com/electron/electron/releases/download/v40.1.0/${file}`
    )
    expect(electronDownloadUrl('40.1.0', 'linux', 'x64', { ELECTRON_MIRROR: 'https://m.example/e/' })).toBe(
      `https://m.example/e/40.1.0/${file}`
    )
    expect(
      electronDownloadUrl('40.1.0', 'linux', 'x64', {
        ELECTRON_MIRROR: 'https://m.example/e/',
        npm_config_electron_mirror: 'https://npm.example/'
      })
    ).toBe(`https://npm.example/40.1.0/${file}`)
    expect(
      electronDownloadUrl('40.1.0', 'linux', 'x64', {
        ELECTRON_MIRROR: 'https://m.example/',
        ELECTRON_CUSTOM_DIR: 'nightly',
        ELECTRON_CUSTOM_FILENAME: 'e.zip'
      })
    ).toBe('https://m.example/nightly/e.zip')
  })
})

describe('keeping Node builds of native modules', () => {
  const fakeProject = (): string => {
    const project = tempDir()
    mkdirSync(join(project, 'node_modules', 'native-a', 'build', 'Release'), { recursive: true })
    writeFileSync(join(project, 'node_modules', 'native-a', 'build', 'Release', 'a.node'), 'node build')
    return project
  }
  const binary = (project: string): string => join(project, 'node_modules', 'native-a', 'build', 'Release', 'a.node')

  it('puts the build back after a rebuild for Electron replaced it', async () => {
    const project = fakeProject()
    const result = await keepingNodeBuilds(
      project,
      async () => {
        rmSync(join(project, 'node_modules', 'native-a', 'build'), { recursive: true })
        mkdirSync(join(project, 'node_modules', 'native-a', 'build', 'Release'), { recursive: true })
        writeFileSync(binary(project), 'electron build')
        writeFileSync(join(project, 'node_modules', 'native-a', 'build', 'Release', 'extra.node'), 'x')
        return 7
      },
      ['native-a', 'not-installed']
    )
    expect(result).toBe(7)
    expect(readFileSync(binary(project), 'utf8')).toBe('node build')
    expect(existsSync(join(project, 'node_modules', 'native-a', 'build', 'Release', 'extra.node'))).toBe(false)
  })

  it('puts it back when the packaging fails too', async () => {
    const project = fakeProject()
    await expect(
      keepingNodeBuilds(
        project,
        () => {
          writeFileSync(binary(project), 'half-built')
          throw new Error('rebuild failed')
        },
        ['native-a']
      )
    ).rejects.toThrow('rebuild failed')
    expect(readFileSync(binary(project), 'utf8')).toBe('node build')
  })
})
