// Shared by the end-to-end files: the browser, screenshots, patience. The page functions run in
// Chromium; this file is type-checked without DOM types, hence the narrow casts.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { createRuntime, type Runtime } from '../../src/service/runtime'
import { ROOT, assertCliBuilt } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

/** CI installs Debian's chromium; VOICEDESK_CHROMIUM points elsewhere when needed. */
export const CHROMIUM = process.env.VOICEDESK_CHROMIUM ?? '/usr/bin/chromium'
export const SHOTS = join(ROOT, 'test-artifacts', 'screenshots')
/**
 * Screenshots are for a person walking the UI (VOICEDESK_SCREENSHOTS=1 npx vitest run test/e2e/…);
 * nobody looks at them in a full run, where some hundred PNGs cost CPU the other files need.
 */
export const SCREENSHOTS_WANTED = process.env.VOICEDESK_SCREENSHOTS === '1'
/** Two slow cores: the service, eSpeak and Chromium share them. */
export const STEP_MS = 30_000

/**
 * The fork's Chromium without a microphone, shared by the files that run one after the other in
 * it (vitest.config's isolate: false keeps this module's state between them): a launch costs about
 * 3 s of CPU and 3-5 s of wall. Each file still gets a browser of its own as far as it can tell:
 * its close() closes every context (each file's pages are in contexts of its own; files in a fork
 * never overlap) and leaves the process running for the next file. Chromium ends with the fork
 * (its DevTools pipe closes, even on SIGKILL).
 */
let sharedPlain: Promise<Browser> | undefined

/**
 * Debian's chromium, headless. With `microphoneWav`, its fake microphone plays that WAV (the file
 * must outlive the browser) and pages may play audio without a gesture: a browser of its own.
 * Without, the fork's shared one (above).
 */
export async function launchChromium(options: { microphoneWav?: string } = {}): Promise<Browser> {
  if (options.microphoneWav !== undefined) return startChromium(options)
  const running = sharedPlain && (await sharedPlain.catch(() => undefined))
  if (running?.isConnected()) return running
  sharedPlain = startChromium().then((browser) => {
    browser.close = async () => {
      await Promise.all(browser.contexts().map((context) => context.close()))
    }
    return browser
  })
  return sharedPlain
}

async function startChromium(options: { microphoneWav?: string } = {}): Promise<Browser> {
  assertCliBuilt()
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('out/renderer/index.html is missing: run "npm run build" first.')
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is not at ${CHROMIUM}: install it ("apt-get install chromium") or set VOICEDESK_CHROMIUM.`)
  const microphone = options.microphoneWav
    ? [
        '--autoplay-policy=no-user-gesture-required',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${options.microphoneWav}`,
      ]
    : []
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...microphone],
    timeout: 60_000,
  })
}

/** expect.poll with this suite's patience. */
export function poll<T>(read: () => T | Promise<T>, timeout = STEP_MS) {
  return expect.poll(read, { timeout, interval: 100 })
}

/** Saves test-artifacts/screenshots/<name>.png when VOICEDESK_SCREENSHOTS=1. */
export async function shot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false })
}

/** The nth sidebar entry (0 agents, 1 templates, 2 numbers, 3 jobs, 4 webhooks, 5 settings, 6 requests, 7 faults, 8 analytics): the same in every language. */
export async function goToNth(page: Page, index: number): Promise<void> {
  await page.locator('nav .nav-item').nth(index).click()
}

/** Pages' own errors and console errors, collected to be asserted empty. */
export function collectProblems(page: Page, ignore: RegExp[] = []): string[] {
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    const text = `console: ${message.text()} (${message.location().url})`
    if (message.type() === 'error' && !ignore.some((pattern) => pattern.test(text))) problems.push(text)
  })
  return problems
}

/** The element with focus, described (tag, label) for comparisons. */
export function activeElementLabel(page: Page): Promise<string> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as {
      document: { activeElement: { tagName: string; id: string; getAttribute(name: string): string | null } | null }
    }
    const active = document.activeElement
    return active ? `${active.tagName}#${active.id}:${active.getAttribute('aria-label') ?? ''}` : ''
  })
}

/**
 * Visible text of the page written in Latin letters, outside what is data: names and titles the
 * operator typed (dir="auto"), ids, URLs, keys, code and JSON (dir="ltr", code, pre), and words
 * marked as another language (lang="en": the language switch), names (bdi). The brand name, quoted
 * commands and the names of technical things (JSON, OpenAI, schema keywords) are allowed.
 */
export function latinUiText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    interface Node_ {
      nodeType: number
      textContent: string | null
      parentElement: Element_ | null
    }
    interface Element_ {
      closest(selector: string): Element_ | null
      getClientRects(): { length: number }
      tagName: string
    }
    const g = globalThis as unknown as {
      document: { body: unknown; createTreeWalker(root: unknown, what: number): { nextNode(): Node_ | null } }
      NodeFilter: { SHOW_TEXT: number }
    }
    const found = new Set<string>()
    const walker = g.document.createTreeWalker(g.document.body, g.NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '')
        .replace(/VoiceDesk/g, '')
        // Quoted commands and headers, placeholders, and technical names an operator types as written.
        .replace(
          /«[^»]*»|\{\{[^}]*\}\}|\/v1|call\.ended|\b(JSON|OpenAI|eSpeak NG|SIP|UDP|TCP|type|properties|required|items|description|enum)\b/g,
          '',
        )
        .trim()
      const element = node.parentElement
      if (!/[A-Za-z]/.test(text) || !element || element.getClientRects().length === 0) continue
      // Data: what the operator typed (dir="auto"), ids and URLs (dir="ltr", code, pre), names (bdi).
      if (element.closest('[dir="ltr"], [dir="auto"], bdi, code, pre, [lang="en"], audio, script, style')) continue
      found.add(text)
    }
    return [...found]
  })
}

export interface ConsoleOptions {
  /** Names the data folder. */
  label: string
  locale?: 'en' | 'ar'
  viewport?: { width: number; height: number }
  timezoneId?: string
  /** Console errors that are expected (a 404 the page reads as an answer), not problems. */
  ignore?: RegExp[]
  /** The service's SIP line (none when left out). */
  sip?: { port: number }
}

/**
 * The operator console on a fresh service: a runtime on a new data folder (`prepare` runs before
 * it starts), its UI opened with the UI token in a new page (Arabic chosen before the first
 * load when asked), `run`, then no page error or failed request allowed; closed either way.
 */
export async function openConsole(
  browser: Browser,
  options: ConsoleOptions,
  prepare: (runtime: Runtime) => Promise<void>,
  run: (page: Page, runtime: Runtime) => Promise<void>,
): Promise<void> {
  const locale = options.locale ?? 'en'
  const runtime = await createRuntime({
    dataDir: makeTempDir(options.label),
    port: 0,
    rendererDir: join(ROOT, 'out', 'renderer'),
    ...(options.sip ? { sip: options.sip } : {}),
  })
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1360, height: 860 },
    locale: locale === 'ar' ? 'ar' : 'en-US',
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  })
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_MS)
  const problems = collectProblems(page, options.ignore)
  try {
    if (locale === 'ar') {
      await page.addInitScript(() =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', 'ar'),
      )
    }
    await prepare(runtime)
    const url = await runtime.start()
    await page.goto(`${url}/app/#token=${runtime.uiToken}`)
    await run(page, runtime)
    expect(problems).toEqual([])
  } finally {
    await context.close()
    await runtime.stop()
  }
}

/** Where the window and the shell are scrolled: all zero while the shell never moved (panes scroll inside themselves). */
export function shellOffsets(page: Page) {
  return page.evaluate(() => {
    const g = globalThis as unknown as {
      document: {
        scrollingElement: { scrollTop: number; scrollLeft: number }
        querySelector(selector: string): { scrollTop: number; scrollLeft: number } | null
      }
    }
    const offsets = (element: { scrollTop: number; scrollLeft: number } | null) =>
      element ? [element.scrollTop, element.scrollLeft] : [0, 0]
    return {
      document: offsets(g.document.scrollingElement),
      app: offsets(g.document.querySelector('.app')),
      content: offsets(g.document.querySelector('.content')),
      root: offsets(g.document.querySelector('#root')),
    }
  })
}

/** shellOffsets of a shell that never scrolled. */
export const SHELL_AT_REST = { document: [0, 0], app: [0, 0], content: [0, 0], root: [0, 0] }
