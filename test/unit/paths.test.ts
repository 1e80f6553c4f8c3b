import { join } from 'node:path'
import { homedir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { defaultDbFile } from '../../src/main/core/paths'

describe('default cache file', () => {
  it("is the desktop app's, in each OS's per-user app data folder", () => {
    expect(defaultDbFile({}, 'linux')).toBe(join(homedir(), '.config', 'eventwatch', 'eventwatch.db'))
    expect(defaultDbFile({ XDG_CONFIG_HOME: '/x/config' }, 'linux')).toBe(join('/x/config', 'eventwatch', 'eventwatch.db'))
    expect(defaultDbFile({}, 'darwin')).toBe(join(homedir(), 'Library', 'Application Support', 'eventwatch', 'eventwatch.db'))
    expect(defaultDbFile({ APPDATA: 'C:\\Users\\op\\AppData\\Roaming' }, 'win32')).toBe(
      join('C:\\Users\\op\\AppData\\Roaming', 'eventwatch', 'eventwatch.db')
    )
  })

  it('is overridden by EVENTWATCH_DB', () => {
    expect(defaultDbFile({ EVENTWATCH_DB: '/data/noc.db', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/data/noc.db')
    expect(defaultDbFile({ EVENTWATCH_DB: '' }, 'linux')).toBe(join(homedir(), '.config', 'eventwatch', 'eventwatch.db'))
  })
})
