// The app API: every request the UI can make and every event the core pushes.
// Preload, IPC handlers, the browser host and the renderer client all derive from this file,
// so a request cannot exist in one face and not another.
import { z } from 'zod'
import { LiveSessionSchema, SessionsChangedSchema, StatusSchema } from './domain'

const NoArgs = z.object({}).strict()

export const requests = {
  getStatus: { args: NoArgs, result: StatusSchema },
  listLiveSessions: { args: NoArgs, result: z.array(LiveSessionSchema) },
  getSession: {
    args: z
      .object({
        connectionId: z.string().min(1).max(200),
        eventSessionId: z.string().min(1).max(200)
      })
      .strict(),
    result: LiveSessionSchema.nullable()
  },
  refreshNow: { args: NoArgs, result: z.object({ startedAt: z.string() }) }
} as const

export const events = {
  sessionsChanged: SessionsChangedSchema,
  statusChanged: StatusSchema
} as const

export type RequestName = keyof typeof requests
export type EventName = keyof typeof events
export type RequestArgs<N extends RequestName> = z.input<(typeof requests)[N]['args']>
export type RequestResult<N extends RequestName> = z.output<(typeof requests)[N]['result']>
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>

export const requestNames = Object.keys(requests) as RequestName[]
export const eventNames = Object.keys(events) as EventName[]

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(requests, name)
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name)
}

/** IPC channel names, prefixed so they cannot collide with Electron's own. */
export const requestChannel = (name: RequestName): string => `eventwatch:request:${name}`
export const eventChannel = (name: EventName): string => `eventwatch:event:${name}`
