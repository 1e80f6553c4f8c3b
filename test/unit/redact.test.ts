// The redaction registry: every remembered secret and token replaced wherever it appears.
import { afterEach, describe, expect, it } from 'vitest'
import { forgetSecrets, redact, rememberSecret } from '../../src/main/core/net/redact'

afterEach(() => forgetSecrets())

describe('redact', () => {
  it('replaces every occurrence of every remembered value, longest first, special characters and all', () => {
    rememberSecret('s3cr3t.(x)+')
    rememberSecret('s3cr3t.(x)+-and-more')
    expect(redact('a s3cr3t.(x)+ b s3cr3t.(x)+-and-more c s3cr3t.(x)+')).toBe('a [redacted] b [redacted] c [redacted]')
    expect(redact('s3cr3tX(x)+')).toBe('s3cr3tX(x)+') // the dot is not a wildcard
  })

  it('leaves text alone when nothing is remembered, and ignores values too short to be secrets', () => {
    expect(redact('nothing to hide')).toBe('nothing to hide')
    rememberSecret('abc')
    rememberSecret('')
    rememberSecret(undefined)
    expect(redact('abc abcdef')).toBe('abc abcdef')
  })

  it('keeps the newest 64 values: a server renewing tokens for weeks does not grow it forever', () => {
    for (let i = 0; i < 100; i++) rememberSecret(`token-number-${String(i).padStart(3, '0')}`)
    expect(redact('token-number-099')).toBe('[redacted]')
    expect(redact('token-number-036')).toBe('[redacted]')
    expect(redact('token-number-035')).toBe('token-number-035')
  })
})
