// The page's own CSP (for file:// loads in the desktop app) must match the shared policy.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../src/shared/csp'

describe('renderer index.html', () => {
  it('carries the shared Content-Security-Policy in its meta tag', () => {
    const html = readFileSync(new URL('../../src/renderer/index.html', import.meta.url), 'utf8')
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]
    expect(meta).toBeDefined()
    // frame-ancestors is ignored in a meta tag, so only the headers carry it.
    const expected = CONTENT_SECURITY_POLICY.split('; ').filter((d) => !d.startsWith('frame-ancestors'))
    expect(meta?.split('; ').sort()).toEqual(expected.sort())
  })
})
