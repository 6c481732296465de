// `npm run build`: the production build of the PWA into dist/client.
import { buildClient } from './build-client'

buildClient([])
