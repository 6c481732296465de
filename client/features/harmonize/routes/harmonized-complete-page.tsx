import { useNavigate } from 'react-router'
import { FullScreenSpinner } from '../../../components/ui/full-screen-spinner'
import { useRecentSessions } from '../../../lib/recent-sessions'
import { SessionComplete } from '../components/session-complete'
import { lastSessionPath } from '../last-session'

/**
 * /harmonized-complete (spec scans §1): the completion screen at its own address, e.g. opened
 * again from the browser's history. A session ends on this screen in place, so here 'Harmonize
 * Again' goes back to the latest session finished in this tab (a tray's time and panels
 * included), else to the panel of the member's latest recorded session, or home.
 */
export function HarmonizedCompletePage() {
  const navigate = useNavigate()
  const finishedHere = lastSessionPath()
  const recent = useRecentSessions()
  if (!finishedHere && recent.isPending) return <FullScreenSpinner />
  const latest = recent.data?.[0]
  const again = finishedHere ?? (latest ? `/harmonizing-screen/${latest.panelId}` : null)
  return <SessionComplete onAgain={() => navigate(again ? `${again}#harmonizing` : '/home')} />
}
