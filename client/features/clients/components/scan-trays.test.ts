import { describe, expect, it } from 'vitest'
import { RX_MAX_PANELS } from '../../../../domain/harmonize'
import { EMPTY_TRAYS, type Trays, toggleInTray } from './scan-trays'

const ids = (count: number) =>
  Array.from({ length: count }, (_, i) => String(i + 1).padStart(2, '0'))

describe('the aura scan’s trays', () => {
  it('Balance Rx holds one panel: another takes its place, the same one takes it out', () => {
    let trays = toggleInTray(EMPTY_TRAYS, 'balance', '03')
    expect(trays.panels.balance).toEqual(['03'])
    trays = toggleInTray(trays, 'balance', '07')
    expect(trays.panels.balance).toEqual(['07'])
    expect(toggleInTray(trays, 'balance', '07').panels.balance).toEqual([])
  })

  it('Multi Layer Rx gathers panels in order, takes one out, and stops at a full scan list', () => {
    let trays: Trays = EMPTY_TRAYS
    for (const id of ['05', '02', '09']) trays = toggleInTray(trays, 'multi', id)
    expect(trays.panels.multi).toEqual(['05', '02', '09'])
    expect(toggleInTray(trays, 'multi', '02').panels.multi).toEqual(['05', '09'])
    let full: Trays = EMPTY_TRAYS
    for (const id of ids(RX_MAX_PANELS + 3)) full = toggleInTray(full, 'multi', id)
    expect(full.panels.multi).toEqual(ids(RX_MAX_PANELS))
  })

  it('the trays are independent, and their times are kept', () => {
    const trays = toggleInTray(
      { ...EMPTY_TRAYS, minutes: { balance: 10, multi: 20 } },
      'multi',
      '04',
    )
    expect(trays.panels).toEqual({ balance: [], multi: ['04'] })
    expect(trays.minutes).toEqual({ balance: 10, multi: 20 })
    expect(EMPTY_TRAYS.panels).toEqual({ balance: [], multi: [] })
  })
})
