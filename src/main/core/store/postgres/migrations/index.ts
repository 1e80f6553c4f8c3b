// Every PostgreSQL migration in order. Add a file, add it here; never edit one that has shipped.
import { baseline } from './024-baseline'
import { encryptedSecrets } from './025-encrypted-secrets'
import { outboxClaims } from './026-outbox-claims'
import { leases } from './027-leases'
import { pollRequests } from './028-poll-requests'
import { serviceCountsAsSent } from './029-service-counts-as-sent'
import { onCallWebhooks } from './030-on-call-webhooks'
import type { PgMigration } from './types'

export const pgMigrations: readonly PgMigration[] = [baseline, encryptedSecrets, outboxClaims, leases, pollRequests, serviceCountsAsSent, onCallWebhooks]
