// The team server's people and their roles (issue 17). What each role may ask is decided by the
// contract's entries (shared/permissions.ts).
import { z } from 'zod'

/** A viewer reads; an operator also acts on alerts; the administrator (whoever runs the CLI or
 *  the desktop app on the machine itself) also changes connections, webhooks and global settings. */
export const USER_ROLES = ['operator', 'viewer'] as const
export type UserRole = (typeof USER_ROLES)[number]
export type Role = UserRole | 'admin'

/** Who makes a request: a user of the team server, or the machine's own administrator. */
export interface Actor {
  name: string
  role: Role
}

export const UserName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._@-]*$/u, 'letters, digits, spaces and . _ @ - only')

export const UserViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  role: z.enum(USER_ROLES),
  createdAt: z.string(),
  rotatedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable()
})
export type UserView = z.infer<typeof UserViewSchema>

export const IdentitySchema = z.object({
  name: z.string(),
  role: z.enum(['operator', 'viewer', 'admin']),
  /** True when this page talks to a team server as one of its users. */
  team: z.boolean()
})
export type Identity = z.infer<typeof IdentitySchema>

export const AuditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  subject: z.string().nullable(),
  detail: z.string().nullable()
})
export type AuditEntry = z.infer<typeof AuditEntrySchema>

/** The team server this desk is a client of (it takes effect at the next start). */
export const TeamServerViewSchema = z.object({
  url: z.string(),
  pinnedSha256: z.string().nullable(),
  /** Who the token said it was when the desk joined. */
  user: z.string().nullable()
})
export type TeamServerView = z.infer<typeof TeamServerViewSchema>

/** Requests about this desk itself, never relayed to a team server (a desk leaves its team from here). */
export const DESK_REQUESTS = ['getTeamServer', 'joinTeamServer', 'leaveTeamServer'] as const
