// Limits every picture upload shares (the member's own picture, client photos): both sides check
// them, the client before sending and the server before decoding.

/** Largest upload the server reads, in bytes. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024
/** Largest picture we decode: bigger ones cost too much memory for what we keep of them. */
export const IMAGE_MAX_PIXELS = 40_000_000
export const IMAGE_MAX_SIDE_PX = 10_000
