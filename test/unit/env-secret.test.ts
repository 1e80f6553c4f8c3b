import { afterEach, describe, expect, it } from 'vitest'
import { environmentSecret, SECRET_ENV, takeSecretFromEnvironment } from '../../src/main/core/connections/env-secret'

const saved = process.env[SECRET_ENV]
afterEach(() => {
  if (saved === undefined) delete process.env[SECRET_ENV]
  else process.env[SECRET_ENV] = saved
})

describe('the client secret from the environment', () => {
  it('is taken out of the environment at start-up and still answers', () => {
    process.env[SECRET_ENV] = 'from-the-environment'
    takeSecretFromEnvironment()
    expect(SECRET_ENV in process.env).toBe(false)
    expect(environmentSecret()).toBe('from-the-environment')
  })

  it('prefers a value set after start-up', () => {
    process.env[SECRET_ENV] = 'set-later'
    expect(environmentSecret()).toBe('set-later')
  })

  it('reads an environment a caller passes, without the taken value', () => {
    expect(environmentSecret({ [SECRET_ENV]: 'passed' })).toBe('passed')
    expect(environmentSecret({})).toBeUndefined()
  })

  it('removes an empty value without remembering it', () => {
    const env: NodeJS.ProcessEnv = { [SECRET_ENV]: '' }
    takeSecretFromEnvironment(env)
    expect(env).toEqual({})
    expect(environmentSecret(env)).toBeUndefined()
  })
})
