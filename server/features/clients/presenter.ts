import type { clientPhotos, clientRecords } from '../../../db/schema/clients'
import {
  type ClientPhoto,
  type ClientRecord,
  type ClientSummary,
  clientPhotoUrl,
} from '../../../domain/clients'

// What leaves the server of a client record: ISO times, the photo as the owner's URL, never the
// storage key or the aura rotation.

type RecordRow = typeof clientRecords.$inferSelect
type PhotoRow = typeof clientPhotos.$inferSelect

export function presentPhoto(photo: Pick<PhotoRow, 'number' | 'createdAt'>): ClientPhoto {
  return {
    number: photo.number,
    url: clientPhotoUrl(photo.number),
    createdAt: photo.createdAt.toISOString(),
  }
}

export function presentClient(
  record: RecordRow,
  photo: Pick<PhotoRow, 'number' | 'createdAt'> | null,
): ClientRecord {
  return {
    id: record.id,
    firstName: record.firstName,
    lastName: record.lastName,
    email: record.email,
    phone: record.phone,
    birthDate: record.birthDate,
    affirmation: record.affirmation,
    photo: photo ? presentPhoto(photo) : null,
    consentAt: record.consentAt.toISOString(),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  }
}

export function presentSummary(
  record: Pick<RecordRow, 'id' | 'firstName' | 'lastName' | 'photoNumber'>,
): ClientSummary {
  return {
    id: record.id,
    firstName: record.firstName,
    lastName: record.lastName,
    photoUrl: record.photoNumber ? clientPhotoUrl(record.photoNumber) : null,
  }
}
