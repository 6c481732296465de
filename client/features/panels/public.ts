// What other features may use of panels.
export { PanelIcon } from './components/panel-icon'
