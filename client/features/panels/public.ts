// What other features may use of panels.
export {
  affirmationsQuery,
  panelQuery,
  panelsQuery,
  useAffirmations,
  usePanel,
  usePanels,
} from './api'
export { PanelIcon } from './components/panel-icon'
