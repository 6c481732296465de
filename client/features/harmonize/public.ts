// What other features may use of harmonize.
export { OfflineMedia } from './components/offline-media'
export { RecentSessions } from './components/recent-sessions'
export { useKeepForOffline } from './keep-for-offline'
