// Browser mode from the real CLI (out/main/cli.js and out/renderer, built by `npm run build`):
// the banner's link opens the built UI, and its token opens /ipc.
import { beforeAll, describe, expect, it } from 'vitest'
import { assertCliBuilt, startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

const OPERATOR_UI = /^Operator UI: (http:\/\/127\.0\.0\.1:\d+)\/app\/#token=([A-Za-z0-9_-]{43})$/m

beforeAll(() => {
  assertCliBuilt()
})

describe('voicedesk serve: the operator UI in a browser', () => {
  it('prints a link whose token opens /ipc, and serves the built renderer at /app/', async () => {
    const server = await startServe(makeTempDir(), ['--port', '0'], { env: { VOICEDESK_API_KEY: 'vd_banner_test_key_0123456789' } })
    const [, base, token] = OPERATOR_UI.exec(server.cli.stdout()) ?? []
    expect(base, server.cli.stdout()).toBe(server.url)

    const info = await fetch(`${base}/ipc/service.info`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    expect(info.status).toBe(200)
    expect(await info.json()).toMatchObject({ ok: true, data: { host: 'browser', url: server.url } })

    const page = await fetch(`${base}/app/`)
    expect(page.status, 'out/renderer must be built').toBe(200)
    const html = await page.text()
    expect(html).toContain('Content-Security-Policy')
    const script = /<script type="module"[^>]+src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1]
    expect(script, html).toBeDefined()
    const bundle = await fetch(`${base}/app/${script}`)
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get('content-type')).toMatch(/javascript/)
  })
})
