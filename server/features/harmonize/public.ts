// What other features (and the operator commands) may use of harmonize.
export {
  addMedia,
  listMedia,
  mediaTarget,
  mediaTypeOf,
  removeMedia,
  SNIFF_BYTES,
  signMediaUrl,
} from './media'
