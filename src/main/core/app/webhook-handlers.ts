// The webhook requests: list, add, remove and test where alerts are sent.
import type { RequestHandlers } from '../../../shared/contract'
import type { WebhookService } from '../webhooks/service'

type WebhookHandlers = Pick<RequestHandlers, 'listWebhooks' | 'addWebhook' | 'deleteWebhook' | 'testWebhook'>

export function webhookHandlers(webhooks: WebhookService): WebhookHandlers {
  return {
    listWebhooks: () => webhooks.list(),
    addWebhook: ({ settings, secret }) => webhooks.add(settings, secret),
    deleteWebhook: async ({ id }) => ({ deleted: await webhooks.remove(id) }),
    testWebhook: ({ id }) => webhooks.test(id)
  }
}
