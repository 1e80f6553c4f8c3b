// What each role may ask of the app API: every contract entry names the least role that may make
// it (shared/contract.ts); every face asks the same question, here.
import { requests, type RequestName } from './contract'
import { actionWords } from './request-words'
import { isPersonalDisplayField } from './settings'
import type { Role } from './team'

/** 'own': a person's own things (their display), anyone signed in; still a change (audited). */
export type Need = 'read' | 'own' | 'operate' | 'admin'

const NEED_OF_ROLE: Record<Role, Need> = { viewer: 'read', operator: 'operate', admin: 'admin' }

export function needOf(name: RequestName, args: unknown): Need {
  if (name === 'saveSettings' && args && typeof args === 'object') return settingsNeed(args as Record<string, unknown>)
  return NEED_OF_ROLE[requests[name].role]
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
