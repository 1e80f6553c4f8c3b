// The team server's people and what each may do (issue 17). One table decides, for every request
// of the app API, the least role that may make it; every face asks the same question.
import { z } from 'zod'
import type { RequestName } from './contract'
import { actionWords } from './request-words'
import { isPersonalDisplayField } from './settings'

/** A viewer reads; an operator also acts on alerts; the administrator (whoever runs the CLI or
 *  the desktop app on the machine itself) also changes connections, webhooks and global settings. */
export const USER_ROLES = ['operator', 'viewer'] as const
export type UserRole = (typeof USER_ROLES)[number]
export type Role = UserRole | 'admin'

/** Who makes a request: a user of the team server, or the machine's own administrator. */
export interface Actor {
  name: string
  role: Role
}

export const UserName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._@-]*$/u, 'letters, digits, spaces and . _ @ - only')

export const UserViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  role: z.enum(USER_ROLES),
  createdAt: z.string(),
  rotatedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable()
})
export type UserView = z.infer<typeof UserViewSchema>

export const IdentitySchema = z.object({
  name: z.string(),
  role: z.enum(['operator', 'viewer', 'admin']),
  /** True when this page talks to a team server as one of its users. */
  team: z.boolean()
})
export type Identity = z.infer<typeof IdentitySchema>

export const AuditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  subject: z.string().nullable(),
  detail: z.string().nullable()
})
export type AuditEntry = z.infer<typeof AuditEntrySchema>

/** The team server this desk is a client of (it takes effect at the next start). */
export const TeamServerViewSchema = z.object({
  url: z.string(),
  pinnedSha256: z.string().nullable(),
  /** Who the token said it was when the desk joined. */
  user: z.string().nullable()
})
export type TeamServerView = z.infer<typeof TeamServerViewSchema>

/** Requests about this desk itself, never relayed to a team server (a desk leaves its team from here). */
export const DESK_REQUESTS = ['getTeamServer', 'joinTeamServer', 'leaveTeamServer'] as const

/** 'own': a person's own things (their display), anyone signed in; still a change (audited). */
type Need = 'read' | 'own' | 'operate' | 'admin'

/** The least role each request needs. Reads are for everyone signed in; an operator acts on
 *  alerts (acknowledge, snooze, mute, levels, maintenance windows, alert settings) and may ask
 *  for a refresh; the rest stays with the machine's administrator. */
const NEEDS: Record<RequestName, Need> = {
  getStatus: 'read',
  getIdentity: 'read',
  listLiveSessions: 'read',
  getSession: 'read',
  refreshNow: 'operate',
  refreshSession: 'operate',
  setPaused: 'admin',
  listConnections: 'read',
  saveConnection: 'admin',
  deleteConnection: 'admin',
  setConnectionEnabled: 'admin',
  testConnection: 'admin',
  testConnectionDraft: 'admin',
  // Webhook addresses are secrets of their own (a Slack or Teams URL lets anyone post).
  listWebhooks: 'admin',
  addWebhook: 'admin',
  deleteWebhook: 'admin',
  testWebhook: 'admin',
  listMaintenance: 'read',
  addMaintenance: 'operate',
  deleteMaintenance: 'operate',
  getSettings: 'read',
  // Decided by what is saved: see needOf.
  saveSettings: 'operate',
  listAlerts: 'read',
  acknowledgeAlert: 'operate',
  snoozeAlert: 'operate',
  setSessionAlertOverride: 'operate',
  pauseNotifications: 'operate',
  listAudit: 'read',
  getTeamServer: 'read',
  joinTeamServer: 'admin',
  leaveTeamServer: 'admin',
  sessionChart: 'read',
  sessionStory: 'read',
  sessionReport: 'read',
  liveTrends: 'read',
  viewerPage: 'read',
  viewerDetail: 'read',
  breakdown: 'read',
  listSiteNames: 'read',
  setSiteName: 'operate',
  pastSessions: 'read',
  exportChunk: 'read',
  listDiagnostics: 'read',
  fetchRange: 'operate'
}

export function needOf(name: RequestName, args: unknown): Need {
  if (name === 'saveSettings' && args && typeof args === 'object') return settingsNeed(args as Record<string, unknown>)
  return NEEDS[name]
}

/** A settings save needs what its most guarded section needs. */
function settingsNeed(sections: Record<string, unknown>): Need {
  const needs = Object.entries(sections).map(([key, value]) => sectionNeed(key, value))
  if (needs.length === 0) return 'operate' // saves nothing: as before, not for a viewer
  return needs.reduce((most, need) => (NEED_RANK[need] > NEED_RANK[most] ? need : most))
}

/** A person's own display (time zone, theme, sound) is theirs; alert settings are the
 *  operators'; cadences, retention, the units and the desktop's ways are global. */
function sectionNeed(key: string, value: unknown): Need {
  if (key === 'thresholds' || key === 'alertRules') return 'operate'
  const own = key === 'display' && value !== null && typeof value === 'object' && Object.keys(value).every(isPersonalDisplayField)
  return own ? 'own' : 'admin'
}

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 }
const NEED_RANK: Record<Need, number> = { read: 0, own: 0, operate: 1, admin: 2 }

const WHO_MAY: Record<Exclude<Need, 'read' | 'own'>, string> = {
  operate: 'needs the operator role',
  admin: "is for the server's administrator (on the server, with the eventwatch command)"
}
const A_ROLE: Record<Role, string> = { viewer: 'a viewer', operator: 'an operator', admin: 'the administrator' }

/** Whether `role` may make the request; the reason in words when not, the action named as a
 *  person knows it: "Refreshing a session needs the operator role; you are signed in as a viewer." */
export function mayRequest(role: Role, name: RequestName, args: unknown): { allowed: true } | { allowed: false; message: string } {
  const need = needOf(name, args)
  if (need === 'read' || need === 'own' || RANK[role] >= NEED_RANK[need]) return { allowed: true }
  return { allowed: false, message: `${actionWords(name, refusedPart(role, name, args))} ${WHO_MAY[need]}; you are signed in as ${A_ROLE[role]}.` }
}

/** A settings save's refusal names only the sections the role may not save (a viewer's own theme
 *  saved with the polling is refused for the polling); any other request's, its arguments. */
function refusedPart(role: Role, name: RequestName, args: unknown): unknown {
  if (name !== 'saveSettings' || !args || typeof args !== 'object') return args
  return Object.fromEntries(Object.entries(args).filter(([key, value]) => NEED_RANK[sectionNeed(key, value)] > RANK[role]))
}

/** Tests of what is typed but not saved change nothing, and their arguments carry a secret. */
const PROBES: ReadonlySet<RequestName> = new Set(['testConnectionDraft'])

/** Whether a request changes something (it goes to the audit log with its author). */
export const isChange = (name: RequestName, args: unknown): boolean => needOf(name, args) !== 'read' && !PROBES.has(name)
