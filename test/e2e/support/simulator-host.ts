// The browser host polling an in-process simulator (whose world and faults a spec can change),
// as an ad-hoc command-line connection with the secret in the environment.
import type { RunningSimulator } from '../../../src/main/core/simulator/server'
import { startBrowserHost, type BrowserHost } from '../browser-host'

export function startBrowserHostFor(sim: RunningSimulator, interval = 2): Promise<BrowserHost> {
  const c = sim.credentials
  return startBrowserHost(
    ['--interval', String(interval), '--base-url', sim.baseUrl, '--auth-url', sim.authUrl, '--platform-id', c.platformId,
      '--tenant-id', c.tenantId, '--client-id', c.clientId],
    { EVENTWATCH_CLIENT_SECRET: c.clientSecret }
  )
}
