// Who this page is to the core: a team server's user (name and role) or the machine's own
// administrator. Read once; a viewer's page offers no action it would be refused.
import type { AppClient } from '../../../../shared/client'
import type { Identity } from '../../../../shared/team'

export class IdentityStore {
  current = $state<Identity | null>(null)

  /** A viewer reads only: the screens hide what they may not do. */
  get readOnly(): boolean {
    return this.current?.role === 'viewer'
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
