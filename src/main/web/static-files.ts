// Serves the built renderer from one directory; nothing outside it can be named.
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2'
}

export interface StaticFile {
  body: Buffer
  contentType: string
}

export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^([/\\])+/, '')
  const file = join(root, relative)
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep) || relative.includes('\0')) return null
  try {
    if (!(await stat(file)).isFile()) return null
    return { body: await readFile(file), contentType: TYPES[extname(file)] ?? 'application/octet-stream' }
  } catch {
    return null
  }
}
