import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config'
import { createStorage } from './plugin'

describe('storage configuration', () => {
  it('keeps files under DATA_DIR/files by default', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'harmonize-storage-'))
    try {
      const storage = await createStorage(loadConfig({ DATA_DIR: root }))
      await storage.put('avatars/a', Buffer.from('x'), 'image/webp')
      expect(existsSync(path.join(root, 'files', 'avatars', 'a'))).toBe(true)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('removes the temp files interrupted writes left behind, and nothing else', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'harmonize-storage-'))
    try {
      const files = path.join(root, 'files')
      const avatars = path.join(files, 'avatars')
      const nested = path.join(files, 'medias', 'panel-01')
      mkdirSync(avatars, { recursive: true })
      mkdirSync(nested, { recursive: true })
      const abandoned = [
        path.join(avatars, '.user-1.3f2a9c1d0b7e.tmp'),
        path.join(avatars, '.user-1.meta.json.0a1b2c3d4e5f.tmp'),
        path.join(nested, '.song.mp3.ffee00112233.tmp'),
      ]
      const kept = [
        path.join(avatars, 'user-1'),
        path.join(avatars, 'user-1.meta.json'),
        path.join(avatars, '.user-2.tmp.bak'),
        path.join(avatars, 'user-3.tmp'),
        path.join(nested, '.hidden'),
      ]
      for (const file of [...abandoned, ...kept]) writeFileSync(file, 'x')
      // Written two hours ago: the process that was writing them is gone.
      const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
      for (const file of [...abandoned, ...kept]) utimesSync(file, longAgo, longAgo)
      // Just written: with PostgreSQL another process (the operator command beside a server)
      // may be mid-write; with the embedded database nobody else may touch DATA_DIR.
      const young = path.join(avatars, '.user-4.a1b2c3d4e5f6.tmp')
      writeFileSync(young, 'x')

      const shared = loadConfig({
        DATA_DIR: root,
        DATABASE_URL: 'postgres://localhost:5432/unused',
        AUTH_SECRET: 'a'.repeat(32),
      })
      await createStorage(shared)
      for (const file of abandoned) expect(existsSync(file), file).toBe(false)
      for (const file of [...kept, young]) expect(existsSync(file), file).toBe(true)

      const storage = await createStorage(loadConfig({ DATA_DIR: root }))
      expect(existsSync(young)).toBe(false)
      for (const file of kept) expect(existsSync(file), file).toBe(true)
      expect((await storage.get('avatars/user-1'))?.data.toString()).toBe('x')
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('refuses S3 storage without its region and keys, naming what is missing', async () => {
    const config = { ...loadConfig({ DATA_DIR: tmpdir() }), STORAGE_URL: 's3://harmonize-files' }
    await expect(createStorage(config)).rejects.toThrow(ConfigError)
    await expect(createStorage(config)).rejects.toThrow(/S3_REGION, S3_ACCESS_KEY_ID/)
  })
})
