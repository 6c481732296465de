import { findChromium } from './chromium'

// Runs once before the workers start; what it puts in process.env reaches them.
export default async function globalSetup() {
  process.env.CHROMIUM_PATH = await findChromium()
}
