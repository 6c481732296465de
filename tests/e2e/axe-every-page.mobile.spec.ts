import { checkEveryPage } from './support/every-page'

// axe-core on every page, in English and Spanish, on a phone (the desktop's twin:
// axe-every-page.spec.ts).
checkEveryPage()
