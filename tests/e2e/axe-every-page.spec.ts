import { checkEveryPage } from './support/every-page'

// axe-core on every page, in English and Spanish, on a desktop (the phone's twin:
// axe-every-page.mobile.spec.ts).
checkEveryPage()
