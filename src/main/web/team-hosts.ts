// The names a team server answers to: the address it listens on and every name its certificate
// carries. A Host or Origin outside them is refused (DNS rebinding, a page of another site).
import { X509Certificate } from 'node:crypto'
import { isIP } from 'node:net'

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]'])

export const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)

/** The certificate's DNS names and IP addresses (subjectAltName), and its common name. */
export function certificateNames(pem: string): string[] {
  const certificate = new X509Certificate(pem)
  const names = (certificate.subjectAltName ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .flatMap((entry) => {
      const match = /^(DNS|IP Address):(.+)$/.exec(entry)
      return match ? [match[2]!.trim()] : []
    })
  const commonName = /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1]
  return [...names, ...(commonName ? [commonName] : [])]
}

const withBrackets = (host: string): string => (isIP(host) === 6 && !host.startsWith('[') ? `[${host}]` : host)

/** Host header values accepted: each name with the port (and without it on the scheme's default port). */
export function teamHosts(listenHost: string, port: number, names: string[], secure: boolean): string[] {
  const bare = new Set<string>()
  if (!WILDCARDS.has(listenHost)) bare.add(withBrackets(listenHost).toLowerCase())
  if (isLoopbackHost(listenHost)) for (const name of ['127.0.0.1', 'localhost']) bare.add(name)
  for (const name of names) bare.add(withBrackets(name).toLowerCase())
  const defaultPort = secure ? 443 : 80
  return [...bare].flatMap((host) => (port === defaultPort ? [`${host}:${port}`, host] : [`${host}:${port}`]))
}
