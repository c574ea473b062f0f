/** Puts `text` on the clipboard; where the Clipboard API is refused (no focus, permissions), by select-and-copy. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.insetBlockStart = '0'
    area.style.opacity = '0'
    document.body.append(area)
    area.select()
    document.execCommand('copy')
    area.remove()
  }
}

/** Offers `text` as a download named `fileName` (the browser's or Electron's save). */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its copy once clicked; the object URL may go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
