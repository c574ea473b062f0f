import { useRef, useState } from 'react'
import { ConversationStateSchema, type ConversationState } from '../../../../shared/api/conversations'
import type { Job } from '../../../../shared/api/jobs'
import { outcomeStateOf } from '../../../../shared/call-outcome'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { formatClock } from '../../lib/format'
import { CopyButton } from '../../ui/copy-button'
import { CallTimeline, turnAt } from './call-timeline'
import { CallChannelFacts, OutcomeBadge } from './call-glance'

/** How long the call lasted by its own record: its stored duration, or as far as its turns and tools reach. */
function callLengthOf(job: Job, call: ConversationState): number {
  const stored = job.usageTime === null || job.usageTime === undefined ? 0 : Number(job.usageTime)
  const byClock = call.startedAt && call.endedAt ? (Date.parse(call.endedAt) - Date.parse(call.startedAt)) / 1000 : 0
  const lastTurn = Math.max(0, ...call.transcript.map((turn) => turn.endTime))
  const lastTool = Math.max(0, ...call.toolCalls.map((tool) => tool.at))
  return Math.max(Number.isFinite(stored) ? stored : 0, byClock, lastTurn, lastTool)
}

/**
 * A conversation in the monitor: its recording on a timeline of turns, the transcript (a line
 * plays the call from there too), the tools it called, its outcome and how it ended.
 */
export function ConversationSection({ job }: { job: Job }) {
  const t = useT()
  const audio = useRef<HTMLAudioElement>(null)
  const [position, setPosition] = useState(0)
  const [recordingLength, setRecordingLength] = useState<number | null>(null)
  const parsed = ConversationStateSchema.safeParse(job.jobResponse)
  if (!parsed.success) return null
  const call = parsed.data
  const length = Math.max(recordingLength ?? 0, callLengthOf(job, call), 1)
  const canSeek = Boolean(job.mediaUrl)
  const seek = (seconds: number) => {
    const element = audio.current
    if (!element) return
    element.currentTime = seconds
    setPosition(seconds)
    // Autoplay rules may refuse play() without a gesture; the position is set either way.
    void element.play().catch(() => {})
  }
  const current = turnAt(call.transcript, position)
  const outcome = outcomeStateOf(call.outcomeResult, call.outcomeComplete)
  const outcomeJson = JSON.stringify(call.outcomeResult ?? null, null, 2)

  return (
    <section className="detail-section conversation" aria-labelledby="job-call">
      <h3 id="job-call">{t('calls.title')}</h3>
      <CallChannelFacts call={call} />
      {job.mediaUrl ? (
        <audio
          ref={audio}
          key={job.mediaUrl}
          controls
          preload="metadata"
          src={job.mediaUrl}
          aria-label={t('calls.recordingOf', { title: job.title })}
          className="job-audio"
          onLoadedMetadata={(event) =>
            setRecordingLength(Number.isFinite(event.currentTarget.duration) ? event.currentTarget.duration : null)
          }
          onTimeUpdate={(event) => setPosition(event.currentTarget.currentTime)}
          onSeeked={(event) => setPosition(event.currentTarget.currentTime)}
        />
      ) : (
        <p className="muted">{call.startedAt ? t('calls.recordingPending') : t('calls.notStarted')}</p>
      )}
      {call.endReason ? <p className="muted">{t(`calls.end.${call.endReason}` as MessageKey)}</p> : null}

      {call.transcript.length > 0 || call.toolCalls.length > 0 ? (
        <section className="call-part" aria-labelledby="call-timeline-title">
          <header className="section-header">
            <h4 id="call-timeline-title">{t('monitor.timeline')}</h4>
            {canSeek ? (
              <span className="small muted num" data-testid="playing-at">
                {t('monitor.playing', { at: formatClock(position) })}
              </span>
            ) : null}
          </header>
          {canSeek ? <p className="small muted">{t('monitor.timelineHint')}</p> : null}
          <CallTimeline call={call} length={length} position={position} canSeek={canSeek} onSeek={seek} />
        </section>
      ) : null}

      {call.transcript.length > 0 ? (
        <section className="call-part" aria-labelledby="call-transcript-title">
          <h4 id="call-transcript-title">{t('monitor.transcript')}</h4>
          <ol className="plain-list transcript">
            {call.transcript.map((turn, index) => {
              const line = (
                <>
                  <span className="tag num">{formatClock(turn.startTime)}</span>{' '}
                  <strong>{turn.role === 'agent' ? t('calls.agent') : t('calls.caller')}</strong>{' '}
                  <span dir="auto">{turn.content || t('calls.unrecognised')}</span>
                  {turn.kind === 'poke' ? <em className="muted"> ({t('monitor.poke')})</em> : null}
                  {turn.interrupted ? <em className="muted"> {t('calls.interrupted')}</em> : null}
                </>
              )
              return (
                <li key={index}>
                  {canSeek ? (
                    <button
                      type="button"
                      className={`transcript-line ${turn.role}`}
                      aria-current={index === current ? 'true' : undefined}
                      data-start={turn.startTime}
                      onClick={() => seek(turn.startTime)}
                    >
                      {line}
                    </button>
                  ) : (
                    <div className={`transcript-line ${turn.role}`}>{line}</div>
                  )}
                </li>
              )
            })}
          </ol>
        </section>
      ) : null}

      {call.toolCalls.length > 0 ? (
        <section className="call-part" aria-labelledby="call-tools-title">
          <h4 id="call-tools-title">{t('monitor.toolCalls')}</h4>
          <ul className="plain-list tool-calls">
            {call.toolCalls.map((tool) => (
              <li key={tool.id}>
                <span className="tag num">{formatClock(tool.at)}</span>{' '}
                <code dir="ltr">{`${tool.name}(${JSON.stringify(tool.arguments)})`}</code>
                <div className="small">
                  <span className="muted">{tool.error ? t('monitor.toolNoAnswer') : t('monitor.toolAnswer')}: </span>
                  <code dir="ltr">{tool.error ?? JSON.stringify(tool.response ?? null)}</code>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {job.status === 'COMPLETED' || job.status === 'FAILED' ? (
        <section className="call-part" aria-labelledby="call-outcome-title">
          <header className="section-header">
            <h4 id="call-outcome-title">
              {t('calls.outcome')} <OutcomeBadge outcome={outcome} />
            </h4>
            {call.outcomeResult !== null && call.outcomeResult !== undefined ? (
              <CopyButton text={outcomeJson} label={t('calls.outcome')} compact />
            ) : null}
          </header>
          {call.outcomeResult !== null && call.outcomeResult !== undefined ? (
            <pre className="quote outcome-json" dir="ltr" data-testid="outcome-json">
              {outcomeJson}
            </pre>
          ) : (
            <p className="muted">{t('monitor.noOutcome')}</p>
          )}
          {call.outcomeProblems && call.outcomeProblems.length > 0 ? (
            <>
              <p className="small">{t('monitor.problems')}</p>
              <ul className="plain-list outcome-problems">
                {call.outcomeProblems.map((problem) => (
                  <li key={problem}>
                    <code dir="ltr">{problem}</code>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      ) : null}
    </section>
  )
}
