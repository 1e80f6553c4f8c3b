// Every migration in order. Add a file, add it here; never edit one that has shipped.
import { initial } from './001-initial'
import { connectionsViewersDiagnostics } from './002-connections-viewers-diagnostics'
import { cacheComplete } from './003-cache-complete'
import { viewerIntegerKeys } from './004-viewer-integer-keys'
import { searchContentId } from './005-search-content-id'
import { sessionSearchText } from './006-session-search-text'
import { alerts } from './007-alerts'
import { connectionReliabilityScale } from './008-connection-reliability-scale'
import { stagedViewerLists } from './009-staged-viewer-lists'
import { viewerListSummary } from './010-viewer-list-summary'
import { siteNames } from './011-site-names'
import { connectionNetwork } from './012-connection-network'
import { webhooks } from './013-webhooks'
import { siteAlerts } from './014-site-alerts'
import { maintenanceWindows } from './015-maintenance-windows'
import { team } from './016-team'
import { maintenanceTimeZones } from './017-maintenance-time-zones'
import { webhookUrlQueries } from './018-webhook-url-queries'
import { viewerListIdsNeverReused } from './019-viewer-list-ids-never-reused'
import { alertEndKinds } from './020-alert-end-kinds'
import { peaksWhileLive } from './021-peaks-while-live'
import { userSettings } from './022-user-settings'
import { coreStateRows } from './023-core-state-rows'
import { alertChanges } from './024-alert-changes'
import { encryptedSecretsOnPostgresOnly } from './025-encrypted-secrets'
import { outboxClaims } from './026-outbox-claims'
import { leases } from './027-leases'
import type { Migration } from './types'

export const migrations: readonly Migration[] = [initial, connectionsViewersDiagnostics, cacheComplete, viewerIntegerKeys, searchContentId, sessionSearchText, alerts,
  connectionReliabilityScale, stagedViewerLists, viewerListSummary, siteNames, connectionNetwork, webhooks, siteAlerts, maintenanceWindows, team,
  maintenanceTimeZones, webhookUrlQueries, viewerListIdsNeverReused, alertEndKinds,
  peaksWhileLive, userSettings, coreStateRows, alertChanges, encryptedSecretsOnPostgresOnly, outboxClaims, leases]
