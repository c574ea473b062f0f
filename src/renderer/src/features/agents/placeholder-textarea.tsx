import { useLayoutEffect, useRef } from 'react'
import { splitPlaceholders } from '../../../../shared/text/placeholders'

interface PlaceholderTextareaProps {
  id: string
  value: string
  params: Record<string, string>
  rows: number
  maxLength?: number
  describedBy: string | undefined
  invalid: boolean
  onChange(value: string): void
}

/**
 * A real <textarea> (undo, IME, spellcheck, assistive technology all as usual) with its
 * {{placeholders}} highlighted: a mirror behind it lays out the same text with the same font,
 * padding, border, wrapping and scrollbar gutter, transparent but for the marks' backgrounds,
 * and follows the textarea's scrolling. Known placeholders (in params) and unknown ones differ
 * in colour and in line (solid / dashed); the chips under the field say it in words.
 */
export function PlaceholderTextarea({ id, value, params, rows, maxLength, describedBy, invalid, onChange }: PlaceholderTextareaProps) {
  const mirrorRef = useRef<HTMLDivElement>(null)
  const textareaRef = useRef<HTMLTextAreaElement>(null)

  const syncScroll = () => {
    const mirror = mirrorRef.current
    const textarea = textareaRef.current
    if (!mirror || !textarea) return
    mirror.scrollTop = textarea.scrollTop
    mirror.scrollLeft = textarea.scrollLeft
  }
  // A change of text can scroll the textarea (to the caret) before any scroll event.
  useLayoutEffect(syncScroll, [value])

  return (
    <div className="highlight-field">
      <div ref={mirrorRef} className="input highlight-mirror" dir="auto" aria-hidden="true" data-testid="placeholder-highlights">
        {splitPlaceholders(value, params).map((segment, index) =>
          segment.kind === 'text' ? (
            segment.text
          ) : (
            <mark
              key={index}
              className={segment.state === 'filled' ? 'ph-mark ph-mark-known' : 'ph-mark ph-mark-missing'}
              data-placeholder={segment.name}
            >
              {segment.raw}
            </mark>
          ),
        )}
        {/* A trailing newline makes a last, empty line in the textarea: the mirror needs it too. */}
        {'\u200b'}
      </div>
      <textarea
        ref={textareaRef}
        id={id}
        className="input highlight-textarea"
        dir="auto"
        rows={rows}
        maxLength={maxLength}
        value={value}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(event) => onChange(event.target.value)}
        onScroll={syncScroll}
      />
    </div>
  )
}
