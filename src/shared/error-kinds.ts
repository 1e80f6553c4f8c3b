// The error taxonomy the UI and the CLI share: every failure to reach or read the service, and
// every fault of the local cache file ('storage': a full disk, a read-only mount, a file that is
// no cache), and the app's own trouble ('app': a window's page that crashed or hung), is one of
// these, with words a person understands.
export const ERROR_KINDS = [
  'configuration',
  'authentication',
  'permission',
  'not-found',
  'rate-limited',
  'server',
  'network',
  'response-format',
  'storage',
  'app'
] as const

export type ErrorKind = (typeof ERROR_KINDS)[number]

export const ERROR_KIND_LABELS: Record<ErrorKind, string> = {
  configuration: 'configuration error',
  authentication: 'authentication failed',
  permission: 'permission denied',
  'not-found': 'not found',
  'rate-limited': 'rate limited',
  server: 'server error',
  network: 'network error',
  'response-format': 'unexpected response',
  storage: 'storage error',
  app: 'application error'
}
