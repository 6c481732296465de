import { options } from 'preact'

/**
 * Preact runs effects after the next frame (requestAnimationFrame, else a 35 ms timer); React
 * runs them right after the commit, in a task of their own. Components here are written to
 * React's timing: a countdown started by a click must tick from the click, not from the next
 * frame, which may be far away in a background tab or never come under a paused test clock.
 * A message-channel task runs them as React's scheduler would.
 */
const channel = new MessageChannel()
const waiting: Array<() => void> = []
channel.port1.onmessage = () => {
  for (const callback of waiting.splice(0)) callback()
}
options.requestAnimationFrame = (callback) => {
  waiting.push(callback)
  if (waiting.length === 1) channel.port2.postMessage(null)
}
