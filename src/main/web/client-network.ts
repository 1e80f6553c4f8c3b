// Whose guesses count together: one IPv4 address, or one IPv6 /64 (the block a single host or
// home line is given, so a client cannot escape its count by stepping to the next address).
// Only the socket's address is used: a header such as X-Forwarded-For is the client's to write.
import { isIP } from 'node:net'

export function clientNetwork(address: string | undefined): string {
  if (!address) return 'unknown'
  const bare = address.split('%')[0]!.toLowerCase() // a link-local address's zone
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)
  if (mapped) return mapped[1]!
  if (isIP(bare) !== 6) return bare
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`
}

/** The eight groups of an IPv6 address, "::" expanded (an embedded IPv4 tail counts as two). */
function ipv6Groups(address: string): string[] {
  const split = (part: string): string[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(group)
          if (!v4) return [Number.parseInt(group, 16).toString(16)]
          const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number]
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
        })
  const [head = '', tail] = address.split('::')
  if (tail === undefined) return split(head)
  const left = split(head)
  const right = split(tail)
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
}
