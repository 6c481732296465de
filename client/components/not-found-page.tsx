import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { HOME_PATH } from '../../domain/routes'
import { firstPageShown, useFirstPageShown } from '../lib/after-first-page'
import { useHeaderSlot } from '../lib/header-slot'

/** '404 Not Found' with Go Home (spec core §2), for unknown paths and unknown records alike. */
export function NotFoundPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const ready = useFirstPageShown()
  // The header's h1 carries the title; without it, an unknown path had an empty h1.
  useHeaderSlot({ title: t('notFound.title') })
  // Built into the entry, not a lazy page, so it says itself that a page is on screen.
  useEffect(firstPageShown, [])
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-4 px-6 py-16 text-center">
      {/* The title is the header's h1 already; the large 404 is only for the eye. */}
      <p aria-hidden className="text-6xl font-semibold text-brand-800">
        404
      </p>
      <p className="text-slate-600">{t('notFound.text')}</p>
      <button
        type="button"
        // The server's HTML of this page shows before its code runs; a click then would do nothing.
        disabled={!ready}
        onClick={() => navigate(HOME_PATH)}
        className="rounded-lg bg-brand-600 px-6 py-2.5 font-medium text-white shadow hover:bg-brand-700"
      >
        {t('notFound.goHome')}
      </button>
    </section>
  )
}
