// Each request of the app API as the action a person asked for, in words: a refusal or a failure
// says "Refreshing a session needs the operator role", never the request's name in the code.
import type { RequestName } from './contract'
import { isPersonalDisplayField } from './settings'

/** The action, to begin a sentence with. */
const ACTIONS: Record<RequestName, string> = {
  getStatus: 'Reading the polling status',
  getIdentity: 'Reading who you are signed in as',
  listLiveSessions: 'Reading the live sessions',
  getSession: 'Reading a session',
  refreshNow: 'Refreshing every live session',
  refreshSession: 'Refreshing a session',
  setPaused: 'Pausing or resuming polling',
  listConnections: 'Reading the connections',
  saveConnection: 'Saving a connection',
  deleteConnection: 'Deleting a connection',
  setConnectionEnabled: 'Enabling or disabling a connection',
  testConnection: 'Testing a connection',
  testConnectionDraft: 'Testing a connection before it is saved',
  listWebhooks: 'Reading the webhooks',
  addWebhook: 'Adding a webhook',
  deleteWebhook: 'Deleting a webhook',
  testWebhook: 'Testing a webhook',
  listMaintenance: 'Reading the maintenance windows',
  addMaintenance: 'Adding a maintenance window',
  deleteMaintenance: 'Deleting a maintenance window',
  getSettings: 'Reading the settings',
  saveSettings: 'Saving settings',
  listAlerts: 'Reading the alerts',
  acknowledgeAlert: 'Acknowledging an alert',
  snoozeAlert: 'Snoozing an alert',
  setSessionAlertOverride: 'Muting a session or setting its own levels',
  pauseNotifications: 'Pausing notifications',
  listAudit: 'Reading the list of changes',
  addUser: 'Adding a user',
  rotateUserToken: 'Giving a user a new token',
  removeUser: 'Removing a user',
  getTeamServer: 'Reading the team server settings',
  joinTeamServer: 'Joining a team server',
  leaveTeamServer: 'Leaving the team server',
  sessionChart: "Reading a session's charts",
  sessionStory: "Reading a session's audience over time",
  sessionReport: "Making a session's report",
  liveTrends: 'Reading the live trends',
  viewerPage: "Reading a session's viewers",
  viewerDetail: "Reading a viewer's details",
  breakdown: "Reading where a session's viewers are",
  listSiteNames: 'Reading the site names',
  setSiteName: 'Naming a site',
  pastSessions: 'Reading past sessions',
  exportChunk: 'Exporting',
  listDiagnostics: 'Reading the diagnostics',
  fetchRange: 'Fetching a date range from the service'
}

/** Settings sections as a person knows them (Settings' own headings). */
const SETTINGS_SECTIONS: Record<string, string> = {
  cadences: 'polling',
  retention: 'cache',
  thresholds: 'reliability level',
  display: 'display',
  alertRules: 'alert',
  desktop: 'desktop'
}

/** "Refreshing a session"; a settings save names its sections: "Saving the display settings". */
export function actionWords(name: RequestName, args?: unknown): string {
  if (name === 'saveSettings' && args && typeof args === 'object') {
    const sections = Object.entries(args).map(([key, value]) => (key === 'display' && savesUnits(value) ? 'display unit' : (SETTINGS_SECTIONS[key] ?? key)))
    if (sections.length > 0) return `Saving the ${joinWords(sections)} settings`
  }
  return ACTIONS[name]
}

/** A display save that touches the units (the server's, not a person's own). */
const savesUnits = (display: unknown): boolean =>
  display !== null && typeof display === 'object' && Object.keys(display).some((key) => !isPersonalDisplayField(key))

function joinWords(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}
