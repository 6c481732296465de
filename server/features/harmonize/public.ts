// What other features (and the operator commands) may use of harmonize.
export { addMedia, listMedia, removeMedia, signMediaUrl } from './media'
