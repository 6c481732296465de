// Whether someone signed in on this device before: the sign-in page greets them back, and a
// new visitor as new. Kept on the device only; it says nothing about who.
const KEY = 'harmonize-signed-in-here'

export function hasSignedInHere(): boolean {
  try {
    return localStorage.getItem(KEY) === '1'
  } catch {
    return false
  }
}

export function rememberSignedInHere(): void {
  try {
    localStorage.setItem(KEY, '1')
  } catch {
    // Private browsing without storage: the greeting stays the new visitor's.
  }
}
