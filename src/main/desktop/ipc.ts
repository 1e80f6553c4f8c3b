// The IPC face of the core: one handler per contract request, one channel per pushed event.
// Handlers answer with a Result, never a thrown error: an exception would cross the process
// boundary as an opaque "Error invoking remote method" and could carry internals with it.
import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron'
import { eventChannel, requestChannel, requestNames } from '../../shared/contract'
import { fail } from '../../shared/result'
import type { Result } from '../../shared/result'
import type { AppCore } from '../core/app/types'
import type { AppUrlCheck } from './navigation-guard'

export type SenderCheck = (frame: WebFrameMain | null) => boolean

/** Trusts only a top-level frame showing the app itself — never an iframe, never a page the
 *  window was somehow navigated to. */
export function appFrameCheck(appUrlCheck: AppUrlCheck): SenderCheck {
  return (frame) => frame !== null && frame.parent === null && appUrlCheck(frame.url)
}

/** Registers a handler for every request in the contract; returns a function removing them. */
export function registerIpcHandlers(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  core: AppCore,
  isTrustedSender: SenderCheck
): () => void {
  for (const name of requestNames) {
    ipcMain.handle(
      requestChannel(name),
      async (event: IpcMainInvokeEvent, args: unknown): Promise<Result<unknown>> => {
        try {
          // senderFrame is null once the frame has navigated away or gone: not trusted.
          if (!isTrustedSender(event.senderFrame)) {
            return fail('forbidden-sender', 'This request did not come from the Eventwatch window.')
          }
          return await core.dispatch(name, args)
        } catch (error) {
          console.error(`eventwatch: request ${name} failed`, error)
          return fail('internal', `The request ${name} failed unexpectedly.`)
        }
      }
    )
  }
  return () => {
    for (const name of requestNames) ipcMain.removeHandler(requestChannel(name))
  }
}

/** Pushes every core event to the page; returns the unsubscribe function. */
export function forwardEvents(
  core: AppCore,
  webContents: Pick<WebContents, 'send' | 'isDestroyed'>
): () => void {
  return core.onEvent((name, payload) => {
    // The window may close between polls; a send to it would throw.
    if (webContents.isDestroyed()) return
    try {
      webContents.send(eventChannel(name), payload)
    } catch (error) {
      console.error(`eventwatch: could not send event ${name}`, error)
    }
  })
}
