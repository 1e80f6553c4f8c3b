// The team server's gate against guessing (issue 23), over real HTTPS on loopback with the real
// core and users made as the CLI makes them: wrong tokens and guessed session cookies are limited
// per address and overall, while a right token always gets in (a team behind one NAT or proxy
// cannot be locked out by one bad client); a request with two Host headers is refused; HTTPS
// answers carry Strict-Transport-Security. Each test has a server of its own (a fresh limiter).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Agent, fetch as undiciFetch } from 'undici'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import { OVERALL, PER_ADDRESS } from '../../src/main/web/guess-limiter'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { cleanupsAfterAll, startCore } from '../support/app-core'
import { rawTlsRequest } from '../support/raw-https'
import { tempDirs } from '../support/temp-dirs'
import { addUser, startTeamHost, stubRenderer, throwawayCertificate } from '../support/team-server'

const cleanups = cleanupsAfterAll()
const tempDir = tempDirs('eventwatch-guesses-')

let core: AppCore
let tls: ReturnType<typeof throwawayCertificate>
let ca: string
let rendererDir: string
let alice: string

beforeAll(async () => {
  const dir = tempDir()
  const dbFile = join(dir, 'team.db')
  tls = throwawayCertificate(dir)
  ca = readFileSync(tls.caFile, 'utf8')
  rendererDir = stubRenderer(dir)
  core = await startCore(cleanups, { db: dbFile })
  alice = await addUser(dbFile, 'alice', 'operator')
}, 60_000)

async function freshHost(): Promise<WebHost> {
  const host = await startTeamHost(core, tls, rendererDir)
  cleanups.add(() => host.close())
  return host
}

/** fetch trusting the test CA, from the loopback address `from` (127.0.0.0/8 is all this machine's). */
function fetchFrom(from = '127.0.0.1'): (url: string, init?: RequestInit) => Promise<Response> {
  const dispatcher = new Agent({ connect: { ca }, localAddress: from })
  cleanups.add(() => dispatcher.close())
  return (url, init = {}) => undiciFetch(url, { ...init, dispatcher } as never) as unknown as Promise<Response>
}

const signIn = (fetcher: ReturnType<typeof fetchFrom>, host: WebHost, token: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetcher(`${host.origin}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: host.origin, ...headers },
    body: new URLSearchParams({ token }).toString()
  })

const identity = (fetcher: ReturnType<typeof fetchFrom>, host: WebHost, headers: Record<string, string>): Promise<Response> =>
  fetcher(`${host.origin}/api/request/getIdentity`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '{}' })

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` })

describe('team server against guessing', () => {
  it("lets alice's right token in from an address that has had too many wrong ones, and makes the next wrong one wait", async () => {
    const host = await freshHost()
    const fetcher = fetchFrom()
    for (let i = 0; i < PER_ADDRESS.burst; i++) expect((await signIn(fetcher, host, `ewu_wrong-${i}`)).status, `wrong token ${i + 1}`).toBe(401)

    const limited = await signIn(fetcher, host, 'ewu_wrong-again')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await identity(fetcher, host, bearer('ewu_wrong-bearer'))).status).toBe(429)

    // The same address, the same minute: alice signs in with the form and with her Bearer token.
    const form = await signIn(fetcher, host, alice)
    expect(form.status).toBe(303)
    const session = { Cookie: (form.headers.get('set-cookie') ?? '').split(';')[0]! }
    expect(await (await identity(fetcher, host, session)).json()).toMatchObject({ ok: true, value: { name: 'alice' } })
    const scripted = await identity(fetcher, host, bearer(alice))
    expect(scripted.status).toBe(200)
    expect(await scripted.json()).toMatchObject({ ok: true, value: { name: 'alice' } })
    // The sign-in form stays open, and a wrong token still waits: her success cleared nothing.
    expect((await fetcher(`${host.origin}/signin`)).status).toBe(200)
    const after = await signIn(fetcher, host, 'ewu_wrong-after')
    expect(after.status).toBe(429)
    expect(await after.text()).toMatch(/Too many wrong tokens from this address.*A right token still gets in/)
    // X-Forwarded-For is the client's to write: it does not move a guess to another address.
    expect((await signIn(fetcher, host, 'ewu_wrong-forwarded', { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(429)
  })

  it('counts guessed session cookies: a flood is answered 429 after the limit, a real session still gets in', async () => {
    const host = await freshHost()
    const fetcher = fetchFrom()
    const signedIn = await signIn(fetcher, host, alice)
    const session = { Cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0]! }

    const statuses: number[] = []
    const cookies: (string | null)[] = []
    for (let i = 0; i < 3 * PER_ADDRESS.burst; i++) {
      const guess = await identity(fetcher, host, { Cookie: `__Host-eventwatch=guess-${i}` })
      statuses.push(guess.status)
      cookies.push(guess.headers.get('set-cookie'))
    }
    expect(statuses.slice(0, PER_ADDRESS.burst)).toEqual(Array(PER_ADDRESS.burst).fill(401))
    expect(statuses.slice(PER_ADDRESS.burst)).toEqual(Array(2 * PER_ADDRESS.burst).fill(429))
    // A browser drops a session the server does not know, so a desk presents an ended one once.
    for (const cookie of cookies) expect(cookie).toMatch(/^__Host-eventwatch=; .*Max-Age=0/)
    // Several guesses in one Cookie header are no way around it; a page is refused the same way.
    expect((await identity(fetcher, host, { Cookie: '__Host-eventwatch=a; __Host-eventwatch=b' })).status).toBe(429)
    const page = await fetcher(`${host.origin}/`, { redirect: 'manual', headers: { Cookie: '__Host-eventwatch=guess-page' } })
    expect(page.status).toBe(429)
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0)

    expect(await (await identity(fetcher, host, session)).json()).toMatchObject({ ok: true, value: { name: 'alice' } })
  })

  it('limits guesses spread over many addresses as a whole, and each address on its own', async () => {
    const started = Date.now()
    const host = await freshHost()
    const statuses: number[] = []
    let lastRefusal: unknown = null
    const addresses = 2 * Math.ceil(OVERALL.burst / PER_ADDRESS.burst)
    for (let a = 0; a < addresses; a++) {
      const fetcher = fetchFrom(`127.0.0.${a + 2}`)
      for (let i = 0; i < PER_ADDRESS.burst; i++) {
        const answer = await identity(fetcher, host, bearer(`ewu_wrong-${a}-${i}`))
        statuses.push(answer.status)
        if (answer.status === 429) lastRefusal = await answer.json()
      }
    }
    // Each address is within its own budget: only the whole server's stops them. It earns one
    // more a second, so the bound counts the seconds this took (the limit, not the speed, is tested).
    const earned = Math.floor((Date.now() - started) / OVERALL.refillMs)
    expect(statuses.slice(0, OVERALL.burst)).toEqual(Array(OVERALL.burst).fill(401))
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(OVERALL.burst + earned)
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([])
    expect(lastRefusal).toMatchObject({ ok: false, error: { code: 'too-many-attempts', message: expect.stringMatching(/from many addresses/) } })
    expect((await identity(fetchFrom(`127.0.0.${addresses + 1}`), host, bearer(alice))).status).toBe(200)
  })

  it('refuses a request with two Host headers, whichever comes first', async () => {
    const host = await freshHost()
    const port = host.address.port
    const own = `Host: 127.0.0.1:${port}`
    const once = await rawTlsRequest(port, ca, ['GET /signin HTTP/1.1', own])
    expect(once.status).toBe(200)
    for (const hosts of [[own, 'Host: evil.example'], ['Host: evil.example', own], [own, own]]) {
      const twice = await rawTlsRequest(port, ca, ['POST /api/request/getIdentity HTTP/1.1', ...hosts, `Authorization: Bearer ${alice}`, 'Content-Length: 2'], '{}')
      expect(twice.status, hosts.join(' / ')).toBe(400)
      expect(twice.body).toMatch(/more than one Host header/)
    }
  })

  it('sends Strict-Transport-Security over HTTPS (without includeSubDomains), and not over plain HTTP', async () => {
    const host = await freshHost()
    const fetcher = fetchFrom()
    const answers = [
      await fetcher(`${host.origin}/signin`),
      await fetcher(`${host.origin}/`, { redirect: 'manual' }),
      await identity(fetcher, host, bearer(alice)),
      await identity(fetcher, host, {})
    ]
    for (const answer of answers) expect(answer.headers.get('strict-transport-security'), answer.url).toBe('max-age=31536000')

    const plain = await startWebHost({ core, rendererDir, port: 0, team: { host: '127.0.0.1' } })
    cleanups.add(() => plain.close())
    const overHttp = await undiciFetch(`${plain.origin}/signin`)
    expect(overHttp.status).toBe(200)
    expect(overHttp.headers.get('strict-transport-security')).toBeNull()
  })
})
