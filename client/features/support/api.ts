import { useMutation } from '@tanstack/react-query'
import { okResponseSchema } from '../../../domain/api'
import { supportMailRequestSchema } from '../../../domain/support'
import { endpoint } from '../../lib/api-client'

// Support mail (spec scans §2 Send mail, §3 Support mail).

const sendSupportMail = endpoint(
  'POST',
  '/api/support/mail',
  supportMailRequestSchema,
  okResponseSchema,
)

/** Sends the member's message to the support team; the server mails them a copy. */
export const useSendSupportMail = () => useMutation({ mutationFn: sendSupportMail })
