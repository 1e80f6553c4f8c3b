// Connections as the app uses them: settings in the Store; the client secret (account = the
// connection's id) and the proxy password in the keychain — or, on a postgres:// database, sealed
// in it (store/sealed-secrets.ts). The secrets are kept BEFORE the row (a unit of work of the
// Store, which awaits no keychain), so a missing keychain or a refused secret stores nothing at
// all; a secret never reaches SQLite or an error message.
import { randomUUID, X509Certificate } from 'node:crypto'
import {
  ConnectionInputSchema,
  type ConnectionSettings,
  type ConnectionView
} from '../../../shared/connections'
import type { ConnectionTarget, Credentials } from '../api/connection'
import { decideScale } from '../health/scale'
import { KeychainUnavailableError, type SecretStore } from '../secrets/keychain'
import { SecretUnreadableError } from '../secrets/sealing'
import type { ConnectionReads, ConnectionRecord } from '../store/interface/connections'
import type { Store, Tx } from '../store/interface/store'
import { scaleBookOf } from '../store/reliability-scales'
import { environmentSecret, SECRET_ENV } from './env-secret'
import { ConnectionError, parseSettings, redact } from './errors'
import { proxyPasswordAccount } from '../secrets/accounts'
import { isUniqueViolation } from '../store/unique-violation'

export { SECRET_ENV }

const MAX_SECRET_LENGTH = 4096

export { proxyPasswordAccount }

/** A target for the API client, with the connection's optional Origin/Referer. */
export type ConnectionTargetWithHeaders = ConnectionTarget & { origin?: string; referer?: string }

/** Runs a unit of work: the Store's own, or one that also writes what commits with the change (its audit row). */
export type UnitRunner = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>

export interface ConnectionServiceOptions {
  /** The connections the app polls now (none for the CLI's own commands). */
  polled?: () => readonly string[]
}

export class ConnectionService {
  constructor(
    private readonly store: Store,
    private readonly secrets: SecretStore,
    private readonly options: ConnectionServiceOptions = {}
  ) {}

  /** User connections (never the demo row), each with whether the keychain holds its secret. */
  async list(): Promise<ConnectionView[]> {
    return Promise.all((await this.store.read.connections.list()).map(async (record) => this.view(record)))
  }

  async get(id: string): Promise<ConnectionView> {
    return this.view(await this.record(id))
  }

  /** By name, case-insensitively (the CLI's --connection NAME); null when there is none. */
  async findByName(name: string): Promise<ConnectionView | null> {
    const record = await this.store.read.connections.findByName(name)
    return record && !record.isDemo ? this.view(record) : null
  }

  /**
   * Creates (no `id`) or updates a connection. A `secret` replaces the stored one; undefined or
   * "" keeps it. Throws ConnectionError: 'configuration' for bad settings, a taken name or no
   * keychain; 'not-found' for an unknown id. The row is written in one unit run by `unit`.
   */
  async save(input: unknown, secret?: string, id?: string, unit: UnitRunner = this.unit): Promise<ConnectionView> {
    try {
      return await this.saveUnguarded(input, secret, id, unit)
    } catch (error) {
      // Last guard: whatever failed, its words must not carry the secret.
      if (error instanceof Error && secret) error.message = redact(error.message, [secret])
      throw error
    }
  }

  private async saveUnguarded(
    input: unknown,
    secret: string | undefined,
    id: string | undefined,
    unit: UnitRunner
  ): Promise<ConnectionView> {
    const { settings, proxyPassword } = splitProxyPassword(validate(input))
    checkCaCertificate(settings.caCertificate)
    // Callers across IPC/HTTP are typed only at the boundary: check again here.
    if (secret !== undefined && typeof secret !== 'string') {
      throw new ConnectionError('configuration', 'the client secret must be text', 'clientSecret')
    }
    if (secret && (!secret.trim() || secret.length > MAX_SECRET_LENGTH)) {
      throw new ConnectionError('configuration', 'the client secret is blank or too long', 'clientSecret')
    }
    const existing = id === undefined ? null : await this.record(id)
    await this.checkNameFree(settings.name, id)
    const connectionId = existing?.id ?? randomUUID()

    // Secrets first (the keychain, or a shared database's sealed rows): refused or unavailable, we
    // stop here with no row, no half of the secrets and no clear-text fallback.
    const putBack = await this.keepSecrets(
      [
        [connectionId, secret],
        [proxyPasswordAccount(connectionId), proxyPassword]
      ],
      existing !== null
    )

    let record: ConnectionRecord | null
    try {
      const now = Date.now()
      record = await unit((tx) =>
        existing ? tx.connections.update(connectionId, settings, now) : tx.connections.insert(settings, connectionId, now)
      )
    } catch (error) {
      await putBack()
      if (isUniqueViolation(error)) throw duplicateName(settings.name)
      throw error
    }
    if (!record) throw notFound(connectionId)
    // A proxy without a user needs no password: one kept from before goes.
    if (!proxyPassword && !proxyUserOf(settings.proxyUrl ?? null)) {
      try {
        await this.forget(proxyPasswordAccount(connectionId))
      } catch (error) {
        throw keychainProblem(error)
      }
    }
    return this.view(record, secret ? true : undefined)
  }

  /**
   * Saves each given secret (empty: keep the stored one), each replacing the one there; answers
   * how to put back what was there if the row cannot follow. A secret refused or a keychain
   * unavailable puts back those saved before it and throws, in words.
   */
  private async keepSecrets(secrets: [account: string, value: string | undefined][], existing: boolean): Promise<() => Promise<void>> {
    const saved: [account: string, previous: string | null][] = []
    const putBack = async (): Promise<void> => {
      for (const [account, previous] of saved.reverse()) await this.undoSecret(account, previous)
    }
    try {
      for (const [account, value] of secrets) {
        if (!value) continue
        // One that cannot be decrypted (another key) is replaced: saving again is its fix.
        const previous = existing ? await readable(this.secrets, account) : null
        await this.secrets.save(account, value)
        saved.push([account, previous])
      }
    } catch (error) {
      await putBack()
      throw keychainProblem(error)
    }
    return putBack
  }

  /** Removing what a keychain that cannot be reached does not hold anyway is no failure. */
  private async forget(account: string): Promise<void> {
    try {
      await this.secrets.remove(account)
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error
    }
  }

  /**
   * Deletes the keychain entries, then the row (its cached sessions go with it) in one unit run by
   * `unit`. False when there was no such connection; a keychain that cannot be reached fails it
   * and keeps the row. A unit that fails keeps the row, and its secrets are put back.
   */
  async remove(id: string, unit: UnitRunner = this.unit): Promise<boolean> {
    const record = await this.store.read.connections.get(id)
    if (!record || record.isDemo) return false
    const proxyAccount = proxyPasswordAccount(record.id)
    let kept: { secret: string | null; proxyPassword: string | null }
    try {
      kept = { secret: await readable(this.secrets, record.id), proxyPassword: await readable(this.secrets, proxyAccount) }
      await this.secrets.remove(record.id)
      await this.forget(proxyAccount)
    } catch (error) {
      // Keep the row so the operator can retry: deleting it would orphan the secret.
      throw keychainProblem(error)
    }
    try {
      return await unit((tx) => tx.connections.remove(record.id))
    } catch (error) {
      await this.undoSecret(record.id, kept.secret)
      await this.undoSecret(proxyAccount, kept.proxyPassword)
      throw error
    }
  }

  async setEnabled(id: string, enabled: boolean, unit: UnitRunner = this.unit): Promise<ConnectionView> {
    const record = await unit(async (tx) => {
      const { id: userId } = await userConnection(tx.connections, id)
      return tx.connections.setEnabled(userId, enabled, Date.now())
    })
    if (!record) throw notFound(id)
    return this.view(record)
  }

  /**
   * The connection's credentials: the secret from the keychain, or — when the keychain holds
   * none or cannot be reached (headless use) — from EVENTWATCH_CLIENT_SECRET.
   */
  async credentialsFor(id: string, env: NodeJS.ProcessEnv = process.env): Promise<Credentials> {
    const record = await this.record(id)
    let stored: string | null = null
    let unavailable: KeychainUnavailableError | null = null
    try {
      stored = await this.secrets.read(record.id)
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error
      unavailable = error
    }
    const clientSecret = stored || environmentSecret(env) || ''
    if (clientSecret) return { clientId: record.clientId, clientSecret }
    if (unavailable) throw new ConnectionError('configuration', unavailable.message)
    throw new ConnectionError(
      'configuration',
      `no client secret stored for ${record.name}: save one, or set ${SECRET_ENV}`
    )
  }

  /** What the API client needs to reach this connection's tenant. */
  async target(id: string): Promise<ConnectionTargetWithHeaders> {
    const r = await this.record(id)
    return targetOf(r.id, r, () => this.secrets.read(proxyPasswordAccount(r.id)).catch(() => null))
  }

  /**
   * A connection as typed, to be tested before it is saved: its target and credentials, and
   * nothing stored. The secret lives in the closure for this one test. Editing (`id` given), an
   * empty secret or proxy password stands for the stored one.
   */
  async draft(
    input: unknown,
    secret: string | undefined,
    id: string | undefined
  ): Promise<{ target: ConnectionTargetWithHeaders; credentials: () => Promise<Credentials> }> {
    const { settings, proxyPassword } = splitProxyPassword(validate(input))
    checkCaCertificate(settings.caCertificate)
    const existing = id === undefined ? null : await this.record(id)
    const storedProxyPassword = (): Promise<string | null> =>
      existing ? this.secrets.read(proxyPasswordAccount(existing.id)).catch(() => null) : Promise.resolve(null)
    return {
      target: targetOf(existing?.id ?? 'draft', settings, async () => proxyPassword ?? (await storedProxyPassword())),
      credentials: async () => {
        if (secret) return { clientId: settings.clientId, clientSecret: secret }
        if (existing) return { ...(await this.credentialsFor(existing.id)), clientId: settings.clientId }
        throw new ConnectionError('configuration', 'no client secret: type the client secret to test', 'clientSecret')
      }
    }
  }

  /** A unit of the Store alone. */
  private readonly unit: UnitRunner = (work) => this.store.withTransaction(work)

  /** A user connection by id, as committed; the demo row is not one. */
  private record(id: string): Promise<ConnectionRecord> {
    return userConnection(this.store.read.connections, id)
  }

  /** What the UI may see: the record, the keychain's yes/no, the scale in use and why, and whether it is polled. */
  private async view(record: ConnectionRecord, secretStored?: boolean): Promise<ConnectionView> {
    const scales = scaleBookOf(await this.store.read.connections.scaleFacts())
    const { connectionId: _id, connectionName: _name, ...scale } = scales.get(record.id) ?? {
      connectionId: record.id,
      connectionName: record.name,
      setting: record.reliabilityScale,
      ...decideScale(record.reliabilityScale, { count: 0, max: null })
    }
    return {
      ...record,
      secretStored: secretStored ?? (await this.hasSecret(record.id)),
      proxyPasswordStored: proxyUserOf(record.proxyUrl) ? await this.hasSecret(proxyPasswordAccount(record.id)) : false,
      reliabilityScale: scale,
      polled: this.options.polled?.().includes(record.id) ?? false
    }
  }

  /** Listing must work without a keychain: an unreachable one simply holds nothing. One that cannot be
   *  decrypted is stored (polling it says why it cannot be used). */
  private async hasSecret(id: string): Promise<boolean> {
    try {
      return Boolean(await this.secrets.read(id))
    } catch (error) {
      return error instanceof SecretUnreadableError
    }
  }

  private async checkNameFree(name: string, ownId: string | undefined): Promise<void> {
    const holder = await this.store.read.connections.findByName(name)
    if (holder && holder.id !== ownId) throw duplicateName(name, holder.isDemo)
  }

  /** After a failed row write or removal: put back the secret that was there (or none). Best effort. */
  private async undoSecret(id: string, previous: string | null): Promise<void> {
    try {
      if (previous) await this.secrets.save(id, previous)
      else await this.secrets.remove(id)
    } catch {
      // The row write failed; that error is the one worth reporting.
    }
  }
}

/** The stored secret, to put back if what follows fails; one that cannot be decrypted cannot be put back (null). */
async function readable(secrets: SecretStore, account: string): Promise<string | null> {
  try {
    return await secrets.read(account)
  } catch (error) {
    if (error instanceof SecretUnreadableError) return null
    throw error
  }
}

/** A user connection by id, read through `connections` (a unit's, or the committed state). */
async function userConnection(connections: ConnectionReads, id: string): Promise<ConnectionRecord> {
  const record = typeof id === 'string' ? await connections.get(id) : null
  if (!record || record.isDemo) throw notFound(id)
  return record
}

/** A saved connection's fields, or a draft's (its optional ones absent rather than null). */
type TargetFields = Pick<ConnectionRecord, 'name' | 'baseUrl' | 'authUrl' | 'platformId' | 'tenantId' | 'clientId'> &
  Partial<Pick<ConnectionRecord, 'origin' | 'referer' | 'proxyUrl' | 'caCertificate'>>

/** A connection's fields as the API client takes them; its proxy password read only when needed. */
function targetOf(id: string, fields: TargetFields, proxyPassword: () => Promise<string | null>): ConnectionTargetWithHeaders {
  const { name, baseUrl, authUrl, platformId, tenantId, clientId, origin, referer, proxyUrl, caCertificate } = fields
  return {
    ...{ id, name, baseUrl, authUrl, platformId, tenantId, clientId },
    ...(origin ? { origin } : {}),
    ...(referer ? { referer } : {}),
    ...(proxyUrl || caCertificate ? { network: { ...(proxyUrl ? { proxyUrl } : {}), ...(caCertificate ? { caCertificate } : {}), proxyPassword } } : {})
  }
}

/** Settings from untrusted input; a bad field is said in words naming it. */
function validate(input: unknown): ConnectionSettings {
  return parseSettings(ConnectionInputSchema, input)
}

/** The proxy URL as stored (user kept, password taken out) and the password, if one was typed. */
function splitProxyPassword(settings: ConnectionSettings): { settings: ConnectionSettings; proxyPassword?: string } {
  if (!settings.proxyUrl) return { settings }
  const url = new URL(settings.proxyUrl)
  const password = url.password ? decodeURIComponent(url.password) : undefined
  url.password = ''
  const proxyUrl = url.href.replace(/\/$/, '')
  return { settings: { ...settings, proxyUrl }, ...(password ? { proxyPassword: password } : {}) }
}

function proxyUserOf(proxyUrl: string | null): string {
  try {
    return proxyUrl ? new URL(proxyUrl).username : ''
  } catch {
    return ''
  }
}

/** Each PEM block must be a certificate Node can read: said now, not at the first request. */
function checkCaCertificate(pem: string | undefined): void {
  if (!pem) return
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block)
    } catch (error) {
      const which = blocks.length > 1 ? ` (certificate ${index + 1} of ${blocks.length})` : ''
      const why = error instanceof Error ? error.message : String(error)
      throw new ConnectionError('configuration', `caCertificate: cannot be used${which}: ${why}`, 'caCertificate')
    }
  })
}

function keychainProblem(error: unknown): Error {
  return error instanceof KeychainUnavailableError ? new ConnectionError('configuration', error.message) : toError(error)
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}

function duplicateName(name: string, demo = false): ConnectionError {
  const why = demo ? 'is the demo connection’s name' : 'is already used by another connection'
  return new ConnectionError('configuration', `the name "${name}" ${why}: choose another`, 'name')
}

function notFound(id: string): ConnectionError {
  return new ConnectionError('not-found', `no connection with id ${String(id)}`)
}
