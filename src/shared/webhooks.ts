// Webhooks (issue 16): alerts that reach people away from the desk, in a team channel or an
// on-call tool. One POST per alert fired, resolved or acknowledged, as plain JSON, in the form
// Microsoft Teams' and Slack's incoming webhooks accept, or as PagerDuty's Events API v2 and
// Opsgenie's Alert API take them (issue 27). Shared by Settings, the CLI and the core.
import { z } from 'zod'
import { checkedUrl, serviceUrlProblem } from './connections'

export const WEBHOOK_FORMATS = ['json', 'teams', 'slack', 'pagerduty', 'opsgenie'] as const
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number]

/** The on-call tools: their secret (PagerDuty's routing key, Opsgenie's API key) is required and
 *  is how they know the sender, so it is not an HMAC signing secret; their URL has a default. */
export const ON_CALL_FORMATS = ['pagerduty', 'opsgenie'] as const
export type OnCallFormat = (typeof ON_CALL_FORMATS)[number]
export const isOnCallFormat = (format: WebhookFormat): format is OnCallFormat => (ON_CALL_FORMATS as readonly string[]).includes(format)

/** Where an on-call format posts when no URL is given: PagerDuty's enqueue endpoint; Opsgenie's
 *  API (EU accounts give https://api.eu.opsgenie.com), under which the alert paths go. */
export const ON_CALL_DEFAULT_URLS: Record<OnCallFormat, string> = {
  pagerduty: 'https://events.pagerduty.com/v2/enqueue',
  opsgenie: 'https://api.opsgenie.com'
}

/** What the secret of a webhook of `format` is, in words for a prompt or an error. */
export const secretWords = (format: WebhookFormat): string =>
  format === 'pagerduty' ? "PagerDuty's routing key (integration key)" : format === 'opsgenie' ? "Opsgenie's API key" : 'the signing secret'

export const WEBHOOK_EVENTS = ['fired', 'resolved', 'acknowledged'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/**
 * https:, or http: to this machine only; no user name or password, no fragment. A query is
 * allowed: Teams Workflows URLs carry their signature in one (`?api-version=…&sig=…`), so the
 * core keeps the query as a secret (in the keychain) and shows the URL without it.
 */
export function webhookUrlProblem(value: string): string | null {
  if (value.includes('#')) return 'must not contain a fragment (#…)' // never sent
  return serviceUrlProblem(splitWebhookUrl(value).address)
}

/** A webhook URL as kept: the address as typed up to its query, and the query ("?…"), if any. */
export function splitWebhookUrl(value: string): { address: string; query: string | null } {
  // Where URL parsing puts it: the first "?" outside a fragment starts the query, and a
  // fragment is refused.
  const at = value.indexOf('?')
  if (at < 0) return { address: value, query: null }
  return { address: value.slice(0, at), query: at === value.length - 1 ? null : value.slice(at) }
}

/** What is shown of a URL whose query is a secret: "https://host/path?…". */
export const shownWebhookUrl = (address: string, hasQuery: boolean): string => (hasQuery ? `${address}?…` : address)

/** `text` with the query of every http(s) URL in it replaced by "…" (a Workflows sig never shown). */
export function hideUrlQueries(text: string): string {
  return text.replace(/(https?:\/\/[^\s?#"'<>]+)\?[^\s#"'<>]*/gi, '$1?…')
}

export const WebhookInputSchema = z
  .object({
    name: z.string().trim().min(1, 'a name is required').max(100),
    /** Optional for an on-call format only (its default, ON_CALL_DEFAULT_URLS). */
    url: z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), checkedUrl(webhookUrlProblem).optional()),
    format: z.enum(WEBHOOK_FORMATS).default('json')
  })
  .strict()
  .transform((input, ctx) => {
    const url = input.url || (isOnCallFormat(input.format) ? ON_CALL_DEFAULT_URLS[input.format] : undefined)
    if (!url) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'a URL is required' })
      return z.NEVER
    }
    // The on-call tools' addresses carry no secret in a query (the key is the webhook's secret),
    // and Opsgenie's alert paths are added to its address.
    if (isOnCallFormat(input.format) && splitWebhookUrl(url).query !== null) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: `must have no query (?…) for ${input.format}: its key is the webhook's secret` })
      return z.NEVER
    }
    return { ...input, url }
  })
export type WebhookInput = z.input<typeof WebhookInputSchema>
export type WebhookSettings = z.output<typeof WebhookInputSchema>

export const WebhookViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The URL as shown: a query (a secret, kept in the keychain) as "?…". */
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  /** Whether a secret is kept for it (in the keychain, or sealed on a shared database): a signing
   *  secret (deliveries carry an HMAC), or an on-call format's routing or API key. */
  signed: z.boolean(),
  /** Deliveries waiting (first try or a retry), and those given up on. */
  pending: z.number().int(),
  failed: z.number().int(),
  lastDeliveredAt: z.string().nullable(),
  /** The last failure in words, while deliveries are failing. */
  lastError: z.string().nullable()
})
export type WebhookView = z.infer<typeof WebhookViewSchema>

export const WebhookTestResultSchema = z.object({
  ok: z.boolean(),
  /** "delivered: HTTP 200 in 84 ms", or why not. */
  message: z.string()
})
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>
