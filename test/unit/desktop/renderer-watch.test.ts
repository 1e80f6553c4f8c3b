// renderer-watch.ts: a crashed or hung page comes back by itself, with a notice and a diagnostics
// entry, and a page that keeps crashing is not reloaded forever (issue 15). The electron module
// is the recording fake; the app wiring is checked through startDesktop.
import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))
const start = vi.hoisted(() => ({ startAppCore: vi.fn() }))
vi.mock('../../../src/main/core/app/start', () => start)

import { BrowserWindow, fakeCore, fakeEvent, Notification, resetDesktop, resetFakeElectron } from '../../support/fake-electron'
import { startDesktop } from '../../../src/main/desktop/app'
import { HANG_MS, MAX_RELOADS, watchRenderer } from '../../../src/main/desktop/renderer-watch'

function watched() {
  resetFakeElectron()
  const window = new BrowserWindow({})
  let now = 0
  const timers: { fn: () => void; at: number }[] = []
  const deps = {
    reload: vi.fn(),
    record: vi.fn(),
    notify: vi.fn(),
    clock: () => now,
    setTimer: (fn: () => void, ms: number) => {
      const timer = { fn, at: now + ms }
      timers.push(timer)
      return timer
    },
    clearTimer: (timer: unknown) => {
      timers.splice(timers.indexOf(timer as (typeof timers)[number]), 1)
    }
  }
  watchRenderer(window as never, deps)
  const advance = (ms: number) => {
    now += ms
    for (const timer of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(timer), 1)
      timer.fn()
    }
  }
  const crash = (reason = 'crashed') => window.webContents.emit('render-process-gone', fakeEvent({}), { reason, exitCode: 139 })
  return { window, deps, advance, crash }
}

describe('watchRenderer', () => {
  it('reloads a crashed page at once, with a notice and a diagnostics entry naming why', () => {
    const { deps, crash } = watched()
    crash('oom')
    expect(deps.reload).toHaveBeenCalledTimes(1)
    expect(deps.record).toHaveBeenCalledWith('stopped (oom, exit code 139); the page was reloaded')
    expect(deps.notify).toHaveBeenCalledWith("Eventwatch's window stopped (oom, exit code 139) and was reloaded.")
  })

  it('leaves a page that closed normally alone', () => {
    const { deps, crash } = watched()
    crash('clean-exit')
    expect(deps.reload).not.toHaveBeenCalled()
    expect(deps.record).not.toHaveBeenCalled()
  })

  it('ends a page unresponsive for the whole wait, so that it is reloaded; one that recovers is left', () => {
    const { window, deps, advance } = watched()
    window.emit('unresponsive')
    advance(HANG_MS - 1)
    window.emit('responsive')
    advance(HANG_MS)
    expect(window.webContents.forcefullyCrashRenderer).not.toHaveBeenCalled()
    window.emit('unresponsive')
    advance(HANG_MS)
    expect(window.webContents.forcefullyCrashRenderer).toHaveBeenCalledTimes(1)
    expect(deps.reload).not.toHaveBeenCalled() // the crash it causes reloads it
  })

  it(`reloads at most ${MAX_RELOADS} times a minute, then says so and stops`, () => {
    const { deps, crash, advance } = watched()
    for (let i = 0; i < MAX_RELOADS + 1; i++) crash()
    expect(deps.reload).toHaveBeenCalledTimes(MAX_RELOADS)
    expect(deps.record).toHaveBeenLastCalledWith(`stopped (crashed, exit code 139); not reloaded: it failed ${MAX_RELOADS} times within a minute`)
    advance(61_000)
    crash()
    expect(deps.reload).toHaveBeenCalledTimes(MAX_RELOADS + 1)
  })
})

describe('the desktop window', () => {

  it('reloads its page after a crash, records it in Diagnostics and notifies', async () => {
    const core = resetDesktop(start.startAppCore, fakeCore)
    startDesktop()
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1))
    const window = BrowserWindow.instances[0]!
    const loads = window.loadFile.mock.calls.length
    window.webContents.emit('render-process-gone', fakeEvent({}), { reason: 'crashed', exitCode: 11 })
    expect(core.recordProblem).toHaveBeenCalledWith({ endpoint: 'window', message: 'stopped (crashed, exit code 11); the page was reloaded' })
    expect(window.loadFile.mock.calls.length).toBe(loads + 1)
    expect(Notification.instances.at(-1)?.options).toMatchObject({ body: "Eventwatch's window stopped (crashed, exit code 11) and was reloaded." })
  })
})
