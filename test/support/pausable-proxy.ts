// A loopback TCP proxy in front of a server (the test cluster's PostgreSQL) that a test can pause:
// while paused nothing passes either way, as when a host's network stalls; what was sent meanwhile
// is held, in order, and arrives late on resume. Loopback only.
import { createConnection, createServer, type Server, type Socket } from 'node:net'

export interface PausableProxy {
  /** `url` with its host and port turned to the proxy's. */
  through(url: string): string
  pause(): void
  resume(): void
  close(): Promise<void>
}

export async function pausableProxy(targetPort: number): Promise<PausableProxy> {
  const sockets = new Set<Socket>()
  let held: (() => void)[] | null = null
  const forward = (from: Socket, to: Socket): void => {
    from.on('data', (chunk) => (held ? held.push(() => to.write(chunk)) : to.write(chunk)))
  }
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => socket.destroy())
    }
    forward(client, upstream)
    forward(upstream, client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || !address) throw new Error('the proxy has no port')
  return {
    through(url) {
      const parsed = new URL(url)
      parsed.hostname = '127.0.0.1'
      parsed.port = String(address.port)
      return parsed.toString()
    },
    pause() {
      held ??= []
    },
    resume() {
      const due = held ?? []
      held = null
      for (const send of due) send()
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
