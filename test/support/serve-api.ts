// The app API of a running `eventwatch serve` as a script calls it: POST /api/request/<name> with
// the token it printed, the Result unwrapped (an error answer thrown in its own words).

/** A serve process as its printed address gives it: the origin, the token, and a label for errors. */
export interface ServeAddress {
  label: string
  origin: string
  token: string
}

export async function ask<T>(server: ServeAddress, name: string, args: unknown = {}): Promise<T> {
  const response = await fetch(`${server.origin}/api/request/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args)
  })
  const result = (await response.json()) as { ok: true; value: T } | { ok: false; error: { message: string } }
  if (!result.ok) throw new Error(`${name} on server ${server.label}: ${result.error.message}`)
  return result.value
}
