// `--listen HOST:PORT` for the team server: an IPv4 address, a name, or [IPv6], and a port.
import { InvalidArgumentError } from 'commander'

export interface ListenAddress {
  host: string
  port: number
}

export function listenOption(value: string): ListenAddress {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(value.trim())
  const port = match ? Number(match[2]) : NaN
  if (!match || port > 65535) {
    throw new InvalidArgumentError(`expected HOST:PORT (e.g. 0.0.0.0:8443 or [::]:8443), got "${value}".`)
  }
  const host = match[1]!
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port }
}
