import { type InputHTMLAttributes, type Ref, useId } from 'react'

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string
  /** Shown in red under the field and announced to screen readers. */
  error?: string
  /** Shown under the field when there is no error (or always, with `hintIsError`). */
  hint?: string
  ref?: Ref<HTMLInputElement>
  /** Extra element inside the field's right edge (e.g. a show/hide button). */
  adornment?: React.ReactNode
}

/** A labelled input with its error and hint wired for assistive technology. */
export function TextField({
  label,
  error,
  hint,
  adornment,
  className = '',
  ...input
}: TextFieldProps) {
  const id = useId()
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null]
    .filter(Boolean)
    .join(' ')
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={`w-full rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-200 ${
            error ? 'border-red-600' : 'border-slate-300'
          } ${adornment ? 'pr-12' : ''}`}
          {...input}
        />
        {adornment && (
          <div className="absolute inset-y-0 right-1 flex items-center">{adornment}</div>
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} className={`text-xs ${error ? 'text-red-700' : 'text-slate-500'}`}>
          {hint}
        </p>
      )}
      {error && error !== hint && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
