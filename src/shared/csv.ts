/**
 * RFC 4180 CSV: fields with a comma, quote or line break are quoted (quotes doubled), lines end
 * in CRLF. A text field that a spreadsheet would run as a formula (starting with = + - @, a tab
 * or a carriage return) is written with a leading apostrophe, so an exported transcript or
 * outcome never runs in the operator's spreadsheet. Numbers are written as they are.
 */
export function toCsv(rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n'
}

function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  if (typeof value !== 'string') return String(value)
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}
