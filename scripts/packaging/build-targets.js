// Which Electron runtimes (platform × arch) an electron-builder command line packages, so
// they can be checked for before the build: --mac/-m/-o/--macos, --win/-w/--windows,
// --linux/-l and --x64/--ia32/--armv7l/--arm64/--universal; by default, this machine's.

const PLATFORM_FLAGS = {
  darwin: ['--mac', '-m', '-o', '--macos'],
  win32: ['--win', '-w', '--windows'],
  linux: ['--linux', '-l']
}
const ARCHES = ['x64', 'ia32', 'armv7l', 'arm64', 'universal']
const NODE_ARCH_TO_ELECTRON = { x64: 'x64', ia32: 'ia32', arm: 'armv7l', arm64: 'arm64' }

/** [{ platform, arch }] in Electron's names (darwin, win32, linux). */
export function buildTargets(args, hostPlatform = process.platform, hostArch = process.arch) {
  const platforms = Object.keys(PLATFORM_FLAGS).filter((platform) => PLATFORM_FLAGS[platform].some((flag) => args.includes(flag)))
  const arches = ARCHES.filter((arch) => args.includes(`--${arch}`))
  const targets = []
  for (const platform of platforms.length > 0 ? platforms : [hostPlatform]) {
    for (const arch of arches.length > 0 ? arches : [NODE_ARCH_TO_ELECTRON[hostArch] ?? hostArch]) {
      // A universal macOS app is made from the x64 and arm64 runtimes.
      const concrete = arch === 'universal' ? (platform === 'darwin' ? ['x64', 'arm64'] : []) : [arch]
      for (const one of concrete) targets.push({ platform, arch: one })
    }
  }
  return targets
}
