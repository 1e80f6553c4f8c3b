import type { BuildTarget } from './electron-download.js'

export function buildTargets(args: string[], hostPlatform?: string, hostArch?: string): BuildTarget[]
