import type { KeyIdentity } from '../../store/records'
import type { TranscriptionLinkFields } from '../../shared/api/jobs'
import type { OneUseLinks } from './one-use-links'

/** What each of the operator UI's one-use links carries. */
export interface OperatorLinkKinds extends Record<string, unknown> {
  export: { caller: KeyIdentity; passphrase?: string }
  import: { caller: KeyIdentity; passphrase?: string }
  transcribe: { caller: KeyIdentity; fields: TranscriptionLinkFields }
}

/** The operator UI's one-use links (state.exportLink, state.importLink, jobs.transcriptionUploadLink). */
export type OperatorLinks = OneUseLinks<OperatorLinkKinds>
