// Sends the app's Content-Security-Policy on every response the desktop session receives.
// The <meta> tag in index.html covers file:// loads; the header covers the dev server and
// anything else the session fetches, so the policy holds whichever way the page was loaded.
import type { OnHeadersReceivedListenerDetails, Session } from 'electron'
import { CONTENT_SECURITY_POLICY } from '../../shared/csp'

export { CONTENT_SECURITY_POLICY }

/** The response headers with our policy added. Any policy the server sent is kept as well:
 *  several policies are all enforced, so adding ours can only make things stricter. */
export function withContentSecurityPolicy(
  headers: OnHeadersReceivedListenerDetails['responseHeaders']
): Record<string, string[]> {
  return { ...(headers ?? {}), 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] }
}

export function applyContentSecurityPolicy(session: Session): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) })
  })
}
