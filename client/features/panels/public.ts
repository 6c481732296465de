// What other features may use of panels.
export {
  affirmationsQuery,
  panelQuery,
  panelsQuery,
  useAffirmations,
  usePanel,
} from './api'
