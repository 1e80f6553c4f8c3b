// An on-call delivery as it is sent, put together from the outbox's row and the webhook's secret
// at the last moment: PagerDuty's routing key goes in front of the stored body (which never holds
// it: the outbox is in the cache, copied, backed up), Opsgenie's API key in the Authorization
// header, and Opsgenie's acknowledge and close go to their path under the API's address. A
// refusal (4xx) is said with the tool's own message, which never holds the key (it is redacted
// if a tool ever echoed it), as plain text cut short.
import { plainText, shorten } from '../../../shared/plain-text'
import type { OnCallFormat } from '../../../shared/webhooks'
import { REDACTED, redact, rememberSecret } from '../net/redact'

export interface OnCallRequest {
  url: string
  headers: Record<string, string>
  body: string
}

/** The request for a stored delivery: `body` as queued, `path` where under `url` it goes. */
export function onCallRequest(format: OnCallFormat, sent: { url: string; path: string | null; body: string; secret: string }): OnCallRequest {
  rememberSecret(sent.secret) // whatever text it might turn up in, it goes out redacted
  if (format === 'pagerduty') {
    // The stored body is a JSON object; the key becomes its first member.
    return { url: sent.url, headers: {}, body: `{"routing_key":${JSON.stringify(sent.secret)},${sent.body.slice(1)}` }
  }
  const url = sent.path === null ? sent.url : `${sent.url.replace(/\/+$/, '')}${sent.path}`
  return { url, headers: { Authorization: `GenieKey ${sent.secret}` }, body: sent.body }
}

/** What the tool said when it refused, in one line: PagerDuty's `message` and `errors`, Opsgenie's
 *  `message` and `errors`; `secret` (the key sent) never in it, were the tool to echo it. */
export function refusalWords(format: OnCallFormat, status: number, text: string, secret = ''): string {
  const tool = format === 'pagerduty' ? 'PagerDuty' : 'Opsgenie'
  let said = ''
  try {
    const answer = JSON.parse(text) as { message?: unknown; errors?: unknown }
    const errors = Array.isArray(answer.errors) ? answer.errors : answer.errors && typeof answer.errors === 'object' ? Object.values(answer.errors) : []
    said = [answer.message, ...errors].filter((part): part is string => typeof part === 'string' && part.trim() !== '').join('; ')
  } catch {
    // Not JSON (a proxy's page): the status says what there is.
  }
  const why = status === 401 || status === 403 ? ` (is the ${format === 'pagerduty' ? 'routing' : 'API'} key right?)` : ''
  const hidden = secret ? said.split(secret).join(REDACTED) : said
  return `HTTP ${status} from ${tool}${hidden ? `: ${shorten(plainText(redact(hidden)), 300)}` : ''}${why}`
}
