// The Electron fuses every packaged build sets, in one place: the afterPack hook flips them and
// the tests read them back. Fuses are baked into the executable, so no command line or
// environment variable can undo them at run time.
import { FuseV1Options, FuseVersion } from '@electron/fuses'

/** Fuse name (as in @electron/fuses' FuseV1Options) → on/off. Fuses not listed keep Electron's default. */
export const FUSES = Object.freeze({
  // ELECTRON_RUN_AS_NODE would turn the app into a plain Node interpreter.
  RunAsNode: false,
  // NODE_OPTIONS and --inspect would let anything that can start the app inject code into it.
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  // Load the app only from app.asar, and check it against the hash electron-builder embeds
  // (validated on macOS and Windows).
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  // Cookies encrypted at rest with a key from the OS keychain.
  EnableCookieEncryption: true
  // GrantFileProtocolExtraPrivileges stays at Electron's default (on): the renderer is loaded
  // from file:// (out/renderer/index.html) and its module scripts need it until the app moves
  // to a custom protocol.
})

/** @electron/fuses' configuration for FUSES. */
export function fuseConfig({ resetAdHocDarwinSignature = false } = {}) {
  const config = { version: FuseVersion.V1, resetAdHocDarwinSignature }
  for (const [name, on] of Object.entries(FUSES)) {
    const index = FuseV1Options[name]
    if (typeof index !== 'number') throw new Error(`Unknown Electron fuse "${name}"`)
    config[index] = on
  }
  return config
}
