import { zodResolver } from '@hookform/resolvers/zod'
import { clientFormSchema } from '../../../domain/client-form'
import { ourZodMessages } from '../../../domain/messages'

// The client form's validation, loaded apart from its page (client/lib/lazy-resolver.ts): it
// reads phone numbers with libphonenumber's metadata, 20 KB compressed that the form does not
// need to be shown.
export const clientFormResolver = zodResolver(clientFormSchema, ourZodMessages)
