import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import type { PhoneNumber } from '../../../../shared/api/phone-numbers'
import type { VoiceAgent } from '../../../../shared/api/voice-agents'
import { useT, type Translate } from '../../i18n/use-t'
import type { UiLocale } from '../../i18n/dictionary'
import { pluralKey } from '../../i18n/plural'
import { formatCount } from '../../lib/format'
import { AGENT_CHOICES_PAGE } from '../../store/agents-slice'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { emptyPagedList, hasMore, moreCount, type PagedList } from '../../store/paged-list'
import { selectAgentChoices, selectLocale } from '../../store/selectors'
import { Icon } from '../../ui/icon'
import { langTag } from '../../lib/voice-text'

/** Typing waits this long before asking the service, so a name typed quickly is one request. */
const SEARCH_DELAY_MS = 150

const CLOSED: PagedList<VoiceAgent> = emptyPagedList()

type Choice = { kind: 'none' } | { kind: 'agent'; agent: VoiceAgent } | { kind: 'more'; count: number }

/**
 * The agent a number rings: a combobox that searches every agent as the operator types (the
 * WAI-ARIA "combobox with listbox popup" pattern). A <select> could hold only the agents loaded;
 * this reaches all of them, a page of matches at a time with "Show more" at the end. The popup
 * is a manual popover in the top layer, anchored to the field (CSS anchor positioning), so the
 * table's scrolling box does not clip it and it mirrors in right-to-left.
 */
export function AgentPicker({ number, onChoose }: { number: PhoneNumber; onChoose(agentId: string): void }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const baseId = useId()
  const listId = `${baseId}-list`
  const statusId = `${baseId}-status`
  const anchorName = `--agent-picker-${baseId.replace(/[^A-Za-z0-9_-]/g, '')}`
  const optionId = (index: number) => `${baseId}-option-${index}`
  const inputRef = useRef<HTMLInputElement>(null)
  const popupRef = useRef<HTMLDivElement>(null)
  const { open, text, active, setActive, choices, options, query, openList, close, choose, type, onKeyDown } = usePickerState(
    number,
    onChoose,
    baseId,
  )
  usePopoverShown(popupRef, open)

  const status = open ? statusOf(choices, query, locale, t) : ''

  return (
    <div className="picker" style={{ anchorName }}>
      <input
        ref={inputRef}
        className="input picker-input"
        role="combobox"
        dir="auto"
        autoComplete="off"
        spellCheck={false}
        aria-label={t('numbers.assignTo', { number: number.number })}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        aria-describedby={open ? statusId : undefined}
        placeholder={t('numbers.pickerPlaceholder')}
        value={text}
        onChange={(event) => type(event.target.value)}
        onClick={openList}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      <button
        type="button"
        className="picker-toggle"
        tabIndex={-1}
        aria-label={t('numbers.pickerToggle', { number: number.number })}
        aria-expanded={open}
        aria-controls={listId}
        // Keeps focus in the field: the list closes when the field loses it.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => (open ? close() : (openList(), inputRef.current?.focus()))}
      >
        <Icon name="chevron-down" size={16} />
      </button>
      {/* Pressing anywhere in the popup (an option, its scrollbar) keeps focus in the field. */}
      <div
        ref={popupRef}
        popover="manual"
        className="picker-popup"
        style={{ positionAnchor: anchorName }}
        onMouseDown={(event) => event.preventDefault()}
      >
        <ul id={listId} role="listbox" aria-label={t('numbers.assignTo', { number: number.number })} className="picker-list">
          {options.map((choice, index) => {
            const selected =
              choice.kind === 'agent' ? choice.agent.id === number.voiceAgentId : choice.kind === 'none' && number.voiceAgentId === null
            return (
              <li
                key={choice.kind === 'agent' ? choice.agent.id : choice.kind}
                id={optionId(index)}
                role="option"
                aria-selected={selected}
                className={`picker-option${index === active ? ' active' : ''}${choice.kind === 'more' ? ' more' : ''}`}
                onMouseMove={() => index !== active && setActive(index)}
                onClick={() => choose(choice)}
              >
                <ChoiceText choice={choice} loadingMore={choices.loadingMore} />
                {selected ? <Icon name="check" size={14} /> : null}
              </li>
            )
          })}
        </ul>
        <p id={statusId} className="picker-status" aria-live="polite">
          {status}
        </p>
      </div>
    </div>
  )
}

/**
 * What the picker is doing: open or not, the text typed, the active option, the matches (searched
 * once the operator pauses), and the keys of the combobox pattern.
 */
function usePickerState(number: PhoneNumber, onChoose: (agentId: string) => void, baseId: string) {
  const store = useStoreApi()
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const [active, setActive] = useState(-1)
  const currentName = number.voiceAgent?.name ?? ''
  // Only the open picker follows the matches: a table of closed ones does not re-render as they come.
  const choices = useAppStore((state) => (open ? selectAgentChoices(state) : CLOSED))
  const options = open ? choicesOf(choices) : []

  // Typing searches, once the operator pauses.
  const query = open && text !== currentName ? text : ''
  useEffect(() => {
    if (!open) return
    const timer = setTimeout(() => void store.getState().searchAgentChoices(query), query === '' ? 0 : SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [open, query, store])
  useEffect(() => {
    if (active >= 0) document.getElementById(`${baseId}-option-${active}`)?.scrollIntoView({ block: 'nearest' })
  }, [active, baseId])
  const openList = () => {
    if (open) return
    setText(currentName)
    setActive(-1)
    setOpen(true)
  }
  const close = () => {
    setOpen(false)
    setActive(-1)
  }
  const choose = (choice: Choice | undefined) => {
    if (!choice) return
    if (choice.kind === 'more') {
      // The first new agent takes the place of "Show more": the active option stays put.
      void store.getState().loadMoreAgentChoices()
      return
    }
    close()
    const id = choice.kind === 'agent' ? choice.agent.id : ''
    if (id !== (number.voiceAgentId ?? '')) onChoose(id)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        if (!open) openList()
        else if (!event.altKey) setActive((index) => (index >= last ? 0 : index + 1))
        break
      case 'ArrowUp':
        event.preventDefault()
        if (!open) openList()
        else setActive((index) => (index <= 0 ? last : index - 1))
        break
      case 'Enter':
        // Enter that ends an IME composition is the input method's, not a choice.
        if (event.nativeEvent.isComposing) break
        if (open && active >= 0) {
          event.preventDefault()
          choose(options[active])
        }
        break
      case 'Escape':
        if (open) {
          event.preventDefault()
          close()
        }
        break
      case 'Tab':
        close()
        break
    }
  }

  const type = (typed: string) => {
    if (!open) setOpen(true)
    setText(typed)
    setActive(-1)
  }

  return { open, text: open ? text : currentName, active, setActive, choices, options, query, openList, close, choose, type, onKeyDown }
}

/** The open list's options: "unassigned", the agents loaded, and "Show more" while more match. */
function choicesOf(choices: PagedList<VoiceAgent>): Choice[] {
  return [
    { kind: 'none' },
    ...choices.items.map((agent): Choice => ({ kind: 'agent', agent })),
    ...(hasMore(choices) && !choices.loading ? [{ kind: 'more', count: moreCount(choices, AGENT_CHOICES_PAGE) } as const] : []),
  ]
}

/** The popover follows `open` (it lives in the top layer, outside React's rendering). */
function usePopoverShown(popupRef: RefObject<HTMLElement | null>, open: boolean) {
  useEffect(() => {
    const popup = popupRef.current
    if (!popup) return
    if (open && !popup.matches(':popover-open')) popup.showPopover()
    if (!open && popup.matches(':popover-open')) popup.hidePopover()
  }, [popupRef, open])
}

/** What the open list holds, for the live region: loading, an error, no match, or how many match. */
function statusOf(choices: PagedList<VoiceAgent>, query: string, locale: UiLocale, t: Translate): string {
  if (choices.loading && choices.items.length === 0) return t('common.loading')
  if (choices.error) return choices.error
  if (choices.items.length === 0 && query.trim() !== '') return t('numbers.pickerNoMatch', { search: query.trim() })
  return t(pluralKey(locale, choices.filtered, { one: 'numbers.pickerMatchesOne', other: 'numbers.pickerMatches' }), {
    shown: formatCount(choices.items.length, locale),
    filtered: formatCount(choices.filtered, locale),
  })
}

/** One option's text: "unassigned", "Show n more", or an agent's name with its language and voice. */
function ChoiceText({ choice, loadingMore }: { choice: Choice; loadingMore: boolean }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  if (choice.kind === 'none') return <span className="muted">{t('numbers.unassignedOption')}</span>
  if (choice.kind === 'more')
    return <span>{loadingMore ? t('common.loading') : t('numbers.pickerMore', { n: formatCount(choice.count, locale) })}</span>
  return (
    <>
      <span className="picker-name" dir="auto">
        {choice.agent.agentName}
      </span>
      <span className="item-meta">
        <span className="tag">{langTag(choice.agent.lang, t)}</span> <bdi>{choice.agent.voiceRecord.name}</bdi>
      </span>
    </>
  )
}
