// The viewer fields the spec names, in its order: one list for storing, exporting and knowing
// which fields are "extra" (kept as raw JSON).
export const VIEWER_SCALAR_FIELDS = [
  'viewerId',
  'deviceType',
  'os',
  'app',
  'reliabilityScore',
  'rebufferingEvents',
  'rebufferingTime',
  'viewingTime',
  'startedAt',
  'endedAt',
  'cdnTraffic',
  'ecdnTraffic',
  'cdnResponses',
  'cdnErrors'
] as const

export const NETWORK_CONNECTION_FIELDS = ['connectionStarted', 'publicIp', 'privateIp', 'type', 'proxy', 'siteCode'] as const
