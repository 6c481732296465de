import { act, render, screen } from '@testing-library/react'
import { I18nextProvider } from 'react-i18next'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Snackbar } from '../components/ui/snackbar'
import { i18n, i18nReady, setLanguage } from './i18n'
import { useOfflineNotice, whenOnline } from './network-status'
import { NotificationsProvider, useNotifications } from './notifications'

// The online/offline detector (spec: public flows §2 Banners; core §8 offline notice).

let online = true
const realOnLine = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(navigator), 'onLine')

function goOnline(value: boolean) {
  online = value
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'))
  })
}

let notifyFromTest: ReturnType<typeof useNotifications>['notify'] | undefined

function Detector() {
  useOfflineNotice()
  notifyFromTest = useNotifications().notify
  return null
}

function renderDetector() {
  render(
    <I18nextProvider i18n={i18n}>
      <NotificationsProvider>
        <Detector />
        <Snackbar />
      </NotificationsProvider>
    </I18nextProvider>,
  )
}

beforeEach(async () => {
  online = true
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
  await i18nReady
  await setLanguage('en')
})
afterEach(() => {
  // Back to the prototype's getter.
  if (realOnLine) Reflect.deleteProperty(navigator, 'onLine')
})

describe('offline notice', () => {
  it('shows when the network drops and goes away when it is back', () => {
    renderDetector()
    expect(screen.queryByTestId('snackbar')).toBeNull()
    goOnline(false)
    const notice = screen.getByTestId('snackbar')
    expect(notice.textContent).toBe('Sorry, it seems that you are offline')
    expect(notice.dataset.severity).toBe('info')
    goOnline(true)
    expect(screen.queryByTestId('snackbar')).toBeNull()
  })

  it('shows when the app starts without a network', () => {
    online = false
    renderDetector()
    expect(screen.getByTestId('snackbar').textContent).toBe('Sorry, it seems that you are offline')
  })

  it('leaves a newer message on screen when the network comes back', () => {
    renderDetector()
    goOnline(false)
    act(() => {
      notifyFromTest?.('error', 'Payment failed')
    })
    goOnline(true)
    expect(screen.getByTestId('snackbar').textContent).toBe('Payment failed')
  })

  it('speaks Spanish', async () => {
    await setLanguage('es')
    renderDetector()
    goOnline(false)
    expect(screen.getByTestId('snackbar').textContent).toBe(
      'Lo sentimos, parece que no tienes conexión',
    )
  })
})

describe('work that needs the network', () => {
  it('runs at once when there is one', () => {
    const runs: string[] = []
    whenOnline(() => runs.push('run'))
    expect(runs).toEqual(['run'])
  })

  it('waits offline until the network is back, and runs once', () => {
    online = false
    const runs: string[] = []
    whenOnline(() => runs.push('run'))
    goOnline(false)
    expect(runs).toEqual([])
    goOnline(true)
    goOnline(false)
    goOnline(true)
    expect(runs).toEqual(['run'])
  })
})
