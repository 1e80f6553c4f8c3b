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
  body { font: 16px system-ui, sans-serif; background: #12151b; color: #e6e9ef; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form { background: #1b2029; padding: 2rem; border-radius: 8px; width: min(28rem, 90vw); display: grid; gap: 0.75rem; }
  h1 { font-size: 1.3rem; margin: 0; }
  p { margin: 0; color: #9aa3b2; }
  input { font: inherit; padding: 0.5rem; border-radius: 4px; border: 1px solid #59616e; background: #12151b; color: inherit; }
  button { font: inherit; padding: 0.5rem; border-radius: 4px; border: 0; background: #4c8dff; color: #fff; cursor: pointer; }
  .error { color: #ff8a8a; }
  code { white-space: nowrap; }
</style>
</head>
<body>
<form method="post" action="/signin">
  <h1>Eventwatch team server</h1>
  <p>Sign in with the access token your administrator gave you (<code>eventwatch users add</code> printed it).</p>
  ${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
  <label for="token">Access token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
  <button type="submit">Sign in</button>
</form>
</body>
</html>
`
}
