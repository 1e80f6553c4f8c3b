// Each team user's own display (issue 25, item 5), over real HTTPS on loopback with the real core on a
// real SQLite file: alice and bob choose different time zones, themes and sounds, and each reads
// and is pushed their own; the units stay the server's (they describe its data); a viewer saves
// their own display and nothing else of the settings; the server's own display is left alone.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import type { WebHost } from '../../src/main/web/server'
import type { Result } from '../../src/shared/result'
import type { AppSettings, DisplaySettings } from '../../src/shared/settings'
import type { AuditEntry } from '../../src/shared/team'
import { Cleanups, startCore, value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'
import { addUser, openStream, removeUser, startTeamHost, stubRenderer, throwawayCertificate, trustingFetch } from '../support/team-server'

const cleanups = new Cleanups()
afterAll(() => cleanups.runAll())
const tempDir = tempDirs('eventwatch-team-display-')

let core: AppCore
let host: WebHost
let fetcher: ReturnType<typeof trustingFetch>
let dbFile: string
const tokens: Record<'alice' | 'bob' | 'val', string> = { alice: '', bob: '', val: '' }

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` })

/** A request as `who` makes it over the network. */
async function as<T>(who: keyof typeof tokens, name: string, args: unknown = {}): Promise<Result<T>> {
  const response = await fetcher(`${host.origin}/api/request/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...bearer(tokens[who]) },
    body: JSON.stringify(args)
  })
  return (await response.json()) as Result<T>
}

async function displayOf(who: keyof typeof tokens): Promise<DisplaySettings> {
  const read = await as<AppSettings>(who, 'getSettings')
  if (!read.ok) throw new Error(`${who}: ${read.error.message}`)
  return read.value.display
}

beforeAll(async () => {
  const dir = tempDir()
  dbFile = join(dir, 'team.db')
  const tls = throwawayCertificate(dir)
  core = await startCore(cleanups, { db: dbFile, cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 600_000 } })
  tokens.alice = await addUser(dbFile, 'alice', 'operator')
  tokens.bob = await addUser(dbFile, 'bob', 'operator')
  tokens.val = await addUser(dbFile, 'val', 'viewer')
  host = await startTeamHost(core, tls, stubRenderer(dir))
  cleanups.add(() => host.close())
  fetcher = trustingFetch(tls.caFile)
}, 60_000)

describe("a team user's display", () => {
  it("is their own: alice and bob each read and are pushed theirs; the units and the server's own stay the server's", async () => {
    // The server's administrator (on the server, no team context) sets its display and units.
    await value(core, 'saveSettings', { display: { alertSound: 'off', trafficUnit: 'megabytes' } })
    // Nobody chose yet: every user starts from the server's.
    const server: DisplaySettings = { timeZone: 'local', theme: 'system', trafficUnit: 'megabytes', viewerTimeUnit: 'auto', alertSound: 'off', warningSound: 'off' }
    expect(await displayOf('alice')).toEqual(server)
    expect(await displayOf('bob')).toEqual(server)

    const bobStream = await openStream(fetcher, `${host.origin}/api/events`, bearer(tokens.bob))
    cleanups.add(() => bobStream.close())
    const aliceStream = await openStream(fetcher, `${host.origin}/api/events`, bearer(tokens.alice))
    cleanups.add(() => aliceStream.close())

    const aliceSaved = await as<AppSettings>('alice', 'saveSettings', { display: { timeZone: 'utc', theme: 'light' } })
    expect(aliceSaved).toMatchObject({ ok: true, value: { display: { ...server, timeZone: 'utc', theme: 'light' } } })
    const bobSaved = await as<AppSettings>('bob', 'saveSettings', { display: { alertSound: 'on' } })
    expect(bobSaved).toMatchObject({ ok: true, value: { display: { ...server, alertSound: 'on' } } })

    expect(await displayOf('alice')).toEqual({ ...server, timeZone: 'utc', theme: 'light' })
    expect(await displayOf('bob')).toEqual({ ...server, alertSound: 'on' })
    // The server's own display (its administrator's, and the default of whoever has not chosen).
    expect((await value<AppSettings>(core, 'getSettings')).display).toEqual(server)

    // Each open page is pushed its own user's settings, never another's.
    const settingsPushes = (stream: typeof bobStream): DisplaySettings[] =>
      stream.events.filter((e) => e.event === 'settingsChanged').map((e) => (e.data as AppSettings).display)
    await expect.poll(() => settingsPushes(bobStream).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
    await expect.poll(() => settingsPushes(aliceStream).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
    for (const display of settingsPushes(bobStream)) expect(display.theme).toBe('system')
    expect(settingsPushes(bobStream).at(-1)).toEqual({ ...server, alertSound: 'on' })
    expect(settingsPushes(aliceStream).at(-1)).toEqual({ ...server, timeZone: 'utc', theme: 'light' })

    // A global change (the administrator's units) reaches everyone, each keeping their own choices.
    const before = settingsPushes(bobStream).length
    await value(core, 'saveSettings', { display: { viewerTimeUnit: 'seconds' } })
    await expect.poll(() => settingsPushes(bobStream).length, { timeout: 10_000 }).toBeGreaterThan(before)
    expect(settingsPushes(bobStream).at(-1)).toEqual({ ...server, viewerTimeUnit: 'seconds', alertSound: 'on' })
    expect(await displayOf('alice')).toEqual({ ...server, viewerTimeUnit: 'seconds', timeZone: 'utc', theme: 'light' })

    // The units describe the server's data: an operator cannot change them, for anyone.
    expect(await as('alice', 'saveSettings', { display: { trafficUnit: 'bytes' } })).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message: "Saving the display unit settings is for the server's administrator (on the server, with the eventwatch command); you are signed in as an operator."
      }
    })

    // Who changed their display is on the audit list, under their own name.
    const audit = await value<AuditEntry[]>(core, 'listAudit', {})
    expect(audit.filter((e) => e.action === 'saveSettings').map((e) => e.actor)).toEqual(expect.arrayContaining(['alice', 'bob']))
  })

  it('lets a viewer save their own display, and nothing else of the settings', async () => {
    const saved = await as<AppSettings>('val', 'saveSettings', { display: { theme: 'light', timeZone: 'utc', alertSound: 'off' } })
    expect(saved).toMatchObject({ ok: true, value: { display: { theme: 'light', timeZone: 'utc', alertSound: 'off' } } })
    expect(await displayOf('val')).toMatchObject({ theme: 'light', timeZone: 'utc', alertSound: 'off' })

    const refusals: [unknown, string][] = [
      [{ thresholds: { warning: 80, critical: 70 } }, 'Saving the reliability level settings needs the operator role'],
      [{ retention: { auditDays: 30 } }, "Saving the cache settings is for the server's administrator"],
      [{ display: { trafficUnit: 'bytes' } }, "Saving the display unit settings is for the server's administrator"],
      // All or nothing: a save that mixes her own display with what she may not change changes neither.
      [{ display: { theme: 'dark' }, cadences: { detailSeconds: 20 } }, "Saving the polling settings is for the server's administrator"]
    ]
    for (const [args, words] of refusals) {
      const answer = await as('val', 'saveSettings', args)
      expect(answer, JSON.stringify(args)).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining(words) } })
    }
    expect(await displayOf('val')).toMatchObject({ theme: 'light' })
    const settings = await value<AppSettings>(core, 'getSettings')
    expect(settings.thresholds).toEqual({ warning: 95, critical: 90 })
    expect(settings.retention.auditDays).toBe(365)
    expect(settings.cadences.detailSeconds).toBe(15)
  })

  it("is forgotten with its user: a user removed and added again starts from the server's", async () => {
    expect(await displayOf('alice')).toMatchObject({ theme: 'light' })
    await removeUser(dbFile, 'alice')
    tokens.alice = await addUser(dbFile, 'alice', 'operator')
    expect(await displayOf('alice')).toMatchObject({ theme: 'system', timeZone: 'local' })
  })
})
