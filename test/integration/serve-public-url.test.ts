// `serve`'s alerts lead back to its own page (issue 27): a webhook added by the CLI gets the demo
// incident's firing from a real `eventwatch serve` child, its link on --public-url (or
// EVENTWATCH_PUBLIC_URL), or without one on the address serve printed (port 0: known only once it
// listens). A --public-url with a query or fragment, or not http(s), is refused before anything
// starts (exit 2, naming it).
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseAppTarget } from '../../src/shared/deep-link'
import { homeEnv } from '../support/cli'
import { runCli, startCli } from '../support/cli-processes'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver } from '../support/webhook-receiver'

const newDir = tempDirs('eventwatch-serve-public-url-')
const cleanups: (() => Promise<unknown> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Serves the demo (its incident at once) with a JSON webhook; the first firing's link, and the printed address. */
async function firstLink(flags: string[], env: NodeJS.ProcessEnv = {}): Promise<{ link: string; printed: string }> {
  const receiver = await webhookReceiver()
  cleanups.push(() => receiver.close())
  const home = homeEnv(newDir())
  const db = join(newDir(), 'cache.db')
  const added = await runCli(['webhooks', 'add', 'On call', '--url', receiver.url, '--db', db], home)
  expect(added.code, added.stderr).toBe(0)
  const serve = startCli(['serve', '--port', '0', '--db', db, '--interval', '1', '--demo-incident', '0', '--demo-live', '2', ...flags], { ...home, ...env })
  cleanups.push(() => serve.stop())
  const printed = (await serve.waitFor(/Eventwatch is serving on (\S+)/, 120_000))[1]!
  const fired = () => receiver.received.map((r) => JSON.parse(r.body) as { event: string; link: string | null }).find((b) => b.event === 'fired')
  await expect.poll(fired, { timeout: 60_000 }).toBeDefined()
  return { link: fired()!.link!, printed }
}

describe('serve --public-url', () => {
  it('links alerts to the public address, the session in its hash', async () => {
    const { link } = await firstLink(['--public-url', 'https://noc.example.com/eventwatch/'])
    const url = new URL(link)
    expect(`${url.origin}${url.pathname}`).toBe('https://noc.example.com/eventwatch/')
    expect(parseAppTarget(url.hash)).toMatchObject({ view: 'session', connectionId: 'demo' })
  }, 180_000)

  it('without one, links to the address it printed, on the port it got', async () => {
    const { link, printed } = await firstLink([])
    expect(new URL(link).origin).toBe(new URL(printed).origin)
    expect(new URL(printed).port).not.toBe('0')
    expect(parseAppTarget(new URL(link).hash)).toMatchObject({ view: 'session', connectionId: 'demo' })
  }, 180_000)

  it('refuses an address with a query or fragment, or not http(s), from the flag or the environment', async () => {
    for (const [args, env, words] of [
      [['--public-url', 'https://noc.example.com/?team=1'], {}, 'without a query'],
      [['--public-url', 'https://noc.example.com/#live'], {}, 'without a fragment'],
      [[], { EVENTWATCH_PUBLIC_URL: 'ftp://noc.example.com' }, 'an https:// or http:// address']
    ] as const) {
      const result = await runCli(['serve', '--port', '0', '--db', join(newDir(), 'cache.db'), ...args], { ...homeEnv(newDir()), ...env })
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).toContain(words)
      expect(result.stdout).toBe('')
    }
  }, 60_000)
})
