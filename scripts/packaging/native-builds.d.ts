export const NATIVE_MODULES: string[]
export function keepingNodeBuilds<T>(root: string, work: () => T | Promise<T>, modules?: string[]): Promise<T>
