/**
 * A form's message that belongs to none of its fields (in a dialog, where the snackbar is out
 * of reach); announced when it appears.
 */
export function FormAlert({ message }: { message?: string }) {
  if (!message) return null
  return (
    <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  )
}
