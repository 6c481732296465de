import Camera from 'lucide-react/icons/camera'
import CameraOff from 'lucide-react/icons/camera-off'
import Check from 'lucide-react/icons/check'
import ImageUp from 'lucide-react/icons/image-up'
import ScanFace from 'lucide-react/icons/scan-face'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ClientPhoto } from '../../../../domain/clients'
import { IMAGE_MAX_BYTES } from '../../../../domain/images'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { readServerError } from '../../../lib/form-mutation'
import { uploadClientPhoto } from '../api'

/** Spec scans §9: the scan takes 6 seconds. */
export const SCAN_MS = 6000
const CAPTURE_QUALITY = 0.92

type CameraState = 'off' | 'starting' | 'on'

/** Why the camera did not start, in words that say what to do about it. */
function cameraProblem(error: unknown): 'cameraDenied' | 'cameraMissing' | 'cameraFailed' {
  const name = error instanceof DOMException ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'cameraDenied'
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'cameraMissing'
  return 'cameraFailed'
}

/**
 * 'Analyze Client Image' (spec scans §2 User details): a photo from a file or the camera, stored
 * on the server as soon as it is chosen (so a refusal shows here), then 'Scan': 6 seconds, then
 * 'Energy Scan Complete'. `onPhoto` gets each stored photo.
 */
export function PhotoDialog({
  open,
  onOpenChange,
  photo,
  onPhoto,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  photo: ClientPhoto | null
  onPhoto: (photo: ClientPhoto) => void
}) {
  const { t } = useTranslation()
  const [camera, setCamera] = useState<CameraState>('off')
  const [problem, setProblem] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const [scan, setScan] = useState<'idle' | 'scanning' | 'done'>('idle')
  const video = useRef<HTMLVideoElement>(null)
  const stream = useRef<MediaStream | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)

  const stopCamera = useCallback(() => {
    for (const track of stream.current?.getTracks() ?? []) track.stop()
    stream.current = null
    setCamera('off')
  }, [])

  // The camera never stays on behind a closed dialog or a page that went away.
  useEffect(() => {
    if (!open) {
      stopCamera()
      setScan('idle')
      setProblem(null)
    }
  }, [open, stopCamera])
  useEffect(() => stopCamera, [stopCamera])

  useEffect(() => {
    if (scan !== 'scanning') return
    const timer = setTimeout(() => setScan('done'), SCAN_MS)
    return () => clearTimeout(timer)
  }, [scan])

  const store = async (file: Blob) => {
    setProblem(null)
    if (file.size > IMAGE_MAX_BYTES) {
      setProblem(t('clients.photoDialog.tooLarge'))
      return
    }
    setUploading(true)
    try {
      onPhoto(await uploadClientPhoto(file))
      setScan('idle')
    } catch (error) {
      setProblem(readServerError(error, t('common.networkError')).message)
    } finally {
      setUploading(false)
    }
  }

  const openCamera = async () => {
    setProblem(null)
    if (!navigator.mediaDevices?.getUserMedia) {
      setProblem(t('clients.photoDialog.cameraMissing'))
      return
    }
    setCamera('starting')
    try {
      const opened = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 960 } },
        audio: false,
      })
      stream.current = opened
      setCamera('on')
      if (video.current) {
        video.current.srcObject = opened
        await video.current.play().catch(() => {})
      }
    } catch (error) {
      setCamera('off')
      setProblem(t(`clients.photoDialog.${cameraProblem(error)}`))
    }
  }

  // The stream may arrive before the video element is on screen.
  useEffect(() => {
    if (camera === 'on' && video.current && stream.current) {
      video.current.srcObject = stream.current
      void video.current.play().catch(() => {})
    }
  }, [camera])

  const capture = () => {
    const source = video.current
    if (!source?.videoWidth) return
    const canvas = document.createElement('canvas')
    canvas.width = source.videoWidth
    canvas.height = source.videoHeight
    canvas.getContext('2d')?.drawImage(source, 0, 0)
    canvas.toBlob(
      (blob) => {
        if (!blob) return
        stopCamera()
        void store(blob)
      },
      'image/jpeg',
      CAPTURE_QUALITY,
    )
  }

  const busy = uploading || scan === 'scanning'
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('clients.photoDialog.title')}>
      <div className="flex flex-col gap-4">
        <div className="relative mx-auto flex aspect-[3/4] w-full max-w-xs items-center justify-center overflow-hidden rounded-2xl bg-slate-100 ring-1 ring-slate-200">
          {camera !== 'off' ? (
            <video
              ref={video}
              aria-label={t('clients.photoDialog.cameraLabel')}
              muted
              playsInline
              className="size-full -scale-x-100 object-cover"
              data-testid="camera-preview"
            />
          ) : photo ? (
            <img
              src={photo.url}
              alt={t('clients.photoDialog.preview')}
              className="size-full object-cover"
              data-testid="photo-preview"
            />
          ) : (
            <ScanFace aria-hidden className="size-16 text-slate-400" />
          )}
          {scan === 'scanning' && (
            <div className="absolute inset-x-0 top-0 h-1 animate-pulse bg-brand-500" aria-hidden />
          )}
        </div>

        {problem && (
          <p
            role="alert"
            className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200"
          >
            {problem}
          </p>
        )}
        {uploading && (
          <p role="status" className="text-sm text-slate-600">
            {t('clients.photoDialog.uploading')}
          </p>
        )}
        {scan === 'scanning' && (
          <div role="status" className="flex flex-col gap-2 text-sm text-slate-700">
            {t('clients.photoDialog.scanning')}
            <progress
              className="w-full accent-brand-600"
              aria-label={t('clients.photoDialog.scanning')}
            />
          </div>
        )}
        {scan === 'done' && (
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg bg-emerald-50 px-3 py-2 font-medium text-emerald-900 ring-1 ring-emerald-200"
          >
            <Check aria-hidden className="size-5" />
            {t('clients.photoDialog.complete')}
          </p>
        )}

        <input
          ref={fileInput}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-hidden
          data-testid="photo-file"
          onChange={(event) => {
            const file = event.target.files?.[0]
            event.target.value = ''
            if (file) void store(file)
          }}
        />
        <div className="grid grid-cols-2 gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => fileInput.current?.click()}>
            <ImageUp aria-hidden className="size-4" />
            {t('clients.photoDialog.choose')}
          </Button>
          {camera === 'off' ? (
            <Button variant="secondary" disabled={busy} onClick={() => void openCamera()}>
              <Camera aria-hidden className="size-4" />
              {t('clients.photoDialog.openCamera')}
            </Button>
          ) : (
            <Button variant="secondary" onClick={stopCamera}>
              <CameraOff aria-hidden className="size-4" />
              {t('clients.photoDialog.closeCamera')}
            </Button>
          )}
          {camera !== 'off' && (
            <Button
              disabled={camera !== 'on' || uploading}
              onClick={capture}
              className="col-span-2"
            >
              <Camera aria-hidden className="size-4" />
              {t('clients.photoDialog.capture')}
            </Button>
          )}
          <Button disabled={!photo || busy || camera !== 'off'} onClick={() => setScan('scanning')}>
            <ScanFace aria-hidden className="size-4" />
            {t('clients.photoDialog.scan')}
          </Button>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('clients.photoDialog.close')}
          </Button>
        </div>
      </div>
    </Dialog>
  )
}
