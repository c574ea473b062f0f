import { useVirtualizer } from '@tanstack/react-virtual'
import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { Job } from '../../../../shared/api/jobs'
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../../../../shared/api/translation-jobs'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { pluralKey } from '../../i18n/plural'
import { formatClock, formatCount } from '../../lib/format'
import { errorText } from '../../lib/readable-errors'
import {
  lineIndexAt,
  otherLanguage,
  subtitleFileName,
  transcriptViewOf,
  type TranscriptLine,
  type TranscriptView,
} from '../../lib/transcript-view'
import { useAppStore, useCall } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { CopyButton } from '../../ui/copy-button'
import { Icon } from '../../ui/icon'
import { Check } from '../../ui/field'
import { DialogActions, ModalDialog } from '../../ui/modal-dialog'
import { ProgressBar } from '../../ui/progress-bar'
import { useJobCreation } from './use-job-creation'

/** A line's height before it is measured (one line of text and its padding). */
const LINE_ESTIMATE = 34

const languageName = (t: ReturnType<typeof useT>, code: string | null) =>
  code === null ? t('transcript.languageUnknown') : code === 'ar' || code === 'en' ? t(`lang.${code}` as MessageKey) : code

/**
 * A transcription or a translation in the jobs monitor. While it runs: how far it got. Once it
 * COMPLETED: its languages and duration, its source media (a click on a line plays from there),
 * the timed lines (a translation's beside its source's), the whole text to copy, subtitles to
 * download and a translation to make.
 */
export function TranscriptSection({ job, source, playableMediaUrl }: { job: Job; source: Job | null; playableMediaUrl: string | null }) {
  const t = useT()
  const view = useMemo(() => transcriptViewOf(job, source), [job, source])
  const audio = useRef<HTMLAudioElement>(null)
  const [position, setPosition] = useState(0)
  const [translating, setTranslating] = useState(false)
  const running = job.status === 'PENDING'
  const headingId = `transcript-${job.id}`

  if (running) {
    return (
      <section className="detail-section transcript-section" aria-labelledby={headingId}>
        <h3 id={headingId}>{t(job.type === 'TRANSLATION' ? 'transcript.translation' : 'transcript.title')}</h3>
        {job.progress !== undefined ? (
          <ProgressBar
            fraction={job.progress}
            label={t(job.type === 'TRANSLATION' ? 'transcript.translating' : 'transcript.transcribing')}
          />
        ) : (
          <p className="muted">{t('transcript.waiting')}</p>
        )}
      </section>
    )
  }
  if (!view) return null

  const canSeek = playableMediaUrl !== null
  const seek = (seconds: number) => {
    const element = audio.current
    if (!element) return
    element.currentTime = seconds
    setPosition(seconds)
    // Autoplay rules may refuse play() without a gesture; the position is set either way.
    void element.play().catch(() => {})
  }

  return (
    <section className="detail-section transcript-section" aria-labelledby={headingId}>
      <header className="section-header">
        <h3 id={headingId}>{t(view.kind === 'translation' ? 'transcript.translation' : 'transcript.title')}</h3>
        <button type="button" className="button" onClick={() => setTranslating(true)}>
          <Icon name="languages" size={14} />
          <span>{t('transcript.translate')}</span>
        </button>
      </header>
      <dl className="facts">
        {view.kind === 'transcription' ? (
          <>
            <dt>{t('transcript.language')}</dt>
            <dd data-testid="transcript-languages">{languageName(t, view.fromLng)}</dd>
          </>
        ) : (
          <>
            <dt>{t('transcript.languages')}</dt>
            <dd data-testid="transcript-languages">
              {t('transcript.fromTo', { from: languageName(t, view.fromLng), to: languageName(t, view.toLng) })}
            </dd>
          </>
        )}
        {view.durationSeconds !== null ? (
          <>
            <dt>{t('jobs.duration')}</dt>
            <dd className="num" data-testid="transcript-duration">
              {formatClock(view.durationSeconds)}
            </dd>
          </>
        ) : null}
      </dl>
      {playableMediaUrl ? (
        <audio
          ref={audio}
          key={playableMediaUrl}
          controls
          preload="metadata"
          src={playableMediaUrl}
          aria-label={t('transcript.mediaOf', { title: job.title })}
          className="job-audio"
          onTimeUpdate={(event) => setPosition(event.currentTarget.currentTime)}
          onSeeked={(event) => setPosition(event.currentTarget.currentTime)}
        />
      ) : view.lines.length > 0 ? (
        <p className="small muted">{t('transcript.noMedia')}</p>
      ) : null}
      <div className="toolbar transcript-tools">
        <CopyButton text={view.text} label={t(view.kind === 'translation' ? 'transcript.translatedText' : 'transcript.fullText')} />
        {view.lines.length > 0 ? <SubtitleDownloads job={job} /> : null}
      </div>
      {view.lines.length > 0 ? (
        <>
          {canSeek ? <p className="small muted">{t('transcript.lineHint')}</p> : null}
          <TranscriptLines view={view} position={position} canSeek={canSeek} onSeek={seek} />
        </>
      ) : (
        <TranscriptTexts view={view} />
      )}
      <TranslateDialog open={translating} jobId={job.id} suggested={otherLanguage(view)} onClose={() => setTranslating(false)} />
    </section>
  )
}

/**
 * The timed lines, as many as there are: only those in view are in the page (a two-hour
 * transcript has about 1,500), in a box that scrolls by itself. Arrow keys go line to line.
 */
function TranscriptLines({
  view,
  position,
  canSeek,
  onSeek,
}: {
  view: TranscriptView
  position: number
  canSeek: boolean
  onSeek(seconds: number): void
}) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const scroller = useRef<HTMLDivElement>(null)
  const { lines } = view
  const bilingual = lines.some((line) => line.source !== undefined)
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_ESTIMATE,
    overscan: 12,
  })
  const current = canSeek ? lineIndexAt(lines, position) : -1

  const onKey = (event: KeyboardEvent<HTMLElement>, index: number) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    event.preventDefault()
    const next = Math.min(lines.length - 1, Math.max(0, index + (event.key === 'ArrowDown' ? 1 : -1)))
    virtualizer.scrollToIndex(next)
    requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-index="${next}"] .transcript-line`)?.focus())
  }

  return (
    <div ref={scroller} className={`transcript-lines ${bilingual ? 'bilingual' : ''}`} data-testid="transcript-lines">
      {bilingual ? (
        <div className="line-columns small muted" aria-hidden="true">
          <span />
          <span>{t('transcript.sourceColumn')}</span>
          <span>{t('transcript.translationColumn')}</span>
        </div>
      ) : null}
      <ol
        className="plain-list"
        aria-label={t(pluralKey(locale, lines.length, { one: 'transcript.linesLabelOne', other: 'transcript.linesLabel' }), {
          n: formatCount(lines.length, locale),
        })}
        style={{ blockSize: virtualizer.getTotalSize(), position: 'relative' }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const line = lines[item.index]
          if (line === undefined) return null // the virtualizer counts lines.length: never past the end
          return (
            <li
              key={item.index}
              data-index={item.index}
              ref={virtualizer.measureElement}
              aria-setsize={lines.length}
              aria-posinset={item.index + 1}
              style={{
                position: 'absolute',
                insetBlockStart: 0,
                insetInlineStart: 0,
                inlineSize: '100%',
                transform: `translateY(${item.start}px)`,
              }}
            >
              <LineContent
                line={line}
                index={item.index}
                current={item.index === current}
                canSeek={canSeek}
                onSeek={onSeek}
                onKey={onKey}
              />
            </li>
          )
        })}
      </ol>
    </div>
  )
}

function LineContent({
  line,
  index,
  current,
  canSeek,
  onSeek,
  onKey,
}: {
  line: TranscriptLine
  index: number
  current: boolean
  canSeek: boolean
  onSeek(seconds: number): void
  onKey(event: KeyboardEvent<HTMLElement>, index: number): void
}) {
  const content = (
    <>
      <span className="tag num line-time">{formatClock(line.start)}</span>
      {line.source !== undefined ? (
        <span className="line-source" dir="auto">
          {line.source}
        </span>
      ) : null}
      <span className="line-text" dir="auto">
        {line.text}
      </span>
    </>
  )
  if (!canSeek) return <div className="transcript-line">{content}</div>
  return (
    <button
      type="button"
      className="transcript-line"
      data-start={line.start}
      aria-current={current ? 'true' : undefined}
      onClick={() => onSeek(line.start)}
      onKeyDown={(event) => onKey(event, index)}
    >
      {content}
    </button>
  )
}

/** A translation without timed lines (of a plain text): the source and the translation, side by side when there is room. */
function TranscriptTexts({ view }: { view: TranscriptView }) {
  const t = useT()
  if (view.kind === 'transcription' || view.sourceText === null) {
    return (
      <p className="quote transcript-text" dir="auto">
        {view.text}
      </p>
    )
  }
  return (
    <div className="transcript-texts">
      <section aria-labelledby="transcript-source-text">
        <header className="section-header">
          <h4 id="transcript-source-text">{t('transcript.sourceColumn')}</h4>
          <CopyButton text={view.sourceText} label={t('transcript.sourceText')} compact />
        </header>
        <p className="quote transcript-text" dir="auto">
          {view.sourceText}
        </p>
      </section>
      <section aria-labelledby="transcript-translated-text">
        <h4 id="transcript-translated-text">{t('transcript.translationColumn')}</h4>
        <p className="quote transcript-text" dir="auto">
          {view.text}
        </p>
      </section>
    </div>
  )
}

/** "SRT" and "WebVTT": the service writes them (jobs.subtitles), the page saves them as a file named after the job. */
function SubtitleDownloads({ job }: { job: Job }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const call = useCall()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const download = async (format: 'srt' | 'vtt') => {
    setBusy(true)
    setError(null)
    try {
      const { text } = await call('jobs.subtitles', { jobId: job.id, format })
      const url = URL.createObjectURL(
        new Blob([text], { type: format === 'srt' ? 'application/x-subrip;charset=utf-8' : 'text/vtt;charset=utf-8' }),
      )
      const link = document.createElement('a')
      link.href = url
      link.download = subtitleFileName(job.title, format)
      document.body.append(link)
      link.click()
      link.remove()
      // The download has its copy once clicked; the object URL may go.
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (caught) {
      setError(errorText(caught, locale))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="subtitle-downloads" role="group" aria-label={t('transcript.subtitles')}>
      <span className="small muted">{t('transcript.subtitles')}</span>
      <button type="button" className="button" disabled={busy} onClick={() => void download('srt')}>
        <Icon name="download" size={14} />
        <span lang="en">SRT</span>
      </button>
      <button type="button" className="button" disabled={busy} onClick={() => void download('vtt')}>
        <Icon name="download" size={14} />
        <span lang="en">WebVTT</span>
      </button>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** "Translate": into Arabic or English (the other language first); the new job opens at once. */
function TranslateDialog({
  open,
  jobId,
  suggested,
  onClose,
}: {
  open: boolean
  jobId: string
  suggested: TranslationLanguage
  onClose(): void
}) {
  const t = useT()
  const call = useCall()
  const [toLng, setToLng] = useState<TranslationLanguage>(suggested)
  const { busy, error, setError, create: createJob } = useJobCreation()
  const close = () => {
    setError(null)
    setToLng(suggested)
    onClose()
  }
  const create = () => createJob(() => call('jobs.translate', { jobId, toLng }), t('transcript.translationCreated'), close)
  return (
    <ModalDialog
      open={open}
      title={t('transcript.translateTitle')}
      onClose={close}
      actions={<DialogActions onCancel={close} label={t('transcript.translateButton')} onConfirm={() => void create()} disabled={busy} />}
    >
      <fieldset className="fieldset">
        <legend>{t('transcript.into')}</legend>
        {TRANSLATION_LANGUAGES.map((language) => (
          <Check
            key={language}
            label={t(`lang.${language}` as MessageKey)}
            checked={toLng === language}
            radio={{ name: 'translate-to', value: language }}
            onChange={() => setToLng(language)}
          />
        ))}
      </fieldset>
      <p className="small muted">{t('transcript.translateHint')}</p>
      {error ? (
        <p className="field-error" role="alert" data-testid="translate-error">
          {error}
        </p>
      ) : null}
    </ModalDialog>
  )
}
