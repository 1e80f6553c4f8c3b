// Webhooks (issue 16): alerts that reach people away from the desk, in a team channel or an
// on-call tool. One POST per alert fired, resolved or acknowledged, as plain JSON or in the form
// Microsoft Teams' and Slack's incoming webhooks accept. Shared by Settings, the CLI and the core.
import { z } from 'zod'
import { serviceUrl } from './connections'

export const WEBHOOK_FORMATS = ['json', 'teams', 'slack'] as const
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number]

export const WEBHOOK_EVENTS = ['fired', 'resolved', 'acknowledged'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const WebhookInputSchema = z
  .object({
    name: z.string().trim().min(1, 'a name is required').max(100),
    // https:, or http: to this machine only; no user name or password in it.
    url: serviceUrl,
    format: z.enum(WEBHOOK_FORMATS).default('json')
  })
  .strict()
export type WebhookInput = z.input<typeof WebhookInputSchema>
export type WebhookSettings = z.output<typeof WebhookInputSchema>

export const WebhookViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  /** Whether a signing secret is kept for it (in the keychain): deliveries carry an HMAC. */
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
