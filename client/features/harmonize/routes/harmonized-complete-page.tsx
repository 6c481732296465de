import { useNavigate } from 'react-router'
import { FullScreenSpinner } from '../../../components/ui/full-screen-spinner'
import { useRecentSessions } from '../api'
import { SessionComplete } from '../components/session-complete'

/**
 * /harmonized-complete (spec scans §1): the completion screen at its own address, e.g. opened
 * again from the browser's history. A session ends on this screen in place, so here 'Harmonize
 * Again' goes back to the panel of the member's latest session, or home when there is none.
 */
export function HarmonizedCompletePage() {
  const navigate = useNavigate()
  const recent = useRecentSessions()
  if (recent.isPending) return <FullScreenSpinner />
  const latest = recent.data?.[0]
  return (
    <SessionComplete
      onAgain={() =>
        navigate(latest ? `/harmonizing-screen/${latest.panelId}#harmonizing` : '/home')
      }
    />
  )
}
