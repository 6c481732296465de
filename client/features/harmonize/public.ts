// What other features may use of harmonize.
export { OfflineMedia } from './components/offline-media'
