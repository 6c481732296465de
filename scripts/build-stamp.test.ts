import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { inputsHash, isStale, snapshotInputs, writeStamp, writeStartStamp } from './build-stamp'
import { START_STAMP, startStampHolds } from './start-stamp.mjs'

describe('whether npm start must build again', () => {
  let root: string
  const inputs = ['src', 'package.json']
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  const installed = (versions: Record<string, string>) =>
    write(
      'node_modules/.package-lock.json',
      JSON.stringify({
        packages: Object.fromEntries(
          Object.entries(versions).map(([name, version]) => [`node_modules/${name}`, { version }]),
        ),
      }),
    )

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'build-stamp-'))
    write('package.json', '{"name":"x"}')
    write('src/app.ts', 'export const a = 1')
    write('src/lib/util.ts', 'export const b = 2')
    installed({ fastify: '5.1.0' })
    writeStamp(path.join(root, 'stamp'), inputsHash(root, inputs))
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  const stale = () => isStale(path.join(root, 'stamp'), inputsHash(root, inputs))

  it('does not build again when files are only touched or rewritten the same', () => {
    const later = new Date(Date.now() + 60_000)
    utimesSync(path.join(root, 'src/app.ts'), later, later)
    write('src/lib/util.ts', 'export const b = 2')
    // npm install rewrites its lock files; the same packages stay installed.
    write('package-lock.json', '{"rewritten":true}')
    installed({ fastify: '5.1.0' })
    expect(stale()).toBe(false)
  })

  it('builds again when a source changes, appears or goes', () => {
    write('src/lib/util.ts', 'export const b = 3')
    expect(stale()).toBe(true)
    writeStamp(path.join(root, 'stamp'), inputsHash(root, inputs))
    write('src/new.ts', 'export {}')
    expect(stale()).toBe(true)
    writeStamp(path.join(root, 'stamp'), inputsHash(root, inputs))
    rmSync(path.join(root, 'src/new.ts'))
    expect(stale()).toBe(true)
  })

  it('builds again when an installed package changes version', () => {
    installed({ fastify: '5.2.0' })
    expect(stale()).toBe(true)
  })

  it('ignores tests beside the sources, and builds when nothing was built yet', () => {
    write('src/app.test.ts', 'it("x", () => {})')
    expect(stale()).toBe(false)
    rmSync(path.join(root, 'stamp'))
    expect(stale()).toBe(true)
  })
})

describe('whether npm start may skip the content check (the start stamp)', () => {
  let root: string
  const inputs = ['src', 'package.json']
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  const stampNow = () =>
    writeStartStamp(
      root,
      snapshotInputs(root, inputs),
      ['dist/.client-inputs'],
      ['dist/client/index.html'],
      START_STAMP,
    )

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'start-stamp-'))
    write('package.json', '{"name":"x"}')
    write('src/app.ts', 'export const a = 1')
    write('src/lib/util.ts', 'export const b = 2')
    write('dist/.client-inputs', 'hash-1\n')
    write('dist/client/index.html', '<!doctype html>')
    stampNow()
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it('holds while nothing moved', () => {
    expect(startStampHolds(root)).toBe(true)
  })

  it('does not hold once a source is touched, rewritten, added or removed', () => {
    const later = new Date(Date.now() + 60_000)
    utimesSync(path.join(root, 'src/app.ts'), later, later)
    expect(startStampHolds(root)).toBe(false)
    stampNow()
    write('src/lib/util.ts', 'export const b = 3')
    expect(startStampHolds(root)).toBe(false)
    stampNow()
    write('src/lib/new.ts', 'export {}')
    expect(startStampHolds(root)).toBe(false)
    stampNow()
    rmSync(path.join(root, 'src/lib/new.ts'))
    expect(startStampHolds(root)).toBe(false)
  })

  it('does not hold when a build was made again or its output is gone', () => {
    write('dist/.client-inputs', 'hash-2\n')
    expect(startStampHolds(root)).toBe(false)
    write('dist/.client-inputs', 'hash-1\n')
    expect(startStampHolds(root)).toBe(true)
    rmSync(path.join(root, 'dist/client'), { recursive: true })
    expect(startStampHolds(root)).toBe(false)
  })

  it('does not hold without a stamp or with a damaged one', () => {
    write(START_STAMP, '{')
    expect(startStampHolds(root)).toBe(false)
    rmSync(path.join(root, START_STAMP))
    expect(startStampHolds(root)).toBe(false)
  })
})
