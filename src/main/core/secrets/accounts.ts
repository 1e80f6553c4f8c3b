// The accounts secrets are kept under (service "eventwatch"), in the OS keychain and in the sealed
// table alike: named here, below every part that keeps one, so that the connections, the webhooks
// and `store copy` (which moves them from one to the other) name them the same.

/** A connection's client secret: the bare connection id. */
export const clientSecretAccount = (connectionId: string): string => connectionId

/** A connection's proxy password. */
export const proxyPasswordAccount = (connectionId: string): string => `${connectionId}:proxy`

/** A webhook's signing secret. */
export const webhookSecretAccount = (webhookId: string): string => `webhook:${webhookId}`

/** The query of a webhook URL that carries a secret (a Teams Workflows `sig`). */
export const webhookUrlAccount = (webhookId: string): string => `webhook-url:${webhookId}`
