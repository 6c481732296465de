import type { ReactNode } from 'react'
import { Link } from 'react-router'

/**
 * The frame of an information page: a readable column with the page's own heading (the header
 * title is left blank on some of them, spec core §2), an optional date line, then the content.
 */
export function InfoArticle({
  heading,
  subline,
  children,
  testId,
}: {
  heading: string
  subline?: string
  children: ReactNode
  testId: string
}) {
  return (
    <article
      className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-4 py-6 sm:px-6 sm:py-10"
      data-testid={testId}
    >
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold text-brand-900 sm:text-3xl">{heading}</h1>
        {subline && <p className="text-sm text-slate-600">{subline}</p>}
      </header>
      {children}
    </article>
  )
}

/** A titled part of a long page such as the privacy policy. */
export function InfoSection({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h2 className="text-lg font-semibold text-brand-800">{heading}</h2>
      {children}
    </section>
  )
}

/**
 * Long text from the catalogues: paragraphs are separated by a blank line, and a paragraph
 * whose every line starts with "- " is a list. Plain text in the catalogues keeps translators
 * away from markup.
 */
export function Prose({ text }: { text: string }) {
  const blocks = text.split(/\n{2,}/)
  return (
    <div className="flex flex-col gap-3 leading-relaxed text-slate-800">
      {blocks.map((block) => {
        const lines = block.split('\n')
        if (lines.every((line) => line.startsWith('- '))) {
          return (
            <ul key={block} className="flex list-disc flex-col gap-1.5 pl-6 marker:text-brand-500">
              {lines.map((line) => (
                <li key={line}>{line.slice(2)}</li>
              ))}
            </ul>
          )
        }
        return <p key={block}>{block}</p>
      })}
    </div>
  )
}

const LINK_STYLE =
  'inline-flex items-center gap-2 self-start rounded-lg px-4 py-2.5 font-medium text-brand-700 ring-1 ring-brand-200 hover:bg-brand-100'

/** A way on to another page, drawn as a quiet button. */
export function InfoLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={LINK_STYLE}>
      {children}
    </Link>
  )
}
