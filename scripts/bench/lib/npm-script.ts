import { readFileSync } from 'node:fs'
import path from 'node:path'

export const root = path.resolve(import.meta.dirname, '../../..')

export interface Command {
  command: string
  args: string[]
  /** Run through a shell: the script uses shell syntax, so it cannot be split into words. */
  shell: boolean
}

/**
 * The command `npm run <name>` would run, read from package.json now, so the bench follows
 * whatever the script becomes. A plain `node …` line is run with this Node directly: then the
 * child's pid is the process that does the work, with no npm or shell in between.
 */
export function npmScript(name: string, extraArgs: string[] = []): Command {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>
  }
  const script = pkg.scripts?.[name]
  if (!script) throw new Error(`package.json has no "${name}" script.`)
  const words = script.trim().split(/\s+/)
  if (words[0] === 'node' && !/[|&;<>()$`"'*?\\]/.test(script)) {
    return { command: process.execPath, args: [...words.slice(1), ...extraArgs], shell: false }
  }
  return { command: [script, ...extraArgs].join(' '), args: [], shell: true }
}
