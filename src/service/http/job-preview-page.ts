import { AI_PARTS } from '../../shared/api/ai-parts'
import type { Job } from '../../shared/api/jobs'

const PART_TITLES: Record<(typeof AI_PARTS)[number], string> = {
  introduction: 'Introduction',
  titles: 'Titles',
  summary: 'Summary',
  webArticleSEOFriendly: 'Web article (SEO)',
  keyTopicsWithBullets: 'Key topics',
  keywords: 'Keywords',
  threadsByInstagram: 'Threads post',
  faq: 'FAQ',
  facebookPost: 'Facebook post',
  youtubeDescription: 'YouTube description',
  twitterThread: 'X / Twitter thread',
  linkedInPost: 'LinkedIn post',
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** A segment's start as m:ss, or h:mm:ss past an hour. */
function clock(seconds: number): string {
  const whole = Math.floor(seconds)
  const pad = (value: number) => String(value).padStart(2, '0')
  const minutes = Math.floor(whole / 60)
  return minutes >= 60 ? `${Math.floor(minutes / 60)}:${pad(minutes % 60)}:${pad(whole % 60)}` : `${minutes}:${pad(whole % 60)}`
}

function textBlock(text: string): string {
  // dir="auto" lets Arabic text read right to left wherever it appears.
  return `<div class="text" dir="auto">${escapeHtml(text)}</div>`
}

/**
 * The page behind a job's `previewUrl`: its state, and its result as a person wants it:
 * a player for audio, each AI part under its name, text as text. While the job is
 * PENDING the page reloads itself every two seconds.
 */
export function renderJobPreview(job: Job, extra: { audioUrl: string | null; sourceTitle?: string }): string {
  const body: string[] = []
  if (job.status === 'FAILED' && job.error)
    body.push(`<p class="error">${escapeHtml(job.error.code)}: ${escapeHtml(job.error.message)}</p>`)
  if (job.type === 'TTS') {
    if (job.status === 'COMPLETED' && extra.audioUrl)
      body.push(`<audio controls preload="metadata" src="${escapeHtml(extra.audioUrl)}"></audio>`)
    const text = (job.jobResponse as { text?: string } | null)?.text
    if (text) body.push('<h2>Text</h2>', textBlock(text))
  } else if (job.type === 'AI_CONTENT' && job.status === 'COMPLETED' && job.jobResponse) {
    if (extra.sourceTitle) body.push(`<p class="meta">From: ${escapeHtml(extra.sourceTitle)}</p>`)
    for (const part of AI_PARTS) {
      const text = job.jobResponse[part]
      if (typeof text === 'string') body.push(`<h2>${PART_TITLES[part]}</h2>`, textBlock(text))
    }
  } else if (job.type === 'CONVERSATION' && job.jobResponse) {
    if (extra.audioUrl) body.push(`<audio controls preload="metadata" src="${escapeHtml(extra.audioUrl)}"></audio>`)
    const transcript = (job.jobResponse as { transcript?: { role: string; content: string; startTime: number }[] }).transcript ?? []
    if (transcript.length > 0) {
      body.push(
        '<h2>Transcript</h2>',
        textBlock(
          transcript
            .map(
              (turn) =>
                `[${turn.startTime.toFixed(1)} s] ${turn.role === 'agent' ? 'Agent' : 'Caller'}: ${turn.content || '(not recognised)'}`,
            )
            .join('\n'),
        ),
      )
    }
    const outcome = (job.jobResponse as { outcomeResult?: unknown }).outcomeResult
    if (outcome !== undefined && outcome !== null) body.push('<h2>Outcome</h2>', textBlock(JSON.stringify(outcome, null, 2)))
  } else if ((job.type === 'TRANSCRIPTION' || job.type === 'TRANSLATION') && job.status === 'COMPLETED' && job.jobResponse) {
    if (extra.audioUrl) body.push(`<audio controls preload="metadata" src="${escapeHtml(extra.audioUrl)}"></audio>`)
    const { text, segments } = job.jobResponse as { text?: string; segments?: { start: number; text: string }[] }
    if (segments?.length)
      body.push('<h2>Transcript</h2>', textBlock(segments.map((segment) => `[${clock(segment.start)}] ${segment.text}`).join('\n')))
    else body.push('<h2>Transcript</h2>', textBlock(text || '(no speech was heard)'))
  } else if (job.jobResponse) {
    body.push('<h2>Result</h2>', textBlock(JSON.stringify(job.jobResponse, null, 2)))
  }
  if (job.status === 'PENDING' || job.status === 'IN_PROGRESS')
    body.push('<p class="meta">Working on it… this page refreshes by itself.</p>')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${job.status === 'PENDING' ? '<meta http-equiv="refresh" content="2">' : ''}
<title>${escapeHtml(job.title)} · VoiceDesk</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 52rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
  .meta { color: GrayText; }
  .status { font-weight: 600; }
  .error { color: #c62828; }
  .text { white-space: pre-wrap; border-left: 3px solid GrayText; padding-left: 0.75rem; }
  audio { width: 100%; margin: 1rem 0; }
</style>
</head>
<body>
<h1 dir="auto">${escapeHtml(job.title)}</h1>
<p class="meta">${escapeHtml(job.type)} · <span class="status">${escapeHtml(job.status)}</span> · ${escapeHtml(job.createdAt)}${
    job.usageTime ? ` · ${escapeHtml(job.usageTime)} s` : ''
  } · ${job.totalCost} credits</p>
${body.join('\n')}
</body>
</html>
`
}
