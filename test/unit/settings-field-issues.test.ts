import { describe, expect, it } from 'vitest'
import { fieldIssues, numberFromInput } from '../../src/renderer/src/components/settings/field-issues'
import { CadenceSettingsSchema, ReliabilityThresholdsSchema, RetentionSettingsSchema } from '../../src/shared/settings'

const seconds = { discoverySeconds: { unit: 'second' }, detailSeconds: { unit: 'second' }, viewersSeconds: { unit: 'second' } }

describe('settings form issues', () => {
  it('says nothing about valid values', () => {
    expect(fieldIssues(CadenceSettingsSchema, { discoverySeconds: 30, detailSeconds: 15, viewersSeconds: 60 }, seconds)).toEqual({})
  })

  it('explains each bad cadence in words with its unit', () => {
    const issues = fieldIssues(
      CadenceSettingsSchema,
      { discoverySeconds: 2, detailSeconds: 2.5, viewersSeconds: numberFromInput('') },
      seconds
    )
    expect(issues).toEqual({
      discoverySeconds: 'must be at least 5 seconds',
      detailSeconds: 'must be a whole number',
      viewersSeconds: 'is required'
    })
    expect(fieldIssues(CadenceSettingsSchema, { discoverySeconds: 99999, detailSeconds: numberFromInput('x'), viewersSeconds: 60 }, seconds))
      .toEqual({ discoverySeconds: 'must be at most 3600 seconds', detailSeconds: 'must be a number' })
  })

  it('refuses a critical level at or above the warning level, under critical', () => {
    expect(fieldIssues(ReliabilityThresholdsSchema, { warning: 90, critical: 90 })).toEqual({
      critical: 'the critical level must be below the warning level'
    })
    expect(fieldIssues(ReliabilityThresholdsSchema, { warning: 101, critical: 90 })).toEqual({ warning: 'must be at most 100' })
  })

  it('accepts "forever" (null) for retention and explains a day count of zero', () => {
    expect(fieldIssues(RetentionSettingsSchema, { snapshotsDays: null, viewerListsDays: 30, sessionsDays: null, alertsDays: null, auditDays: null })).toEqual({})
    expect(fieldIssues(RetentionSettingsSchema, { snapshotsDays: 0, viewerListsDays: 30, sessionsDays: null, alertsDays: 365, auditDays: 365 }, { snapshotsDays: { unit: 'day' } }))
      .toEqual({ snapshotsDays: 'must be at least 1 day' })
  })
})
