// `eventwatch webhooks` as a script uses it: add (signed, the secret from the environment into
// the keychain), list, test against a loopback receiver, remove; a Teams Workflows URL, whose
// query is a secret too; PagerDuty and Opsgenie with their keys (issue 27); a bad URL refused in words.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { CLI_BIN, cliEnv, homeEnv, ROOT } from '../support/cli'
import { webhookReceiver } from '../support/webhook-receiver'

const run = promisify(execFile)
let home: string
let receiver: Awaited<ReturnType<typeof webhookReceiver>>

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-cli-webhooks-'))
  receiver = await webhookReceiver()
})
afterAll(async () => {
  await receiver.close()
  rmSync(home, { recursive: true, force: true })
})

describe('eventwatch webhooks', () => {
  it('adds, lists, tests and removes; the signing secret never reaches the cache file', async () => {
    const db = join(home, 'cache.db')
    const env = cliEnv({ ...homeEnv(home), EVENTWATCH_WEBHOOK_SECRET: 'sign-with-this-secret' })
    const cli = (...args: string[]) => run(process.execPath, [CLI_BIN, 'webhooks', ...args, '--db', db], { cwd: ROOT, env })

    expect((await cli('add', 'Team channel', '--url', receiver.url, '--format', 'slack', '--sign')).stdout).toBe(
      'Added webhook "Team channel" (slack, signed; secret in the OS keychain).\n'
    )
    expect((await cli('list')).stdout).toBe(`Team channel\tslack\t${receiver.url}\tsigned\twaiting 0\tgiven up 0\n`)
    expect(readFileSync(db).includes(Buffer.from('sign-with-this-secret'))).toBe(false)

    const tested = await cli('test', 'team CHANNEL')
    expect(tested.stdout).toMatch(/^ok {3}delivered: HTTP 200 in \d+ ms\n$/)
    const [sent] = receiver.received
    expect(sent?.event).toBe('test')
    expect(sent?.signature).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(JSON.parse(sent?.body ?? '{}')).toMatchObject({ text: expect.stringContaining('Test message from Eventwatch') })

    receiver.answer(404)
    const refused = await cli('test', 'Team channel').catch((error: { code: number; stdout: string }) => error)
    expect(refused).toMatchObject({ code: 1, stdout: 'FAIL not delivered: HTTP 404 from the receiver\n' })

    expect((await cli('remove', 'Team channel')).stdout).toBe('Removed webhook "Team channel".\n')
    expect((await cli('list')).stdout).toBe('No webhooks: alerts stay on this machine.\n')
  }, 60_000)

  it('adds a Teams Workflows URL: its query (the sig) kept in the keychain, listed as "?…", sent with every test, gone with the webhook', async () => {
    const db = join(home, 'workflows.db')
    const cli = (...args: string[]) => run(process.execPath, [CLI_BIN, 'webhooks', ...args, '--db', db], { cwd: ROOT, env: cliEnv(homeEnv(home)) })
    const query = '?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=SECRETSIG'

    expect((await cli('add', 'Workflows', '--url', `${receiver.url}${query}`, '--format', 'teams')).stdout).toBe(
      'Added webhook "Workflows" (teams; the URL\'s query in the OS keychain).\n'
    )
    expect((await cli('list')).stdout).toBe(`Workflows\tteams\t${receiver.url}?…\tunsigned\twaiting 0\tgiven up 0\n`)
    const listed = (await cli('list', '--json')).stdout
    expect(listed).not.toContain('SECRETSIG')
    const [hook] = JSON.parse(listed) as { id: string; url: string }[]
    expect(hook?.url).toBe(`${receiver.url}?…`)
    expect(await osKeychain().read(`webhook-url:${hook?.id}`)).toBe(query)
    expect(readFileSync(db).includes(Buffer.from('SECRETSIG'))).toBe(false)

    expect((await cli('test', 'Workflows')).stdout).toMatch(/^ok {3}delivered: HTTP 200 in \d+ ms\n$/)
    expect(receiver.received.at(-1)?.path).toBe(`/hook${query}`)

    expect((await cli('remove', 'Workflows')).stdout).toBe('Removed webhook "Workflows".\n')
    expect(await osKeychain().read(`webhook-url:${hook?.id}`)).toBeNull()
  }, 60_000)

  it('adds PagerDuty (its URL by default) and Opsgenie with the key from the environment, never printed; test opens and closes an alert; no key, no webhook', async () => {
    const db = join(home, 'on-call.db')
    const KEY = 'R0ut1ngK3yR0ut1ngK3yR0ut1ngK3y12'
    const env = cliEnv({ ...homeEnv(home), EVENTWATCH_WEBHOOK_SECRET: KEY })
    const cli = (...args: string[]) => run(process.execPath, [CLI_BIN, 'webhooks', ...args, '--db', db], { cwd: ROOT, env })
    const printed: string[] = []
    const say = async (...args: string[]) => {
      const { stdout, stderr } = await cli(...args)
      printed.push(stdout, stderr)
      return stdout
    }

    expect(await say('add', 'Pager', '--format', 'pagerduty')).toBe(
      'Added webhook "Pager" (pagerduty, posting to https://events.pagerduty.com/v2/enqueue; key in the OS keychain).\n'
    )
    const base = new URL(receiver.url).origin
    expect(await say('add', 'Genie', '--format', 'opsgenie', '--url', base)).toBe(`Added webhook "Genie" (opsgenie, posting to ${base}; key in the OS keychain).\n`)
    expect(await say('list')).toBe(
      `Genie\topsgenie\t${base}\tkey kept\twaiting 0\tgiven up 0\nPager\tpagerduty\thttps://events.pagerduty.com/v2/enqueue\tkey kept\twaiting 0\tgiven up 0\n`
    )
    printed.push(await say('list', '--json'))

    const before = receiver.received.length
    expect(await say('test', 'Genie')).toMatch(/^ok {3}delivered: HTTP 200 in \d+ ms \(the test alert was opened and closed\)\n$/)
    const sent = receiver.received.slice(before)
    expect(sent.map((r) => r.path)).toEqual(['/v2/alerts', expect.stringMatching(/^\/v2\/alerts\/eventwatch-alert-0-[0-9a-f]{16}\/close\?identifierType=alias$/)])
    expect(sent.every((r) => r.authorization === `GenieKey ${KEY}`)).toBe(true)

    // Without a key an on-call webhook is refused, and nothing is added.
    const keyless = await run(process.execPath, [CLI_BIN, 'webhooks', 'add', 'Keyless', '--format', 'pagerduty', '--db', db], {
      cwd: ROOT,
      env: { ...cliEnv(homeEnv(home)), EVENTWATCH_WEBHOOK_SECRET: '' },
      timeout: 20_000
    }).catch((error: { code: number; stderr: string }) => error)
    expect(keyless).toMatchObject({ code: 2 })
    expect((keyless as { stderr: string }).stderr).toMatch(/a pagerduty webhook needs PagerDuty's routing key/)
    // A format that has no default URL still needs --url.
    const noUrl = await cli('add', 'Chat', '--format', 'slack').catch((error: { code: number; stderr: string }) => error)
    expect(noUrl).toMatchObject({ code: 2, stderr: 'eventwatch: --url is needed for the slack format (only pagerduty and opsgenie have a default).\n' })
    // The audit log names the change, its key hidden.
    const audit = await run(process.execPath, [CLI_BIN, 'audit', '--json', '--db', db], { cwd: ROOT, env })
    expect(audit.stdout).toContain('addWebhook')
    printed.push(audit.stdout, audit.stderr)
    for (const text of printed) expect(text).not.toContain(KEY)
  }, 60_000)

  it('refuses a URL that is not https (beyond this machine), naming the field', async () => {
    const failed = await run(process.execPath, [CLI_BIN, 'webhooks', 'add', 'Plain', '--url', 'http://hooks.example.com/x', '--db', join(home, 'other.db')], {
      cwd: ROOT,
      env: cliEnv(homeEnv(home))
    }).catch((error: { code: number; stderr: string }) => error)
    expect(failed).toMatchObject({ code: 2 })
    expect((failed as { stderr: string }).stderr).toBe('eventwatch: configuration error: --url: must use https: (plain http: is allowed only for this machine)\n')
  }, 30_000)
})
