// The app's Content-Security-Policy, one string for the desktop window and the browser host.
// style-src needs 'unsafe-inline': Svelte sets style attributes (style:prop, transitions) at
// run time. Scripts stay 'self' only: no inline script, no eval, nothing remote.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'"
].join('; ')
