import { useEffect, useRef, useState } from 'react'
import type { ApiKeyInfo, Settings } from '../../../../shared/ipc/operations'
import { isOperatorError } from '../../api/operator-error'
import { useT } from '../../i18n/use-t'
import { errorText } from '../../lib/readable-errors'
import { fieldErrorLinesOf } from '../../lib/field-errors'
import { formatDateTime } from '../../lib/format'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLinkReturns, selectLocale, selectTheme } from '../../store/selectors'
import type { ThemeChoice } from '../../store/ui-slice'
import { CopyButton } from '../../ui/copy-button'
import { SelectField, TextField } from '../../ui/field'
import { focusFirstError } from '../../ui/focus-first-error'
import { LoadError } from '../../ui/load-error'
import { ConfirmDialog, ModalDialog } from '../../ui/modal-dialog'
import { ServerEngineForm } from './server-engine-form'
import { SnapshotsCard } from './snapshots-card'
import { SipLineCard } from './sip-line-card'
import { CodeField } from '../../ui/code-textarea'
import { TableHead } from '../../ui/table-head'
import { SubmitForm } from '../../ui/submit-form'

/** API keys, where the service keeps its data, the AI engine and speech recognition, browser access to /v1, and the UI's own language and theme. */
export function SettingsScreen() {
  const t = useT()
  return (
    <div className="page">
      <header className="page-header">
        <h1>{t('settings.title')}</h1>
      </header>
      <AppearanceCard />
      <KeysCard />
      <ServiceCard />
      <SipLineCard />
      <CorsCard />
      <SnapshotsCard />
    </div>
  )
}

function AppearanceCard() {
  const t = useT()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const theme = useAppStore(selectTheme)
  return (
    <section className="card" aria-labelledby="appearance-title">
      <h2 id="appearance-title">{t('settings.appearance')}</h2>
      <div className="grid-2">
        <SelectField
          label={t('settings.language')}
          value={locale}
          onChange={(value) => store.getState().setLocale(value === 'ar' ? 'ar' : 'en')}
        >
          <option value="en" lang="en">
            English
          </option>
          <option value="ar" lang="ar">
            العربية
          </option>
        </SelectField>
        <SelectField label={t('settings.theme')} value={theme} onChange={(value) => store.getState().setTheme(value as ThemeChoice)}>
          <option value="system">{t('theme.system')}</option>
          <option value="light">{t('theme.light')}</option>
          <option value="dark">{t('theme.dark')}</option>
        </SelectField>
      </div>
    </section>
  )
}

function KeysCard() {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const [keys, setKeys] = useState<ApiKeyInfo[]>([])
  const [name, setName] = useState('')
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null)
  const [revoking, setRevoking] = useState<ApiKeyInfo | null>(null)
  const [error, setError] = useState<string | null>(null)
  // The list's own failure (a dead service), said under the table with Retry; `error` is the Name field's.
  const [loadError, setLoadError] = useState<string | null>(null)
  // The names VoiceDesk gave its own keys are said in the UI's language; names the operator typed stay as typed.
  const keyName = (key: ApiKeyInfo) =>
    key.name === 'Default key' ? t('keys.defaultKeyName') : key.usedByApp && key.name === 'VoiceDesk app' ? t('keys.appKeyName') : key.name

  const linkReturns = useAppStore(selectLinkReturns)
  const load = () =>
    call('keys.list', {}).then(
      (answer) => (setKeys(answer), setLoadError(null)),
      (caught: unknown) => setLoadError(errorText(caught, locale)),
    )
  // Again when the link to the service returns after a break.
  useEffect(() => {
    void load()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load is remade every render; the keys are read again only when the link returns
  }, [linkReturns])

  const create = async () => {
    try {
      const answer = await call('keys.create', { name: name.trim() })
      setCreated({ key: answer.key, name: answer.info.name })
      setName('')
      setError(null)
      void load()
    } catch (caught) {
      setError(
        isOperatorError(caught) && caught.details.length > 0
          ? fieldErrorLinesOf(caught.details, locale, {}).join(' ')
          : errorText(caught, locale),
      )
    }
  }
  const revoke = async (key: ApiKeyInfo) => {
    try {
      await call('keys.revoke', { id: key.id })
      store.getState().toast('success', t('keys.revoked', { name: keyName(key) }))
      void load()
    } catch (caught) {
      store.getState().toastError(caught)
    }
  }

  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">{t('keys.title')}</h2>
      <p className="muted small">{t('keys.intro')}</p>
      <SubmitForm
        className="inline-form"
        onSubmit={() => {
          if (name.trim()) void create()
        }}
      >
        <TextField
          label={t('keys.name')}
          errors={error ? [error] : undefined}
          maxLength={100}
          value={name}
          placeholder={t('keys.namePlaceholder')}
          onChange={setName}
        />
        <button type="submit" className="button primary" disabled={name.trim() === ''}>
          {t('keys.create')}
        </button>
      </SubmitForm>
      <div className="table-wrap">
        <table className="table">
          <TableHead
            columns={[
              { label: t('keys.name') },
              { label: t('keys.hint') },
              { label: t('common.created'), optional: true },
              { label: t('keys.lastUsed'), optional: true },
              { label: t('keys.state') },
            ]}
            actions
          />
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td dir="auto">{keyName(key)}</td>
                <td className="mono small" dir="ltr">
                  {key.keyHint}
                </td>
                <td className="small col-optional">{formatDateTime(key.createdAt, locale)}</td>
                <td className="small col-optional">{key.lastUsedAt ? formatDateTime(key.lastUsedAt, locale) : t('keys.never')}</td>
                <td>
                  {key.revokedAt ? (
                    <span className="badge badge-failed">{t('keys.revokedState')}</span>
                  ) : key.usedByApp ? (
                    <span className="badge">{t('keys.usedByApp')}</span>
                  ) : (
                    <span className="badge badge-completed">{t('keys.active')}</span>
                  )}
                </td>
                <td className="actions">
                  {!key.revokedAt && !key.usedByApp ? (
                    <button
                      type="button"
                      className="button danger small"
                      onClick={() => setRevoking(key)}
                      aria-label={t('keys.revokeNamed', { name: keyName(key) })}
                    >
                      {t('keys.revoke')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {loadError ? <LoadError error={loadError} onRetry={() => void load()} /> : null}
      <ModalDialog
        open={created !== null}
        title={t('keys.createdTitle', { name: created?.name ?? '' })}
        onClose={() => setCreated(null)}
        actions={
          <button type="button" className="button primary" onClick={() => setCreated(null)}>
            {t('keys.done')}
          </button>
        }
      >
        <p>{t('keys.showOnce')}</p>
        <div className="key-reveal">
          <code dir="ltr" data-testid="new-key">
            {created?.key}
          </code>
          <CopyButton text={created?.key ?? ''} label={t('keys.theKey')} />
        </div>
      </ModalDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={t('keys.revokeTitle', { name: revoking ? keyName(revoking) : '' })}
        explanation={t('keys.revokeExplain')}
        confirmLabel={t('keys.revoke')}
        onConfirm={() => revoking && void revoke(revoking)}
        onCancel={() => setRevoking(null)}
      />
    </section>
  )
}

function ServiceCard() {
  const t = useT()
  const call = useCall()
  const locale = useAppStore(selectLocale)
  const [settings, setSettings] = useState<Settings | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const linkReturns = useAppStore(selectLinkReturns)
  const load = () =>
    call('settings.get', {}).then(
      (answer) => (setSettings(answer), setLoadError(null)),
      (caught: unknown) => setLoadError(errorText(caught, locale)),
    )
  // Again when the link to the service returns after a break (not "Loading…" for ever).
  useEffect(() => {
    void load()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load is remade every render; the settings are read again only when the link returns
  }, [linkReturns])

  const ai = settings?.aiContent
  const stt = settings?.speechRecognition
  return (
    <section className="card" aria-labelledby="service-title">
      <h2 id="service-title">{t('settings.service')}</h2>
      {settings ? (
        <dl className="facts">
          <dt>{t('settings.port')}</dt>
          <dd className="mono">{settings.port}</dd>
          <dt>{t('settings.dataDir')}</dt>
          <dd className="with-copy">
            <code dir="ltr">{settings.dataDir}</code>
            <CopyButton text={settings.dataDir} label={t('settings.dataDir')} compact />
          </dd>
          <dt>{t('settings.tts')}</dt>
          <dd>eSpeak NG</dd>
          <dt>{t('settings.signing')}</dt>
          <dd>{settings.webhookSigning ? t('settings.signingOn') : t('settings.signingOff')}</dd>
        </dl>
      ) : loadError ? (
        <LoadError error={loadError} failed={t('settings.loadFailed')} onRetry={() => void load()} />
      ) : (
        <p className="muted">{t('common.loading')}</p>
      )}
      <div className="engine-forms">
        <ServerEngineForm
          legend={t('settings.aiEngine')}
          noServerLabel={t('settings.aiOffline')}
          serverLabel={t('settings.aiOpenAi')}
          baseUrlPlaceholder="https://api.example.com/v1"
          saveLabel={t('settings.saveAi')}
          savedMessage={t('settings.aiSaved')}
          stored={
            ai ? (ai.engine === 'offline' ? { server: false, baseUrl: '', model: '', hasApiKey: false } : { server: true, ...ai }) : null
          }
          save={async (choice) =>
            setSettings(
              await call('settings.setAiEngine', choice ? { engine: 'openai-compatible', model: '', ...choice } : { engine: 'offline' }),
            )
          }
          test={(choice) => call('settings.testEngine', { kind: 'ai', setting: { engine: 'openai-compatible', model: '', ...choice } })}
        />
        <ServerEngineForm
          legend={t('settings.sttEngine')}
          help={t('settings.sttHelp')}
          noServerLabel={t('settings.sttOff')}
          serverLabel={t('settings.sttOpenAi')}
          baseUrlPlaceholder="http://127.0.0.1:8080/v1"
          modelOptional={{ placeholder: t('settings.modelServerDefault') }}
          saveLabel={t('settings.saveStt')}
          savedMessage={t('settings.sttSaved')}
          stored={
            stt
              ? stt.engine === 'off'
                ? { server: false, baseUrl: '', model: '', hasApiKey: false }
                : { server: true, model: '', ...stt }
              : null
          }
          save={async (choice) =>
            setSettings(await call('settings.setSttEngine', choice ? { engine: 'openai-compatible', ...choice } : { engine: 'off' }))
          }
          test={(choice) => call('settings.testEngine', { kind: 'stt', setting: { engine: 'openai-compatible', ...choice } })}
        />
      </div>
    </section>
  )
}

/** The `corsOrigins` setting: which web pages may call /v1. Saved to the data folder; counts at once. */
function CorsCard() {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const call = useCall()
  const store = useStoreApi()
  const [cors, setCors] = useState<Settings['cors'] | null>(null)
  const [text, setText] = useState('')
  const [errors, setErrors] = useState<string[]>([])
  const corsFormRef = useRef<HTMLFormElement>(null)

  const show = (value: Settings) => {
    setCors(value.cors)
    setText(value.cors.origins.join('\n'))
  }
  useEffect(() => {
    call('settings.get', {}).then(show, (caught: unknown) => store.getState().toastError(caught))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once when the card opens; show and store are stable in effect
  }, [])

  const save = async (corsOrigins: string[] | null) => {
    try {
      show(await call('settings.setCorsOrigins', { corsOrigins }))
      setErrors([])
      store.getState().toast('success', t('settings.corsSaved'))
    } catch (caught) {
      setErrors(
        isOperatorError(caught) && caught.details.length > 0 ? fieldErrorLinesOf(caught.details, locale, {}) : [errorText(caught, locale)],
      )
      requestAnimationFrame(() => focusFirstError(corsFormRef.current))
    }
  }
  const origins = () =>
    text
      .split(/[\s,]+/)
      .map((origin) => origin.trim())
      .filter(Boolean)

  return (
    <section className="card" aria-labelledby="cors-title">
      <h2 id="cors-title">{t('settings.cors')}</h2>
      <SubmitForm ref={corsFormRef} className="stack" noValidate onSubmit={() => void save(origins())}>
        <CodeField
          label={t('settings.corsOrigins')}
          hint={
            cors?.source === 'cli' ? t('settings.corsCli') : cors?.source === 'default' ? t('settings.corsDefault') : t('settings.corsHint')
          }
          errors={errors.length > 0 ? errors : undefined}
          rows={3}
          value={text}
          onChange={setText}
        />
        <div className="toolbar end">
          <button type="button" className="button" onClick={() => void save(null)}>
            {t('settings.resetCors')}
          </button>
          <button type="submit" className="button primary">
            {t('settings.saveCors')}
          </button>
        </div>
      </SubmitForm>
    </section>
  )
}
