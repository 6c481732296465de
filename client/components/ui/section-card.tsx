import { type ReactNode, useId } from 'react'
import { Link } from 'react-router'

/** The look of a section's link, for an `action` that stands in for it. */
export const SECTION_LINK_CLASS =
  'inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50'

/**
 * One part of a page such as My Account: a white card with its heading, an optional link to
 * where it is changed (or an `action` in its place), then its content. The heading names the
 * section for screen readers.
 */
export function SectionCard({
  title,
  link,
  action,
  children,
}: {
  title: string
  link?: { to: string; label: string; icon?: ReactNode }
  action?: ReactNode
  children: ReactNode
}) {
  const headingId = useId()
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <h2 id={headingId} className="text-lg font-semibold text-brand-900">
          {title}
        </h2>
        {action ??
          (link && (
            <Link to={link.to} className={SECTION_LINK_CLASS}>
              {link.icon}
              {link.label}
            </Link>
          ))}
      </div>
      {children}
    </section>
  )
}
