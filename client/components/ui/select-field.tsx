import { type Ref, type SelectHTMLAttributes, useId } from 'react'

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string
  /** Shown in red under the field and announced to screen readers. */
  error?: string
  options: readonly { value: string; label: string }[]
  /** A first, empty choice ("Choose…") for a field with no value yet. */
  placeholder?: string
  ref?: Ref<HTMLSelectElement>
}

/**
 * A labelled native select, styled as TextField: keyboards, screen readers and phone pickers
 * work out of the box.
 */
export function SelectField({
  label,
  error,
  options,
  placeholder,
  className = '',
  ...select
}: SelectFieldProps) {
  const id = useId()
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`w-full rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-200 ${
          error ? 'border-red-600' : 'border-slate-300'
        }`}
        {...select}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
