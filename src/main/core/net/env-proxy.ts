// Which proxy the environment sends a URL through (HTTPS_PROXY/HTTP_PROXY, NO_PROXY): the same
// rules undici's EnvHttpProxyAgent applies, read here so an error can name the proxy in the way.
export function envProxyFor(url: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return undefined
  }
  const https = target.protocol === 'https:'
  const proxy = https
    ? env['https_proxy'] || env['HTTPS_PROXY'] || env['http_proxy'] || env['HTTP_PROXY']
    : env['http_proxy'] || env['HTTP_PROXY']
  if (!proxy) return undefined
  const port = target.port || (https ? '443' : '80')
  return bypassed(target.hostname, port, env['no_proxy'] || env['NO_PROXY'] || '') ? undefined : proxy
}

function bypassed(hostname: string, port: string, noProxy: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase()
    if (!entry) continue
    if (entry === '*') return true
    const [name = '', entryPort] = entry.replace(/^\[|\]$/g, '').split(/:(?=\d+$)/)
    if (entryPort && entryPort !== port) continue
    const bare = name.replace(/^\*?\./, '')
    if (host === bare || host.endsWith(`.${bare}`)) return true
  }
  return false
}
