import { useCallback, useEffect, useState } from 'react'
import { TestSuiteSchema, type Scenario, type TestSuite } from '../../../../shared/api/test-suites'
import type { TestsApi } from '../../api/tests-api'
import { useT } from '../../i18n/use-t'
import { errorText } from '../../lib/readable-errors'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { zodIssues } from './zod-issues'

/** The suite as saved, and the one being edited (unsaved until Save). */
interface SuiteState {
  loading: boolean
  error: string | null
  /** The stored suite's JSON; null when the agent has none yet. */
  saved: string | null
  /** The suite being edited; null before one is generated, imported or added to. */
  draft: TestSuite | null
}

const jsonOf = (suite: TestSuite | null) => (suite === null ? null : JSON.stringify(suite))

/** An agent's test suite in the Tests tab: read, edited scenario by scenario, generated, imported, saved. */
export function useTestSuite(api: TestsApi, agentId: string) {
  const t = useT()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const [state, setState] = useState<SuiteState>({ loading: true, error: null, saved: null, draft: null })
  const [busy, setBusy] = useState<'saving' | 'generating' | null>(null)
  /** Why an imported file or a save was refused, field by field. */
  const [problems, setProblems] = useState<string[]>([])

  const load = useCallback(async () => {
    setState((current) => ({ ...current, loading: true, error: null }))
    try {
      const stored = await api.getSuite(agentId)
      setState({ loading: false, error: null, saved: jsonOf(stored?.suite ?? null), draft: stored?.suite ?? null })
    } catch (error) {
      setState((current) => ({ ...current, loading: false, error: errorText(error, locale) }))
    }
  }, [api, agentId, locale])

  useEffect(() => {
    void load()
  }, [load])

  const setScenarios = (scenarios: Scenario[]) => {
    setProblems([])
    setState((current) => ({ ...current, draft: { ...current.draft, scenarios } }))
  }

  const generate = async () => {
    setBusy('generating')
    setProblems([])
    try {
      const starter = await api.starterSuite(agentId)
      setState((current) => ({ ...current, draft: starter }))
      store.getState().toast('success', t('tests.generated', { n: starter.scenarios.length }))
    } catch (error) {
      store.getState().toastError(error)
    } finally {
      setBusy(null)
    }
  }

  /** A suite file read as the service will: refused with its problems, or taken as the draft. */
  const importText = (text: string) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      setProblems([t('tests.notJson', { reason: error instanceof Error ? error.message : String(error) })])
      return
    }
    const result = TestSuiteSchema.safeParse(parsed)
    if (!result.success) {
      setProblems(zodIssues(result.error))
      return
    }
    setProblems([])
    setState((current) => ({ ...current, draft: result.data }))
    store.getState().toast('success', t('tests.imported', { n: result.data.scenarios.length }))
  }

  const save = async () => {
    if (state.draft === null) return
    const checked = TestSuiteSchema.safeParse(state.draft)
    if (!checked.success) {
      setProblems(zodIssues(checked.error))
      return
    }
    setBusy('saving')
    try {
      const stored = await api.putSuite(agentId, checked.data)
      setProblems([])
      setState((current) => ({ ...current, saved: jsonOf(stored.suite), draft: stored.suite }))
      store.getState().toast('success', t('tests.saved'))
    } catch (error) {
      setProblems([errorText(error, locale)])
    } finally {
      setBusy(null)
    }
  }

  const revert = () => {
    setProblems([])
    setState((current) => ({ ...current, draft: current.saved === null ? null : (JSON.parse(current.saved) as TestSuite) }))
  }

  return {
    ...state,
    unsaved: jsonOf(state.draft) !== state.saved,
    busy,
    problems,
    reload: load,
    setScenarios,
    generate,
    importText,
    save,
    revert,
  }
}
