// What each role may ask of the app API: every contract entry names the least role that may make
// it (shared/contract.ts); every face asks the same question, here.
import { requests, type RequestName } from './contract'
import { actionWords } from './request-words'
import type { Role } from './team'

export type Need = 'read' | 'operate' | 'admin'

const NEED_OF_ROLE: Record<Role, Need> = { viewer: 'read', operator: 'operate', admin: 'admin' }

/** Alert settings are the operators'; cadences, retention, display and desktop are global. */
const OPERATOR_SETTINGS = new Set(['thresholds', 'alertRules'])

export function needOf(name: RequestName, args: unknown): Need {
  if (name === 'saveSettings' && args && typeof args === 'object') {
    return Object.keys(args).every((key) => OPERATOR_SETTINGS.has(key)) ? 'operate' : 'admin'
  }
  return NEED_OF_ROLE[requests[name].role]
}

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 }
const NEED_RANK: Record<Need, number> = { read: 0, operate: 1, admin: 2 }

const WHO_MAY: Record<Exclude<Need, 'read'>, string> = {
  operate: 'needs the operator role',
  admin: "is for the server's administrator (on the server, with the eventwatch command)"
}
const A_ROLE: Record<Role, string> = { viewer: 'a viewer', operator: 'an operator', admin: 'the administrator' }

/** Whether `role` may make the request; the reason in words when not, the action named as a
 *  person knows it: "Refreshing a session needs the operator role; you are signed in as a viewer." */
export function mayRequest(role: Role, name: RequestName, args: unknown): { allowed: true } | { allowed: false; message: string } {
  const need = needOf(name, args)
  if (need === 'read' || RANK[role] >= NEED_RANK[need]) return { allowed: true }
  return { allowed: false, message: `${actionWords(name, args)} ${WHO_MAY[need]}; you are signed in as ${A_ROLE[role]}.` }
}

/** Tests of what is typed but not saved change nothing, and their arguments carry a secret. */
const PROBES: ReadonlySet<RequestName> = new Set(['testConnectionDraft'])

/** Whether a request changes something (it goes to the audit log with its author). */
export const isChange = (name: RequestName, args: unknown): boolean => needOf(name, args) !== 'read' && !PROBES.has(name)
