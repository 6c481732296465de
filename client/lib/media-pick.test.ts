import { describe, expect, it } from 'vitest'
import type { MediaItem } from '../../domain/harmonize'
import { pickSavedMedia } from './media-pick'

const item = (key: string, kind: MediaItem['kind'], panelId: string | null): MediaItem => ({
  key,
  kind,
  panelId,
  url: `/api/media/${key}?expires=1&signature=x`,
  size: 100,
  contentType: kind === 'video' ? 'video/webm' : 'audio/wav',
})

const shared = item('medias/WH_BackingTrack-shared.wav', 'backing', null)
const own = item('medias/WH_BackingTrack-sleep.wav', 'backing', '03')
const other = item('medias/WH_BackingTrack-love.wav', 'backing', '07')
const sleepClip = item('medias/sleep.webm', 'video', '03')
const sharedClip = item('medias/waves.webm', 'video', null)
const loveClip = item('medias/love.webm', 'video', '07')
const all = [shared, own, other, sleepClip, sharedClip, loveClip]
const keys = (...items: MediaItem[]) => new Set(items.map((media) => media.key))

describe('pickSavedMedia (what an offline session plays)', () => {
  it("takes the panel's own saved backing track before a shared one, never another panel's", () => {
    expect(pickSavedMedia(all, '03', keys(shared, own, other)).backing).toBe(own)
    expect(pickSavedMedia(all, '03', keys(shared, other)).backing).toBe(shared)
    expect(pickSavedMedia(all, '03', keys(other)).backing).toBeNull()
  })

  it('picks among the saved videos of the panel and the shared ones, at random', () => {
    const saved = keys(sleepClip, sharedClip, loveClip)
    expect(pickSavedMedia(all, '03', saved, () => 0).video).toBe(sleepClip)
    expect(pickSavedMedia(all, '03', saved, () => 0.99).video).toBe(sharedClip)
    expect(pickSavedMedia(all, '07', keys(sleepClip), () => 0).video).toBeNull()
  })

  it('plays nothing that is not saved: with nothing saved the session stays generative', () => {
    const picked = pickSavedMedia(all, '03', new Set())
    expect(picked).toEqual({ video: null, backing: null, all })
  })

  it('a file without the backing-track marker is never the backing track', () => {
    const unmarked = item('medias/calm.wav', 'backing', '03')
    expect(pickSavedMedia([unmarked], '03', keys(unmarked)).backing).toBeNull()
  })
})
