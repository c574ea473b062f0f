import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { formatClock } from '../../lib/format'
import { Icon } from '../../ui/icon'
import { useNow } from '../../ui/use-now'
import { isRunning, useLiveTestCall } from './live-test-call'

/**
 * The running test call, compact, above every screen: whose call, how long, what the agent is
 * doing, Mute when the microphone is on, and Hang up. Shown while the call runs and its agent's
 * Test call panel is out of view; it goes when the call ends (hung up here, there, or by itself).
 */
export function LiveCallBar() {
  const t = useT()
  const { call, agent, panelInView, openPanel } = useLiveTestCall()
  const running = isRunning(call)
  const shown = running && agent !== null && panelInView !== agent.id
  const now = useNow(shown && call.startedAt !== null)
  if (!shown || !call.state) return null
  const activity = call.state.phase === 'connecting' ? 'connecting' : (call.state.activity ?? 'listening')
  const elapsed = call.startedAt === null ? null : formatClock((now - call.startedAt) / 1_000)
  const { microphone } = call
  return (
    <section className="live-call-bar" aria-label={t('callBar.label')} data-testid="call-bar">
      <span className={`activity activity-${activity}`} data-testid="call-bar-activity" data-activity={activity}>
        <span className="activity-dot" aria-hidden="true" />
        {t(`testCall.activity.${activity}` as MessageKey)}
      </span>
      <span className="live-call-who">
        {t('callBar.with')}{' '}
        <strong dir="auto" data-testid="call-bar-agent">
          {call.state.agentName ?? agent.name}
        </strong>
      </span>
      {elapsed !== null ? (
        <span className="tag" role="timer" aria-label={t('callBar.elapsed', { time: elapsed })} data-testid="call-bar-elapsed">
          <bdi dir="ltr">{elapsed}</bdi>
        </span>
      ) : null}
      <div className="toolbar live-call-actions">
        {microphone.kind === 'on' ? (
          <button type="button" className="button" aria-pressed={microphone.muted} onClick={() => call.setMuted(!microphone.muted)}>
            <Icon name={microphone.muted ? 'mic-off' : 'mic'} size={16} />
            <span>{microphone.muted ? t('testCall.unmute') : t('testCall.mute')}</span>
          </button>
        ) : null}
        <button type="button" className="button" data-testid="call-bar-open" onClick={openPanel}>
          {t('callBar.open')}
        </button>
        <button type="button" className="button danger" data-testid="call-bar-hang-up" onClick={call.hangUp}>
          <Icon name="phone-off" size={16} />
          <span>{t('callBar.hangUp')}</span>
        </button>
      </div>
    </section>
  )
}
