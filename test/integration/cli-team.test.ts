// The team server's command line (issue 17), run as a person runs it: `users add|list|rotate|remove`
// on the server's cache, `serve --listen` refusing a network address without TLS before anything
// starts, `team join` asking the server who the token is (and refusing a wrong pin or token)
// before it saves the token in the keychain, and `audit` naming who did what.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { teamTokenAccount } from '../../src/main/core/team/team-config'
import type { WebHost } from '../../src/main/web/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT } from '../support/cli'
import { tempDirs } from '../support/temp-dirs'
import { startTeamHost, stubRenderer, throwawayCertificate } from '../support/team-server'

const tempDir = tempDirs('eventwatch-cli-team-')
const home = tempDir()
const dbFile = join(home, 'server.db')
const teamFile = join(home, 'team-server.json')

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: ROOT,
    env: cliEnv({ ...homeEnv(home), EVENTWATCH_DB: dbFile, EVENTWATCH_TEAM_FILE: teamFile, ...env }),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

let core: AppCore | undefined
let host: WebHost | undefined
afterAll(async () => {
  await host?.close()
  await core?.close()
  if (host) await osKeychain().remove(teamTokenAccount(host.origin)).catch(() => false)
})

describe('the team server from the command line', () => {
  let aliceToken = ''
  beforeAll(async () => {
    const added = await run(['users', 'add', 'alice', '--role', 'operator'])
    expect(added.code, added.stderr).toBe(0)
    aliceToken = /^(ewu_[\w-]{43})$/m.exec(added.stdout)?.[1] ?? ''
    expect(aliceToken).not.toBe('')
  }, 30_000)

  it('adds, lists, rotates and removes users; a token is printed once and never listed', async () => {
    expect((await run(['users', 'add', 'val', '--role', 'viewer'])).code).toBe(0)
    const again = await run(['users', 'add', 'ALICE', '--role', 'viewer'])
    expect(again.code).not.toBe(0)
    expect(again.stderr).toMatch(/already a user named ALICE/)
    expect((await run(['users', 'add', 'mallory', '--role', 'admin'])).stderr).toMatch(/--role.*operator, viewer/)

    const list = await run(['users', 'list', '--json'])
    expect(JSON.parse(list.stdout).map((u: { name: string; role: string }) => [u.name, u.role])).toEqual([['alice', 'operator'], ['val', 'viewer']])
    expect(list.stdout).not.toContain('ewu_')

    const rotated = await run(['users', 'rotate', 'val'])
    expect(rotated.stdout).toMatch(/^ewu_[\w-]{43}$/m)
    expect((await run(['users', 'remove', 'val'])).stdout).toBe('Removed val.\n')
    expect((await run(['users', 'remove', 'val'])).stderr).toMatch(/no user named val/)
  }, 60_000) // seven runs of the command

  it('refuses to serve beyond loopback without TLS, before starting anything', async () => {
    const refused = await run(['serve', '--listen', '0.0.0.0:0'])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/refusing to listen on 0\.0\.0\.0 without TLS.*--tls-cert FILE --tls-key FILE/)
    expect((await run(['serve', '--listen', 'nowhere'])).stderr).toMatch(/expected HOST:PORT/)
    expect((await run(['serve', '--tls-cert', 'x.pem'])).stderr).toMatch(/go with --listen/)
  })

  it('says how to add the first user when a team server starts with none', async () => {
    const empty = join(tempDir(), 'empty.db')
    const child = spawn(process.execPath, [CLI_BIN, 'serve', '--listen', '127.0.0.1:0', '--db', empty], {
      cwd: ROOT,
      env: cliEnv(homeEnv(home)),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    try {
      await expect.poll(() => output, { timeout: 60_000 }).toMatch(/No users yet: add one with eventwatch users add NAME --role operator --db /)
      expect(output).toMatch(/serving on http:\/\/127\.0\.0\.1:\d+\/\n/)
    } finally {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    }
  }, 90_000)

  it('joins a team server only with its pinned certificate and a valid token, then leaves it', async () => {
    const dir = tempDir()
    const tls = throwawayCertificate(dir)
    core = await startAppCore({ db: dbFile })
    host = await startTeamHost(core, tls, stubRenderer(dir))

    const wrongPin = await run(['team', 'join', host.origin, '--pin', 'AB'.repeat(32)], { EVENTWATCH_TEAM_TOKEN: aliceToken })
    expect(wrongPin.code).not.toBe(0)
    expect(wrongPin.stderr).toMatch(/certificate \(SHA-256 [0-9A-F:]+\) is not the pinned one/)
    const wrongToken = await run(['team', 'join', host.origin, '--pin', tls.fingerprint], { EVENTWATCH_TEAM_TOKEN: 'ewu_nobody' })
    expect(wrongToken.stderr).toMatch(/refused this desk's token/)
    expect((await run(['team', 'show'])).stdout).toMatch(/No team server/)

    const joined = await run(['team', 'join', host.origin, '--pin', tls.fingerprint.toLowerCase().replace(/:/g, '')], { EVENTWATCH_TEAM_TOKEN: aliceToken })
    expect(joined.code, joined.stderr).toBe(0)
    expect(joined.stdout).toBe(`Joined ${host.origin} as alice (operator). Restart Eventwatch to use it.\n`)
    expect(await osKeychain().read(teamTokenAccount(host.origin))).toBe(aliceToken)
    expect((await run(['team', 'show'])).stdout).toBe(`Team server ${host.origin} as alice, certificate pinned (SHA-256 ${tls.fingerprint})\n`)

    expect((await run(['team', 'leave'])).stdout).toMatch(/Left the team server/)
    expect(await osKeychain().read(teamTokenAccount(host.origin))).toBeNull()
    expect((await run(['team', 'show'])).stdout).toMatch(/No team server/)
  }, 60_000)

  it("lists who changed what", async () => {
    expect(core).toBeDefined()
    const page = await core!.dispatch('pauseNotifications', { minutes: 5 }, { actor: { name: 'alice', role: 'operator' }, team: true })
    expect(page.ok).toBe(true)
    const audit = await run(['audit', '--json'])
    expect(JSON.parse(audit.stdout)[0]).toMatchObject({ actor: 'alice', action: 'pauseNotifications', detail: '{"minutes":5}' })
    expect((await run(['audit'])).stdout).toMatch(/^\S+\talice\tpauseNotifications\t\t\{"minutes":5\}$/m)
  })
})
