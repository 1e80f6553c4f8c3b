// The alert-rules settings form's model: which fields each rule has, the text boxes' drafts,
// and the schema's verdict on them per field. Pure, so it is unit-tested.
import { AlertRulesSchema, type AlertRules } from '../../../../shared/alerts'
import { fieldIssues, numberFromInput, type FieldWords } from '../settings/field-issues'

export type RuleKey = keyof AlertRules

export interface RuleField {
  key: string
  label: string
  /** Shown beside the box, plural ("minutes"). */
  unit: string
  hint?: string
}

export interface RuleForm {
  key: RuleKey
  title: string
  about: string
  /** What "off" means, when it is not "this rule never fires". */
  offWords?: string
  fields: RuleField[]
}

const TIMING: RuleField[] = [
  { key: 'pendingPolls', label: 'Fires after', unit: 'polls', hint: 'In a row, so one bad poll is not an alert.' },
  { key: 'recoveryPolls', label: 'Clears after', unit: 'polls', hint: 'In a row of recovery.' },
  { key: 'cooldownMinutes', label: 'Quiet for', unit: 'minutes', hint: 'After it clears, before it may fire again.' }
]

export const RULE_FORMS: RuleForm[] = [
  {
    key: 'reliabilityBelow',
    title: 'Reliability below level',
    about: 'A live session under the warning or critical level of “Reliability levels”.',
    fields: [
      { key: 'recoveryMargin', label: 'Clears above level +', unit: 'points', hint: 'Hysteresis: a score hovering at the level fires once.' },
      ...TIMING
    ]
  },
  {
    key: 'reliabilityFalling',
    title: 'Reliability falling',
    about: 'A drop within a window, even while still above the levels.',
    fields: [{ key: 'points', label: 'Drop of at least', unit: 'points' }, { key: 'windowMinutes', label: 'Within', unit: 'minutes' }, ...TIMING]
  },
  {
    key: 'viewersDropping',
    title: 'Viewers dropping',
    about: 'Concurrent viewers fall sharply while the session is live (a mass disconnect).',
    fields: [
      { key: 'percent', label: 'Fall of at least', unit: '%' },
      { key: 'windowMinutes', label: 'Within', unit: 'minutes' },
      { key: 'minimumViewers', label: 'Only with at least', unit: 'viewers', hint: 'A smaller audience does not fire it.' },
      ...TIMING
    ]
  },
  {
    key: 'siteReliability',
    title: 'A site below level',
    about: 'One site’s viewers (an office) under these levels while the session itself is at or above its warning level.',
    fields: [
      { key: 'warningBelow', label: 'Site warning below', unit: 'points', hint: 'A site’s mean reliability, 0–100.' },
      { key: 'criticalBelow', label: 'Site critical below', unit: 'points' },
      { key: 'minimumViewers', label: 'Sites of at least', unit: 'viewers', hint: 'A smaller site is not judged.' },
      { key: 'recoveryMargin', label: 'Clears above level +', unit: 'points' },
      { key: 'pendingPolls', label: 'Fires after', unit: 'lists', hint: 'Viewer lists in a row (one a minute by default).' },
      { key: 'recoveryPolls', label: 'Clears after', unit: 'lists' },
      { key: 'cooldownMinutes', label: 'Quiet for', unit: 'minutes', hint: 'After it clears, before it may fire again.' }
    ]
  },
  {
    key: 'repeatCritical',
    title: 'Repeat unacknowledged criticals',
    about: 'A critical alert nobody has acknowledged is notified again while it fires (off by default).',
    offWords: 'a critical is notified once, when it fires.',
    fields: [{ key: 'everyMinutes', label: 'Every', unit: 'minutes' }]
  },
  {
    key: 'monitorBlind',
    title: 'Cannot reach the service',
    about: 'No successful poll of a connection for a while: one alert for the connection, its sessions’ alerts held back.',
    fields: [{ key: 'minutes', label: 'No poll for', unit: 'minutes' }]
  }
]

export type RuleDrafts = Record<RuleKey, { enabled: boolean; values: Record<string, string> }>
/** The drafts as numbers (undefined for an empty box, NaN for junk), in the schema's shape. */
export type EditedRules = Record<RuleKey, Record<string, unknown>>

const read = (rules: AlertRules, key: RuleKey): Record<string, unknown> => rules[key] as Record<string, unknown>

function byRule<T>(make: (form: RuleForm) => T): Record<RuleKey, T> {
  return Object.fromEntries(RULE_FORMS.map((form) => [form.key, make(form)])) as Record<RuleKey, T>
}

export function toDrafts(rules: AlertRules): RuleDrafts {
  return byRule((form) => ({
    enabled: Boolean(read(rules, form.key).enabled),
    values: Object.fromEntries(form.fields.map((f) => [f.key, String(read(rules, form.key)[f.key] ?? '')]))
  }))
}

export function fromDrafts(drafts: RuleDrafts): EditedRules {
  return byRule((form) => ({
    enabled: drafts[form.key].enabled,
    ...Object.fromEntries(form.fields.map((f) => [f.key, numberFromInput(drafts[form.key].values[f.key] ?? '')]))
  }))
}

/** True when the edited rules say the same as the saved ones. */
export function sameRules(edited: EditedRules, saved: AlertRules): boolean {
  return RULE_FORMS.every(
    (form) =>
      edited[form.key].enabled === read(saved, form.key).enabled &&
      form.fields.every((f) => edited[form.key][f.key] === read(saved, form.key)[f.key])
  )
}

const UNIT_WORD: Record<string, string> = { polls: 'poll', lists: 'list', minutes: 'minute', points: 'point', viewers: 'viewer' }

/** Per rule, per field, the first problem in words ("must be at least 1 poll"). */
export function ruleIssues(edited: EditedRules): Record<RuleKey, Record<string, string>> {
  return byRule((form) => {
    const words: Record<string, FieldWords> = Object.fromEntries(
      form.fields.map((f) => [f.key, UNIT_WORD[f.unit] ? { unit: UNIT_WORD[f.unit] } : {}])
    )
    return fieldIssues(AlertRulesSchema.shape[form.key], edited[form.key], words)
  })
}
