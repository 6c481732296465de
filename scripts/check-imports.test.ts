import { describe, expect, it } from 'vitest'
import { brokenRule, findViolations } from './check-imports'

describe('the import boundaries', () => {
  it('refuse domain importing anything of ours outside domain/', () => {
    expect(brokenRule('domain/access.ts', 'server/errors.ts')).toMatch(/domain imports nothing/)
    expect(brokenRule('domain/access.ts', 'domain/text.ts')).toBeNull()
  })

  it('refuse client code importing the server, the database or scripts', () => {
    expect(brokenRule('client/lib/api-client.ts', 'server/errors.ts')).toMatch(/client never/)
    expect(brokenRule('client/lib/api-client.ts', 'db/schema/auth.ts')).toMatch(/client never/)
    expect(brokenRule('client/lib/api-client.ts', 'domain/messages.ts')).toBeNull()
  })

  it('refuse a plugin importing a feature', () => {
    expect(brokenRule('server/plugins/auth.ts', 'server/features/auth/public.ts')).toMatch(
      /plugin never imports a feature/,
    )
  })

  it("refuse a feature reaching into another feature's files, but not into its own", () => {
    expect(
      brokenRule('server/features/auth/service.ts', 'server/features/access/service.ts'),
    ).toMatch(/public module/)
    expect(
      brokenRule('client/features/panels/routes/home-page.tsx', 'client/features/access/api.ts'),
    ).toMatch(/public module/)
    expect(
      brokenRule('server/features/auth/service.ts', 'server/features/access/public.ts'),
    ).toBeNull()
    expect(
      brokenRule('server/features/auth/routes.ts', 'server/features/auth/service.ts'),
    ).toBeNull()
    expect(brokenRule('server/app.ts', 'server/features/auth/routes.ts')).toBeNull()
  })

  it('hold in the repository today', () => {
    expect(findViolations()).toEqual([])
  })
})
