// Nothing in the page may replace the app or open an arbitrary address: in-app links (hash
// routes, the app's own files, its downloads) work, https links open in a new tab without a
// handle back to the app, and every other link or window.open is cancelled. In the desktop
// app the main process guards navigation too; this is the same rule in the browser host.

export type LinkVerdict = 'in-app' | 'external' | 'blocked'

/**
 * What a link to `href`, seen from the page at `pageUrl`, may do. file: URLs have the origin
 * "null", so there only the page itself (any hash) and its own blob: downloads are the app.
 */
export function classifyLink(href: string, pageUrl: string): LinkVerdict {
  let target: URL
  let page: URL
  try {
    page = new URL(pageUrl)
    target = new URL(href, page)
  } catch {
    return 'blocked'
  }
  if (page.protocol === 'file:') {
    if (target.protocol === 'file:' && target.host === page.host && target.pathname === page.pathname) return 'in-app'
    if (target.protocol === 'blob:' && /^(file:|null\/)/.test(target.pathname)) return 'in-app'
  } else if (page.origin !== 'null' && target.origin === page.origin) {
    // Also blob: URLs this page created: their origin is the page's.
    return 'in-app'
  }
  // https only, and no "https://bank.example@evil.example" that reads like one host.
  if (target.protocol === 'https:' && target.hostname !== '' && target.username === '' && target.password === '') {
    return 'external'
  }
  return 'blocked'
}

const XLINK = 'http://www.w3.org/1999/xlink'
const NEW_TAB_FEATURES = 'noopener,noreferrer'

export function installLinkGuard(win: Window = window): void {
  const open = win.open.bind(win)
  const onClick = (event: MouseEvent): void => {
    const link = event.target instanceof Element ? event.target.closest('a, area') : null
    // SVG links may name their target in xlink:href instead.
    const href = link?.getAttribute('href') ?? link?.getAttributeNS(XLINK, 'href') ?? null
    if (href === null) return
    const verdict = classifyLink(href, win.location.href)
    if (verdict === 'in-app') return
    event.preventDefault()
    event.stopImmediatePropagation()
    if (verdict === 'external') open(new URL(href, win.location.href).href, '_blank', NEW_TAB_FEATURES)
  }
  // Capturing, so no handler further down can act on the link first.
  win.document.addEventListener('click', onClick, true)
  win.document.addEventListener('auxclick', onClick, true)

  win.open = (url?: string | URL, target?: string, features?: string): Window | null => {
    const href = url === undefined ? '' : String(url)
    // No address means a blank window that shares the app's origin: the app never needs one.
    if (href.trim() === '') return null
    const verdict = classifyLink(href, win.location.href)
    if (verdict === 'external') return open(new URL(href, win.location.href).href, '_blank', NEW_TAB_FEATURES)
    if (verdict === 'in-app') return open(href, target, features)
    return null
  }
}
