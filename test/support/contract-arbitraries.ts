// fast-check arbitraries for the app API contract: hostile values of every kind a page could
// send over IPC (structured-clonable ones: functions and symbols cannot cross), valid arguments
// for every request, and mutants of those — one field made wrong, derived from the zod schema.
import fc from 'fast-check'
import { z } from 'zod'
import { DEFAULT_ALERT_RULES } from '../../src/shared/alerts'
import { requestNames, requests, type RequestArgs, type RequestName } from '../../src/shared/contract'

/** One valid argument object per request, every optional field filled so mutants reach it. */
export const VALID_ARGS: { [N in RequestName]: RequestArgs<N> } = {
  getStatus: {},
  getIdentity: {},
  listAudit: { limit: 10, before: 5 },
  addUser: { name: 'Fuzz user', role: 'viewer' },
  rotateUserToken: { name: 'no-such-user' },
  removeUser: { name: 'no-such-user' },
  getTeamServer: {},
  // A closed loopback port: joining fails before anything is saved.
  joinTeamServer: { url: 'https://127.0.0.1:9', token: 'ewu_fuzz', pinnedSha256: null },
  leaveTeamServer: {},
  listLiveSessions: {},
  getSession: { connectionId: 'demo', eventSessionId: 'no-such-session' },
  refreshNow: {},
  refreshSession: { connectionId: 'demo', eventSessionId: 'no-such-session' },
  setPaused: { paused: false, connectionId: 'demo' },
  listConnections: {},
  // Disabled and on a closed loopback port: saving it polls nothing and calls no one.
  saveConnection: {
    settings: {
      name: 'Fuzz target',
      baseUrl: 'http://127.0.0.1:9',
      authUrl: 'http://127.0.0.1:9',
      platformId: 'platform',
      tenantId: 'tenant',
      clientId: 'client',
      origin: 'https://origin.example',
      referer: 'https://origin.example/app',
      enabled: false,
      lookbackDays: 7,
      reliabilityScale: '0-1'
    }
  },
  deleteConnection: { id: 'no-such-connection' },
  setConnectionEnabled: { id: 'no-such-connection', enabled: true },
  testConnection: { id: 'no-such-connection' },
  // A closed loopback port: the token step fails at once and nothing is kept.
  testConnectionDraft: {
    settings: { name: 'Fuzz draft', baseUrl: 'http://127.0.0.1:9', authUrl: 'http://127.0.0.1:9', platformId: 'platform', tenantId: 'tenant', clientId: 'client' },
    secret: 'fuzz-secret'
  },
  listWebhooks: {},
  addWebhook: { settings: { name: 'Team channel', url: 'https://hooks.example.com/x', format: 'slack' } },
  deleteWebhook: { id: 'no-such-webhook' },
  testWebhook: { id: 'no-such-webhook' },
  listMaintenance: {},
  addMaintenance: { window: { name: 'Patch night', startsAt: '2026-11-28T22:00:00Z', endsAt: '2026-11-29T02:00:00Z', timeZone: 'Europe/Berlin' }, confirmBroad: true },
  deleteMaintenance: { id: 1 },
  getSettings: {},
  saveSettings: {
    cadences: { discoverySeconds: 30, detailSeconds: 15, viewersSeconds: 60 },
    retention: { snapshotsDays: 90, viewerListsDays: 90, sessionsDays: 365 },
    thresholds: { warning: 95, critical: 90 },
    display: { timeZone: 'local', theme: 'dark', trafficUnit: 'auto', viewerTimeUnit: 'auto' },
    alertRules: DEFAULT_ALERT_RULES
  },
  listAlerts: { connectionId: 'demo', eventSessionId: 'no-such-session', historyHours: 24, limit: 50 },
  acknowledgeAlert: { id: 1, note: 'seen' },
  snoozeAlert: { id: 1, until: '15m' },
  setSessionAlertOverride: {
    connectionId: 'demo',
    eventSessionId: 'no-such-session',
    muted: false,
    thresholds: { warning: 90, critical: 80 }
  },
  pauseNotifications: { minutes: 0 },
  sessionChart: { connectionId: 'demo', eventSessionId: 'no-such-session', from: '2024-01-01T00:00:00Z', maxPoints: 100 },
  sessionStory: { connectionId: 'demo', eventSessionId: 'no-such-session', maxPoints: 100 },
  sessionReport: { connectionId: 'demo', eventSessionId: 'no-such-session', format: 'json' },
  listSiteNames: {},
  setSiteName: { code: 101, name: 'Fuzz site' },
  liveTrends: {
    sessions: [{ connectionId: 'demo', eventSessionId: 'no-such-session' }],
    from: '2024-01-01T00:00:00Z',
    maxPoints: 60
  },
  viewerPage: {
    connectionId: 'demo',
    eventSessionId: 'no-such-session',
    sort: 'viewerId',
    descending: true,
    filter: { text: 'a', siteCode: 1, deviceType: 'pc', os: 'linux', app: 'web', connectionType: 'wifi' },
    limit: 50,
    offset: 0
  },
  viewerDetail: { connectionId: 'demo', eventSessionId: 'no-such-session', viewerId: 'viewer' },
  breakdown: { connectionId: 'demo', eventSessionId: 'no-such-session', dimension: 'site' },
  pastSessions: {
    connectionId: 'demo',
    search: 'town hall',
    from: '2024-01-01T00:00:00Z',
    to: '2024-01-02T00:00:00Z',
    sort: 'started',
    descending: true,
    includeLive: true,
    limit: 50,
    offset: 0
  },
  exportChunk: { connectionId: 'demo', eventSessionId: 'no-such-session', kind: 'viewers', offset: 0, limit: 100 },
  listDiagnostics: { limit: 10 },
  fetchRange: { connectionId: 'demo', from: '2024-01-01T00:00:00Z', to: '2024-01-02T00:00:00Z' }
}

// --- reading the zod schemas --------------------------------------------------------------------

interface Def {
  type: string
  innerType?: z.ZodType
  shape?: Record<string, z.ZodType>
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** The schema under optional / nullable / default. */
function unwrap(schema: z.ZodType): z.ZodType {
  const def = defOf(schema)
  return def.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly'].includes(def.type)
    ? unwrap(def.innerType)
    : schema
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = defOf(unwrap(schema))
  return def.type === 'object' && def.shape ? def.shape : null
}

/** Every field name in the contract: keys a fuzzer should try, since they reach deeper. */
function fieldNames(schema: z.ZodType, into: Set<string>): Set<string> {
  const shape = shapeOf(schema)
  for (const [key, field] of Object.entries(shape ?? {})) {
    into.add(key)
    fieldNames(field, into)
  }
  return into
}
const FIELD_NAMES = [...requestNames.reduce((names, name) => fieldNames(requests[name].args, names), new Set<string>())]

// --- hostile values ------------------------------------------------------------------------------

// Deeper than ~1500 levels the page's own structured clone overflows: such a value never leaves it.
const HUGE = 'x'.repeat(1_000_000)
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'then', 'toJSON']

/** An own property, even for "__proto__" (plain assignment would set the prototype instead). */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

function nested(depth: number, key: string, leaf: unknown): unknown {
  let value = leaf
  for (let i = 0; i < depth; i++) {
    const node = {}
    define(node, key, value)
    value = node
  }
  return value
}

const key = fc.oneof(
  { weight: 4, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS, ...FIELD_NAMES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) }
)

const anything = fc.anything({
  key,
  maxDepth: 3,
  maxKeys: 8,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  stringUnit: 'binary'
})

/** A value the fuzzer reports by name: huge or deep ones would flood (or overflow) its report. */
export class Hostile {
  constructor(
    readonly label: string,
    readonly value: unknown
  ) {}
  [fc.toStringMethod](): string {
    return this.label
  }
}

const named = (label: string, value: unknown) => new Hostile(label, value)
const shown = (value: unknown) => new Hostile(fc.stringify(value).slice(0, 500), value)

const special = fc.constantFrom<Hostile>(
  named('undefined', undefined),
  named('null', null),
  named('NaN', NaN),
  named('Infinity', Infinity),
  named('-Infinity', -Infinity),
  named('-0', -0),
  named('Number.MAX_VALUE', Number.MAX_VALUE),
  named('2n ** 70n', 2n ** 70n),
  named('an empty string', ''),
  named('a 1 000 000-character string', HUGE),
  named('[]', []),
  named('a sparse array of length 1 000 000', new Array(1_000_000)),
  named('new Date(NaN)', new Date(NaN)),
  named('new Uint8Array(1024)', new Uint8Array(1024)),
  named('a Map holding a connectionId', new Map([['connectionId', 'demo']])),
  named('an own __proto__ key', JSON.parse('{"__proto__": {"polluted": true}}')),
  named('constructor.prototype.polluted', { constructor: { prototype: { polluted: true } } }),
  named('an object with a 100 000-character key', { [HUGE.slice(0, 100_000)]: 1 }),
  named('an object with 10 000 keys', Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))),
  named('settings nested 500 deep', nested(500, 'settings', 'deep')),
  named('x nested 500 deep', nested(500, 'x', 1)),
  named('filter nested 500 deep', nested(500, 'filter', null))
)

/** A valid argument object of some request with one hostile extra or replaced field. */
const validWithHostileField = fc
  .tuple(fc.constantFrom(...requestNames), fc.constantFrom(...PROTO_KEYS, ...FIELD_NAMES), fc.oneof(anything.map(shown), special))
  .map(([name, field, value]) => {
    const args = structuredClone(VALID_ARGS[name]) as object
    define(args, field, value.value)
    return named(`valid ${name} args with ${JSON.stringify(field)}: ${value.label}`, args)
  })

export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 5, arbitrary: anything.map(shown) },
  { weight: 2, arbitrary: special },
  { weight: 3, arbitrary: validWithHostileField }
)

// --- mutants: valid arguments with exactly one thing wrong ---------------------------------------

const aString = fc.oneof(fc.string(), fc.constant('__proto__'), fc.constant(new String('boxed')))
const aNumber = fc.oneof(fc.double(), fc.integer(), fc.constant(new Number(1)))
const aBoolean = fc.oneof(fc.boolean(), fc.constant(new Boolean(false)))
const anArray = fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.sparseArray(fc.integer(), { maxLength: 5 }), fc.constant(new Uint8Array(3)))
const anObject = fc.oneof(fc.object({ maxDepth: 1 }), fc.constant(new Date()))

/** Values of every type but the one a field has (null left out: nullable fields take it). */
const WRONG_TYPES: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(aNumber, aBoolean, anArray, anObject),
  number: fc.oneof(aString, aBoolean, anArray, anObject),
  boolean: fc.oneof(aString, aNumber, anArray, anObject),
  // zod alone reads a Date, Map or boxed value as an empty object: the core must refuse them too.
  object: fc.oneof(aString, aNumber, aBoolean, anArray, fc.constantFrom(new Date(), new Map(), new Set(), new Boolean(true)))
}

type Path = string[]
export class Mutant {
  constructor(
    readonly what: string,
    readonly path: Path,
    readonly args: unknown
  ) {}
  [fc.toStringMethod](): string {
    return `${this.what} at ${this.path.join('.') || 'the top'}: ${fc.stringify(this.args).slice(0, 500)}`
  }
}

function withChange(name: RequestName, path: Path, change: (parent: Record<string, unknown>, key: string) => void): unknown {
  const args = structuredClone(VALID_ARGS[name]) as Record<string, unknown>
  let parent = args
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string, unknown>
  change(parent, path[path.length - 1] as string)
  return args
}

function numberOutOfRange(schema: z.ZodType, value: number): number[] {
  const field = unwrap(schema)
  if (!(field instanceof z.ZodNumber)) return []
  const out: number[] = []
  if (field.minValue !== null && Number.isFinite(field.minValue)) out.push(field.minValue - 1)
  if (field.maxValue !== null && Number.isFinite(field.maxValue)) out.push(field.maxValue + 1)
  if (field.isInt) out.push(value + 0.5)
  return out
}

/** Every way to make one field of `name`'s valid arguments wrong, as arbitraries of the args. */
function mutations(name: RequestName, schema: z.ZodType, value: unknown, path: Path): fc.Arbitrary<Mutant>[] {
  const replace = (what: string, arb: fc.Arbitrary<unknown>) =>
    arb.map((v) => new Mutant(what, path, withChange(name, path, (parent, k) => define(parent, k, v))))
  const out: fc.Arbitrary<Mutant>[] = []
  const shape = shapeOf(schema)

  if (shape && typeof value === 'object' && value !== null) {
    const extraKey = fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ minLength: 1 })).filter((k) => !Object.hasOwn(shape, k))
    out.push(
      fc.tuple(extraKey, anything).map(
        ([k, v]) => new Mutant(`extra key ${JSON.stringify(k)}`, path, withChange(name, [...path, k], (parent, key) => define(parent, key, v)))
      )
    )
    if (path.length > 0) out.push(replace('object of the wrong type', WRONG_TYPES.object as fc.Arbitrary<unknown>))
    for (const [k, field] of Object.entries(shape)) {
      const child = (value as Record<string, unknown>)[k]
      if (child === undefined) continue
      if (!field.safeParse(undefined).success) {
        out.push(fc.constant(new Mutant(`missing ${k}`, [...path, k], withChange(name, [...path, k], (p, key) => delete p[key]))))
      }
      out.push(...mutations(name, field, child, [...path, k]))
    }
    return out
  }

  if (typeof value === 'string') {
    out.push(replace('wrong type for a string', WRONG_TYPES.string as fc.Arbitrary<unknown>))
    out.push(replace('an oversized string', fc.constant(value + 'x'.repeat(100_000))))
    if (unwrap(schema) instanceof z.ZodEnum) out.push(replace('not one of the choices', fc.constant(`${value}!`)))
  } else if (typeof value === 'number') {
    out.push(replace('wrong type for a number', WRONG_TYPES.number as fc.Arbitrary<unknown>))
    out.push(replace('a non-finite number', fc.constantFrom(NaN, Infinity, -Infinity)))
    const outOfRange = numberOutOfRange(schema, value)
    if (outOfRange.length > 0) out.push(replace('a number out of range', fc.constantFrom(...outOfRange)))
  } else if (typeof value === 'boolean') {
    out.push(replace('wrong type for a boolean', WRONG_TYPES.boolean as fc.Arbitrary<unknown>))
  }
  return out
}

export const mutantOf = (name: RequestName): fc.Arbitrary<Mutant> =>
  fc.oneof(...mutations(name, requests[name].args, VALID_ARGS[name], []))

// --- valid but awkward lookups -------------------------------------------------------------------

const SQL_TRICKS = ["'", "' OR '1'='1", '%', '_', '\\', '%_\\%', '\u0000', '"; DROP TABLE sessions; --', '😀', '\uD800']
const awkwardText = fc.oneof(fc.constantFrom(...SQL_TRICKS), fc.string({ unit: 'binary', maxLength: 100 }))
const awkwardId = fc.oneof(fc.constant('demo'), fc.constantFrom(...SQL_TRICKS), fc.string({ unit: 'binary', minLength: 1, maxLength: 100 }))

export const validIds = fc.record({ connectionId: awkwardId, eventSessionId: awkwardId, viewerId: awkwardId, text: awkwardText })
