import { useState } from 'react'
import { AI_PARTS, type AiPart } from '../../../../shared/api/ai-parts'
import { TEXT_JOB_TYPES, type AiContentJob, type Job, type JobType } from '../../../../shared/api/jobs'
import type { MessageKey } from '../../i18n/dictionary'
import type { JobErrorCode } from '../../../../shared/api/job-error-codes'
import { useT } from '../../i18n/use-t'
import { pluralKey } from '../../i18n/plural'
import { errorText } from '../../lib/readable-errors'
import { formatCost, formatCount, formatDateTime } from '../../lib/format'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectJobDetail, selectLocale } from '../../store/selectors'
import { CopyButton } from '../../ui/copy-button'
import { Icon } from '../../ui/icon'
import { DialogActions, ModalDialog } from '../../ui/modal-dialog'
import { Check } from '../../ui/field'
import { LoadError } from '../../ui/load-error'
import { StatusBadge } from '../../ui/status-badge'
import { ConversationSection } from './conversation-section'
import { JobDeliveries } from './job-deliveries'
import { TranscriptSection } from './transcript-section'
import { useJobCreation } from './use-job-creation'

/** The types this VoiceDesk runs itself, so it can run a failed one again (jobs.retry). */
const RETRYABLE_TYPES: readonly JobType[] = ['TTS', 'AI_CONTENT', 'TRANSCRIPTION', 'TRANSLATION']

/** Jobs whose result is a transcript: shown as timed lines, with their media, subtitles and translations. */
const TRANSCRIPT_TYPES: readonly JobType[] = ['TRANSCRIPTION', 'TRANSLATION']

const partKey = (part: AiPart) => `part.${part}` as MessageKey

/** Where a TTS job's audio plays from. */
export function audioUrlOf(job: Job): string | null {
  const file = job.jobResponse?.ttsMediaFile
  return job.mediaUrl ?? (typeof file === 'string' ? file : null)
}

/** The open job: status, error, audio, AI content and webhook deliveries; and what can be made from it. */
export function JobDetailPanel() {
  const t = useT()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const detail = useAppStore(selectJobDetail)
  const [makingAi, setMakingAi] = useState(false)
  if (!detail) return null
  const { job } = detail
  const canRetry = job !== null && job.status === 'FAILED' && RETRYABLE_TYPES.includes(job.type)
  const canMakeAi = job !== null && job.status === 'COMPLETED' && TEXT_JOB_TYPES.includes(job.type)
  const audioUrl = job && job.type === 'TTS' ? audioUrlOf(job) : null
  const isTranscript = job !== null && TRANSCRIPT_TYPES.includes(job.type)
  // A transcript shows its text as timed lines (TranscriptSection), never as one block of two hours.
  const text = !isTranscript && job?.jobResponse && typeof job.jobResponse.text === 'string' ? job.jobResponse.text : null

  return (
    <aside className={`detail-pane job-detail ${isTranscript ? 'wide' : ''}`} aria-labelledby="job-detail-title">
      <header className="pane-header">
        <h2 id="job-detail-title" dir="auto">
          {job?.title ?? (detail.error ? t('jobs.detailFailed') : t('common.loading'))}
        </h2>
        <button
          type="button"
          className="button icon-button ghost"
          aria-label={t('jobs.closeDetail')}
          onClick={() => store.getState().selectJob(null)}
        >
          <Icon name="x" size={16} />
        </button>
      </header>
      {detail.error ? (
        <LoadError error={detail.error} failed={t('jobs.detailFailed')} onRetry={() => void store.getState().reloadJobDetail()} />
      ) : null}
      {job ? (
        <>
          <dl className="facts">
            <dt>{t('jobs.status')}</dt>
            <dd>
              <span data-testid="job-detail-status">
                <StatusBadge status={job.status} />
              </span>
            </dd>
            <dt>{t('jobs.type')}</dt>
            <dd>{t(`jobType.${job.type}` as MessageKey)}</dd>
            <dt>{t('jobs.id')}</dt>
            <dd className="with-copy">
              <code dir="ltr" className="small">
                {job.id}
              </code>
              <CopyButton text={job.id} label={t('jobs.id')} compact />
            </dd>
            <dt>{t('jobs.colCost')}</dt>
            <dd>{formatCost(job.totalCost, locale)}</dd>
            {job.usageTime ? (
              <>
                <dt>{t('jobs.duration')}</dt>
                <dd>{t('jobs.seconds', { n: job.usageTime })}</dd>
              </>
            ) : null}
            <dt>{t('common.created')}</dt>
            <dd>{formatDateTime(job.createdAt, locale)}</dd>
            <dt>{t('common.updated')}</dt>
            <dd>{formatDateTime(job.updatedAt, locale)}</dd>
            {job.relevantJobId ? (
              <>
                <dt>{t('jobs.source')}</dt>
                <dd>
                  <button type="button" className="link-button" onClick={() => store.getState().selectJob(job.relevantJobId)}>
                    <code dir="ltr">{job.relevantJobId}</code>
                  </button>
                </dd>
              </>
            ) : null}
          </dl>
          {job.error ? <JobErrorBox error={job.error} /> : null}
          {canRetry ? <RetryJob jobId={job.id} /> : null}
          {text !== null ? (
            <section className="detail-section" aria-labelledby="job-text">
              <h3 id="job-text">{t('jobs.text')}</h3>
              <p className="quote" dir="auto">
                {text}
              </p>
            </section>
          ) : null}
          {job.type === 'TTS' ? (
            <section className="detail-section" aria-labelledby="job-audio">
              <h3 id="job-audio">{t('jobs.audio')}</h3>
              {job.status === 'COMPLETED' && audioUrl ? (
                <audio
                  key={audioUrl}
                  controls
                  preload="metadata"
                  src={audioUrl}
                  aria-label={t('jobs.audioOf', { title: job.title })}
                  className="job-audio"
                />
              ) : (
                <p className="muted">{job.status === 'FAILED' ? t('jobs.noAudio') : t('jobs.audioPending')}</p>
              )}
              {detail.previewUrl && job.status === 'COMPLETED' ? (
                <a className="link" href={detail.previewUrl} target="_blank" rel="noreferrer">
                  {t('jobs.openPreview')}
                </a>
              ) : null}
            </section>
          ) : null}
          {job.type === 'CONVERSATION' ? <ConversationSection job={job} /> : null}
          {isTranscript ? (
            <TranscriptSection key={job.id} job={job} source={detail.source} playableMediaUrl={detail.playableMediaUrl} />
          ) : null}
          {job.type === 'AI_CONTENT' || detail.aiContent || canMakeAi ? (
            <AiContentSection
              ai={detail.aiContent}
              isAiJob={job.type === 'AI_CONTENT'}
              canMake={canMakeAi}
              onMake={() => setMakingAi(true)}
            />
          ) : null}
          <JobDeliveries job={job} detail={detail} />
          <MakeAiContentDialog open={makingAi} sourceJobId={job.id} onClose={() => setMakingAi(false)} />
        </>
      ) : null}
    </aside>
  )
}

/** "Retry": a copy of the failed job is queued and opened; this one stays as it is. */
function RetryJob({ jobId }: { jobId: string }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const call = useCall()
  const store = useStoreApi()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const retry = async () => {
    setBusy(true)
    setError(null)
    try {
      const job = await call('jobs.retry', { jobId })
      store.getState().toast('success', t('jobs.retried'))
      store.getState().refreshJobs()
      store.getState().selectJob(job.id)
    } catch (caught) {
      setError(errorText(caught, locale))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="retry-job">
      <button type="button" className="button" disabled={busy} aria-describedby="job-retry-hint" onClick={() => void retry()}>
        <span>{t('jobs.retry')}</span>
      </button>
      <p id="job-retry-hint" className="small muted">
        {t('jobs.retryHint')}
      </p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

function AiContentSection({
  ai,
  isAiJob,
  canMake,
  onMake,
}: {
  ai: AiContentJob | null
  isAiJob: boolean
  canMake: boolean
  onMake(): void
}) {
  const t = useT()
  const store = useStoreApi()
  // Each part the job answered, with its text (a part not asked for is absent).
  const parts = AI_PARTS.flatMap((part) => {
    const text = ai?.jobResponse?.[part]
    return typeof text === 'string' ? [{ part, text }] : []
  })
  return (
    <section className="detail-section" aria-labelledby="job-ai">
      <header className="section-header">
        <h3 id="job-ai">{t('jobs.aiContent')}</h3>
        {canMake ? (
          <button type="button" className="button" onClick={onMake}>
            <Icon name="plus" size={14} />
            <span>{t('jobs.makeAi')}</span>
          </button>
        ) : null}
      </header>
      {ai && !isAiJob ? (
        <p className="small muted">
          {t('jobs.aiNewest')}{' '}
          <button type="button" className="link-button" onClick={() => store.getState().selectJob(ai.id)}>
            {t('jobs.openAiJob')}
          </button>
        </p>
      ) : null}
      {ai === null ? <p className="muted">{t('jobs.aiNone')}</p> : null}
      {ai && ai.status === 'PENDING' ? <p className="muted">{t('jobs.aiPending')}</p> : null}
      {ai && ai.status === 'FAILED' && ai.error ? <JobErrorBox error={ai.error} /> : null}
      {parts.map(({ part, text }) => (
        <article key={part} className="ai-part" aria-labelledby={`part-${part}`}>
          <header className="section-header">
            <h4 id={`part-${part}`}>{t(partKey(part))}</h4>
            <CopyButton text={text} label={t(partKey(part))} compact />
          </header>
          <div className="ai-part-text" dir="auto">
            {text}
          </div>
        </article>
      ))}
    </section>
  )
}

function MakeAiContentDialog({ open, sourceJobId, onClose }: { open: boolean; sourceJobId: string; onClose(): void }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const call = useCall()
  const [parts, setParts] = useState<AiPart[]>(['summary', 'titles', 'keywords'])
  const { busy, error, create: createJob } = useJobCreation()
  const toggle = (part: AiPart, on: boolean) =>
    setParts((current) =>
      on
        ? AI_PARTS.filter((candidate) => candidate === part || current.includes(candidate))
        : current.filter((candidate) => candidate !== part),
    )

  const create = () => createJob(() => call('jobs.createAiContent', { sourceJobId, aiParts: parts }), t('jobs.aiCreated'), onClose)

  return (
    <ModalDialog
      open={open}
      title={t('jobs.makeAiTitle')}
      onClose={onClose}
      actions={
        <DialogActions
          onCancel={onClose}
          label={t(pluralKey(locale, parts.length, { one: 'jobs.makeAiButtonOne', other: 'jobs.makeAiButton' }), {
            n: formatCount(parts.length, locale),
          })}
          onConfirm={() => void create()}
          disabled={busy || parts.length === 0}
        />
      }
    >
      <fieldset className="fieldset parts-grid">
        <legend>{t('jobs.pickParts')}</legend>
        {AI_PARTS.map((part) => (
          <Check key={part} label={t(partKey(part))} checked={parts.includes(part)} onChange={(checked) => toggle(part, checked)} />
        ))}
      </fieldset>
      <div className="toolbar">
        <button type="button" className="button ghost" onClick={() => setParts([...AI_PARTS])}>
          {t('jobs.allParts')}
        </button>
        <button type="button" className="button ghost" onClick={() => setParts([])}>
          {t('jobs.noParts')}
        </button>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </ModalDialog>
  )
}

/**
 * Why a job FAILED: what its code means, in the UI's language, then the service's own words
 * (an engine's message, in English: marked so) and the code as data.
 */
function JobErrorBox({ error }: { error: { code: JobErrorCode; message: string } }) {
  const t = useT()
  return (
    <div className="error-box" role="alert" data-testid="job-error">
      <strong>{t(`jobError.${error.code}`)}</strong>
      <div className="small">
        <code dir="ltr">{error.code}</code>{' '}
        <span lang="en" dir="auto">
          {error.message}
        </span>
      </div>
    </div>
  )
}
