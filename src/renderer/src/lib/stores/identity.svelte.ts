// Who this page is to the core: a team server's user (name and role) or the machine's own
// administrator. Read once; a page offers no action its role would be refused.
import type { AppClient } from '../../../../shared/client'
import type { RequestName } from '../../../../shared/contract'
import { mayRequest } from '../../../../shared/permissions'
import type { Identity } from '../../../../shared/team'

export class IdentityStore {
  current = $state<Identity | null>(null)

  /** A viewer reads only: the screens hide what they may not do. */
  get readOnly(): boolean {
    return this.current?.role === 'viewer'
  }

  /** Whether this page may make the request, by the rule the core checks (shared/permissions.ts).
   *  False until the identity is known: an action appears once it is certain to be allowed. */
  may(name: RequestName, args: unknown = {}): boolean {
    return this.current !== null && mayRequest(this.current.role, name, args).allowed
  }

  async load(client: AppClient): Promise<void> {
    const result = await client.request('getIdentity', {})
    if (result.ok) this.current = result.value
  }

  /** Ends this browser's session on the team server, then shows its sign-in page. */
  async signOut(): Promise<void> {
    try {
      await fetch('/signout', { method: 'POST' })
    } finally {
      location.assign('/signin')
    }
  }
}

export const identity = new IdentityStore()
