import type { UseMutationResult } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
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
  choices: readonly { id: string }[] = [],
) {
  const { t } = useTranslation()
  const text = useMessageText()
  const [search] = useSearchParams()
  const [chosen, setPriceId] = useState('')
  const priceId = chosen || preselected(choices, search.get('price'))
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

/**
 * The price a page starts with: the one clicked on My Account (`?price=`), if it is offered here,
 * else the only one offered; none when there is a real choice to make.
 */
export function preselected(choices: readonly { id: string }[], clicked: string | null): string {
  if (clicked && choices.some((choice) => choice.id === clicked)) return clicked
  return choices.length === 1 ? (choices[0]?.id ?? '') : ''
}
