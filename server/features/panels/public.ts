// What other features may use of panels: reading a panel and the affirmations.
export { getPanel, listAffirmations } from './service'
