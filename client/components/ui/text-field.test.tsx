import { render, screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { TextField } from './text-field'

describe('TextField', () => {
  it('ties its label, its error and its input together for a screen reader', async () => {
    render(<TextField label="Email" error="Please, enter a valid email" />)
    const input = screen.getByRole('textbox', { name: 'Email' })
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('alert').textContent).toBe('Please, enter a valid email')
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id)
    await userEvent.type(input, 'ann@example.com')
    expect((input as HTMLInputElement).value).toBe('ann@example.com')
  })
})
