/**
 * Text as the engine speaks it: Unicode NFC (so Arabic with combining marks compares and
 * reads the same however it was typed), control characters dropped, every run of
 * whitespace (newlines, tabs, non-breaking spaces) one space, trimmed.
 * Empty when there is nothing to say.
 */
export function normaliseSpeechText(text: string): string {
  return (
    text
      .normalize('NFC')
      // C0/C1 controls other than whitespace, and the BOM: never meant to be spoken.
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      .replace(/[\u0000-\u0008\u000E-\u001F\u007F-\u009F\uFEFF]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  )
}

/**
 * Escapes normalised text for eSpeak, which this build runs with SSML and phoneme input on:
 * `<break time="9s"/>` would be obeyed and `[[...]]` read as phoneme codes. Job text is plain
 * text, so markup characters become entities (eSpeak reads `&lt;` as "<") and `[[` is split.
 */
export function escapeForEspeak(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\[(?=\[)/g, '[ ')
}
