import type { SessionUser } from '../../../domain/auth'
import type { AuthUser } from '../../plugins/auth'

/** What the client may know about the signed-in user. */
export function presentSessionUser(user: AuthUser): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    language: user.language,
    avatarUpdatedAt: user.avatarUpdatedAt?.toISOString() ?? null,
    ...(user.role === 'operator' ? { operator: true } : {}),
  }
}
