import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * Seals what a queued job carries that must not be readable in the job tables, which keep
 * finished jobs for days: AES-256-GCM under a key derived from AUTH_SECRET for one `purpose`,
 * so a key for one queue opens nothing of another. Something sealed under an older secret
 * cannot be opened, and its job ends among the failed ones.
 */
export function sealer<T>(secret: string, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'harmonize', purpose, 32))
  return {
    close(content: T): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(JSON.stringify(content), 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
    },
    open(sealed: string): T {
      try {
        const raw = Buffer.from(sealed, 'base64')
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
        decipher.setAuthTag(raw.subarray(12, 28))
        const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()])
        return JSON.parse(text.toString('utf8'))
      } catch {
        throw new Error(`the queued ${purpose} data was sealed with another AUTH_SECRET`)
      }
    },
  }
}
