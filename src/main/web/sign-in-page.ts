// The team server's sign-in page: a plain form, no script, so it works before anything else has
// loaded and under the strictest policy. The token is posted once; a cookie follows.
export const SIGN_IN_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'"
].join('; ')

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

export function signInPage(message: string | null): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Eventwatch</title>
<style>
  /* The app's two themes, chosen here by the browser's own preference (no script, no setting yet).
     Every text meets WCAG AA on its background: the button's white on #2563d6 is 5.5:1. */
  :root { color-scheme: dark; --bg: #12151b; --panel: #1b2029; --text: #e6e9ef; --muted: #9aa3b2; --line: #59616e; --button: #2563d6; --error: #ff8a8a; }
  @media (prefers-color-scheme: light) {
    :root { color-scheme: light; --bg: #f5f6f8; --panel: #ffffff; --text: #15181e; --muted: #4f5866; --line: #6b7280; --button: #1f5fcf; --error: #b42318; }
  }
  body { font: 16px system-ui, sans-serif; background: var(--bg); color: var(--text); display: grid; place-items: center; min-height: 100vh; margin: 0; }
  main { width: min(28rem, 90vw); }
  form { background: var(--panel); padding: 2rem; border-radius: 8px; display: grid; gap: 0.75rem; }
  h1 { font-size: 1.3rem; margin: 0; }
  p { margin: 0; color: var(--muted); }
  input { font: inherit; padding: 0.5rem; border-radius: 4px; border: 1px solid var(--line); background: var(--bg); color: inherit; }
  button { font: inherit; padding: 0.5rem; border-radius: 4px; border: 0; background: var(--button); color: #fff; cursor: pointer; }
  :focus-visible { outline: 2px solid var(--button); outline-offset: 2px; }
  .error { color: var(--error); }
  code { white-space: nowrap; }
</style>
</head>
<body>
<main>
<form method="post" action="/signin" aria-labelledby="sign-in-title">
  <h1 id="sign-in-title">Eventwatch team server</h1>
  <p>Sign in with the access token your administrator gave you (<code>eventwatch users add</code> printed it).</p>
  ${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
  <label for="token">Access token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
  <button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`
}
