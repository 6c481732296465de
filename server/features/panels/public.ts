// What other features may use of panels: reading a panel and the affirmations; and how a panel
// is presented, which the build's prerendered panel pages must say alike (scripts/).
export { presentPanelDetail, presentPanelSummary } from './presenter'
export { getPanel, listAffirmations } from './service'
