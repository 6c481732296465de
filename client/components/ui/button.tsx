import type { ComponentProps } from 'react'
import { useFirstPageShown } from '../../lib/after-first-page'

interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger'
  loading?: boolean
}

const VARIANTS = {
  primary:
    'bg-brand-600 text-white shadow hover:bg-brand-700 disabled:bg-slate-300 disabled:text-slate-600',
  secondary:
    'bg-white text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50 disabled:text-slate-400',
  ghost: 'text-brand-700 hover:bg-brand-100 disabled:text-slate-400',
  // What cannot be undone (deleting the account).
  danger:
    'bg-red-700 text-white shadow hover:bg-red-800 disabled:bg-slate-300 disabled:text-slate-600',
}

/**
 * The app's button; `loading` shows a spinner and blocks a second click. A loading button is
 * not `disabled`: the browser would move the focus off it to the page, and a keyboard user
 * would be sent back to the top when the answer came. It says it is unavailable instead.
 */
export function Button({
  variant = 'primary',
  loading = false,
  disabled,
  className = '',
  children,
  type = 'button',
  onClick,
  ...rest
}: ButtonProps) {
  // In the server's HTML, before the page's code runs, a submit button would send the form the
  // browser's way (client/features/auth/components/auth-form.tsx): until then it sends nothing,
  // and says it is not ready, without the grey of a disabled button flashing on every page.
  const ready = useFirstPageShown()
  const waiting = type === 'submit' && !ready
  return (
    <button
      type={waiting ? 'button' : type}
      aria-disabled={waiting || (loading && !disabled) || undefined}
      disabled={disabled}
      aria-busy={loading || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded-lg px-5 py-2.5 font-medium transition-colors disabled:cursor-not-allowed aria-busy:cursor-wait ${VARIANTS[variant]} ${className}`}
      onClick={(event) => {
        // Also what keeps Enter in the form's fields from sending it again.
        if (loading) event.preventDefault()
        else onClick?.(event)
      }}
      {...rest}
    >
      {loading && (
        <span
          aria-hidden
          className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
        />
      )}
      {children}
    </button>
  )
}
