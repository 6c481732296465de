// The information pages, one chunk for all eight: each is small, and one dynamic import costs
// the entry less than eight (each names its chunks in the entry).
export { AboutPage } from './routes/about-page'
export { DisclaimerPage } from './routes/disclaimer-page'
export { HelpPage } from './routes/help-page'
export { HowToPage } from './routes/how-to-page'
export { MessagesPage } from './routes/messages-page'
export { PrivacyPolicyPage } from './routes/privacy-policy-page'
export { SolfeggioPage } from './routes/solfeggio-page'
export { TermsOfUsePage } from './routes/terms-of-use-page'
