// The browser host's request path fuzzed over real loopback HTTP, against a real core on a temp
// SQLite file: any request name, any body (JSON or not), any mutant of valid arguments. Every
// answer is a JSON Result with a fitting status — never a 500, a hang or a dropped connection —
// and the host still works afterwards. (The same handlers over IPC: ipc-fuzz.test.ts.)
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { requestNames, requests } from '../../src/shared/contract'
import { mutantOf, VALID_ARGS } from '../support/contract-arbitraries'
import { rawRequest, type RawAnswer } from '../support/raw-http'

let dir: string
let core: AppCore
let host: WebHost

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-web-fuzz-'))
  const rendererDir = join(dir, 'renderer')
  mkdirSync(rendererDir)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Eventwatch</title>')
  core = await startAppCore({
    db: join(dir, 'cache.db'),
    cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 60_000 },
    secrets: osKeychain(`eventwatch-test-${randomUUID()}`)
  })
  host = await startWebHost({ core, rendererDir, port: 0 })
})

afterAll(async () => {
  await host?.close()
  await core?.close()
  rmSync(dir, { recursive: true, force: true })
})

const post = (path: string, body: string): Promise<RawAnswer> =>
  rawRequest(host.address.port, path, {
    method: 'POST',
    headers: {
      Host: `127.0.0.1:${host.address.port}`,
      Authorization: `Bearer ${host.token}`,
      'Content-Type': 'application/json'
    },
    body
  })

/** A JSON Result with a short, stack-free message, under a status that says what happened. */
function expectResultAnswer(answer: RawAnswer): { ok: boolean; error?: { code: string; message: string } } {
  // 405: a name like ".." leaves /api/request/ once the path is resolved, and only GET is served there.
  expect([200, 400, 404, 405, 413]).toContain(answer.status)
  expect(answer.headers['content-type']).toMatch(/^application\/json/)
  const result = JSON.parse(answer.body) as { ok: boolean; error?: { code: string; message: string } }
  expect(typeof result.ok).toBe('boolean')
  if (!result.ok) {
    expect(typeof result.error?.code).toBe('string')
    expect(result.error?.message.length).toBeLessThanOrEqual(400)
    expect(result.error?.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/)
  }
  if (answer.status !== 200) expect(result.ok).toBe(false)
  return result
}

const requestName = fc.oneof(
  fc.constantFrom(...requestNames),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '', '..', '%', '%E0%A4%A')
)
const body = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', 'null', '[]', '{"__proto__":{"polluted":true}}', '{', '\u0000', '1e999')
)

describe('the browser host request path, fuzzed', () => {
  it('answers any name with any body with a Result', async () => {
    await fc.assert(
      fc.asyncProperty(requestName, body, fc.boolean(), async (name, text, encode) => {
        const path = `/api/request/${encode ? encodeURIComponent(name) : name.replace(/[^\x21-\x7e]/g, '_')}`
        const result = expectResultAnswer(await post(path, text))
        if (!requestNames.includes(name as never) && !result.ok) {
          expect(['unknown-request', 'invalid-arguments', 'not-found', 'too-large', 'method-not-allowed']).toContain(result.error?.code)
        }
      }),
      { numRuns: 300 }
    )
  }, 60_000)

  it('refuses a mutant of valid arguments for every request as invalid', async () => {
    for (const name of requestNames) {
      let refused = 0
      await fc.assert(
        fc.asyncProperty(mutantOf(name), async (mutant) => {
          // What JSON can carry of it: a boxed value or a Map arrives as something else.
          const text = JSON.stringify(mutant.args, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))
          if (text === undefined || text === JSON.stringify(VALID_ARGS[name])) return
          // JSON may make a mutant valid again (NaN → null on a nullable field, a Date → a string
          // where a string is wanted): only what the contract refuses must come back refused.
          if (requests[name].args.safeParse(JSON.parse(text)).success) return
          const result = expectResultAnswer(await post(`/api/request/${name}`, text))
          expect(result).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
          refused++
        }),
        { numRuns: 15 }
      )
      expect(refused, `mutants of ${name} that reached the host invalid`).toBeGreaterThan(0)
    }
  }, 120_000)

  it('still serves normal requests afterwards, and nothing was polluted', async () => {
    const status = expectResultAnswer(await post('/api/request/getStatus', '{}'))
    expect(status.ok).toBe(true)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })
})
