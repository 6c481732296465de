import { expect } from '@playwright/test'
import { harnessPort } from './harness-protocol'

export const MAIL_URL = `http://127.0.0.1:${harnessPort()}/messages`

export interface Mail {
  to: string[]
  subject: string
  text: string
}

/** Everything the harness's SMTP server received for an address, oldest first. */
export async function mailTo(address: string): Promise<Mail[]> {
  const response = await fetch(`${MAIL_URL}?to=${encodeURIComponent(address)}`)
  return ((await response.json()) as { messages: Mail[] }).messages
}

/**
 * Waits until the address has received more than `already` messages and returns the 6-digit
 * code of the newest one.
 */
export async function waitForCode(address: string, already = 0): Promise<string> {
  let code = ''
  await expect
    .poll(
      async () => {
        const messages = await mailTo(address)
        if (messages.length <= already) return ''
        code = messages.at(-1)?.text.match(/\b(\d{6})\b/)?.[1] ?? ''
        return code
      },
      { message: `a code e-mailed to ${address}`, timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/)
  return code
}
