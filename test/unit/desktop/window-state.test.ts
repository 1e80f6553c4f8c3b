// window-state.ts: the main window opens where the operator left it, and never off screen when
// the display it was on is gone (issue 15).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { placeWindow, readWindowState, writeWindowState, type WindowState } from '../../../src/main/desktop/window-state'

const laptop = { workArea: { x: 0, y: 0, width: 1366, height: 728 } }
const monitorRight = { workArea: { x: 1366, y: 0, width: 1920, height: 1040 } }
const onMonitor: WindowState = { bounds: { x: 1500, y: 100, width: 1400, height: 900 }, maximized: false }

describe('placeWindow', () => {
  it('keeps the saved place while its display is there', () => {
    expect(placeWindow(onMonitor, [laptop, monitorRight], laptop)).toEqual(onMonitor)
  })

  it('opens on the primary display, centred and shrunk to fit, once that display is gone; maximized stays', () => {
    expect(placeWindow({ ...onMonitor, maximized: true }, [laptop], laptop)).toEqual({
      bounds: { x: 0, y: 0, width: 1366, height: 728 },
      maximized: true
    })
    const small: WindowState = { bounds: { x: 2000, y: 300, width: 1000, height: 600 }, maximized: false }
    expect(placeWindow(small, [laptop], laptop)).toEqual({ bounds: { x: 183, y: 64, width: 1000, height: 600 }, maximized: false })
  })

  it('treats a window with only a sliver on a display as off screen', () => {
    const sliver: WindowState = { bounds: { x: 1330, y: 0, width: 800, height: 600 }, maximized: false }
    expect(placeWindow(sliver, [laptop], laptop)?.bounds.x).toBe(283)
  })

  it('leaves the first start to Electron', () => {
    expect(placeWindow(undefined, [laptop], laptop)).toBeUndefined()
  })
})

describe('the state file', () => {
  let dir = ''
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('round-trips, and reads a missing, broken or foreign file as nothing saved', () => {
    dir = mkdtempSync(join(tmpdir(), 'eventwatch-window-'))
    const file = join(dir, 'window-state.json')
    expect(readWindowState(file)).toBeUndefined()
    expect(writeWindowState(file, onMonitor)).toBe(true)
    expect(readWindowState(file)).toEqual(onMonitor)
    writeFileSync(file, '{"bounds": {"x": "left"}}')
    expect(readWindowState(file)).toBeUndefined()
    writeFileSync(file, 'not json')
    expect(readWindowState(file)).toBeUndefined()
    expect(writeWindowState(join(dir, 'no-such-dir', 'state.json'), onMonitor)).toBe(false)
  })
})
