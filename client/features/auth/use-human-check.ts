import { useCallback, useState } from 'react'

/**
 * The human check's state for a form. A solution works once on the server, so after every
 * submission the widget is mounted afresh (`key`) and must be passed again.
 */
export function useHumanCheck() {
  const [payload, setPayload] = useState<string | null>(null)
  const [round, setRound] = useState(0)
  const renew = useCallback(() => {
    setPayload(null)
    setRound((value) => value + 1)
  }, [])
  return { payload, onChange: setPayload, key: round, renew }
}

export type HumanCheckState = ReturnType<typeof useHumanCheck>
