import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { TextField } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { toolProblems, type ToolDraft, type ToolProblem } from './test-call-setup'
import { CodeField } from '../../ui/code-textarea'

const PROBLEM_KEYS: Record<ToolProblem, MessageKey> = {
  badName: 'testCall.problem.badName',
  duplicateName: 'testCall.problem.duplicateName',
  parametersNotJson: 'testCall.problem.parametersNotJson',
  parametersNotObject: 'testCall.problem.parametersNotObject',
  stubNotJson: 'testCall.problem.stubNotJson',
}

const PROBLEM_FIELD: Record<ToolProblem, 'name' | 'parameters' | 'stub'> = {
  badName: 'name',
  duplicateName: 'name',
  parametersNotJson: 'parameters',
  parametersNotObject: 'parameters',
  stubNotJson: 'stub',
}

/**
 * The tools offered to the agent, each with its stub answer. Before the call every part is
 * editable; during it only the stubs are (the agent was told the tools when the call started).
 */
export function ToolStubEditors({
  tools,
  onChange,
  stubsOnly,
}: {
  tools: ToolDraft[]
  onChange(tools: ToolDraft[]): void
  stubsOnly: boolean
}) {
  const t = useT()
  const update = (index: number, change: Partial<ToolDraft>) =>
    onChange(tools.map((tool, at) => (at === index ? { ...tool, ...change } : tool)))
  return (
    <ul className="plain-list test-call-tools">
      {tools.map((tool, index) => {
        const problems = toolProblems(tool, tools)
        const errorsOf = (field: 'name' | 'parameters' | 'stub') =>
          problems.filter((problem) => PROBLEM_FIELD[problem] === field).map((problem) => t(PROBLEM_KEYS[problem]))
        return (
          <li key={index} className="test-call-tool" data-testid="test-call-tool">
            {stubsOnly ? null : (
              <div className="test-call-tool-head">
                <TextField
                  label={t('testCall.toolName')}
                  errors={errorsOf('name')}
                  className="grow"
                  inputClassName="mono"
                  dir="ltr"
                  value={tool.name}
                  maxLength={64}
                  spellCheck={false}
                  onChange={(value) => update(index, { name: value })}
                />
                <button
                  type="button"
                  className="button ghost icon-only"
                  aria-label={t('testCall.removeTool', { name: tool.name })}
                  title={t('testCall.removeTool', { name: tool.name })}
                  onClick={() => onChange(tools.filter((_, at) => at !== index))}
                >
                  <Icon name="trash" size={16} />
                </button>
              </div>
            )}
            {stubsOnly ? null : (
              <TextField
                label={t('testCall.toolDescription')}
                value={tool.description}
                maxLength={2_000}
                onChange={(value) => update(index, { description: value })}
              />
            )}
            {stubsOnly ? null : (
              <CodeField
                label={t('testCall.toolParameters')}
                errors={errorsOf('parameters')}
                rows={4}
                value={tool.parametersText}
                onChange={(value) => update(index, { parametersText: value })}
              />
            )}
            {stubsOnly ? <code className="test-call-tool-name">{tool.name}</code> : null}
            <CodeField
              label={t('testCall.toolStub')}
              errors={errorsOf('stub')}
              rows={3}
              value={tool.stubText}
              onChange={(value) => update(index, { stubText: value })}
            />
          </li>
        )
      })}
    </ul>
  )
}
