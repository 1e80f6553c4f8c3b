// `eventwatch webhooks`: where alerts are posted (a Teams or Slack channel, PagerDuty, Opsgenie).
// A signing secret, or an on-call tool's routing or API key (required for those formats), goes to
// the OS keychain (or sealed on a shared database), from EVENTWATCH_WEBHOOK_SECRET or a hidden
// prompt, never from the command line, and is never printed. A URL's query (a Teams Workflows sig) goes there too, listed as
// "?…". Deliveries are made by whichever Eventwatch polls (the app, `serve`); `test` sends one at
// once and says what the receiver answered. Through the app API, audited with the OS user.
import { Option, type Command } from 'commander'
import { isOnCallFormat, ON_CALL_DEFAULT_URLS, secretWords, splitWebhookUrl, WEBHOOK_FORMATS, type WebhookFormat } from '../../../shared/webhooks'
import { plainText } from '../../../shared/plain-text'
import type { AppCore } from '../../core/app/types'
import { dbOption } from '../db-option'
import { ask, sameName, withAppCore, type FlagNames } from '../app-api'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { jsonOption, printJson } from '../json-output'
import { promptSecret } from '../prompt'
import { refuseSecretsEarly, secretsPlace } from '../secrets'

export const WEBHOOK_SECRET_ENV = 'EVENTWATCH_WEBHOOK_SECRET'

async function byName(core: AppCore, name: string) {
  const hook = (await ask(core, 'listWebhooks', {})).find((h) => sameName(h.name, name))
  if (!hook) throw new CliError(`no webhook named "${name}".`)
  return hook
}

const ADD_FLAGS: FlagNames = { 'settings.name': '<name>', 'settings.url': '--url', 'settings.format': '--format', secret: `the secret (${WEBHOOK_SECRET_ENV})` }

export function registerWebhooks(program: Command): void {
  const webhooks = withExamples(
    program.command('webhooks').description('where alerts are posted: JSON, Microsoft Teams, Slack, PagerDuty or Opsgenie'),
    ['eventwatch webhooks list']
  )
  const command = (nameAndArgs: string, description: string, example: string): Command =>
    withExamples(webhooks.command(nameAndArgs).description(description), [example])

  jsonOption(
    withExamples(webhooks
        .command('add <name>')
        .description(
          `post every alert fired, resolved or acknowledged to URL; for pagerduty and opsgenie the routing key or API key is the webhook's secret, from ${WEBHOOK_SECRET_ENV} or a hidden prompt`
        ), [
      'eventwatch webhooks add noc --url https://hooks.slack.com/services/… --format slack',
      `${WEBHOOK_SECRET_ENV}=<routing key> eventwatch webhooks add on-call --format pagerduty`
    ]),
    'the added webhook'
  )
    .option(
      '--url <url>',
      `the receiver (https:, or http: on this machine); a query (Workflows' sig) is kept in the OS keychain; ` +
        `default for pagerduty ${ON_CALL_DEFAULT_URLS.pagerduty}, for opsgenie ${ON_CALL_DEFAULT_URLS.opsgenie} (EU: https://api.eu.opsgenie.com)`
    )
    .addOption(
      new Option('--format <format>', "the body: plain JSON, what Teams or Slack accept, or PagerDuty's Events API v2 or Opsgenie's Alert API")
        .choices(WEBHOOK_FORMATS)
        .default('json')
    )
    .option('--sign', `sign each delivery (HMAC-SHA256); the secret from ${WEBHOOK_SECRET_ENV} or a hidden prompt`)
    .addOption(dbOption())
    .action((name: string, opts: { url?: string; format: WebhookFormat; sign?: boolean; db: string; json?: boolean }) => {
      const onCall = isOnCallFormat(opts.format)
      if (!opts.url && !onCall) throw new CliError(`--url is needed for the ${opts.format} format (only pagerduty and opsgenie have a default).`)
      const url = opts.url ?? ''
      const needsSecret = onCall || opts.sign
      if (needsSecret || splitWebhookUrl(url.trim()).query) refuseSecretsEarly(opts.db)
      return withAppCore(opts.db, async (core) => {
        const words = secretWords(opts.format)
        const missing = onCall ? `a ${opts.format} webhook needs ${words}: give it in ${WEBHOOK_SECRET_ENV} or at the prompt.` : '--sign needs a secret: an empty one cannot sign.'
        const given = process.env[WEBHOOK_SECRET_ENV]
        // No terminal to ask on (a script): said with the variable that gives it.
        if (needsSecret && !given && !process.stdin.isTTY) throw new CliError(`${missing.replace(' or at the prompt', '')} (no terminal to ask on)`)
        const secret = needsSecret ? given || (await promptSecret(`${words[0]!.toUpperCase()}${words.slice(1)} for ${name}: `)) : undefined
        if (needsSecret && !secret) throw new CliError(missing)
        const hook = await ask(core, 'addWebhook', { settings: { name, url, format: opts.format }, ...(secret ? { secret } : {}) }, ADD_FLAGS)
        if (opts.json) return printJson(hook)
        const kept = [...(hook.signed ? [onCall ? 'key' : 'secret'] : []), ...(splitWebhookUrl(url.trim()).query ? ["the URL's query"] : [])]
        const where = kept.length > 0 ? `; ${kept.join(' and ')} in ${secretsPlace(opts.db)}` : ''
        const signed = hook.signed && !onCall ? ', signed' : ''
        // Where an on-call webhook posts may be its default: said.
        const posting = onCall ? `, posting to ${plainText(hook.url)}` : ''
        process.stdout.write(`Added webhook "${plainText(hook.name)}" (${hook.format}${signed}${posting}${where}).\n`)
      })
    })

  jsonOption(command('list', 'list webhooks, with what is waiting and the last failure', 'eventwatch webhooks list --json'), 'the webhooks')
    .addOption(dbOption())
    .action((opts: { json?: boolean; db: string }) =>
      withAppCore(opts.db, async (core) => {
        const list = await ask(core, 'listWebhooks', {})
        if (opts.json) return printJson(list)
        if (list.length === 0) return void process.stdout.write('No webhooks: alerts stay on this machine.\n')
        for (const h of list) {
          const failing = h.lastError ? `\tfailing: ${plainText(h.lastError)}` : ''
          const secret = isOnCallFormat(h.format) ? (h.signed ? 'key kept' : 'no key') : h.signed ? 'signed' : 'unsigned'
          process.stdout.write(`${plainText(h.name)}\t${h.format}\t${plainText(h.url)}\t${secret}\twaiting ${h.pending}\tgiven up ${h.failed}${failing}\n`)
        }
      })
    )

  jsonOption(command('test <name>', 'send a test alert now and say what the receiver answered', 'eventwatch webhooks test noc'), 'whether it worked and what the receiver answered')
    .addOption(dbOption())
    .action((name: string, opts: { db: string; json?: boolean }) =>
      withAppCore(opts.db, async (core) => {
        const result = await ask(core, 'testWebhook', { id: (await byName(core, name)).id })
        if (opts.json) printJson(result)
        else process.stdout.write(`${result.ok ? 'ok  ' : 'FAIL'} ${plainText(result.message)}\n`)
        if (!result.ok) throw new CliError(`webhook "${name}" does not work yet (see ${opts.json ? 'its message' : 'above'}).`, 1)
      })
    )

  command('remove <name>', 'remove a webhook, what it had waiting, and its secret', 'eventwatch webhooks remove noc')
    .addOption(dbOption())
    .action((name: string, opts: { db: string }) =>
      withAppCore(opts.db, async (core) => {
        await ask(core, 'deleteWebhook', { id: (await byName(core, name)).id })
        process.stdout.write(`Removed webhook "${plainText(name)}".\n`)
      })
    )
}
