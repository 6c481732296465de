import {
  createHarmonizeGraph,
  FADE_OUT_SECONDS,
  type HarmonizeGraph,
  type HarmonizeLayer,
  type HarmonizeVolumes,
} from './engine'

// The engine wired to a real device: one AudioContext per player, a fresh graph per session,
// lock-screen controls, the screen kept awake, and playback that survives a hidden tab.

const BACKING_READY_GRACE_MS = 3000
const STOP_GRACE_SECONDS = 1.5

/** What a harmonizing screen passes to {@link createHarmonizePlayer}. */
export interface HarmonizePlayerOptions {
  /** The panel's name: the lock screen's title. */
  title: string
  /** The panel's Solfeggio tone in Hz. */
  solfeggioHz: number
  /** Further panels' tones layered with it (a Multi Layer Rx session). */
  layeredHz?: readonly number[]
  /** Binaural beats need headphones; off (amplitude modulation, fine on speakers) by default. */
  binaural?: boolean
  volumes?: Partial<HarmonizeVolumes>
  /** An uploaded backing track (URL or blob: URL of a saved file) replacing the generated pad. */
  backingUrl?: string
  /** Lock-screen artwork; the browser falls back to the app icon. */
  artwork?: MediaImage[]
  /**
   * Play the mix through an <audio> element (default true where Media Session exists), which
   * Chrome needs for lock-screen controls and background play. false: straight to the speakers.
   */
  routeThroughMediaElement?: boolean
}

/** A snapshot of the player, replaced on every change (for React's useSyncExternalStore). */
export interface HarmonizePlayerState {
  /** Can play: Web Audio exists and an uploaded backing track, if any, has loaded or failed. */
  ready: boolean
  /** 'stopping' lasts for the fade-out. */
  status: 'idle' | 'starting' | 'playing' | 'stopping'
  error: Error | null
}

/** The player a harmonizing screen drives. */
export interface HarmonizePlayer {
  /** Starts a session. Call it from a user gesture (a click): browsers only allow sound then. */
  play(): Promise<void>
  /** Fades out (2 s) and resolves when the sound has stopped. */
  stop(): Promise<void>
  setVolume(layer: HarmonizeLayer, value: number): void
  setBinaural(on: boolean): void
  readonly isReady: boolean
  readonly isPlaying: boolean
  getState(): HarmonizePlayerState
  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void
  /**
   * Fades out if playing, then releases the audio device, the wake lock and the lock screen.
   * The player stays usable: a later play() opens the device again (React's StrictMode cleans
   * an effect up and runs it again on the same player).
   */
  dispose(): Promise<void>
}

/**
 * Creates the session player. Nothing touches the audio device until `play()`, which must run
 * inside a user gesture. Media Session, Screen Wake Lock and the audio session type are used when
 * the browser has them; any of them failing never stops the sound.
 */
export function createHarmonizePlayer(options: HarmonizePlayerOptions): HarmonizePlayer {
  const volumes: Partial<HarmonizeVolumes> = { ...options.volumes }
  let binaural = options.binaural ?? false
  let context: AudioContext | null = null
  // Every graph connects to this bus; the bus goes to an <audio> element (see ensureContext) or,
  // when that is impossible, straight to the speakers.
  let bus: GainNode | null = null
  let outputElement: HTMLAudioElement | null = null
  let current: HarmonizeGraph | null = null
  const fading = new Set<HarmonizeGraph>()
  let starting: Promise<void> | null = null
  let wakeLock: WakeLockSentinel | null = null
  let watchingVisibility = false
  let releasing = false

  const supported = typeof window !== 'undefined' && typeof window.AudioContext === 'function'
  let state: HarmonizePlayerState = {
    ready: supported && !options.backingUrl,
    status: 'idle',
    error: supported ? null : new Error('Web Audio is not available in this browser'),
  }
  const listeners = new Set<() => void>()
  const update = (patch: Partial<HarmonizePlayerState>) => {
    state = { ...state, ...patch }
    for (const listener of listeners) listener()
  }

  // An uploaded track plays through an <audio> element into the graph. The first element
  // preloads now, so Play can wait for it as the spec asks; if the track cannot load, the
  // generated pad takes its place. An element can feed only one AudioContext, so a context
  // opened after dispose() gets a fresh element.
  let backingElement: HTMLAudioElement | null = null
  let backingSource: MediaElementAudioSourceNode | null = null
  let backingFailed = false
  const createBackingElement = (url: string) => {
    const element = new Audio()
    element.crossOrigin = 'anonymous'
    element.loop = true
    element.preload = 'auto'
    // iOS loads nothing before a gesture and only says 'suspend', so waiting for
    // 'canplaythrough' alone could keep Play disabled for ever; a short grace covers the rest.
    const grace = setTimeout(() => settle(), BACKING_READY_GRACE_MS)
    const settle = () => {
      clearTimeout(grace)
      if (!state.ready) update({ ready: true })
    }
    for (const event of ['canplaythrough', 'suspend']) {
      element.addEventListener(event, settle, { once: true })
    }
    element.addEventListener(
      'error',
      () => {
        backingFailed = true
        settle()
      },
      { once: true },
    )
    element.src = url
    return element
  }
  if (supported && options.backingUrl) backingElement = createBackingElement(options.backingUrl)

  const onVisibilityChange = () => {
    if (document.visibilityState !== 'visible' || state.status !== 'playing') return
    // A wake lock is released whenever the page is hidden; take it again on return. The sound
    // itself keeps playing while hidden; only an interruption (a phone call on iOS) suspends
    // the context, so resume it here.
    void requestWakeLock()
    if (context && context.state !== 'running') void context.resume().catch(() => {})
  }

  function ensureContext(): AudioContext {
    if (context) return context
    // 'playback' favours steady, power-saving buffers over latency: right for a long drone.
    const created = new AudioContext({ latencyHint: 'playback' })
    context = created
    bus = new GainNode(created)
    // Chrome shows lock-screen controls (Media Session) and keeps a background tab's sound
    // only for a playing media element, never for bare Web Audio: send the mix through one.
    const route = options.routeThroughMediaElement ?? true
    if (
      route &&
      'mediaSession' in navigator &&
      typeof created.createMediaStreamDestination === 'function'
    ) {
      const stream = created.createMediaStreamDestination()
      bus.connect(stream)
      outputElement = new Audio()
      outputElement.srcObject = stream.stream
    } else {
      bus.connect(created.destination)
    }
    if (options.backingUrl && !backingFailed) {
      backingElement ??= createBackingElement(options.backingUrl)
      backingSource = created.createMediaElementSource(backingElement)
    }
    if (!watchingVisibility) {
      document.addEventListener('visibilitychange', onVisibilityChange)
      watchingVisibility = true
    }
    return created
  }

  async function play(): Promise<void> {
    if (!supported) throw state.error
    // dispose() is closing the context this call would use.
    if (releasing) throw new Error('The player is being released')
    if (starting) return starting
    if (state.status === 'playing') return
    // Everything that needs the user gesture happens now, synchronously, before any await.
    const audio = ensureContext()
    // Always resume, even when running: it queues behind a suspend() a stop may have just asked.
    const resumed = audio.resume()
    const elementPlaying = outputElement?.play()
    const backingPlaying = backingFailed ? undefined : backingElement?.play()
    setAudioSessionType()
    update({ status: 'starting', error: null })
    starting = (async () => {
      try {
        await resumed
        if (elementPlaying) {
          await elementPlaying.catch(() => {
            // The element was refused: play straight to the speakers instead.
            if (bus && outputElement) {
              bus.disconnect()
              bus.connect(audio.destination)
              outputElement = null
            }
          })
        }
        if (backingPlaying) await backingPlaying.catch(() => {})
        const useTrack = backingSource && backingElement && !backingElement.paused && !backingFailed
        const graph = createHarmonizeGraph(audio, {
          solfeggioHz: options.solfeggioHz,
          layeredHz: options.layeredHz,
          binaural,
          volumes,
          destination: bus,
          // A track that failed to load or to play leaves the generated pad in its place.
          backing: useTrack ? (backingSource ?? undefined) : undefined,
        })
        graph.start()
        current = graph
        update({ status: 'playing' })
        updateMediaSession('playing')
        void requestWakeLock()
      } catch (error) {
        update({ status: 'idle', error: error instanceof Error ? error : new Error(String(error)) })
        throw error
      } finally {
        starting = null
      }
    })()
    return starting
  }

  async function stop(): Promise<void> {
    if (starting) await starting.catch(() => {})
    const graph = current
    if (!graph) return
    current = null
    fading.add(graph)
    update({ status: 'stopping' })
    updateMediaSession('paused')
    releaseWakeLock()
    await settled(graph)
    fading.delete(graph)
    // A new session may have started during the fade; only a silent player lets go.
    if (current || starting || fading.size > 0) return
    backingElement?.pause()
    outputElement?.pause()
    update({ status: 'idle' })
    // Suspending a silent context saves battery; play() resumes it.
    await context?.suspend().catch(() => {})
  }

  async function settled(graph: HarmonizeGraph) {
    // The graph resolves when its sources have ended on the audio clock; if the system froze
    // the context meanwhile (an iOS interruption), do not wait for ever.
    await Promise.race([graph.stop(), delay((FADE_OUT_SECONDS + STOP_GRACE_SECONDS) * 1000)])
    graph.disconnect()
  }

  function updateMediaSession(playbackState: MediaSessionPlaybackState) {
    if (releasing || !('mediaSession' in navigator)) return
    const session = navigator.mediaSession
    try {
      if (typeof MediaMetadata === 'function') {
        session.metadata = new MediaMetadata({
          title: options.title,
          artist: 'Harmonize',
          artwork: options.artwork ?? [],
        })
      }
      session.playbackState = playbackState
    } catch {
      // Lock-screen details are a nicety.
    }
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => void play().catch(() => {})],
      ['pause', () => void stop()],
      ['stop', () => void stop()],
    ]
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler)
      } catch {
        // This browser does not know the action.
      }
    }
  }

  function clearMediaSession() {
    if (!('mediaSession' in navigator)) return
    const session = navigator.mediaSession
    for (const action of ['play', 'pause', 'stop'] as const) {
      try {
        session.setActionHandler(action, null)
      } catch {
        // Unknown action: nothing was set.
      }
    }
    session.metadata = null
    session.playbackState = 'none'
  }

  async function requestWakeLock() {
    if (wakeLock || !('wakeLock' in navigator) || document.visibilityState !== 'visible') return
    try {
      const sentinel = await navigator.wakeLock.request('screen')
      // The session may have stopped while the request was pending.
      if (state.status !== 'playing') {
        void sentinel.release()
        return
      }
      wakeLock = sentinel
      sentinel.addEventListener('release', () => {
        if (wakeLock === sentinel) wakeLock = null
      })
    } catch {
      // Refused (battery saver, no permission): the screen may dim, the sound goes on.
    }
  }

  function releaseWakeLock() {
    const sentinel = wakeLock
    wakeLock = null
    if (sentinel) void sentinel.release().catch(() => {})
  }

  async function dispose() {
    if (watchingVisibility) {
      document.removeEventListener('visibilitychange', onVisibilityChange)
      watchingVisibility = false
    }
    if (!context) return
    releasing = true
    try {
      // The lock screen lets go at once; the sound still fades out rather than cutting off.
      clearMediaSession()
      await stop()
      await Promise.all([...fading].map(settled))
      releaseWakeLock()
      if (backingElement) {
        // Stop any download; the element is tied to this context, so a later play() makes a
        // new one.
        backingElement.pause()
        backingElement.removeAttribute('src')
        backingElement.load()
        backingElement = null
        backingSource = null
      }
      if (outputElement) {
        outputElement.pause()
        outputElement.srcObject = null
        outputElement = null
      }
      const closing = context
      context = null
      bus = null
      await closing.close().catch(() => {})
    } finally {
      releasing = false
    }
  }

  return {
    play,
    stop,
    setVolume(layer, value) {
      volumes[layer] = value
      current?.setVolume(layer, value)
    },
    setBinaural(on) {
      binaural = on
      current?.setBinaural(on)
    },
    get isReady() {
      return state.ready
    },
    get isPlaying() {
      return state.status === 'playing'
    },
    getState() {
      return state
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose,
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Safari 17+: declare the sound as media playback, so it plays with the ring switch on silent
 * and keeps playing when the screen locks. Other browsers have no audioSession.
 */
function setAudioSessionType() {
  const audioSession = (navigator as Navigator & { audioSession?: { type: string } }).audioSession
  if (!audioSession) return
  try {
    audioSession.type = 'playback'
  } catch {
    // An unknown type throws in some versions; the default still plays.
  }
}
