// Webhook URLs (issue 23): a query is allowed (Teams Workflows carry their sig in one), kept
// apart as a secret, and hidden wherever a URL is shown or logged.
import { describe, expect, it } from 'vitest'
import { auditEntryOf } from '../../src/main/core/team/audit-entry'
import { hideUrlQueries, shownWebhookUrl, splitWebhookUrl, WebhookInputSchema, webhookUrlProblem } from '../../src/shared/webhooks'

const WORKFLOWS =
  'https://prod-00.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=SECRETSIG'

describe('webhookUrlProblem', () => {
  it.each([
    [WORKFLOWS, null],
    ['https://hooks.slack.com/services/T0/B0/xyz', null],
    ['http://127.0.0.1:8080/hook?token=abc', null],
    ['http://hooks.example.com/x?sig=1', 'must use https: (plain http: is allowed only for this machine)'],
    ['https://user:pw@hooks.example.com/x?sig=1', 'must not contain a user name or password'],
    ['https://hooks.example.com/x?sig=1#part', 'must not contain a fragment (#…)'],
    ['ftp://hooks.example.com/x', 'must use https:'],
    ['not a url', 'not a valid URL']
  ])('%s → %s', (url, problem) => {
    expect(webhookUrlProblem(url)).toBe(problem)
  })

  it('is the check the settings schema makes', () => {
    expect(WebhookInputSchema.safeParse({ name: 'NOC', url: ` ${WORKFLOWS} `, format: 'teams' })).toMatchObject({ success: true, data: { url: WORKFLOWS } })
  })
})

describe('splitWebhookUrl', () => {
  it('keeps the address as typed and the query apart', () => {
    expect(splitWebhookUrl(WORKFLOWS)).toEqual({
      address: 'https://prod-00.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke',
      query: '?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=SECRETSIG'
    })
    expect(splitWebhookUrl('https://hooks.example.com/x')).toEqual({ address: 'https://hooks.example.com/x', query: null })
    expect(splitWebhookUrl('https://hooks.example.com/x?')).toEqual({ address: 'https://hooks.example.com/x', query: null })
  })

  it('shows an address whose query is kept apart as "?…"', () => {
    expect(shownWebhookUrl('https://hooks.example.com/x', true)).toBe('https://hooks.example.com/x?…')
    expect(shownWebhookUrl('https://hooks.example.com/x', false)).toBe('https://hooks.example.com/x')
  })
})

describe('hideUrlQueries', () => {
  it('hides the query of every URL in a text, and nothing else', () => {
    expect(hideUrlQueries(`request to ${WORKFLOWS} failed, see http://127.0.0.1:1/a?b=c.`)).toBe(
      'request to https://prod-00.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?… failed, see http://127.0.0.1:1/a?…'
    )
    expect(hideUrlQueries('what? no URL here: https://example.com/plain')).toBe('what? no URL here: https://example.com/plain')
  })
})

describe('the audit log of an added webhook', () => {
  it('keeps its URL without the query, and no signing secret', () => {
    const args = { settings: { name: 'NOC', url: WORKFLOWS, format: 'teams' }, secret: 'sign-me' }
    const entry = auditEntryOf('addWebhook', args, { actor: { name: 'alice', role: 'admin' }, team: true })
    expect(entry.detail).not.toContain('SECRETSIG')
    expect(entry.detail).not.toContain('sign-me')
    expect(entry.detail).toContain('/paths/invoke?…')
  })
})
