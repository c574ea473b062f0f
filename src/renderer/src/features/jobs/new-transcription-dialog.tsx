import { useRef, useState } from 'react'
import type { Job } from '../../../../shared/api/jobs'
import { OperatorError } from '../../api/operator-error'
import { useT } from '../../i18n/use-t'
import { useCall } from '../../store/app-context'
import { Check, FileField, SelectField, TextField } from '../../ui/field'
import { DialogActions, ModalDialog } from '../../ui/modal-dialog'
import { ProgressBar } from '../../ui/progress-bar'
import { useJobCreation } from './use-job-creation'
import { SubmitForm } from '../../ui/submit-form'

type Source = 'file' | 'url'
type SpokenLanguage = 'auto' | 'ar' | 'en'

/** Thrown when the operator stopped the upload: said in the dialog's own words, not as an error of the service. */
class UploadCanceled extends Error {}

/**
 * POSTs `file` to a one-use transcription link as multipart/form-data, reporting upload
 * progress; answers the job, or throws the service's refusal as an OperatorError (413, ...).
 */
function uploadMedia(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
  started: (request: XMLHttpRequest) => void,
): Promise<Job> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', url)
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total)
    request.onload = () => {
      let envelope: {
        success?: boolean
        data?: Job
        message?: string
        error?: { code: OperatorError['code']; details?: OperatorError['details'] }
      }
      try {
        envelope = JSON.parse(request.responseText) as typeof envelope
      } catch {
        return reject(new OperatorError({ code: 'INTERNAL', message: `The upload was answered HTTP ${request.status}` }))
      }
      if (request.status < 300 && envelope.success && envelope.data) return resolve(envelope.data)
      reject(
        new OperatorError({
          code: envelope.error?.code ?? 'INTERNAL',
          message: envelope.message ?? `HTTP ${request.status}`,
          details: envelope.error?.details,
        }),
      )
    }
    request.onerror = () =>
      reject(new OperatorError({ code: 'INTERNAL', message: 'Cannot reach the VoiceDesk service: the upload broke off' }))
    request.onabort = () => reject(new UploadCanceled())
    const form = new FormData()
    form.append('file', file, file.name)
    started(request)
    request.send(form)
  })
}

/**
 * A transcription job: a file from this computer (uploaded with its progress, cancellable) or
 * a URL, with an optional title and the spoken language. The new job opens in the monitor.
 */
export function NewTranscriptionDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const t = useT()
  const call = useCall()
  const { busy, error, setError, create } = useJobCreation()
  const [source, setSource] = useState<Source>('file')
  const [file, setFile] = useState<File | null>(null)
  const [mediaUrl, setMediaUrl] = useState('')
  const [title, setTitle] = useState('')
  const [language, setLanguage] = useState<SpokenLanguage>('auto')
  const [progress, setProgress] = useState<number | null>(null)
  const upload = useRef<XMLHttpRequest | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)

  const reset = () => {
    setFile(null)
    setMediaUrl('')
    setTitle('')
    setLanguage('auto')
    setProgress(null)
    setError(null)
  }
  const close = () => {
    upload.current?.abort()
    onClose()
  }

  const fields = () => ({ title: title.trim() || undefined, language: language === 'auto' ? undefined : language })
  const start = async () => {
    // The file to send; null when the media is a URL.
    const toUpload = source === 'file' ? file : null
    if (source === 'file' && !toUpload) {
      setError(t('jobs.chooseFileFirst'))
      fileInput.current?.focus()
      return
    }
    let canceled = false
    const make = async (): Promise<Job> => {
      if (toUpload === null) return call('jobs.createTranscription', { mediaUrl: mediaUrl.trim(), ...fields() })
      const { url } = await call('jobs.transcriptionUploadLink', fields())
      setProgress(0)
      try {
        return await uploadMedia(url, toUpload, setProgress, (request) => (upload.current = request))
      } catch (caught) {
        canceled = caught instanceof UploadCanceled
        throw caught
      } finally {
        upload.current = null
        setProgress(null)
      }
    }
    await create(make, t('jobs.transcriptionCreated'), () => (reset(), onClose()))
    if (canceled) setError(t('jobs.uploadCanceled'))
  }

  return (
    <ModalDialog
      open={open}
      title={t('jobs.newTranscriptionTitle')}
      onClose={close}
      actions={
        <DialogActions
          onCancel={close}
          label={t('jobs.startTranscription')}
          form="transcription-form"
          disabled={busy || (source === 'url' && mediaUrl.trim() === '')}
        />
      }
    >
      <SubmitForm id="transcription-form" className="stack" noValidate onSubmit={() => void start()}>
        <fieldset className="fieldset" disabled={busy}>
          <legend>{t('jobs.transcriptionSource')}</legend>
          {(['file', 'url'] as const).map((choice) => (
            <Check
              key={choice}
              label={t(choice === 'file' ? 'jobs.sourceFile' : 'jobs.sourceUrl')}
              checked={source === choice}
              radio={{ name: 'transcription-source', value: choice }}
              onChange={() => (setSource(choice), setError(null))}
            />
          ))}
        </fieldset>
        {source === 'file' ? (
          <FileField
            label={t('jobs.mediaFile')}
            accept="audio/*,video/*"
            disabled={busy}
            inputRef={fileInput}
            onChange={(file) => (setFile(file), setError(null))}
          />
        ) : (
          <TextField
            label={t('jobs.mediaUrl')}
            dir="ltr"
            type="url"
            value={mediaUrl}
            disabled={busy}
            placeholder="https://example.com/call.mp3"
            onChange={(value) => (setMediaUrl(value), setError(null))}
          />
        )}
        <TextField label={t('jobs.titleOptional')} maxLength={200} value={title} disabled={busy} onChange={setTitle} />
        <SelectField
          label={t('jobs.spokenLanguage')}
          value={language}
          disabled={busy}
          onChange={(value) => setLanguage(value as SpokenLanguage)}
        >
          <option value="auto">{t('jobs.languageAuto')}</option>
          <option value="ar">{t('lang.ar')}</option>
          <option value="en">{t('lang.en')}</option>
        </SelectField>
        {progress !== null ? (
          <div className="inline-form">
            <ProgressBar fraction={progress} label={t('jobs.uploading')} />
            <button type="button" className="button" onClick={() => upload.current?.abort()}>
              {t('jobs.cancelUpload')}
            </button>
          </div>
        ) : null}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </SubmitForm>
    </ModalDialog>
  )
}
