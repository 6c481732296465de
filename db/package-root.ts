import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The folder that holds package.json. Paths to the migrations and the built client start here,
 * because this module runs both from its source (db/) and bundled into dist/server/, where a path
 * relative to the module's own file would point somewhere else.
 */
export const packageRoot: string = (() => {
  let folder = path.dirname(fileURLToPath(import.meta.url))
  for (;;) {
    if (existsSync(path.join(folder, 'package.json'))) return folder
    const parent = path.dirname(folder)
    if (parent === folder) throw new Error('package.json not found above the server')
    folder = parent
  }
})()
