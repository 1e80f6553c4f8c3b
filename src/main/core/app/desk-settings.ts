// A desk joined to a team server keeps its own desktop ways (start at login): they are this
// machine's, kept in its own cache as before it joined, and stay when it leaves; the server's are
// the server machine's, never this desk's. Every other setting is the server's (with this user's
// own display there): the desktop section is answered and saved here, the rest is relayed.
import { requests, type RequestContext } from '../../../shared/contract'
import { ok, type Result } from '../../../shared/result'
import type { AppSettings } from '../../../shared/settings'
import type { DeskOwnSettings } from '../store/desk-own-settings'
import { EventHub } from './event-hub'
import { typedFace } from './typed-face'
import type { AppCore } from './types'

/** `team` (a team server's client) with this desk's own desktop settings in place of the server's
 *  (`own`: kept in the desk's own cache, store/desk-own-settings.ts). */
export function withOwnDesktopSettings(team: AppCore, own: DeskOwnSettings): AppCore {
  const saved = new EventHub()
  const mine = async (settings: AppSettings): Promise<AppSettings> => ({ ...settings, desktop: await own.get() })
  const readSettings = async (context?: RequestContext): Promise<Result<unknown>> => {
    const read = await team.dispatch('getSettings', {}, context)
    return read.ok ? ok(await mine(read.value as AppSettings)) : read
  }

  const saveSettings = async (args: unknown, context?: RequestContext): Promise<Result<unknown>> => {
    const parsed = requests.saveSettings.args.safeParse(args ?? {})
    if (!parsed.success || !parsed.data.desktop) return team.dispatch('saveSettings', args, context)
    const { desktop, ...rest } = parsed.data
    // The server's sections first: refused there, nothing is saved here either.
    if (Object.keys(rest).length > 0) {
      const relayed = await team.dispatch('saveSettings', rest, context)
      if (!relayed.ok) return relayed
    }
    await own.save(desktop)
    const now = await readSettings(context)
    // The window and the login item follow (keep-login-item.ts), as after any save.
    if (now.ok) saved.emit('settingsChanged', now.value as AppSettings)
    return now
  }

  const desk: Omit<AppCore, 'request' | 'on'> = {
    dispatch: (name, args, context) => {
      if (name === 'getSettings') return readSettings(context)
      if (name === 'saveSettings') return saveSettings(args, context)
      return team.dispatch(name, args, context)
    },
    onEvent: (listener, context) => {
      const offSaved = saved.subscribe(listener)
      const offTeam = team.onEvent((name, payload) => {
        if (name !== 'settingsChanged') return listener(name, payload)
        // Reads of the own cache answer in order, so pushes keep theirs. A failed read (the
        // cache closing) sends nothing: the window keeps what it had.
        mine(payload as AppSettings).then(
          (settings) => listener('settingsChanged', settings),
          () => undefined
        )
      }, context)
      return () => {
        offSaved()
        offTeam()
      }
    },
    recordProblem: (problem) => team.recordProblem(problem),
    close: async () => {
      await team.close()
      await own.close()
    }
  }
  return { ...desk, ...typedFace(desk.dispatch, (listener) => desk.onEvent(listener)) }
}
