// The event stream over real loopback HTTP with a core that pushes when the test says: a stream
// that the server ends (its user removed) takes no push after its end, even one that arrives
// while the end is still being flushed — a write after end would be an uncaught error that
// stops the whole server.
import { createServer, get, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import { openEventStream } from '../../src/main/web/event-stream'
import { cleanupsAfterAll } from '../support/app-core'

const cleanups = cleanupsAfterAll()

type Listener = (name: string, payload: unknown) => void

describe('event stream', () => {
  it('takes no push once the server has ended it', async () => {
    const listeners = new Set<Listener>()
    const push = (name: string): void => {
      for (const listener of [...listeners]) listener(name, { at: name })
    }
    const core = {
      onEvent: (listener: Listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      }
    } as unknown as AppCore
    const errors: unknown[] = []
    let answered!: (res: ServerResponse) => void
    const streamed = new Promise<ServerResponse>((resolve) => (answered = resolve))
    const server = createServer((_req, res) => {
      res.on('error', (error) => errors.push(error))
      // A push while the end is on its way (after end(), before 'finish' and 'close').
      res.once('prefinish', () => push('statusChanged'))
      answered(res)
      openEventStream(core, res, async () => false, 20)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.add(() => new Promise((resolve) => server.close(resolve)))
    const port = (server.address() as AddressInfo).port

    // Read to its end, as a page's EventSource would until the server closes it.
    const answer = new Promise<string>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/api/events', agent: false }, (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve(body))
      }).on('error', reject)
    })
    const res = await streamed
    await new Promise((resolve) => res.once('close', resolve))
    expect(errors).toEqual([])
    expect(listeners.size).toBe(0)
    push('alertsChanged') // after close: nobody listens, nothing is written
    expect(await answer).toBe(': connected\n\n')
  })
})
