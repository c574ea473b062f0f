import type { ConversationState, TranscriptTurn } from '../../../../shared/api/conversations'
import { useT } from '../../i18n/use-t'
import { formatClock } from '../../lib/format'

export interface CallTimelineProps {
  call: ConversationState
  /** Seconds the track spans: the recording's length, or the call's. */
  length: number
  /** Where the recording plays now (seconds). */
  position: number
  /** False while there is no recording to play. */
  canSeek: boolean
  onSeek(seconds: number): void
}

/** The turn playing at `position`: the last one started by then. */
export function turnAt(turns: readonly TranscriptTurn[], position: number): number {
  let found = -1
  for (const [index, turn] of turns.entries()) if (turn.startTime <= position + 0.05) found = index
  return found
}

const percent = (seconds: number, length: number) => `${Math.min(100, Math.max(0, (seconds / length) * 100))}%`

/**
 * The call on a track as long as its recording: the agent's and the caller's turns as blocks
 * (pokes and barge-ins marked), the tools called as ticks, and where the recording plays. Offsets
 * are logical (inset-inline-start), so the track runs right to left in Arabic, as the text does.
 * Every block is a button: a click, Enter or Space plays the recording from that turn.
 */
export function CallTimeline({ call, length, position, canSeek, onSeek }: CallTimelineProps) {
  const t = useT()
  const current = turnAt(call.transcript, position)
  const lanes = [
    { role: 'agent' as const, label: t('calls.agent') },
    { role: 'caller' as const, label: t('calls.caller') },
  ]
  // Every part has its grid row, so the playhead can lie over the lanes without pushing them about.
  const laneCount = lanes.length + (call.toolCalls.length > 0 ? 1 : 0)
  return (
    <div className="call-timeline" role="group" aria-label={t('monitor.timelineLabel')}>
      {lanes.map((lane, row) => (
        <div key={lane.role} className="timeline-lane">
          <span className="lane-label" style={{ gridRow: row + 1 }}>
            {lane.label}
          </span>
          <div className={`lane-track lane-${lane.role}`} style={{ gridRow: row + 1 }}>
            {call.transcript.map((turn, index) =>
              turn.role === lane.role ? (
                <button
                  key={index}
                  type="button"
                  className={`turn-block ${turn.role} ${turn.kind === 'poke' ? 'poke' : ''} ${turn.interrupted ? 'interrupted' : ''}`}
                  style={{
                    insetInlineStart: percent(turn.startTime, length),
                    inlineSize: `max(6px, ${percent(turn.endTime - turn.startTime, length)})`,
                  }}
                  data-start={turn.startTime}
                  aria-current={index === current ? 'true' : undefined}
                  aria-label={[
                    t('monitor.turnLabel', {
                      who: lane.label,
                      from: formatClock(turn.startTime),
                      to: formatClock(turn.endTime),
                      text: turn.content || t('calls.unrecognised'),
                    }),
                    turn.kind === 'poke' ? t('monitor.poke') : null,
                    turn.interrupted ? t('monitor.bargeIn') : null,
                  ]
                    .filter(Boolean)
                    .join('. ')}
                  disabled={!canSeek}
                  onClick={() => onSeek(turn.startTime)}
                />
              ) : null,
            )}
          </div>
        </div>
      ))}
      {call.toolCalls.length > 0 ? (
        <div className="timeline-lane">
          <span className="lane-label" style={{ gridRow: laneCount }}>
            {t('monitor.toolsLane')}
          </span>
          <div className="lane-track lane-tools" style={{ gridRow: laneCount }}>
            {call.toolCalls.map((tool) => (
              <button
                key={tool.id}
                type="button"
                className={`tool-mark ${tool.error ? 'failed' : ''}`}
                style={{ insetInlineStart: percent(tool.at, length) }}
                aria-label={t('monitor.toolMark', { name: tool.name, at: formatClock(tool.at) })}
                disabled={!canSeek}
                onClick={() => onSeek(tool.at)}
              />
            ))}
          </div>
        </div>
      ) : null}
      <div className="timeline-axis" aria-hidden="true" style={{ gridRow: laneCount + 1 }}>
        <span className="num">{formatClock(0)}</span>
        <span className="num">{formatClock(length)}</span>
      </div>
      {canSeek ? (
        <div className="timeline-playhead-track" aria-hidden="true" style={{ gridRow: `1 / span ${laneCount}` }}>
          <span className="timeline-playhead" data-testid="playhead" style={{ insetInlineStart: percent(position, length) }} />
        </div>
      ) : null}
    </div>
  )
}
