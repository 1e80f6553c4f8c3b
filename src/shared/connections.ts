// A connection names one tenant of the reporting API. The same schema validates the settings
// form as the operator types and the core before anything is saved.
import { z } from 'zod'
import { ConnectionScaleSchema, ReliabilityScaleSettingSchema } from './reliability'

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]'])

/** https:, or plain http: to this machine only (the simulator, local testing). With an example,
 *  what is not an address at all says what one looks like. */
export function serviceUrlProblem(value: string, example?: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return example ? `must be a full address such as ${example}` : 'not a valid URL'
  }
  if (example && !url.hostname) return `must be a full address such as ${example}`
  if (url.username || url.password) return 'must not contain a user name or password'
  if (url.search || url.hash) return 'must not contain a query or fragment'
  if (url.protocol === 'https:') return null
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname)
  if (url.protocol === 'http:' && loopback) return null
  return url.protocol === 'http:' ? 'must use https: (plain http: is allowed only for this machine)' : 'must use https:'
}

/** An address, trimmed, of at most 2000 characters, refused in the words of `problemOf`. */
export const checkedUrl = (problemOf: (value: string) => string | null) =>
  z
    .string()
    .trim()
    .max(2000, 'is too long (at most 2000 characters)')
    .superRefine((value, ctx) => {
      const problem = problemOf(value)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })

/** An address Eventwatch sends to: https:, or http: to this machine only; `example` shows one. */
const serviceUrl = (example: string) => checkedUrl((value) => serviceUrlProblem(value, example))

/** A proxy: http(s)://[user[:password]@]host:port, nothing after. The password goes to the keychain. */
export function proxyUrlProblem(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'not a valid URL (e.g. http://proxy.example.com:3128)'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://'
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) return 'must be only the proxy address, with nothing after host:port'
  return null
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/
/** At most a handful of certificates; a CA bundle of hundreds belongs in NODE_EXTRA_CA_CERTS. */
export const MAX_CA_CERTIFICATE_CHARS = 64 * 1024

const proxyUrl = z
  .string()
  .trim()
  .max(2000, 'is too long (at most 2000 characters)')
  .superRefine((value, ctx) => {
    const problem = value === '' ? null : proxyUrlProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

const caCertificate = z
  .string()
  .trim()
  .max(MAX_CA_CERTIFICATE_CHARS, `is too long (at most ${MAX_CA_CERTIFICATE_CHARS} characters)`)
  .refine((value) => value === '' || PEM_CERTIFICATE.test(value), 'must be a PEM certificate (-----BEGIN CERTIFICATE----- …)')

const identifier = (what: string) => z.string().trim().min(1, `${what} is required`).max(200)

export const ConnectionInputSchema = z
  .object({
    name: z.string().trim().min(1, 'a name is required').max(100),
    baseUrl: serviceUrl('https://api.example.com'),
    authUrl: serviceUrl('https://auth.example.com'),
    platformId: identifier('platform-id'),
    tenantId: identifier('tenant-id'),
    clientId: identifier('client ID'),
    origin: z.string().trim().max(2000).optional(),
    referer: z.string().trim().max(2000).optional(),
    /** Its own proxy, when it is not the system's or the environment's (empty: none). */
    proxyUrl: proxyUrl.optional(),
    /** An extra CA certificate to trust for it, PEM (empty: none). */
    caCertificate: caCertificate.optional(),
    enabled: z.boolean().default(true),
    lookbackDays: z.number().int().min(1).max(365).default(7),
    /** The scale its service reports reliabilityScore on; auto: decided from its own data. */
    reliabilityScale: ReliabilityScaleSettingSchema.default('auto')
  })
  .strict()
export type ConnectionInput = z.input<typeof ConnectionInputSchema>
export type ConnectionSettings = z.output<typeof ConnectionInputSchema>

/** What the UI may know of a connection: everything but the secret, which it sees as yes/no. */
export const ConnectionViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  authUrl: z.string(),
  platformId: z.string(),
  tenantId: z.string(),
  clientId: z.string(),
  origin: z.string().nullable(),
  referer: z.string().nullable(),
  /** Its own proxy, never with a password (that is in the keychain: see proxyPasswordStored). */
  proxyUrl: z.string().nullable(),
  proxyPasswordStored: z.boolean(),
  caCertificate: z.string().nullable(),
  enabled: z.boolean(),
  lookbackDays: z.number(),
  isDemo: z.boolean(),
  secretStored: z.boolean(),
  /** Its reliability scale: the setting, the scale in use, and why (shown in Settings). */
  reliabilityScale: ConnectionScaleSchema.omit({ connectionId: true, connectionName: true }),
  /** Whether the app polls it now. */
  polled: z.boolean()
})
export type ConnectionView = z.infer<typeof ConnectionViewSchema>

export const TestStepSchema = z.object({
  step: z.enum(['secret', 'token', 'sessions']),
  ok: z.boolean(),
  /** Plain words: what worked, or what failed and what to check. */
  message: z.string()
})
export const ConnectionTestReportSchema = z.object({
  ok: z.boolean(),
  steps: z.array(TestStepSchema)
})
export type ConnectionTestReport = z.infer<typeof ConnectionTestReportSchema>
