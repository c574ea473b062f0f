import { useId, useRef, useState, type ReactNode } from 'react'
import type { EngineTestResult } from '../../../../shared/ipc/operations'
import { isOperatorError } from '../../api/operator-error'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { errorText } from '../../lib/readable-errors'
import { fieldErrorsOf } from '../../lib/field-errors'
import { formatCount } from '../../lib/format'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { Check, TextField } from '../../ui/field'
import { focusFirstError } from '../../ui/focus-first-error'
import { SubmitForm } from '../../ui/submit-form'

/** What the settings read shows of an engine that is either built in (or off) or an OpenAI-compatible server. */
export interface StoredServerEngine {
  server: boolean
  baseUrl: string
  model: string
  hasApiKey: boolean
}

/** A server to save; `apiKey` left out keeps the stored key (the key is write-only). */
export interface ServerEngineChoice {
  baseUrl: string
  model?: string
  apiKey?: string
}

interface ServerEngineFormProps {
  legend: string
  /** A line under the legend: what the choice changes. */
  help?: ReactNode
  noServerLabel: string
  serverLabel: string
  baseUrlPlaceholder: string
  /** Given when the model may be left empty (the server's default, named by this placeholder). */
  modelOptional?: { placeholder: string }
  saveLabel: string
  savedMessage: string
  /** The stored choice; null while the settings are being read. */
  stored: StoredServerEngine | null
  /** Saves a server, or none (null). Throws the operation's refusal. */
  save: (choice: ServerEngineChoice | null) => Promise<void>
  /** "Test connection" with the form's values, saved or not (the key left out: the stored one). Throws the operation's refusal. */
  test: (choice: ServerEngineChoice) => Promise<EngineTestResult>
}

/** A connection test's answer in the operator's words: what happened, then what to do. */
function testSentence(result: EngineTestResult, t: ReturnType<typeof useT>): string {
  const status = String(result.httpStatus ?? '')
  switch (result.outcome) {
    case 'reachable':
      if (result.checked === 'transcription') return t('settings.test.reachableTranscription')
      return result.model ? t('settings.test.reachableModel', { model: result.model }) : t('settings.test.reachable')
    case 'modelMissing':
      return result.models && result.models.length > 0
        ? t('settings.test.modelMissing', { model: result.model ?? '', models: result.models.join(', ') })
        : t('settings.test.modelMissingNone', { model: result.model ?? '' })
    case 'unauthorized':
      return t('settings.test.unauthorized', { status })
    case 'httpError':
      return t('settings.test.httpError', { status })
    default:
      return t(`settings.test.${result.outcome}` as MessageKey)
  }
}

type Problems = Partial<Record<'baseUrl' | 'model', MessageKey>>

function isHttpUrl(text: string): boolean {
  try {
    const { protocol, hostname } = new URL(text)
    return (protocol === 'http:' || protocol === 'https:') && hostname !== ''
  } catch {
    return false
  }
}

/** What the form's server fields lack, checked before the service sees them. */
function problemsOf(baseUrl: string, model: string, modelOptional: boolean): Problems {
  const found: Problems = {}
  const url = baseUrl.trim()
  if (url === '') found.baseUrl = 'settings.problem.baseUrlNeeded'
  else if (!isHttpUrl(url)) found.baseUrl = 'settings.problem.baseUrlInvalid'
  if (!modelOptional && model.trim() === '') found.model = 'settings.problem.modelNeeded'
  return found
}

/**
 * One engine's choice in the settings (the AI engine, speech recognition): none or an
 * OpenAI-compatible server with its base URL, model and write-only API key. Checked here first
 * (messages in the operator's language, the focus put on the first field to fix), then by the
 * service, whose refusals are shown beside their fields.
 */
export function ServerEngineForm(props: ServerEngineFormProps) {
  const { stored, modelOptional } = props
  const t = useT()
  const store = useStoreApi()
  const id = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const [server, setServer] = useState(false)
  const [baseUrl, setBaseUrl] = useState('')
  const [model, setModel] = useState('')
  const [apiKey, setApiKey] = useState('')
  const [problems, setProblems] = useState<Problems>({})
  const [refusals, setRefusals] = useState<Record<string, string[]>>({})
  const [saving, setSaving] = useState(false)
  const [testing, setTesting] = useState(false)
  /** The last test and the values it tested: shown only while the form still holds those values. */
  const [tested, setTested] = useState<{ values: string; result: EngineTestResult } | null>(null)
  const locale = useAppStore(selectLocale)

  // Shown again when the stored choice changes, not when another part of the settings does
  // (adjusted while rendering, as React advises, rather than in an effect).
  const storedText = stored ? JSON.stringify(stored) : ''
  const [shownText, setShownText] = useState('')
  if (stored && storedText !== shownText) {
    setShownText(storedText)
    setServer(stored.server)
    if (stored.server) {
      setBaseUrl(stored.baseUrl)
      setModel(stored.model)
    }
  }

  const choice = (): ServerEngineChoice => ({
    baseUrl: baseUrl.trim(),
    ...(model.trim() ? { model: model.trim() } : {}),
    ...(apiKey ? { apiKey } : {}),
  })
  const formValues = JSON.stringify([server, baseUrl.trim(), model.trim(), apiKey])

  /** Checks the form as it stands: answers whether it can be sent, else shows why and focuses the first field to fix. */
  const checkedForSending = (): boolean => {
    const found = server ? problemsOf(baseUrl, model, modelOptional !== undefined) : {}
    setProblems(found)
    setRefusals({})
    if (Object.keys(found).length === 0) return true
    requestAnimationFrame(() => focusFirstError(formRef.current))
    return false
  }

  /** The service refused the test or the save: its reasons beside their fields, the focus on the first. */
  const refused = (caught: unknown) => {
    setRefusals(
      isOperatorError(caught) && caught.details.length > 0 ? fieldErrorsOf(caught.details, locale) : { '': [errorText(caught, locale)] },
    )
    requestAnimationFrame(() => focusFirstError(formRef.current))
  }

  const testConnection = async () => {
    if (!checkedForSending()) return
    setTesting(true)
    setTested(null)
    try {
      setTested({ values: formValues, result: await props.test(choice()) })
    } catch (caught) {
      refused(caught)
    } finally {
      setTesting(false)
    }
  }
  const shownTest = tested && tested.values === formValues ? tested.result : null

  const submit = async () => {
    if (!checkedForSending()) return
    setSaving(true)
    try {
      await props.save(server ? choice() : null)
      setApiKey('')
      store.getState().toast('success', props.savedMessage)
    } catch (caught) {
      refused(caught)
    } finally {
      setSaving(false)
    }
  }

  const errorsOf = (field: ServerField) => {
    const problem = field === 'apiKey' ? undefined : problems[field]
    return problem ? [t(problem)] : refusals[field]
  }
  const unplaced = Object.entries(refusals)
    .filter(([field]) => field !== 'baseUrl' && field !== 'model' && field !== 'apiKey')
    .flatMap(([, messages]) => messages)

  return (
    <SubmitForm ref={formRef} className="stack" noValidate aria-labelledby={`${id}-legend`} onSubmit={() => void submit()}>
      <fieldset className="fieldset" aria-describedby={props.help ? `${id}-help` : undefined}>
        <legend id={`${id}-legend`}>{props.legend}</legend>
        {props.help ? (
          <p id={`${id}-help`} className="muted small fieldset-help">
            {props.help}
          </p>
        ) : null}
        <Check label={props.noServerLabel} checked={!server} radio={{ name: `${id}-engine` }} onChange={() => setServer(false)} />
        <Check label={props.serverLabel} checked={server} radio={{ name: `${id}-engine` }} onChange={() => setServer(true)} />
      </fieldset>
      {server ? (
        <ServerFields
          fields={{ baseUrl, model, apiKey }}
          set={{ baseUrl: setBaseUrl, model: setModel, apiKey: setApiKey }}
          errorsOf={errorsOf}
          baseUrlPlaceholder={props.baseUrlPlaceholder}
          modelOptional={modelOptional}
          keyKept={Boolean(stored?.server && stored.hasApiKey)}
        />
      ) : null}
      {unplaced.length > 0 ? (
        <p className="field-error" role="alert">
          {unplaced.join(' ')}
        </p>
      ) : null}
      <EngineActions
        server={server}
        ready={stored !== null}
        testing={testing}
        saving={saving}
        shownTest={shownTest}
        saveLabel={props.saveLabel}
        onTest={() => void testConnection()}
      />
    </SubmitForm>
  )
}

type ServerField = 'baseUrl' | 'model' | 'apiKey'

interface ServerFieldsProps {
  fields: Record<ServerField, string>
  set: Record<ServerField, (value: string) => void>
  errorsOf(field: ServerField): readonly string[] | undefined
  baseUrlPlaceholder: string
  modelOptional: ServerEngineFormProps['modelOptional']
  /** A key is stored: leaving the field empty keeps it. */
  keyKept: boolean
}

/** The server's base URL, model and write-only API key. */
function ServerFields({ fields, set, errorsOf, baseUrlPlaceholder, modelOptional, keyKept }: ServerFieldsProps) {
  const t = useT()
  return (
    <div className="grid-3">
      <TextField
        label={t('settings.baseUrl')}
        errors={errorsOf('baseUrl')}
        required
        dir="ltr"
        type="url"
        inputMode="url"
        spellCheck={false}
        placeholder={baseUrlPlaceholder}
        value={fields.baseUrl}
        onChange={set.baseUrl}
      />
      <TextField
        label={modelOptional ? t('settings.modelOptional') : t('settings.model')}
        errors={errorsOf('model')}
        required={!modelOptional}
        dir="ltr"
        spellCheck={false}
        maxLength={200}
        placeholder={modelOptional?.placeholder}
        value={fields.model}
        onChange={set.model}
      />
      <TextField
        label={t('settings.apiKeyOptional')}
        hint={keyKept ? t('settings.apiKeyKept') : t('settings.apiKeyWriteOnly')}
        errors={errorsOf('apiKey')}
        dir="ltr"
        type="password"
        autoComplete="off"
        maxLength={500}
        value={fields.apiKey}
        onChange={set.apiKey}
      />
    </div>
  )
}

interface EngineActionsProps {
  server: boolean
  /** The stored choice is read: until then nothing can be tested or saved. */
  ready: boolean
  testing: boolean
  saving: boolean
  /** The last test's answer, while the form still holds the values it tested. */
  shownTest: EngineTestResult | null
  saveLabel: string
  onTest(): void
}

/** "Test connection" with its answer (and what the server said when it failed), and the save button. */
function EngineActions({ server, ready, testing, saving, shownTest, saveLabel, onTest }: EngineActionsProps) {
  const t = useT()
  const id = useId()
  const locale = useAppStore(selectLocale)
  return (
    <>
      <div className="toolbar end engine-actions">
        {server ? (
          <>
            <p
              className={`engine-test small ${shownTest ? (shownTest.ok ? 'ok' : 'bad') : ''}`}
              role="status"
              aria-live="polite"
              id={`${id}-test`}
            >
              {testing ? t('settings.test.running') : null}
              {shownTest ? (
                <>
                  <span>{testSentence(shownTest, t)}</span>{' '}
                  <span className="muted">({t('unit.ms', { n: formatCount(shownTest.elapsedMs, locale) })})</span>
                </>
              ) : null}
            </p>
            <button type="button" className="button" disabled={testing || !ready} aria-describedby={`${id}-test`} onClick={onTest}>
              {t('settings.testConnection')}
            </button>
          </>
        ) : null}
        <button type="submit" className="button primary" disabled={saving || !ready}>
          {saving ? t('common.saving') : saveLabel}
        </button>
      </div>
      {shownTest && !shownTest.ok ? (
        <details className="engine-test-details small">
          <summary>{t('settings.test.serverSaid')}</summary>
          <code dir="ltr">{shownTest.message}</code>
        </details>
      ) : null}
    </>
  )
}
