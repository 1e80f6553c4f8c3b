import type { FuseConfig } from '@electron/fuses'

export declare const FUSES: Readonly<Record<string, boolean>>
export declare function fuseConfig(options?: { resetAdHocDarwinSignature?: boolean }): FuseConfig
