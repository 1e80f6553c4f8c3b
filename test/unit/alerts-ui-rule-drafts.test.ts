import { describe, expect, it } from 'vitest'
import { fromDrafts, RULE_FORMS, ruleIssues, sameRules, toDrafts } from '../../src/renderer/src/components/alerts/rule-drafts'
import { AlertRulesSchema, DEFAULT_ALERT_RULES } from '../../src/shared/alerts'

describe('alert rules form model', () => {
  it('round-trips the defaults through the text boxes unchanged and valid', () => {
    const edited = fromDrafts(toDrafts(DEFAULT_ALERT_RULES))
    expect(sameRules(edited, DEFAULT_ALERT_RULES)).toBe(true)
    expect(AlertRulesSchema.parse(edited)).toEqual(DEFAULT_ALERT_RULES)
    expect(Object.values(ruleIssues(edited)).every((issues) => Object.keys(issues).length === 0)).toBe(true)
  })

  it('has a box for every number of every rule', () => {
    for (const form of RULE_FORMS) {
      const numbers = Object.entries(DEFAULT_ALERT_RULES[form.key])
        .filter(([, v]) => typeof v === 'number')
        .map(([k]) => k)
      expect(form.fields.map((f) => f.key).sort()).toEqual(numbers.sort())
    }
  })

  it('explains bad values per rule and field, in words with their units', () => {
    const drafts = toDrafts(DEFAULT_ALERT_RULES)
    drafts.reliabilityBelow.values.pendingPolls = '0'
    drafts.reliabilityFalling.values.windowMinutes = ''
    drafts.viewersDropping.values.minimumViewers = '12.5'
    drafts.monitorBlind.values.minutes = 'soon'
    const issues = ruleIssues(fromDrafts(drafts))
    expect(issues.reliabilityBelow).toEqual({ pendingPolls: 'must be at least 1 poll' })
    expect(issues.reliabilityFalling).toEqual({ windowMinutes: 'is required' })
    expect(issues.viewersDropping).toEqual({ minimumViewers: 'must be a whole number' })
    expect(issues.monitorBlind).toEqual({ minutes: 'must be a number' })
  })

  it('notices a switched-off rule and a changed number as changes', () => {
    const drafts = toDrafts(DEFAULT_ALERT_RULES)
    drafts.viewersDropping.enabled = false
    expect(sameRules(fromDrafts(drafts), DEFAULT_ALERT_RULES)).toBe(false)
    const other = toDrafts(DEFAULT_ALERT_RULES)
    other.reliabilityFalling.values.points = '7'
    expect(sameRules(fromDrafts(other), DEFAULT_ALERT_RULES)).toBe(false)
  })
})
