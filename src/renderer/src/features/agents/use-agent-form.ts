import { useEffect, useMemo, useRef, useState } from 'react'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { isOperatorError } from '../../api/operator-error'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { diffAgentDraft, draftDiffers, draftFromAgent, type AgentDraft, type DraftProblem } from '../../lib/agent-draft'
import { forgetDraft, keepDraft, keptDraftToOffer } from '../../lib/draft-storage'
import { fieldErrorsOf } from '../../lib/field-errors'
import { isUnreachable } from '../../lib/readable-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { textBinder } from '../../ui/field'
import { focusFirstError } from '../../ui/focus-first-error'
import { useDraftGuard } from './use-draft-guard'

const PROBLEM_KEYS: Record<DraftProblem['problem'], MessageKey> = {
  duplicateParam: 'problem.duplicateParam',
  wholeSeconds: 'problem.wholeSeconds',
  // The API's refusal of a number reads the same (lib/readable-errors): the operator sees one wording either way.
  wholeNumber: 'errors.wholeNumber',
  atLeast: 'errors.atLeast',
  atMost: 'errors.atMost',
  invalidShape: 'problem.invalidShape',
  secretNeeded: 'problem.secretNeeded',
}

/** What each section of the agent editor reads and writes. */
export interface AgentSectionProps {
  draft: AgentDraft
  set<K extends keyof AgentDraft>(key: K, value: AgentDraft[K]): void
  /** The refusals (the draft's own problems, then the service's) said beside one field. */
  errorsOf(field: string): string[]
  /** A text field's value, change and refusals: `<TextField label={…} {...bind('outcome')} />`. */
  bind: ReturnType<typeof textBinder<AgentDraft>>
}

/**
 * The agent editor's draft: the edits, the refusals beside their fields, saving only what
 * changed, reverting, and the draft kept in the page's storage and offered back once.
 */
export function useAgentForm(agent: OperatorAgent) {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const [draft, setDraft] = useState<AgentDraft>(() => draftFromAgent(agent))
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({})
  const [shownProblems, setShownProblems] = useState<DraftProblem[]>([])
  const [saving, setSaving] = useState(false)
  // A draft kept from before (the service restarted, the page reloaded, a new link): offered back once.
  const [keptOffer, setKeptOffer] = useState(() => keptDraftToOffer(window.localStorage, agent))
  const formRef = useRef<HTMLFormElement>(null)

  const diff = useMemo(() => diffAgentDraft(agent, draft), [agent, draft])
  const differs = useMemo(() => draftDiffers(agent, draft), [agent, draft])

  const set: AgentSectionProps['set'] = (key, value) => {
    setDraft((current) => ({ ...current, [key]: value }))
    // A field the operator touches again loses its old refusal.
    const field =
      key === 'voiceId'
        ? 'voiceId'
        : key === 'outcomeShapeText'
          ? 'outcomeResponseShape'
          : key.startsWith('webhookAuth')
            ? 'webhookAuth'
            : key
    setServerErrors((current) => {
      if (!(field in current)) return current
      const { [field]: _gone, ...rest } = current
      return rest
    })
    setShownProblems((current) => current.filter((problem) => problem.field !== field))
  }

  const errorsOf = (field: string): string[] => [
    ...shownProblems
      .filter((problem) => problem.field === field)
      .map((problem) => t(PROBLEM_KEYS[problem.problem], { detail: problem.detail ?? '', n: problem.n ?? '' })),
    ...(serverErrors[field] ?? []),
  ]

  /** Answers whether the draft is saved now (nothing to save counts as saved). */
  const save = async (): Promise<boolean> => {
    if (!differs) return true
    if (saving) return false
    if (diff.problems.length > 0) {
      setShownProblems(diff.problems)
      requestAnimationFrame(() => focusFirstError(formRef.current))
      return false
    }
    setSaving(true)
    try {
      const saved = await call('agents.update', { id: agent.id, changes: diff.changes })
      store.getState().upsertAgent(saved)
      // Forgotten now, not by the effect: "Save and continue" may unmount the editor before it runs.
      forgetDraft(window.localStorage, agent.id)
      setServerErrors({})
      setShownProblems([])
      setDraft(draftFromAgent(saved))
      store.getState().toast('success', t('agent.saved', { name: saved.agentName }))
      return true
    } catch (error) {
      if (isOperatorError(error) && error.details.length > 0) {
        setServerErrors(fieldErrorsOf(error.details, locale))
        store.getState().toast('error', t('agent.saveRefused'))
        requestAnimationFrame(() => focusFirstError(formRef.current))
      } else if (isUnreachable(error)) {
        // Said as what happened to the save: "it keeps being tried" alone reads as if the save were retried.
        store.getState().toast('error', t('agent.saveUnreachable'))
      } else store.getState().toastError(error)
      return false
    } finally {
      setSaving(false)
    }
  }
  const revert = () => {
    setDraft(draftFromAgent(agent))
    setServerErrors({})
    setShownProblems([])
  }
  useDraftGuard({ agentId: agent.id, agentName: agent.agentName, differs, save })
  // Every change is kept in the page's storage; a draft back to the saved agent (saved, reverted) is forgotten.
  // While the kept draft waits for the operator's answer it is left as it is.
  useEffect(() => {
    if (keptOffer) return
    if (differs) keepDraft(window.localStorage, agent.id, draft)
    else forgetDraft(window.localStorage, agent.id)
  }, [keptOffer, differs, draft, agent.id])
  const kept = keptOffer
    ? {
        restore: () => (setDraft(keptOffer), setKeptOffer(null)),
        discard: () => (forgetDraft(window.localStorage, agent.id), setKeptOffer(null)),
      }
    : null

  const bind = textBinder(draft, set, errorsOf)

  return { draft, set, errorsOf, bind, generalErrors: serverErrors[''] ?? [], diff, differs, saving, save, revert, kept, formRef }
}
