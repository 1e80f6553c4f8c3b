export function electronBinary(electronDir: string, env?: NodeJS.ProcessEnv): string | null
export function electronVersion(electronDir: string): string
export function tryDownloadElectron(electronDir: string, stateDir: string, env?: NodeJS.ProcessEnv): boolean
