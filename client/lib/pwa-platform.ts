/** How often an open app asks the server for a new version (spec: update checker, 60000 ms). */
export const UPDATE_CHECK_INTERVAL_MS = 60_000

// Every iOS browser is WebKit, but only Safari can add a web app to the home screen. Other
// browsers say who they are in the user agent (Chrome CriOS, Firefox FxiOS, Edge EdgiOS…);
// in-app browsers (Facebook, Instagram…) leave out the "Safari/" token altogether.
const OTHER_IOS_BROWSER = /CriOS|FxiOS|EdgiOS|OPiOS|OPT\/|GSA\/|YaBrowser|DuckDuckGo|Focus\//

/**
 * True on iPhone, iPod and iPad in a browser other than Safari. `touchPoints` tells an iPad
 * (which reports a Mac user agent by default) from a Mac.
 */
export function isIosOutsideSafari(userAgent: string, touchPoints: number): boolean {
  const ios = /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && touchPoints > 1)
  return ios && (OTHER_IOS_BROWSER.test(userAgent) || !/Safari\//.test(userAgent))
}

/**
 * A short, stable id of a text (FNV-1a, 32 bits): the service worker script names every file
 * of a build with its revision, so its id is the build's.
 */
export function versionOf(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(36)
}
