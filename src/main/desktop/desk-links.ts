// The desk's protocol handler: an `eventwatch://session/<c>/<s>` link (from a notification of
// another program, a chat, a browser) opens or focuses the window on that session's drill-down.
// A link reaches the app three ways: in the arguments of a cold start (Windows, Linux), in the
// arguments of a second launch that the single-instance lock turned away ('second-instance'),
// and on macOS as 'open-url', which can come before 'ready'. Each is kept until the window can be
// shown, then shown through the same hash the tray and the notifications use.
//
// The link comes from outside the app: it is read only by shared/session-link.ts's strict
// parser, and one that does not parse does nothing but leave one line in the log, escaped.
import { resolve } from 'node:path'
import type { App } from 'electron'
import { DESK_LINK_SCHEME, deskLinkInArgs, parseDeskLink, type SessionTarget } from '../../shared/session-link'
import { jsonWithEscapedControls, shorten } from '../../shared/plain-text'

/**
 * Makes this app the handler of eventwatch:// links. Run from the sources (`electron .`),
 * Electron itself is the executable, so it is registered with the app's path as its argument;
 * a packaged app registers itself. On Linux this is the .desktop file's MimeType
 * (x-scheme-handler/eventwatch, from electron-builder.yml's `protocols`) made the default.
 */
export function claimDeskLinks(
  app: Pick<App, 'setAsDefaultProtocolClient'>,
  proc: Pick<NodeJS.Process, 'defaultApp' | 'execPath' | 'argv'> = process
): boolean {
  try {
    const appPath = proc.argv[1]
    if (proc.defaultApp && appPath) return app.setAsDefaultProtocolClient(DESK_LINK_SCHEME, proc.execPath, [resolve(appPath)]) // eng-disable PROTOCOL_HANDLER_JS_CHECK: reviewed; the scheme's links are parsed only by parseDeskLink (shared/session-link.ts: one exact shape, a hostile table in session-link.test.ts) and only move the window to a session's hash; see app-links.test.ts
    return app.setAsDefaultProtocolClient(DESK_LINK_SCHEME) // eng-disable PROTOCOL_HANDLER_JS_CHECK: reviewed; the scheme's links are parsed only by parseDeskLink (shared/session-link.ts: one exact shape, a hostile table in session-link.test.ts) and only move the window to a session's hash; see app-links.test.ts
  } catch (error) {
    // Without it only links lead nowhere: the app runs on.
    console.warn(`eventwatch: could not register as the handler of ${DESK_LINK_SCHEME}:// links`, error)
    return false
  }
}

/** Arguments that claim to be a desk link (the scheme, in any case): only these are worth a log line. */
const claimsDeskLink = (arg: string): boolean => arg.slice(0, DESK_LINK_SCHEME.length + 1).toLowerCase() === `${DESK_LINK_SCHEME}:`

/** The refused link in one line: bounded, and every control or format character escaped. */
export const refusedLinkLine = (link: string): string =>
  `eventwatch: ignored a link that is not an Eventwatch session link: ${jsonWithEscapedControls(shorten(link, 200))}`

/** What a launch's arguments held: a session link (taken), a link refused, or no link at all. */
export type ArgsLink = 'session' | 'refused' | 'none'

export interface DeskLinks {
  /** A launch's arguments (a cold start's or a second instance's). */
  fromArgs(argv: readonly unknown[]): ArgsLink
  /** macOS's 'open-url': whether it was a session link. */
  fromUrl(url: string): boolean
  /** The window can be shown from now on: the link kept until now, if any (later ones are opened at once). */
  ready(): SessionTarget | undefined
}

/** Links to sessions, opened with `open` once ready() was called and kept until then (the last one wins). */
export function deskLinks(open: (target: SessionTarget) => void, log: (line: string) => void = console.warn): DeskLinks {
  let isReady = false
  let kept: SessionTarget | undefined
  const deliver = (target: SessionTarget): void => {
    if (isReady) open(target)
    else kept = target
  }
  return {
    fromArgs(argv) {
      const args = argv.filter((arg): arg is string => typeof arg === 'string')
      const target = deskLinkInArgs(args)
      if (target) {
        deliver(target)
        return 'session'
      }
      const claimed = args.find(claimsDeskLink)
      if (claimed === undefined) return 'none'
      log(refusedLinkLine(claimed))
      return 'refused'
    },
    fromUrl(url) {
      const target = parseDeskLink(url)
      // Only links of our scheme come this way: any that does not parse is worth its line.
      if (target) deliver(target)
      else log(refusedLinkLine(String(url)))
      return target !== undefined
    },
    ready() {
      isReady = true
      const first = kept
      kept = undefined
      return first
    }
  }
}
