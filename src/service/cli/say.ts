/** Writes a line to stdout; a closed stdout (`voicedesk serve | head -3`) must not stop the service. */
export function say(text: string): void {
  if (process.stdout.writable) process.stdout.write(text + '\n')
}
process.stdout.on('error', () => {
  // EPIPE and the like: the reader went away, the service goes on.
})
