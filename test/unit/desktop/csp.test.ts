import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import type { Session } from 'electron'

vi.mock('electron', () => import('../../support/fake-electron'))

import { FakeSession } from '../../support/fake-electron'
import {
  applyContentSecurityPolicy,
  CONTENT_SECURITY_POLICY,
  withContentSecurityPolicy
} from '../../../src/main/desktop/csp'
import { CONTENT_SECURITY_POLICY as SHARED } from '../../../src/shared/csp'

const directives = new Map(
  CONTENT_SECURITY_POLICY.split(';').map((d) => {
    const [name = '', ...values] = d.trim().split(/\s+/)
    return [name, values.join(' ')] as const
  })
)

describe('CONTENT_SECURITY_POLICY', () => {
  it('is the shared constant', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(SHARED)
  })

  it('holds every directive with its exact sources', () => {
    expect(Object.fromEntries(directives)).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'font-src': "'self'",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
      'object-src': "'none'"
    })
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval')
  })

  it('lives in src/shared without Node or Electron imports', () => {
    const source = readFileSync(new URL('../../../src/shared/csp.ts', import.meta.url), 'utf8')
    expect(source).not.toMatch(/\bimport\b|\brequire\(/)
  })
})

describe('applyContentSecurityPolicy', () => {
  it('adds the policy to responses and keeps their other headers', () => {
    expect(withContentSecurityPolicy({ 'Content-Type': ['text/html'] })).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY]
    })
    expect(withContentSecurityPolicy(undefined)).toEqual({
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY]
    })
  })

  it('installs an onHeadersReceived listener that sends the policy', () => {
    const session = new FakeSession()
    applyContentSecurityPolicy(session as unknown as Session)
    const listener = session.webRequest.onHeadersReceived.mock.calls[0]?.[0]
    expect(listener).toBeTypeOf('function')
    const callback = vi.fn()
    listener({ url: 'http://localhost:5173/', responseHeaders: { Server: ['vite'] } }, callback)
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { Server: ['vite'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] }
    })
  })
})
