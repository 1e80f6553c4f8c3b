// Hostile names on the terminal (issue 23): the real `eventwatch` in a child process, on a real
// SQLite file holding a connection, a maintenance window, a site and an audit entry whose names
// carry bidi overrides, invisible characters, terminal escapes, tabs and line breaks. Nothing of
// that reaches stdout or stderr: a name cannot reorder its line, forge a column or a line, or
// drive the terminal; --json and export's JSON keep the data exact, with those characters as \u
// escapes; commander's own errors, which quote the user's arguments, are plain too.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { acknowledgeAlert, insertAlert } from '../../src/main/core/store/alerts'
import { recordAudit } from '../../src/main/core/store/audit'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase } from '../../src/main/core/store/db'
import { storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { EventSessionSchema, ViewerSchema } from '../../src/main/core/api/schemas'
import { plainText } from '../../src/shared/plain-text'
import { CLI_BIN, cliEnv, homeEnv, ROOT } from '../support/cli'
import { BIDI_CONTROLS, INVISIBLES, unsafeCharacters } from '../support/hostile-names'
import { tempDirs } from '../support/temp-dirs'

const run = promisify(execFile)
const home = tempDirs('eventwatch-cli-hostile-')()
const db = join(home, 'cache.db')
const env = cliEnv(homeEnv(home))
const cli = (...args: string[]) => run(process.execPath, [CLI_BIN, ...args, '--db', db], { cwd: ROOT, env })

/** What a terminal line may carry: its own columns and line end, nothing else unprintable. */
const LINE_CHARACTERS = ['\t', '\n']

// Every kind at once, between letters (a name is trimmed): bidi controls, invisibles, an SGR
// colour, an OSC 8 hyperlink, a tab, a line break with a forged line, C1 controls, a separator.
const HOSTILE = `Patch ${BIDI_CONTROLS.join('')}${INVISIBLES.join('')}\u001b[31m\u001b]8;;http://evil.example\u0007\tforged\r\nALERT\u0085\u009b2J\u2028 night`
// A site name is one line (no tab or line break), checked when it is set.
const HOSTILE_SITE = `Leeds \u202eeciffo\u001b[2J\u0085\u200b office`
const CONNECTION = `Con\u202etoso\u001b]0;pwned\u0007 ltd`
const SESSION = `s-\u202e42`

const lines = (stdout: string): string[] => stdout.split('\n').filter((line) => line !== '')
const tabs = (line: string): number => line.split('\t').length - 1

beforeAll(() => {
  const cache = openDatabase(db)
  try {
    const connection = { baseUrl: 'https://api.example', authUrl: 'https://auth.example', platformId: 'p', tenantId: 't', clientId: 'x', isDemo: false }
    upsertConnection(cache, { id: 'c1', name: CONNECTION, ...connection })
    upsertConnection(cache, { id: 'c2', name: 'Plain', ...connection })
    const at = Date.parse('2026-11-25T09:00:00Z')
    const session = EventSessionSchema.parse({
      eventSessionId: SESSION, platformId: 'p', tenantId: 't', contentId: HOSTILE, eventName: HOSTILE, startedAt: new Date(at).toISOString(),
      updatedAt: new Date(at).toISOString(), hasEnded: false, viewersCount: 1, reliabilityScore: 97, cdnTraffic: 1, ecdnTraffic: 1
    })
    storeSessionSnapshot(cache, 'c1', session, at)
    const alert = insertAlert(cache, 'c1', { rule: 'reliability-below', eventSessionId: SESSION, eventName: HOSTILE, state: 'firing', severity: 'critical', summary: HOSTILE, value: 80, streak: 0 }, at)
    acknowledgeAlert(cache, alert, HOSTILE, at + 60_000, HOSTILE)
    storeViewerList(cache, 'c1', SESSION, [ViewerSchema.parse({ viewerId: `v-${HOSTILE}`, os: HOSTILE, app: HOSTILE })], at, 1)
    recordAudit(cache, { actor: HOSTILE, action: 'acknowledge', subject: HOSTILE, detail: HOSTILE }, Date.parse('2026-11-25T10:00:00Z'))
    recordAudit(cache, { actor: 'alice', action: 'acknowledge', subject: 'alert 7', detail: 'on it' }, Date.parse('2026-11-25T10:01:00Z'))
  } finally {
    cache.close()
  }
})

describe('hostile names on the terminal', () => {
  it('maintenance add and list: plain names, one line per window, the same columns as a plain one', async () => {
    const window = ['--from', '2026-11-28T22:00:00Z', '--to', '2026-11-29T02:00:00Z']
    await cli('maintenance', 'add', 'Plain window', '--connection', 'Plain', '--session', 's-1', ...window)
    const added = await cli('maintenance', 'add', HOSTILE, '--connection', CONNECTION, '--session', SESSION, ...window)
    expect(unsafeCharacters(added.stdout, ['\n'])).toEqual([])
    expect(added.stdout).toContain(`"${plainText(HOSTILE)}"`)

    const listed = await cli('maintenance', 'list')
    expect(unsafeCharacters(listed.stdout, LINE_CHARACTERS)).toEqual([])
    const [plain, hostile, ...more] = lines(listed.stdout)
    expect(more).toEqual([])
    expect(tabs(hostile!)).toBe(tabs(plain!))
    expect(hostile).toContain(`\t${plainText(HOSTILE)}\t`)
    expect(hostile).toContain(`${plainText(CONNECTION)}, session s-42`)

    // JSON is data: the very same name and id, their characters written as escapes.
    const json = await cli('maintenance', 'list', '--json')
    expect(unsafeCharacters(json.stdout, ['\n'])).toEqual([])
    expect(JSON.parse(json.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ name: HOSTILE, eventSessionId: SESSION, connectionName: CONNECTION })]))
  }, 60_000)

  it('sites set and list: a plain name', async () => {
    await cli('sites', 'set', '8', 'Manchester')
    const set = await cli('sites', 'set', '7', HOSTILE_SITE)
    expect(unsafeCharacters(set.stdout, ['\n'])).toEqual([])
    const listed = await cli('sites', 'list')
    expect(unsafeCharacters(listed.stdout, LINE_CHARACTERS)).toEqual([])
    expect(lines(listed.stdout)).toEqual([`7\t${plainText(HOSTILE_SITE)}`, '8\tManchester'])
  }, 60_000)

  it('audit: plain actors, subjects and notes, five columns on one line each', async () => {
    const listed = await cli('audit')
    expect(unsafeCharacters(listed.stdout, LINE_CHARACTERS)).toEqual([])
    // The two entries written here, and the CLI's own changes above (two windows, two site names:
    // issue 25, every CLI change is audited), each on one line of five columns.
    expect(lines(listed.stdout).map(tabs)).toEqual([4, 4, 4, 4, 4, 4])
    const json = await cli('audit', '--json')
    expect(unsafeCharacters(json.stdout, ['\n'])).toEqual([])
    expect(JSON.parse(json.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ actor: HOSTILE, subject: HOSTILE, detail: HOSTILE })]))
  }, 60_000)

  it('an error quoting a hostile name is one plain line on stderr', async () => {
    const failed = await cli('maintenance', 'add', 'x', '--connection', `${CONNECTION} (gone)`, '--from', '2026-11-28T22:00:00Z', '--to', '2026-11-29T02:00:00Z').catch(
      (error: { code: number; stdout: string; stderr: string }) => error
    )
    expect(failed).toMatchObject({ code: 2, stdout: '' })
    expect(unsafeCharacters(failed.stderr, ['\n'])).toEqual([])
    expect(lines(failed.stderr)).toEqual([`eventwatch: no saved connection named "${plainText(CONNECTION)} (gone)".`])
  }, 60_000)

  it('export --format json: the very same data, its control and bidi characters as \\u escapes', async () => {
    const sessions = await cli('export', 'sessions', '--format', 'json')
    expect(unsafeCharacters(sessions.stdout, ['\n'])).toEqual([])
    expect(JSON.parse(sessions.stdout)).toEqual([expect.objectContaining({ eventSessionId: SESSION, eventName: HOSTILE, contentId: HOSTILE })])

    const alerts = await cli('export', 'alerts')
    expect(unsafeCharacters(alerts.stdout, ['\n'])).toEqual([])
    const [alert] = JSON.parse(alerts.stdout) as { transitions: unknown[] }[]
    expect(alert).toMatchObject({ eventSessionId: SESSION, eventName: HOSTILE, summary: HOSTILE, connectionName: CONNECTION })
    expect(alert!.transitions).toContainEqual(expect.objectContaining({ state: 'acknowledged', note: HOSTILE, by: HOSTILE }))

    const viewers = await cli('export', 'viewers', '--session', SESSION)
    expect(unsafeCharacters(viewers.stdout, ['\n'])).toEqual([])
    expect(JSON.parse(viewers.stdout)).toEqual([expect.objectContaining({ viewerId: `v-${HOSTILE}`, os: HOSTILE, app: HOSTILE })])
  }, 60_000)

  it("commander's own errors quote the arguments as plain text, line breaks kept", async () => {
    const fail = (...args: string[]) => run(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env }).catch((error: { code: number; stdout: string; stderr: string }) => error)
    const unknownOption = await fail('sites', `--x\u001b[31mred\u202e\u0085`)
    const unknownCommand = await fail(`sit\u001b]0;pwned\u0007es`)
    const badChoice = await fail('export', 'sessions', '--format', `j\u001b[2J\u2066son`)
    for (const failed of [unknownOption, unknownCommand, badChoice]) {
      expect(failed).toMatchObject({ code: 2, stdout: '' }) // the user's to fix: 2, as the README says
      expect(unsafeCharacters(failed.stderr, ['\n'])).toEqual([])
      expect(failed.stderr).toMatch(/\S\n\(add --help for the usage\)\n$/) // where the usage is, after the error, its lines kept
    }
    expect(unknownOption.stderr).toContain(`error: unknown option '${plainText('--x\u001b[31mred\u202e\u0085')}'\n`)
    expect(unknownCommand.stderr).toContain(`error: unknown command '${plainText('sit\u001b]0;pwned\u0007es')}'\n`)
    expect(badChoice.stderr).toContain(`argument '${plainText('j\u001b[2J\u2066son')}' is invalid.`)
  }, 60_000)
})
