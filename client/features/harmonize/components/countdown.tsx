import { useTranslation } from 'react-i18next'
import { formatCountdown } from '../../../../domain/constants'

/** The session's time left as m:ss, read out as 'Time left: 2:53'. */
export function Countdown({
  remaining,
  className = '',
}: {
  remaining: number
  className?: string
}) {
  const { t } = useTranslation()
  const time = formatCountdown(remaining)
  return (
    <span
      role="timer"
      className={`rounded-full px-3 py-1 font-mono text-lg tabular-nums ${className}`}
      data-testid="countdown"
      aria-label={t('harmonize.remaining', { time })}
    >
      {time}
    </span>
  )
}
