import { useEffect, useRef, useState } from 'react'
import { listShows } from '../../store/list-shows'
import { snapshotCountsText } from './snapshot-counts'
import { SNAPSHOT_NAME_PATTERN, type Snapshot, type StateCounts } from '../../../../shared/api/state'
import { useT, type Translate } from '../../i18n/use-t'
import type { UiLocale } from '../../i18n/dictionary'
import { errorText, readableMessage } from '../../lib/readable-errors'
import { formatDateTime } from '../../lib/format'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLinkReturns, selectLocale } from '../../store/selectors'
import { FileField, TextField } from '../../ui/field'
import { LoadError } from '../../ui/load-error'
import { ConfirmDialog } from '../../ui/modal-dialog'
import { ProgressBar } from '../../ui/progress-bar'
import { TableHead } from '../../ui/table-head'
import { useSizeText } from '../../ui/use-size-text'
import { SubmitForm } from '../../ui/submit-form'

/** PUTs `file` to a one-use import link, reporting upload progress; answers the service's error message, if any. */
function uploadArchive(url: string, file: File, onProgress: (fraction: number) => void): Promise<string | undefined> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest()
    request.open('PUT', url)
    request.setRequestHeader('content-type', 'application/gzip')
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total)
    request.onload = () => {
      if (request.status < 300) return resolve(undefined)
      try {
        resolve((JSON.parse(request.responseText) as { message?: string }).message ?? `HTTP ${request.status}`)
      } catch {
        resolve(`HTTP ${request.status}`)
      }
    }
    request.onerror = () => resolve('network')
    request.send(file)
  })
}

type Confirming = { kind: 'restore' | 'delete'; snapshot: Snapshot } | { kind: 'reset' } | null

/**
 * Settings > Snapshots: the project's saved states (take, restore, delete), reset, and the
 * archive to download or to import. Restore and reset ask first, naming what will be lost.
 */
export function SnapshotsCard() {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const linkReturns = useAppStore(selectLinkReturns)
  const sizeText = useSizeText()
  const [snapshots, setSnapshots] = useState<Snapshot[]>([])
  const [current, setCurrent] = useState<StateCounts | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [nameError, setNameError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [confirming, setConfirming] = useState<Confirming>(null)

  const load = () =>
    call('state.snapshots', {}).then(
      (answer) => (setSnapshots(answer.snapshots), setCurrent(answer.current), setLoadError(null)),
      (caught: unknown) => setLoadError(errorText(caught, locale)),
    )
  useEffect(() => {
    void load()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load is remade every render; the snapshots are read again only when the link returns
  }, [linkReturns])

  // `current` comes with the first answer: until then the table is loading, not empty.
  const shows = listShows({ items: snapshots, loaded: current !== null, loading: false, error: loadError })
  const countsText = (counts: StateCounts) => snapshotCountsText(locale, counts)

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true)
    try {
      await work()
      store.getState().toast('success', done)
    } catch (caught) {
      store.getState().toastError(caught)
    } finally {
      setBusy(false)
      void load()
    }
  }

  const take = () => {
    const wanted = name.trim()
    if (!SNAPSHOT_NAME_PATTERN.test(wanted)) return setNameError(t('snapshots.nameRule'))
    if (snapshots.some((snapshot) => snapshot.name === wanted)) return setNameError(t('snapshots.nameTaken', { name: wanted }))
    setNameError(null)
    void run(
      async () => {
        await call('state.snapshot', { name: wanted })
        setName('')
      },
      t('snapshots.taken', { name: wanted }),
    )
  }

  const dialog = confirmText(confirming, current, locale, t)
  const confirm = () => {
    const chosen = confirming
    if (chosen?.kind === 'restore')
      void run(() => call('state.restore', { name: chosen.snapshot.name }), t('snapshots.restored', { name: chosen.snapshot.name }))
    else if (chosen?.kind === 'delete')
      void run(() => call('state.deleteSnapshot', { name: chosen.snapshot.name }), t('snapshots.deleted', { name: chosen.snapshot.name }))
    else if (chosen?.kind === 'reset') void run(() => call('state.reset', {}), t('snapshots.resetDone'))
  }

  return (
    <section className="card" aria-labelledby="snapshots-title">
      <h2 id="snapshots-title">{t('snapshots.title')}</h2>
      <p className="muted small">{t('snapshots.intro')}</p>
      <SubmitForm className="inline-form" onSubmit={take}>
        <TextField
          label={t('snapshots.newName')}
          errors={nameError ? [nameError] : undefined}
          dir="ltr"
          maxLength={64}
          value={name}
          placeholder="demo-1"
          onChange={(value) => (setName(value), setNameError(null))}
        />
        <button type="submit" className="button primary" disabled={busy || name.trim() === ''}>
          {t('snapshots.take')}
        </button>
      </SubmitForm>
      <div className="table-wrap">
        <table className="table" aria-label={t('snapshots.title')}>
          <TableHead
            columns={[
              { label: t('snapshots.name') },
              { label: t('snapshots.time') },
              { label: t('snapshots.size'), optional: true },
              { label: t('snapshots.contents'), optional: true },
            ]}
            actions
          />
          <tbody>
            {shows === 'loading' || shows === 'empty' ? (
              <tr>
                <td colSpan={5} className="muted small">
                  {shows === 'loading' ? t('common.loading') : t('snapshots.none')}
                </td>
              </tr>
            ) : null}
            {snapshots.map((snapshot) => (
              <tr key={snapshot.name}>
                <td className="mono small" dir="ltr">
                  {snapshot.name}
                </td>
                <td className="small">{formatDateTime(snapshot.createdAt, locale)}</td>
                <td className="small col-optional num">{sizeText(snapshot.sizeBytes)}</td>
                <td className="small col-optional">{countsText(snapshot.counts)}</td>
                <td className="actions">
                  <button
                    type="button"
                    className="button small"
                    disabled={busy}
                    onClick={() => setConfirming({ kind: 'restore', snapshot })}
                    aria-label={t('snapshots.restoreNamed', { name: snapshot.name })}
                  >
                    {t('snapshots.restore')}
                  </button>
                  <button
                    type="button"
                    className="button danger small"
                    disabled={busy}
                    onClick={() => setConfirming({ kind: 'delete', snapshot })}
                    aria-label={t('snapshots.deleteNamed', { name: snapshot.name })}
                  >
                    {t('common.delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {loadError ? <LoadError error={loadError} onRetry={() => void load()} /> : null}

      <ArchiveSection afterImport={() => void load()} />

      <h3>{t('snapshots.resetHeading')}</h3>
      <p className="muted small">{t('snapshots.resetIntro')}</p>
      <button type="button" className="button danger" disabled={busy} onClick={() => setConfirming({ kind: 'reset' })}>
        {t('snapshots.reset')}
      </button>

      <ConfirmDialog
        open={confirming !== null}
        title={dialog.title}
        explanation={dialog.explanation}
        confirmLabel={dialog.label}
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      />
    </section>
  )
}

/** The question asked before a restore, a delete or a reset, naming what will be lost. */
function confirmText(
  confirming: Confirming,
  current: StateCounts | null,
  locale: UiLocale,
  t: Translate,
): { title: string; explanation: string; label: string } {
  if (confirming?.kind === 'restore') {
    return {
      title: t('snapshots.restoreTitle', { name: confirming.snapshot.name }),
      explanation: t('snapshots.restoreExplain', {
        now: current ? snapshotCountsText(locale, current) : '…',
        time: formatDateTime(confirming.snapshot.createdAt, locale),
        then: snapshotCountsText(locale, confirming.snapshot.counts),
      }),
      label: t('snapshots.restore'),
    }
  }
  if (confirming?.kind === 'delete') {
    return {
      title: t('snapshots.deleteTitle', { name: confirming.snapshot.name }),
      explanation: t('snapshots.deleteExplain'),
      label: t('common.delete'),
    }
  }
  return {
    title: t('snapshots.resetTitle'),
    explanation: t('snapshots.resetExplain', { now: current ? snapshotCountsText(locale, current) : '…' }),
    label: t('snapshots.reset'),
  }
}

/** The archive of the whole project: download (sealed with a passphrase, if given) or import. */
function ArchiveSection({ afterImport }: { /** After each import, taken or refused: the list reads again. */ afterImport(): void }) {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const [exportPassphrase, setExportPassphrase] = useState('')
  const [importPassphrase, setImportPassphrase] = useState('')
  const [importFile, setImportFile] = useState<File | null>(null)
  const [importProgress, setImportProgress] = useState<number | null>(null)
  const [importError, setImportError] = useState<string | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)

  const download = async () => {
    try {
      const { url } = await call('state.exportLink', exportPassphrase ? { passphrase: exportPassphrase } : {})
      const link = document.createElement('a')
      link.href = url
      link.download = ''
      document.body.append(link)
      link.click()
      link.remove()
    } catch (caught) {
      store.getState().toastError(caught)
    }
  }

  const upload = async () => {
    if (!importFile) return
    setImportError(null)
    setImportProgress(0)
    try {
      const { url } = await call('state.importLink', importPassphrase ? { passphrase: importPassphrase } : {})
      const failure = await uploadArchive(url, importFile, setImportProgress)
      if (failure) setImportError(failure === 'network' ? t('snapshots.importNetwork') : readableMessage(failure, locale))
      else {
        store.getState().toast('success', t('snapshots.imported', { file: importFile.name }))
        setImportFile(null)
        if (fileInput.current) fileInput.current.value = ''
      }
    } catch (caught) {
      setImportError(errorText(caught, locale))
    } finally {
      setImportProgress(null)
      afterImport()
    }
  }

  return (
    <>
      <h3>{t('snapshots.archive')}</h3>
      <p className="muted small">{t('snapshots.archiveIntro')}</p>
      <div className="inline-form">
        <TextField
          label={t('snapshots.passphraseOptional')}
          dir="inherit"
          type="password"
          autoComplete="new-password"
          value={exportPassphrase}
          onChange={setExportPassphrase}
        />
        <button
          type="button"
          className="button"
          onClick={() => void download()}
          disabled={exportPassphrase !== '' && exportPassphrase.length < 8}
        >
          {t('snapshots.export')}
        </button>
      </div>
      <div className="inline-form">
        <FileField
          label={t('snapshots.importFile')}
          errors={importError ? [importError] : undefined}
          accept=".tar.gz,.tgz,application/gzip"
          inputRef={fileInput}
          onChange={(file) => (setImportFile(file), setImportError(null))}
        />
        <TextField
          label={t('snapshots.passphraseIfSealed')}
          dir="inherit"
          type="password"
          autoComplete="off"
          value={importPassphrase}
          onChange={setImportPassphrase}
        />
        <button type="button" className="button" onClick={() => void upload()} disabled={!importFile || importProgress !== null}>
          {t('snapshots.import')}
        </button>
      </div>
      {importProgress !== null ? <ProgressBar fraction={importProgress} label={t('snapshots.importing')} /> : null}
    </>
  )
}
