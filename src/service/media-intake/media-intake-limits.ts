/** How much media the service takes in, and how long it waits for it (RuntimeConfig.mediaIntake; docs/api.md, "Media intake"). */
export interface MediaIntakeLimits {
  /** The largest upload (the `file` part of a multipart request), in bytes. */
  maxUploadBytes: number
  /** An upload that sends no byte for this long is refused (408). */
  uploadIdleTimeoutMs: number
  /** The least pace of an upload, in bytes per second over each `uploadRateWindowMs` (a drip is never idle). */
  minUploadBytesPerSecond: number
  uploadRateWindowMs: number
  /** An upload still arriving after this long is refused, however steadily it moves. */
  uploadDeadlineMs: number
  /** The largest media fetched from a URL, in bytes. */
  maxFetchBytes: number
  /** A remote server silent this long (connecting, answering, or mid-body) ends the fetch. */
  fetchTimeoutMs: number
  /** A fetch still running after this long ends, however steadily it moves. */
  fetchDeadlineMs: number
  /** The least pace of a fetched body, in bytes per second over each `fetchRateWindowMs` (0: none). */
  minFetchBytesPerSecond: number
  fetchRateWindowMs: number
  /** Redirects followed from a media URL before it is refused. */
  maxRedirects: number
}

export const DEFAULT_MEDIA_INTAKE_LIMITS: MediaIntakeLimits = {
  // Two hours of video at a common bitrate.
  maxUploadBytes: 2 * 1024 ** 3,
  // A slow client holds a socket and a half-written file: one silent for 30 s, or slower than
  // 4 KiB/s over 30 s, or still sending after an hour (2 GiB at 600 KB/s), is sent away.
  uploadIdleTimeoutMs: 30_000,
  minUploadBytesPerSecond: 4 * 1024,
  uploadRateWindowMs: 30_000,
  uploadDeadlineMs: 60 * 60_000,
  maxFetchBytes: 2 * 1024 ** 3,
  fetchTimeoutMs: 30_000,
  // A transcription's fetch holds one of the media lane's slots: a server that is slow on purpose
  // (a drip of a byte every few seconds is never silent) gives it back after 30 s, any after 10 minutes.
  fetchDeadlineMs: 10 * 60_000,
  minFetchBytesPerSecond: 4 * 1024,
  fetchRateWindowMs: 30_000,
  maxRedirects: 5,
}
