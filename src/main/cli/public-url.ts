// `serve --public-url URL` (or EVENTWATCH_PUBLIC_URL): the address people reach the team server at,
// when it is not the one it listens on (a reverse proxy, a load balancer, a DNS name). Alerts'
// links to a session lead there (`https://noc.example/#session/…`), so it must be a page address:
// http(s), no user name or password, no query or fragment (the link's own hash goes after it).
import { InvalidArgumentError } from 'commander'

export const PUBLIC_URL_ENV = 'EVENTWATCH_PUBLIC_URL'

/** The origin and path links are made under ("https://noc.example/eventwatch"), without a trailing '/'. */
export function publicUrlOption(value: string): string {
  const problem = publicUrlProblem(value.trim())
  if (problem) throw new InvalidArgumentError(`${problem} (e.g. https://noc.example.com), got "${value}".`)
  const url = new URL(value.trim())
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

function publicUrlProblem(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'expected the address people open the server at'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'expected an https:// or http:// address'
  if (url.username || url.password) return 'expected an address without a user name or password'
  if (url.search || value.includes('?')) return 'expected an address without a query (?…)'
  if (url.hash || value.includes('#')) return 'expected an address without a fragment (#…): the session link adds its own'
  return null
}
