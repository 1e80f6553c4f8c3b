// IPC fuzz: the real IPC handlers over a real core on a temp SQLite file, fed what a hostile or
// buggy page could send. Every answer must be a Result — a short validation error for anything
// the contract does not allow — never a throw, a hang or a crash, and the core must still work.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import type { IpcMainInvokeEvent, WebFrameMain } from 'electron'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { registerIpcHandlers } from '../../src/main/desktop/ipc'
import { requestChannel, requestNames, requests, type RequestName } from '../../src/shared/contract'
import { StatusSchema } from '../../src/shared/domain'
import type { Result } from '../../src/shared/result'
import { hostileValue, mutantOf, validIds, VALID_ARGS } from '../support/contract-arbitraries'

type Handler = (event: IpcMainInvokeEvent, args: unknown) => Promise<unknown>

/** ipcMain as registerIpcHandlers uses it: a channel → handler map. */
const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler) {
    this.handlers.set(channel, handler)
  },
  removeHandler(channel: string) {
    this.handlers.delete(channel)
  }
}

const appFrame = { url: 'app://eventwatch/index.html', parent: null } as unknown as WebFrameMain
const MAX_MESSAGE = 400 // dispatch clips longer ones

let dir: string
let dbFile: string
let core: AppCore
let unregister: () => void
const prototypeKeysBefore = new Map<object, string[]>()
const prototypes = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype]
const ownKeys = (o: object) => Reflect.ownKeys(o).map(String).sort()

beforeAll(async () => {
  for (const p of prototypes) prototypeKeysBefore.set(p, ownKeys(p))
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-ipc-fuzz-'))
  dbFile = join(dir, 'cache.db')
  core = await startAppCore({
    db: dbFile,
    // Slow polls: the demo keeps running, but the fuzz, not the poller, drives the database.
    cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 60_000 },
    // No test ever stores a secret; a throwaway service keeps the real keychain untouched anyway.
    secrets: osKeychain(`eventwatch-test-${randomUUID()}`)
  })
  unregister = registerIpcHandlers(ipcMain, core, (frame) => frame === appFrame)
})

afterAll(async () => {
  unregister?.()
  await core?.close()
  rmSync(dir, { recursive: true, force: true })
})

// ipc.ts logs only when a request throws past dispatch: that must never happen.
let consoleError: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined)
})
afterEach(() => {
  expect(consoleError).not.toHaveBeenCalled()
  consoleError.mockRestore()
})

/** What the renderer's ipcRenderer.invoke delivers: a structured clone of the page's value. */
async function invoke(name: RequestName, args: unknown): Promise<Result<unknown>> {
  const handler = ipcMain.handlers.get(requestChannel(name))
  if (!handler) throw new Error(`no handler for ${name}`)
  return (await handler({ senderFrame: appFrame } as IpcMainInvokeEvent, structuredClone(args))) as Result<unknown>
}

/** A well-formed Result whose error, if any, is one short sentence without internals. */
function expectWellFormed(result: Result<unknown>): void {
  expect(typeof result.ok).toBe('boolean')
  if (result.ok) return
  expect(Object.keys(result).sort()).toEqual(['error', 'ok'])
  expect(typeof result.error.code).toBe('string')
  expect(typeof result.error.message).toBe('string')
  expect(result.error.message.length).toBeLessThanOrEqual(MAX_MESSAGE)
  expect(result.error.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/)
}

function expectRefused(result: Result<unknown>): void {
  expectWellFormed(result)
  expect(result).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
}

const plainObject = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

describe('IPC fuzz against a real core', () => {
  it('answers every request given any structured-clonable value with a Result, accepting only what the contract allows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...requestNames), hostileValue, async (name, { value: args }) => {
        const result = await invoke(name, args)
        expectWellFormed(result)
        const validated = result.ok || result.error.code !== 'invalid-arguments'
        if (validated) {
          // Got past validation: must really be arguments (an object, or nothing at all)…
          expect(args === undefined || args === null || plainObject(args)).toBe(true)
          // …that the contract allows.
          expect(requests[name].args.safeParse(structuredClone(args) ?? {}).success).toBe(true)
        }
      }),
      { numRuns: 2000 }
    )
  }, 60_000)

  it('refuses valid arguments with one field of the wrong type, out of range, oversized, missing or extra', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...requestNames).chain((name) => fc.tuple(fc.constant(name), mutantOf(name))),
        async ([name, mutant]) => {
          expectRefused(await invoke(name, mutant.args))
        }
      ),
      { numRuns: 2000 }
    )
  }, 60_000)

  it('lets the read-only screens look up any valid ids and search texts (quotes, %, NUL, emoji) without error', async () => {
    await fc.assert(
      fc.asyncProperty(validIds, async ({ connectionId, eventSessionId, viewerId, text }) => {
        const key = { connectionId, eventSessionId }
        const calls: [RequestName, unknown][] = [
          ['getSession', key],
          ['sessionChart', { ...key, from: '2024-01-01T00:00:00Z', maxPoints: 50 }],
          ['liveTrends', { sessions: [key, key], from: '2024-01-01T00:00:00Z', maxPoints: 10 }],
          ['viewerPage', { ...key, sort: 'viewerId', filter: { text, os: text, siteCode: null }, limit: 10 }],
          ['viewerDetail', { ...key, viewerId }],
          ['breakdown', { ...key, dimension: 'os' }],
          ['exportChunk', { ...key, kind: 'snapshots', offset: 0, limit: 10 }],
          ['pastSessions', { connectionId, search: text, sort: 'name', includeLive: true, limit: 10 }],
          ['listAlerts', { ...key, historyHours: 1 }]
        ]
        for (const [name, args] of calls) {
          const result = await invoke(name, args)
          expectWellFormed(result)
          expect({ name, result }).toMatchObject({ name, result: { ok: true } })
        }
      }),
      { numRuns: 150 }
    )
  }, 60_000)

  it.each(requestNames)('passes the valid arguments of %s through validation', async (name) => {
    const result = await invoke(name, VALID_ARGS[name])
    expectWellFormed(result)
    if (!result.ok) expect(result.error.code).not.toBe('invalid-arguments')
  })

  it('says an unknown connection was not deleted, rather than claiming it was', async () => {
    await expect(invoke('deleteConnection', { id: 'no-such-connection' })).resolves.toEqual({ ok: true, value: { deleted: false } })
  })

  it('still answers, with an intact cache and unpolluted prototypes, after all of that', async () => {
    const status = await invoke('getStatus', {})
    expect(status.ok).toBe(true)
    if (status.ok) expect(StatusSchema.safeParse(status.value).success).toBe(true)
    // Only the one valid saveConnection above was saved: no mutant got through.
    const connections = await invoke('listConnections', {})
    expect(connections).toMatchObject({ ok: true, value: [{ name: 'Fuzz target', enabled: false }] })

    for (const p of prototypes) expect(ownKeys(p)).toEqual(prototypeKeysBefore.get(p))
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()

    const db = new Database(dbFile, { readonly: true })
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      expect(db.pragma('foreign_key_check')).toEqual([])
    } finally {
      db.close()
    }
  })
})
