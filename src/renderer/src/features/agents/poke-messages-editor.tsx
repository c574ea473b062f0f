import { AGENT_LIMITS } from '../../../../shared/api/voice-agents'
import { useT } from '../../i18n/use-t'
import { Icon } from '../../ui/icon'

/** What the agent says when the caller stays silent: an ordered list. */
export function PokeMessagesEditor({ messages, onChange }: { messages: string[]; onChange(messages: string[]): void }) {
  const t = useT()
  const move = (from: number, to: number) => {
    const next = [...messages]
    const [item] = next.splice(from, 1)
    if (item === undefined) return // `from` is past the list's end: nothing to move.
    next.splice(to, 0, item)
    onChange(next)
  }
  return (
    <div className="rows-editor">
      {messages.length === 0 ? <p className="muted">{t('agent.noPokes')}</p> : null}
      <ol className="plain-list">
        {messages.map((message, index) => (
          <li className="row-edit poke" key={index}>
            <input
              className="input"
              dir="auto"
              value={message}
              maxLength={AGENT_LIMITS.pokeMessage}
              aria-label={t('agent.pokeN', { n: index + 1 })}
              onChange={(event) => onChange(messages.map((current, at) => (at === index ? event.target.value : current)))}
            />
            <button
              type="button"
              className="button icon-button ghost"
              disabled={index === 0}
              aria-label={t('agent.pokeUp', { n: index + 1 })}
              onClick={() => move(index, index - 1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="button icon-button ghost"
              disabled={index === messages.length - 1}
              aria-label={t('agent.pokeDown', { n: index + 1 })}
              onClick={() => move(index, index + 1)}
            >
              ↓
            </button>
            <button
              type="button"
              className="button icon-button ghost"
              aria-label={t('agent.pokeRemove', { n: index + 1 })}
              onClick={() => onChange(messages.filter((_, at) => at !== index))}
            >
              <Icon name="trash" size={16} />
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button ghost"
        disabled={messages.length >= AGENT_LIMITS.pokeMessages}
        onClick={() => onChange([...messages, ''])}
      >
        <Icon name="plus" size={16} />
        <span>{t('agent.addPoke')}</span>
      </button>
    </div>
  )
}
