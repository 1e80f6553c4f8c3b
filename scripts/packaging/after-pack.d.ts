/** The part of electron-builder's AfterPackContext the hook reads. */
export interface AfterPackContext {
  appOutDir: string
  electronPlatformName: string
  arch: number
  packager: { appInfo: { productFilename: string }; executableName?: string }
}

export function packedExecutable(context: AfterPackContext): string
export default function afterPack(context: AfterPackContext): Promise<void>
