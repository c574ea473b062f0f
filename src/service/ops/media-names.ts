import { unguessable } from './unguessable'

/**
 * Names of media in the media store, and the types they are served with. Job audio is
 * `<32 characters>.wav`; a transcription's source keeps the kind of file it was (from its
 * file name or URL), so `/media/` serves it with a type a browser can play, or `.media`
 * (application/octet-stream) when the kind is unknown: the decoder reads the content, not the name.
 */
export const MEDIA_CONTENT_TYPES: Readonly<Record<string, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
  amr: 'audio/amr',
  '3gp': 'video/3gpp',
  media: 'application/octet-stream',
}

export const MEDIA_NAME = new RegExp(`^[A-Za-z0-9_-]{32}\\.(?:${Object.keys(MEDIA_CONTENT_TYPES).join('|')})$`)

export function mediaContentType(name: string): string {
  return MEDIA_CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
}

/** A new unguessable name for source media, keeping the extension of `fileName` (a file name or a URL's path) when it is a known kind. */
export function sourceMediaName(fileName: string | undefined): string {
  const extension = /\.([A-Za-z0-9]{2,4})$/.exec(fileName ?? '')?.[1]?.toLowerCase()
  return `${unguessable()}.${extension && extension !== 'media' && Object.hasOwn(MEDIA_CONTENT_TYPES, extension) ? extension : 'media'}`
}
