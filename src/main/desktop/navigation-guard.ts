// Nothing may replace the app in its window: links, redirects, window.open and <webview> are
// all stopped here. Safe https links open in the user's browser instead.
import { app, shell } from 'electron'
import type { WebContents } from 'electron'

/** A predicate telling whether a URL is the app itself (its dev server or its index.html). */
export type AppUrlCheck = (url: string) => boolean
export type OpenExternal = (url: string) => Promise<void> | void

function parse(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

/**
 * Whether `url` is the app. `appOrigin` is the dev server's http(s) origin, or, for a packaged
 * app, the file: URL of the renderer's index.html — file: URLs have no usable origin (it is
 * "null"), so there the exact file is the app and any other file is not.
 */
export function isAppUrl(url: string, appOrigin: string): boolean {
  const target = parse(url)
  const base = parse(appOrigin)
  if (!target || !base) return false
  if (base.protocol === 'file:') {
    return (
      target.protocol === 'file:' && target.host === base.host && target.pathname === base.pathname
    )
  }
  if (base.protocol === 'http:' || base.protocol === 'https:') {
    return target.origin === base.origin
  }
  return false
}

/** The URL to hand to the OS, normalised by the URL parser, or undefined: only https, with a
 *  host and no credentials, may be opened. The parsed form is what was checked, so it is what
 *  is opened (the raw text may hold tabs, newlines or spaces the parser dropped). */
export function safeExternalUrl(url: string): string | undefined {
  const parsed = parse(url)
  if (!parsed) return undefined
  const safe =
    parsed.protocol === 'https:' &&
    parsed.hostname !== '' &&
    // "https://bank.example@evil.example" reads like one host and goes to another.
    parsed.username === '' &&
    parsed.password === ''
  return safe ? parsed.href : undefined
}

export function isSafeExternalUrl(url: string): boolean {
  return safeExternalUrl(url) !== undefined
}

export function hardenWebContents(
  contents: WebContents,
  appUrlCheck: AppUrlCheck,
  openExternal: OpenExternal
): void {
  // A link or script navigating the page away would leave the preload's API in a foreign page.
  // External links belong in a new window (target=_blank), which the open handler sends to
  // the OS browser.
  contents.on('will-navigate', (event) => {
    if (!appUrlCheck(event.url)) event.preventDefault()
  })
  // A redirect is a navigation the page did not even ask for by name.
  contents.on('will-redirect', (event) => {
    if (!appUrlCheck(event.url)) event.preventDefault()
  })
  // will-navigate sees the main frame only. The app has no frames (its CSP allows none);
  // should one exist, it may not navigate anywhere but the app either.
  contents.on('will-frame-navigate', (event) => {
    if (!appUrlCheck(event.url)) event.preventDefault()
  })
  // Never a second Electron window; https links go to the user's browser.
  contents.setWindowOpenHandler(({ url }) => {
    const external = safeExternalUrl(url)
    if (external) {
      // openExternal may reject (no handler for the scheme); that must not become an
      // unhandled rejection in the main process.
      Promise.resolve()
        .then(() => openExternal(external))
        .catch((error: unknown) => console.error('eventwatch: could not open link', error))
    }
    return { action: 'deny' }
  })
  // webviewTag is off already; this also refuses any <webview> that slips through.
  contents.on('will-attach-webview', (event) => {
    event.preventDefault()
  })
}

/** Hardens every webContents the app creates, from the first one on. Call before any window. */
export function hardenAllWebContents(
  appUrlCheck: AppUrlCheck,
  // The only call of openExternal is in the window open handler above, behind safeExternalUrl.
  openExternal: OpenExternal = (url) => shell.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK: called only by the window open handler, with the URL as safeExternalUrl parsed and allowed it (https, a host, no credentials); see navigation-security.test.ts
): void {
  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, appUrlCheck, openExternal)
  })
}
