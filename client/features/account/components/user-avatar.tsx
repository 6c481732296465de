import { type ReactNode, useState } from 'react'
import { avatarUrl } from '../../../../domain/avatar'

/** Up to two letters for a name: first and last word, e.g. "Ada King Lovelace" → "AL". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const first = words[0]
  const last = words.length > 1 ? words.at(-1) : undefined
  // Array.from keeps letters outside the basic plane (and accents) whole.
  const letter = (word: string | undefined) => (word ? (Array.from(word)[0] ?? '') : '')
  return `${letter(first)}${letter(last)}`.toLocaleUpperCase()
}

/**
 * The member's picture in a circle, or `fallback` (their initials by default) when they have
 * none or it cannot be loaded. Decorative: the name is always shown next to it.
 */
export function UserAvatar({
  name,
  avatarUpdatedAt,
  className = '',
  fallback,
}: {
  name: string
  avatarUpdatedAt: string | null
  className?: string
  fallback?: ReactNode
}) {
  const src = avatarUpdatedAt ? avatarUrl(avatarUpdatedAt) : null
  // Remembered per URL, so a new upload gets its chance even after an older one failed.
  const [failedSrc, setFailedSrc] = useState<string | null>(null)
  const showImage = src !== null && failedSrc !== src
  return (
    <span
      className={`flex shrink-0 items-center justify-center overflow-hidden rounded-full ${className}`}
    >
      {showImage ? (
        <img
          src={src}
          alt=""
          className="size-full object-cover"
          decoding="async"
          onError={() => setFailedSrc(src)}
          data-testid="user-avatar-image"
        />
      ) : (
        (fallback ?? (
          <span
            aria-hidden
            className="font-semibold select-none"
            data-testid="user-avatar-initials"
          >
            {initialsOf(name)}
          </span>
        ))
      )}
    </span>
  )
}
