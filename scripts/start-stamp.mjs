// Plain JavaScript on purpose: `npm start` reads this before anything that needs TypeScript.
// scripts/build-stamp.ts writes dist/.start-stamp.json once scripts/start.ts has found both
// builds current; this only says whether anything it lists has moved since.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

export const START_STAMP = 'dist/.start-stamp.json'

/**
 * True when, since the stamp was written, no folder under the builds' inputs gained or lost an
 * entry, no file changed size or time, the builds' own stamps are the same and their outputs are
 * there. Anything else (or no stamp) is false: scripts/start.ts then compares contents.
 * @param {string} root the folder holding package.json
 */
export function startStampHolds(root) {
  try {
    const stamp = JSON.parse(readFileSync(path.join(root, START_STAMP), 'utf8'))
    for (const output of stamp.outputs) {
      if (!existsSync(path.join(root, output))) return false
    }
    for (const [file, content] of Object.entries(stamp.stamps)) {
      if (readFileSync(path.join(root, file), 'utf8') !== content) return false
    }
    for (const [folder, entries] of Object.entries(stamp.folders)) {
      if (readdirSync(path.join(root, folder)).sort().join('\n') !== entries) return false
    }
    for (const [file, [size, time]] of Object.entries(stamp.files)) {
      const stats = statSync(path.join(root, file))
      if (stats.size !== size || stats.mtimeMs !== time) return false
    }
    return true
  } catch {
    return false
  }
}
