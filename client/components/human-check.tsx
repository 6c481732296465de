import type { AltchaWidgetElement } from 'altcha/external'
import type {} from 'altcha/types/react'
import type { i18n as I18n } from 'i18next'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isLanguage } from '../../domain/i18n'
import { currentLanguage } from '../lib/i18n'

const CHALLENGE_URL = '/api/captcha/challenge'

/** The server's algorithm (server/plugins/captcha.ts); the widget needs a worker per algorithm. */
const ALGORITHM = 'PBKDF2/SHA-256'

/** Widget texts a visitor can meet; the others belong to code challenges, which we never send. */
const WIDGET_TEXTS = [
  'label',
  'loading',
  'verify',
  'verifying',
  'verified',
  'expired',
  'error',
  'reload',
  'verificationRequired',
  'waitAlert',
] as const

/**
 * Our look for the widget, through its CSS variables (they inherit from this wrapper). The five
 * colours the widget defines with light-dark() are set outright, and so is every variable that
 * derives from them (a var() inside a custom property is resolved where it is declared, on
 * :root): Vite's CSS minifier rewrites light-dark() into a polyfill that needs a `color-scheme`
 * rule, and without one those values are invalid (an invisible checkbox and spinner). The app is
 * light-only.
 */
const WIDGET_LOOK = [
  '[--altcha-color-base:#fff]',
  '[--altcha-color-base-content:var(--color-slate-900)]',
  '[--altcha-color-neutral:var(--color-slate-300)]',
  '[--altcha-color-neutral-content:var(--color-slate-600)]',
  '[--altcha-checkbox-border-color:var(--color-slate-500)]',
  '[--altcha-border-color:var(--color-slate-300)]',
  '[--altcha-input-background-color:#fff]',
  '[--altcha-input-color:var(--color-slate-900)]',
  '[--altcha-popover-color:var(--color-slate-300)]',
  '[--altcha-spinner-color:var(--color-brand-600)]',
  '[--altcha-border-radius:0.5rem]',
  '[--altcha-color-primary:var(--color-brand-600)]',
  // The same focus ring as every other control (styles.css); the widget reverts ours to the
  // browser's inside itself.
  '[&_.altcha-checkbox_input:focus-visible]:[outline:3px_solid_var(--color-brand-500)]',
  '[&_.altcha-checkbox_input:focus-visible]:[outline-offset:2px]',
  '[--altcha-max-width:100%]',
  // The check mark lies over the box, invisible until checked; a click on it must reach the box.
  '[&_.altcha-checkbox_svg]:pointer-events-none',
].join(' ')

type WidgetState = 'unverified' | 'verifying' | 'verified' | 'expired' | 'error' | 'code'

let widgetCode: Promise<void> | undefined

/**
 * Loads the widget once per page, after the first render (it is ~30 KB gzipped that /login must
 * not wait for). The `external` build keeps our CSP: its styles come as a stylesheet and its
 * worker as a file Vite bundles next to ours, instead of inline `<style>` and blob workers.
 */
function loadWidget(): Promise<void> {
  widgetCode ??= Promise.all([
    import('altcha/external'),
    import('altcha/altcha.css'),
    import('altcha/workers/pbkdf2?worker'),
  ]).then(
    ([, , { default: Pbkdf2Worker }]) => {
      const altcha = globalThis.$altcha
      altcha.algorithms.set(ALGORITHM, () => new Pbkdf2Worker())
      // Nothing leaves the page but our own challenge request: no interaction signature
      // collector, and no logo or footer linking to altcha.org.
      altcha.defaults.set({ humanInteractionSignature: false, hideLogo: true, hideFooter: true })
    },
    (error: unknown) => {
      // Let a later mount (or the retry button) try again, e.g. once the network is back.
      widgetCode = undefined
      throw error
    },
  )
  return widgetCode
}

/**
 * Gives the widget our own texts in a language, over its English defaults. Only the language
 * in use has its catalogue loaded, so each is registered when the interface switches to it.
 */
function registerTexts(i18n: I18n, language: string) {
  if (!isLanguage(language)) return
  const altcha = globalThis.$altcha
  const defaults = altcha.i18n.get('en')
  const t = i18n.getFixedT(language)
  const texts = Object.fromEntries(WIDGET_TEXTS.map((key) => [key, t(`humanCheck.${key}`)]))
  altcha.i18n.set(language, { ...defaults, ...texts })
}

/**
 * The human check (self-hosted ALTCHA proof of work). Reports the payload to send with the
 * form once the check passes, and null whenever it stops being valid (expired, reset, failed),
 * so a form can keep its submit button disabled until `onChange` last gave a payload.
 */
export function HumanCheck({ onChange }: { onChange: (payload: string | null) => void }) {
  const { t, i18n } = useTranslation()
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading')
  const [state, setState] = useState<WidgetState>('unverified')
  const widgetRef = useRef<AltchaWidgetElement>(null)
  const onChangeRef = useRef(onChange)

  // The listeners below read the latest callback without re-subscribing when a parent re-renders.
  useEffect(() => {
    onChangeRef.current = onChange
  })

  useEffect(() => {
    if (status !== 'loading') return
    let active = true
    loadWidget().then(
      () => {
        if (!active) return
        registerTexts(i18n, i18n.language)
        setStatus('ready')
      },
      () => {
        if (!active) return
        setStatus('failed')
        onChangeRef.current(null)
      },
    )
    return () => {
      active = false
    }
  }, [i18n, status])

  // i18next tells its listeners before React re-renders, so the texts are in place by the time
  // the widget receives its new `language`.
  useEffect(() => {
    if (status !== 'ready') return
    const handleLanguageChanged = (language: string) => registerTexts(i18n, language)
    i18n.on('languageChanged', handleLanguageChanged)
    return () => i18n.off('languageChanged', handleLanguageChanged)
  }, [i18n, status])

  useEffect(() => {
    const widget = widgetRef.current
    if (status !== 'ready' || !widget) return
    const handleStateChange = (event: Event) => {
      const detail = (event as CustomEvent<{ state: WidgetState; payload?: string | null }>).detail
      setState(detail.state)
      onChangeRef.current(detail.state === 'verified' && detail.payload ? detail.payload : null)
    }
    widget.addEventListener('statechange', handleStateChange)
    return () => widget.removeEventListener('statechange', handleStateChange)
  }, [status])

  // The widget changes its label as it goes but does not announce it; this line does.
  const announcement =
    state === 'verifying' || state === 'verified' || state === 'expired' || state === 'error'
      ? t(`humanCheck.${state}`)
      : ''

  return (
    <div
      data-testid="human-check"
      // Same box whether loading, failed or ready, so the form below does not jump.
      className={`min-h-12 text-base ${WIDGET_LOOK}`}
    >
      {status === 'ready' && (
        <altcha-widget ref={widgetRef} challenge={CHALLENGE_URL} language={currentLanguage()} />
      )}
      {status === 'loading' && (
        <div className="flex min-h-12 items-center gap-3 rounded-lg border border-slate-300 bg-white px-3 text-slate-500">
          <span
            aria-hidden="true"
            className="size-[22px] animate-spin rounded-full border-2 border-slate-200 border-t-brand-600 motion-reduce:animate-none"
          />
          <span role="status">{t('humanCheck.loading')}</span>
        </div>
      )}
      {status === 'failed' && (
        <div
          role="alert"
          className="flex min-h-12 flex-wrap items-center justify-between gap-2 rounded-lg border border-red-600 bg-white px-3 py-2 text-sm text-red-700"
        >
          <span>{t('humanCheck.loadError')}</span>
          <button
            type="button"
            onClick={() => setStatus('loading')}
            className="rounded-md px-2 py-1 font-medium text-brand-700 hover:bg-brand-50"
          >
            {t('humanCheck.reload')}
          </button>
        </div>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </div>
  )
}
