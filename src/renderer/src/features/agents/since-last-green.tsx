import { useEffect, useMemo, useState } from 'react'
import type { AgentVersion } from '../../../../shared/api/agent-versions'
import type { TestRun } from '../../../../shared/api/test-suites'
import { useT } from '../../i18n/use-t'
import { agentChanges } from '../../lib/agent-version-diff'
import { errorText } from '../../lib/readable-errors'
import { formatCount, formatDateTime } from '../../lib/format'
import { useAppStore, useCall } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { brokenSince } from '../../lib/broken-since'
import { VersionDiff } from './version-diff'

type Versions = { state: 'loading' } | { state: 'loaded'; green: AgentVersion; latest: AgentVersion } | { state: 'failed'; error: string }

/**
 * "What changed since the last green run": when the latest run failed, the scenarios that passed
 * in the last PASSED run and fail now, and the agent's versions of the two runs compared.
 */
export function SinceLastGreen({ agentId, latest, green }: { agentId: string; latest: TestRun; green: TestRun }) {
  const t = useT()
  const call = useCall()
  const locale = useAppStore(selectLocale)
  const broken = useMemo(() => brokenSince(green, latest), [green, latest])
  const [versions, setVersions] = useState<Versions>({ state: 'loading' })
  const before = green.agentVersion
  const after = latest.agentVersion
  const differ = before !== null && after !== null && before !== after

  useEffect(() => {
    if (!differ) return
    let stale = false
    Promise.all([call('agents.version', { id: agentId, version: before }), call('agents.version', { id: agentId, version: after })]).then(
      ([greenVersion, latestVersion]) => {
        if (!stale) setVersions({ state: 'loaded', green: greenVersion, latest: latestVersion })
      },
      (error: unknown) => {
        if (!stale) setVersions({ state: 'failed', error: errorText(error, locale) })
      },
    )
    return () => {
      stale = true
    }
  }, [call, agentId, before, after, differ, locale])

  const changes = useMemo(() => (versions.state === 'loaded' ? agentChanges(versions.green.agent, versions.latest.agent) : []), [versions])

  return (
    <section className="card since-green" aria-labelledby="since-green-title" data-testid="since-green">
      <h4 id="since-green-title">{t('tests.sinceGreen')}</h4>
      <p className="muted small">
        {t('tests.sinceGreenWhen', { when: formatDateTime(green.createdAt, locale) })}
        {before !== null ? ` ${t('tests.sinceGreenVersion', { n: before })}` : ''}
      </p>
      {broken.length === 0 ? (
        <p className="small">{t('tests.noneBroken')}</p>
      ) : (
        <>
          <p className="small">{t('tests.broken', { n: formatCount(broken.length, locale) })}</p>
          <ul className="broken-list" data-testid="broken-scenarios">
            {broken.map((name) => (
              <li key={name}>
                <bdi dir="auto">{name}</bdi>
              </li>
            ))}
          </ul>
        </>
      )}
      {!differ ? (
        <p className="muted small">{t('tests.sameVersion')}</p>
      ) : versions.state === 'loading' ? (
        <p className="muted small">{t('common.loading')}</p>
      ) : versions.state === 'failed' ? (
        <p className="error-box small" dir="auto">
          {versions.error}
        </p>
      ) : changes.length === 0 ? (
        <p className="muted small">{t('tests.versionsSame', { before, after })}</p>
      ) : (
        <>
          <p className="small">{t('tests.versionChanges', { before, after })}</p>
          <VersionDiff changes={changes} version={before} afterVersion={after} />
        </>
      )}
    </section>
  )
}
