// A webhook URL's query is kept as a secret: Teams Workflows sign their URLs in it
// (`?api-version=…&sig=…`), and whoever has the URL can post to the channel. The keychain keeps
// the query (account webhook-url:<id>), the cache keeps the URL without it, and a delivery puts
// the two together just before it is sent.
import { rememberSecret } from '../net/redact'
import { webhookUrlAccount } from '../secrets/accounts'
import type { SecretStore } from '../secrets/keychain'
import type { WebhookRecord } from '../store/interface/webhooks'

export { webhookUrlAccount }

/** Why a webhook's whole URL cannot be made now; `retry` when the keychain may answer later. */
export class WebhookUrlError extends Error {
  constructor(
    message: string,
    readonly retry: boolean
  ) {
    super(message)
    this.name = 'WebhookUrlError'
  }
}

/** The URL deliveries go to: the kept one, with its query from the keychain when it has one. */
export async function deliveryUrlOf(secrets: SecretStore, hook: WebhookRecord): Promise<string> {
  if (!hook.queryInKeychain) return hook.url
  const account = webhookUrlAccount(hook.id)
  let query: string | null
  try {
    query = await secrets.read(account)
  } catch (error) {
    // A locked or stopped keychain may answer at the next attempt.
    throw new WebhookUrlError(`the URL's query could not be read from the OS keychain: ${error instanceof Error ? error.message : String(error)}`, true)
  }
  if (!query) {
    throw new WebhookUrlError(`the URL's query is missing from the OS keychain (account ${account}): remove the webhook and add it again`, false)
  }
  rememberSecret(query) // whatever text it might turn up in, it goes out redacted
  return `${hook.url}${query}`
}
