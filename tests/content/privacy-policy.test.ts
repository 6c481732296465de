import { describe, expect, it } from 'vitest'
import en from '../../client/features/info/locales/en.json'
import es from '../../client/features/info/locales/es.json'
import { EXPORT_KEEP_DAYS, KEPT_INVOICE_YEARS } from '../../domain/leaving'

// The privacy policy says what the code does: how long a deleted account's invoices are kept,
// and how long a download of one's data stays. A change to either constant fails here until
// the policy (both languages) says the same.

describe('the privacy policy', () => {
  it.each([
    { language: 'en', policy: en.info.privacy, years: 'years', days: 'days' },
    { language: 'es', policy: es.info.privacy, years: 'años', days: 'días' },
  ])('says in $language how long kept invoices and downloads last', ({ policy, years, days }) => {
    expect(policy.sections.retention.body).toContain(`${KEPT_INVOICE_YEARS} ${years}`)
    expect(policy.sections.rights.body).toContain(`${EXPORT_KEEP_DAYS} ${days}`)
  })
})
