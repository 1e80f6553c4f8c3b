// Every change the CLI makes goes through the app API (issue 25, item 1): the real `eventwatch`
// in child processes adds a connection, a webhook, a maintenance window and a user and removes
// them, and `eventwatch audit --json` lists each with its author — this machine's OS user, the
// administrator. A value the contract refuses is refused in its words, naming the flag typed,
// and nothing of it is written: not the change, not an audit entry. A connection switched off and
// on (its row written in a unit of work of the Store) is kept so and on record.
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { homeEnv } from '../support/cli'
import { runCli } from '../support/cli-processes'
import { tempDirs } from '../support/temp-dirs'

const home = tempDirs('eventwatch-cli-audit-')()
const db = join(home, 'cache.db')
const env = { ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: 'cli-audit-secret-value' }
const cli = (...args: string[]) => runCli([...args, '--db', db], env)
const succeeded = async (...args: string[]) => {
  const result = await cli(...args)
  expect(result.code, `eventwatch ${args.join(' ')}: ${result.stderr}`).toBe(0)
  return result
}

interface Entry {
  actor: string
  action: string
  subject: string | null
  detail: string | null
}
const audit = async (): Promise<Entry[]> => JSON.parse((await succeeded('audit', '--json')).stdout) as Entry[]

const CONNECTION = ['--base-url', 'https://api.example.test', '--auth-url', 'https://auth.example.test', '--platform-id', 'p', '--tenant-id', 't', '--client-id', 'c']
const WINDOW = ['--from', '2030-03-23T22:00:00Z', '--to', '2030-03-23T23:00:00Z']

describe('CLI changes through the app API', () => {
  it('lists connections add, webhooks add, maintenance add, users add and users remove in `eventwatch audit` with their author', async () => {
    await succeeded('connections', 'add', 'Audited tenant', ...CONNECTION)
    await succeeded('webhooks', 'add', 'Chat', '--url', 'https://hooks.example.com/services/x', '--format', 'slack')
    await succeeded('maintenance', 'add', 'Patch night', '--connection', 'Audited tenant', ...WINDOW)
    await succeeded('users', 'add', 'val', '--role', 'viewer')
    await succeeded('users', 'remove', 'val')
    await succeeded('connections', 'remove', 'Audited tenant') // its secret leaves the keychain

    const entries = await audit()
    const author = userInfo().username
    expect(entries.map((e) => [e.actor, e.action])).toEqual([
      [author, 'deleteConnection'],
      [author, 'removeUser'],
      [author, 'addUser'],
      [author, 'addMaintenance'],
      [author, 'addWebhook'],
      [author, 'saveConnection']
    ])
    expect(entries.find((e) => e.action === 'addUser')?.detail).toBe('{"name":"val","role":"viewer"}')
    expect(JSON.parse(entries.find((e) => e.action === 'addMaintenance')?.detail ?? '{}')).toMatchObject({ window: { name: 'Patch night' } })
    // The client secret went to the keychain, never to the log.
    expect(JSON.stringify(entries)).not.toContain('cli-audit-secret-value')
    expect(entries.find((e) => e.action === 'saveConnection')?.detail).toContain('"secret":"(hidden)"')

    // The text form too: one line each, the author in the second column.
    const lines = (await succeeded('audit')).stdout.trim().split('\n')
    expect(lines.map((line) => line.split('\t').slice(1, 3))).toEqual(entries.map((e) => [e.actor, e.action]))
  }, 120_000)

  it('refuses a value the contract refuses in its words, naming the flag, and writes nothing', async () => {
    const before = await audit()
    await succeeded('connections', 'add', 'Kept tenant', ...CONNECTION)

    const backwards = await cli('maintenance', 'add', 'Backwards', '--connection', 'Kept tenant', '--from', '2030-03-23T23:00:00Z', '--to', '2030-03-23T22:00:00Z')
    expect(backwards).toEqual({ code: 2, stdout: '', stderr: 'eventwatch: configuration error: --to: must be after the start\n' })
    const badUser = await cli('users', 'add', 'val/admin', '--role', 'viewer')
    expect(badUser).toEqual({ code: 2, stdout: '', stderr: 'eventwatch: configuration error: <name>: letters, digits, spaces and . _ @ - only\n' })
    const badUrl = await cli('connections', 'add', 'Bad address', ...CONNECTION.map((flag) => (flag === 'https://api.example.test' ? 'api.example.test' : flag)))
    expect(badUrl).toEqual({ code: 2, stdout: '', stderr: 'eventwatch: configuration error: --base-url: must be a full address such as https://api.example.com\n' })

    expect(JSON.parse((await succeeded('maintenance', 'list', '--json')).stdout)).toEqual([])
    expect(JSON.parse((await succeeded('users', 'list', '--json')).stdout)).toEqual([])
    expect((JSON.parse((await succeeded('connections', 'list', '--json')).stdout) as { name: string }[]).map((c) => c.name)).toEqual(['Kept tenant'])
    // Only the connection that was saved is on record.
    const after = await audit()
    expect(after.slice(0, after.length - before.length).map((e) => e.action)).toEqual(['saveConnection'])
    await succeeded('connections', 'remove', 'Kept tenant')
  }, 120_000)

  it('connections disable and enable: the switch is kept in the cache, said, and on record with its author', async () => {
    const enabledOf = async (): Promise<[string, boolean][]> =>
      (JSON.parse((await succeeded('connections', 'list', '--json')).stdout) as { name: string; enabled: boolean }[]).map((c) => [c.name, c.enabled])
    await succeeded('connections', 'add', 'Switched tenant', ...CONNECTION)
    expect((await succeeded('connections', 'disable', 'switched TENANT')).stdout).toBe('"Switched tenant" is disabled.\n')
    expect(await enabledOf()).toEqual([['Switched tenant', false]])
    expect((await succeeded('connections', 'enable', 'Switched tenant')).stdout).toBe('"Switched tenant" is enabled.\n')
    expect(await enabledOf()).toEqual([['Switched tenant', true]])
    expect(await cli('connections', 'disable', 'Nobody')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('no saved connection named "Nobody"') })

    const author = userInfo().username
    expect((await audit()).slice(0, 2).map((e) => [e.actor, e.action, (JSON.parse(e.detail ?? '{}') as { enabled?: boolean }).enabled])).toEqual([
      [author, 'setConnectionEnabled', true],
      [author, 'setConnectionEnabled', false]
    ])
    await succeeded('connections', 'remove', 'Switched tenant')
  }, 120_000)
})
