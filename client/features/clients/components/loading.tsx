/** A spinner with what is loading, in the flow of the page (not the route's full screen). */
export function Loading({ text }: { text: string }) {
  return (
    <div role="status" className="flex items-center gap-3 py-6 text-slate-600">
      <span className="size-6 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
      {text}
    </div>
  )
}
