import type { Page } from '@playwright/test'

/** A 1×1 PNG: the smallest photo the client form accepts. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/**
 * A client of the signed-in member, saved through the API with a photo (as the form saves one),
 * for tests about what comes after the form; its id.
 */
export async function saveClient(
  page: Page,
  { firstName, lastName }: { firstName: string; lastName: string },
): Promise<string> {
  const uploaded = await page.request.post('/api/clients/photos', {
    data: PNG,
    headers: { 'content-type': 'image/png' },
  })
  const { photo } = await uploaded.json()
  const created = await page.request.post('/api/clients', {
    data: {
      firstName,
      lastName,
      email: `${firstName.normalize('NFKD').replace(/\W/g, '').toLowerCase()}@example.com`,
      phone: '+34 600 123 456',
      birthDate: null,
      affirmation: 'I am at ease.',
      photoNumber: photo.number,
      consent: true,
    },
  })
  const { id } = await created.json()
  return id
}
