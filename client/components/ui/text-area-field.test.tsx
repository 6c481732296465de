import { render, screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { TextAreaField } from './text-area-field'

describe('TextAreaField', () => {
  it('ties its label, its error, its hint and its textarea together for a screen reader', async () => {
    render(
      <TextAreaField label="Message" hint="Up to 5000 characters" error="Message is required" />,
    )
    const textarea = screen.getByRole('textbox', { name: 'Message' })
    expect(textarea.getAttribute('aria-invalid')).toBe('true')
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toBe('Message is required')
    const hint = screen.getByText('Up to 5000 characters')
    expect(textarea.getAttribute('aria-describedby')).toBe(`${alert.id} ${hint.id}`)
    await userEvent.type(textarea, 'Hello')
    expect((textarea as HTMLTextAreaElement).value).toBe('Hello')
  })
})
