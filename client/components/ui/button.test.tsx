import { render, screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { useState } from 'react'
import { beforeAll, describe, expect, it } from 'vitest'
import { firstPageShown } from '../../lib/after-first-page'
import { Button } from './button'

/** A form whose Send stays loading after a first send, as while the server answers. */
function SlowForm({ sent }: { sent: string[] }) {
  const [loading, setLoading] = useState(false)
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        sent.push('form')
        setLoading(true)
      }}
    >
      <input aria-label="Name" />
      <Button type="submit" loading={loading}>
        Send
      </Button>
    </form>
  )
}

describe('Button', () => {
  // A submit button sends its form once the page's code has shown the first page.
  beforeAll(firstPageShown)

  it('keeps the keyboard’s focus while loading, and takes no second click or Enter', async () => {
    const sent: string[] = []
    render(<SlowForm sent={sent} />)
    const user = userEvent.setup()
    const send = screen.getByRole('button', { name: 'Send' })
    await user.tab()
    await user.tab()
    expect(document.activeElement).toBe(send)
    await user.keyboard('{Enter}')
    expect(sent).toEqual(['form'])
    expect(send.getAttribute('aria-busy')).toBe('true')
    expect(send.getAttribute('aria-disabled')).toBe('true')
    // Focus stays where the member pressed, so the answer is read from there.
    expect(document.activeElement).toBe(send)

    await user.click(send)
    await user.keyboard('{Enter}')
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ann{Enter}')
    expect(sent).toEqual(['form'])
  })

  it('runs its click when not loading, and none when disabled', async () => {
    const clicks: string[] = []
    const { rerender } = render(<Button onClick={() => clicks.push('click')}>Go</Button>)
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Go' }))
    expect(clicks).toEqual(['click'])
    rerender(
      <Button disabled onClick={() => clicks.push('click')}>
        Go
      </Button>,
    )
    await user.click(screen.getByRole('button', { name: 'Go' }))
    expect(clicks).toEqual(['click'])
  })
})
