// Settings > Snapshots in Chromium against the service's /app/, in Arabic at 1024×640: take a
// snapshot, change an agent, restore it behind the confirm dialog that names what will be lost,
// and the agent is as it was; the shell itself never scrolls.
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRuntime } from '../../src/service/runtime'
import { createVoiceAgent, getVoiceAgent, updateVoiceAgent } from '../../src/service/ops/voice-agents'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, collectProblems, goToNth, latinUiText, launchChromium, poll, shot } from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
})

describe('Settings > Snapshots (Arabic, 1024×640)', () => {
  it('takes a snapshot, and restores it behind the confirm dialog: the changed agent is back', { timeout: 120_000 }, async () => {
    const runtime = await createRuntime({
      dataDir: makeTempDir('voicedesk-e2e-snapshots'),
      port: 0,
      rendererDir: join(ROOT, 'out', 'renderer'),
    })
    try {
      const appUrl = `${await runtime.start()}/app/#token=${runtime.uiToken}`
      const agent = await createVoiceAgent(runtime.context, runtime.appCaller, { agentName: 'مكتب الاستقبال' })
      const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'ar' })
      const page = await context.newPage()
      page.setDefaultTimeout(STEP_MS)
      const problems = collectProblems(page)
      await page.addInitScript(() =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', 'ar'),
      )
      await page.goto(appUrl)
      await goToNth(page, 5)
      const card = page.getByRole('region', { name: 'اللقطات' })
      await card.scrollIntoViewIfNeeded()
      await card.getByText('لا توجد لقطات بعد.').waitFor()

      // A name the service would refuse is caught in the page.
      const name = card.getByLabel('اسم اللقطة', { exact: true })
      await name.fill('لقطة خاطئة')
      await card.getByRole('button', { name: 'التقط لقطة' }).click()
      await card.getByText('استخدم من 1 إلى 64 حرفًا لاتينيًا').waitFor()
      await name.fill('demo-1')
      await card.getByRole('button', { name: 'التقط لقطة' }).click()
      await card.getByRole('cell', { name: 'demo-1', exact: true }).waitFor()
      // Its contents column is optional: at 1024 px it gives way to the actions (in the DOM all the same).
      expect(await card.getByText('وكيل واحد، 0 رقم، 0 مهمة').count()).toBe(1)
      // No English left on the Arabic card (names, ids and the browser's own file picker aside).
      const latin = (await latinUiText(page)).filter((text) => !/^(No file chosen|Choose File)$/.test(text))
      expect(latin).toEqual([])
      await shot(page, 'settings-snapshots-ar')

      // The agent changes after the snapshot.
      await updateVoiceAgent(runtime.context, runtime.appCaller, agent.id, { agentName: 'اسم جديد' })
      await card.getByRole('button', { name: 'استعادة demo-1' }).click()
      const dialog = page.getByRole('dialog', { name: 'استعادة اللقطة demo-1؟' })
      await dialog.waitFor()
      // It names what will be lost: what the project holds now.
      await dialog.getByText(/كل ما في المشروع الآن \(وكيل واحد، 0 رقم، 0 مهمة\)/).waitFor()
      await shot(page, 'settings-snapshots-restore-confirm-ar')
      await dialog.getByRole('button', { name: 'استعادة', exact: true }).click()
      await page.getByText('استُعيدت اللقطة demo-1.').waitFor()
      await poll(async () => (await getVoiceAgent(runtime.context, runtime.appCaller, agent.id)).agentName).toBe('مكتب الاستقبال')

      const layout = await page.evaluate(() => {
        const g = globalThis as unknown as { document: { dir: string; scrollingElement: { scrollTop: number; scrollLeft: number } } }
        return { dir: g.document.dir, scrolled: [g.document.scrollingElement.scrollTop, g.document.scrollingElement.scrollLeft] }
      })
      expect(layout).toEqual({ dir: 'rtl', scrolled: [0, 0] })
      await shot(page, 'settings-snapshots-restored-ar')
      expect(problems).toEqual([])
      await context.close()
    } finally {
      await runtime.stop()
    }
  })
})
