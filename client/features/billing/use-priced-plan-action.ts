import type { UseMutationResult } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { readServerError } from '../../lib/form-mutation'
import { useMessageText } from '../../lib/messages'

/**
 * A plan action that needs a chosen price (starting a plan, upgrading one): the choice, its
 * '*Select a Price Plan first', the server's refusal, and one attempt id per try, so a
 * repeated request of one try acts once.
 */
export function usePricedPlanAction<Answer>(
  mutation: UseMutationResult<Answer, Error, { priceId: string; attemptId: string }>,
  onDone: () => void,
) {
  const { t } = useTranslation()
  const text = useMessageText()
  const [priceId, setPriceId] = useState('')
  const [priceError, setPriceError] = useState<string>()
  const [error, setError] = useState<string>()
  const attempt = useRef(crypto.randomUUID())
  return {
    priceId,
    priceError,
    error,
    setError,
    choose(id: string) {
      setPriceId(id)
      setPriceError(undefined)
    },
    submit() {
      if (!priceId) {
        setPriceError(text('billing.choosePrice'))
        return
      }
      setError(undefined)
      mutation.mutate(
        { priceId, attemptId: attempt.current },
        {
          onSuccess: onDone,
          onError: (failure) =>
            setError(readServerError(failure, t('common.networkError')).message),
          onSettled: () => {
            attempt.current = crypto.randomUUID()
          },
        },
      )
    },
  }
}
