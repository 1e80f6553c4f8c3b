// electron-builder afterPack hook: sets the Electron fuses (fuses.js) on the packed
// executable, then reads them back and fails the build if any did not take.
// (electron-builder 25 has no electronFuses option.)
import { join } from 'node:path'
import { flipFuses, FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { FUSES, fuseConfig } from './fuses.js'

// electron-builder's Arch enum (builder-util): ia32 0, x64 1, armv7l 2, arm64 3, universal 4.
const ARM64 = 3
const UNIVERSAL = 4
// @electron/fuses' FuseState bytes: '1' on, '0' off.
const ON = 49
const OFF = 48

/** The file (Linux, Windows) or .app bundle (macOS) that carries the fuse wire. */
export function packedExecutable({ appOutDir, electronPlatformName, packager }) {
  const productFilename = packager.appInfo.productFilename
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(appOutDir, `${productFilename}.app`)
    case 'win32':
      return join(appOutDir, `${productFilename}.exe`)
    case 'linux':
      return join(appOutDir, packager.executableName)
    default:
      throw new Error(`afterPack: no Electron executable known for platform "${electronPlatformName}"`)
  }
}

export default async function afterPack(context) {
  const executable = packedExecutable(context)
  const mac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas'
  // Flipping a fuse breaks the ad-hoc signature arm64 macOS requires: re-sign ad hoc (a real
  // signature, where configured, comes after this hook and replaces it).
  const resetAdHocDarwinSignature = mac && (context.arch === ARM64 || context.arch === UNIVERSAL)
  await flipFuses(executable, fuseConfig({ resetAdHocDarwinSignature }))

  const wire = await getCurrentFuseWire(executable)
  const wrong = Object.entries(FUSES)
    .filter(([name, on]) => wire[FuseV1Options[name]] !== (on ? ON : OFF))
    .map(([name]) => name)
  if (wrong.length > 0) throw new Error(`afterPack: fuses not set on ${executable}: ${wrong.join(', ')}`)
}
