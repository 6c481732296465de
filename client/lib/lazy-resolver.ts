import type { Resolver } from 'react-hook-form'
import { loadOnce } from './load-once'

// biome-ignore lint/suspicious/noExplicitAny: a resolver of any form, whatever its values and context
type AnyResolver = Resolver<any, any, any>

/**
 * A form's validation that loads its code (the schemas and zod) when it is first needed, or
 * when `preload` is called once the page is on screen, instead of with the page's first render.
 */
export function lazyResolver<R extends AnyResolver>(
  load: () => Promise<R>,
): R & { preload: () => void } {
  // Offline before the chunk was cached, the next validation asks again.
  const start = loadOnce(load)
  const resolver: AnyResolver = async (values, context, options) =>
    (await start())(values, context, options)
  return Object.assign(resolver as R, { preload: () => void start().catch(() => {}) })
}
