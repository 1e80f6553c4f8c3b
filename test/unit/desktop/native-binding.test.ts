import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { electronNativeBindingPath } from '../../../src/main/desktop/native-binding'

describe('electronNativeBindingPath', () => {
  const root = mkdtempSync(join(tmpdir(), 'eventwatch-native-'))
  const binary = join(root, '.native', 'electron-40.1.0', 'better_sqlite3.node')
  mkdirSync(join(root, '.native', 'electron-40.1.0'), { recursive: true })
  writeFileSync(binary, '')
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('finds the binary built for this Electron version', () => {
    expect(electronNativeBindingPath(root, '40.1.0')).toBe(binary)
  })

  it('is undefined when no binary was built for the version', () => {
    expect(electronNativeBindingPath(root, '40.2.0')).toBeUndefined()
    expect(electronNativeBindingPath(join(root, 'missing'), '40.1.0')).toBeUndefined()
  })

  it('refuses a version that is empty or path-like', () => {
    expect(electronNativeBindingPath(root, '')).toBeUndefined()
    expect(electronNativeBindingPath(join(root, '.native', 'x'), '../electron-40.1.0')).toBeUndefined()
    expect(electronNativeBindingPath(root, '40.1.0/../40.1.0')).toBeUndefined()
  })
})
