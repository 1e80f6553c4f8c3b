// The demo's vocabulary: event names, devices, sites. Plausible values, nothing real.

export const EVENT_NAMES = [
  'Q4 All-Hands',
  'Product Launch: Aurora',
  'CEO Town Hall',
  'Engineering Demo Day',
  'Sales Kickoff EMEA',
  'Security Awareness Live',
  'Investor Briefing',
  'Quarterly Ops Review',
  'New Joiners Welcome',
  'Customer Summit Keynote',
  'Benefits Q&A',
  'Leadership Offsite Stream'
] as const

export const DEVICES = [
  ['desktop', 60],
  ['mobile', 22],
  ['tablet', 8],
  ['tv', 3],
  ['meeting-room', 7]
] as const

export const OS_BY_DEVICE: Record<string, readonly string[]> = {
  desktop: ['Windows 11', 'Windows 10', 'macOS 15', 'Ubuntu 24.04'],
  mobile: ['iOS 18', 'Android 15', 'Android 14'],
  tablet: ['iPadOS 18', 'Android 14'],
  tv: ['tvOS 18', 'Android TV 12'],
  'meeting-room': ['Windows 10 IoT', 'Android 12']
}

export const APPS = [
  ['Teams', 45],
  ['Browser (Chrome)', 25],
  ['Browser (Edge)', 15],
  ['Browser (Safari)', 8],
  ['Events app', 7]
] as const

export const SITES = [101, 102, 205, 310, 311, 415, 520] as const

export const CONNECTION_KINDS = [
  ['wired', 50],
  ['wifi', 35],
  ['vpn', 10],
  ['cellular', 5]
] as const
