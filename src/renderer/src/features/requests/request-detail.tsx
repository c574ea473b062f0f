import type { JournalBody, JournalEntryDetail } from '../../../../shared/api/request-journal'
import { useT } from '../../i18n/use-t'
import { formatCount, formatDateTime } from '../../lib/format'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { hashOf } from '../../store/hash-route'
import { selectLocale, selectRequests } from '../../store/selectors'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { useSizeText } from '../../ui/use-size-text'
import { copyText } from '../../ui/copy-text'
import { HttpStatus, pathWithQuery } from './requests-list'

/** JSON shown indented; anything else as it came. */
function prettyText(body: JournalBody): string {
  const text = body.text ?? ''
  const json = (body.contentType ?? '').toLowerCase().includes('json') || /^\s*[[{]/.test(text)
  if (!json || body.truncated) return text
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** Headers and body of one side (request or response). */
function Exchange({
  title,
  headers,
  body,
  testId,
}: {
  title: string
  headers: [string, string][]
  body: JournalBody | null
  testId: string
}) {
  const t = useT()
  const sizeText = useSizeText()
  const locale = useAppStore(selectLocale)
  return (
    <section className="detail-section" aria-label={title} data-testid={testId}>
      <div className="section-header">
        <h3>{title}</h3>
        {body ? (
          <span className="muted small">
            {body.contentType ? (
              <code dir="ltr" className="small">
                {body.contentType}
              </code>
            ) : null}{' '}
            {body.size === null ? t('requests.sizeUnknown') : sizeText(body.size)}
          </span>
        ) : null}
      </div>
      <details className="request-headers">
        <summary>{t('requests.headers', { n: formatCount(headers.length, locale) })}</summary>
        <table className="header-table" dir="ltr">
          <tbody>
            {headers.map(([name, value], index) => (
              <tr key={`${name}-${index}`}>
                <th scope="row">{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {body === null || (body.text === null && !body.size) ? (
        <p className="muted small">{t('requests.noBody')}</p>
      ) : body.text === null ? (
        <p className="muted small">{t('requests.notKept')}</p>
      ) : (
        <>
          {body.truncated ? (
            <p className="warning-note small" role="note">
              {t('requests.truncated')}
            </p>
          ) : null}
          <pre className="excerpt request-body" dir="ltr">
            {prettyText(body)}
          </pre>
        </>
      )}
    </section>
  )
}

/** The open request: what was sent and answered, the job it touched, and curl to send it again. */
export function RequestDetailPanel() {
  const t = useT()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const { selectedId, detail, detailError } = useAppStore(selectRequests)
  if (selectedId === null) return null

  const copyCurl = async (command: string) => {
    await copyText(command)
    store.getState().toast('success', t('requests.curlCopied'))
  }

  // Through the address, so the jobs monitor with the job open is one history entry: Back returns here.
  const openJob = (id: string) => {
    window.location.hash = hashOf({ screen: 'jobs', id })
  }

  return (
    <aside className="detail-pane request-detail" aria-labelledby="request-detail-title">
      <header className="pane-header">
        <h2 id="request-detail-title" className="request-title">
          {detail ? (
            <>
              <code dir="ltr">{detail.method}</code>{' '}
              <span className="mono" dir="ltr">
                {detail.path}
              </span>
            </>
          ) : detailError ? (
            t('requests.detailFailed')
          ) : (
            t('common.loading')
          )}
        </h2>
        <button
          type="button"
          className="button icon-button ghost"
          aria-label={t('requests.close')}
          onClick={() => void store.getState().selectRequest(null)}
        >
          <Icon name="x" size={16} />
        </button>
      </header>
      {detailError ? (
        <LoadError
          error={detailError}
          failed={t('requests.detailFailed')}
          onRetry={() => void store.getState().selectRequest(selectedId)}
        />
      ) : null}
      {detail ? (
        <>
          <dl className="facts">
            <dt>{t('requests.colStatus')}</dt>
            <dd>
              <HttpStatus status={detail.status} />
            </dd>
            <dt>{t('requests.kind')}</dt>
            <dd>{t(detail.kind === 'websocket' ? 'requests.kind.websocket' : 'requests.kind.http')}</dd>
            <dt>{t('requests.started')}</dt>
            <dd>
              <span title={detail.startedAt}>{formatDateTime(detail.startedAt, locale)}</span>
            </dd>
            <dt>{t('requests.latency')}</dt>
            <dd>{t('unit.ms', { n: formatCount(Math.round(detail.latencyMs), locale) })}</dd>
            {detail.query === '' ? null : (
              <>
                <dt>{t('requests.query')}</dt>
                <dd>
                  <code dir="ltr" className="small">
                    {detail.query}
                  </code>
                </dd>
              </>
            )}
            <dt>{t('requests.key')}</dt>
            <dd>{detail.keyHint ? <code dir="ltr">{detail.keyHint}</code> : t('requests.noKey')}</dd>
            {detail.resourceId ? <TouchedJob id={detail.resourceId} onOpen={openJob} /> : null}
          </dl>
          {detail.socket ? <SocketFacts socket={detail.socket} /> : null}
          <CurlSection detail={detail} onCopy={(command) => void copyCurl(command)} />
          <Exchange title={t('requests.request')} headers={detail.requestHeaders} body={detail.requestBody} testId="request-side" />
          <Exchange title={t('requests.response')} headers={detail.responseHeaders} body={detail.responseBody} testId="response-side" />
        </>
      ) : null}
    </aside>
  )
}

/** The job a request made or read, as a link that opens it on the jobs screen. */
function TouchedJob({ id, onOpen }: { id: string; onOpen(id: string): void }) {
  const t = useT()
  return (
    <>
      <dt>{t('requests.touched')}</dt>
      <dd>
        <button type="button" className="link-button" onClick={() => onOpen(id)} aria-label={t('requests.openJob', { id })}>
          <code dir="ltr">{id}</code>
        </button>
      </dd>
    </>
  )
}

function SocketFacts({ socket }: { socket: NonNullable<JournalEntryDetail['socket']> }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  return (
    <section className="detail-section" aria-label={t('requests.socket')}>
      <h3>{t('requests.socket')}</h3>
      <dl className="facts" data-testid="socket-facts">
        <dt>{t('requests.framesIn')}</dt>
        <dd>{formatCount(socket.framesIn, locale)}</dd>
        <dt>{t('requests.framesOut')}</dt>
        <dd>{formatCount(socket.framesOut, locale)}</dd>
        <dt>{t('requests.closeCode')}</dt>
        <dd>{socket.closeCode ?? '—'}</dd>
        <dt>{t('requests.closedAt')}</dt>
        <dd>{formatDateTime(socket.closedAt, locale)}</dd>
      </dl>
    </section>
  )
}

function CurlSection({ detail, onCopy }: { detail: JournalEntryDetail; onCopy(command: string): void }) {
  const t = useT()
  const { command, notes } = detail.curl
  if (command === null) return <p className="muted small">{t('requests.noCurl')}</p>
  return (
    <section className="detail-section curl-section">
      <div className="toolbar">
        <button type="button" className="button primary" aria-label={t('requests.copyCurlLabel')} onClick={() => onCopy(command)}>
          <Icon name="copy" size={14} />
          <span>
            {t('requests.copyAs')} <bdi>curl</bdi>
          </span>
        </button>
      </div>
      <pre className="excerpt curl-command" dir="ltr" data-testid="curl-command" title={pathWithQuery(detail)}>
        {command}
      </pre>
      <p className="muted small">
        {t('requests.curlHow')} <code dir="ltr">{"VOICEDESK_KEY=<key> sh -c '…'"}</code>
      </p>
      {notes.length > 0 ? (
        <details>
          <summary>{t('requests.curlNotes')}</summary>
          <ul className="plain-list small" lang="en" dir="ltr">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  )
}
