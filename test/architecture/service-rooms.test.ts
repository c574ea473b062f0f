import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { arrowsOf, cruiseSrc, ROOT } from './cruise'

/**
 * The rooms inside src/service (.dependency-cruiser.cjs, SERVICE_ROOM_RULES): only the entry
 * points reach the wiring, the transports stay apart, and use cases, settings and features never
 * import a transport. Each rule has a planted crossing in fixtures/service-rooms that must fail,
 * so the check cannot pass vacuously; the fixture's allowed arrows must pass.
 */
const FIXTURE = resolve(ROOT, 'test/architecture/fixtures/service-rooms')

describe('the rooms of src/service', () => {
  it('catches each planted crossing, and lets the allowed arrows through', async () => {
    const result = await cruiseSrc(FIXTURE)
    expect(arrowsOf(result).sort()).toEqual([
      'src/main/imports-http.ts -> src/service/http/route.ts (service-transports-apart)', // the desktop's IPC transport -> HTTP
      'src/service/http/imports-compose.ts -> src/service/compose/wiring.ts (service-compose-from-entry-points)', // a transport -> the wiring
      'src/service/http/imports-sip.ts -> src/service/sip/line.ts (service-sip-line-apart)', // HTTP -> the SIP line
      'src/service/operator/imports-http.ts -> src/service/http/route.ts (service-transports-apart)', // the operator bridge -> HTTP
      'src/service/ops/imports-runtime.ts -> src/service/runtime.ts (service-compose-from-entry-points)', // a use case -> the entry point
      'src/service/ops/imports-runtime.ts -> src/service/runtime.ts (service-use-cases-below-transports)',
      'src/service/ops/imports-sip.ts -> src/service/sip/line.ts (service-use-cases-below-transports)', // a use case -> the SIP line
      'src/service/settings/imports-http.ts -> src/service/http/route.ts (service-settings-not-http)', // settings -> a transport
      'src/service/settings/imports-operator.ts -> src/service/operator/calls-a-use-case.ts (service-use-cases-below-transports)', // settings -> the bridge
      'src/service/sip/imports-http.ts -> src/service/http/route.ts (service-transports-apart)', // the SIP line -> HTTP
      'src/service/state/imports-cli.ts -> src/service/cli/command.ts (service-use-cases-below-transports)', // a feature -> the CLI
    ])
    // The allowed arrows were seen: the CLI joins the wiring, runtime.ts re-exports it, the bridge calls a use case.
    const arrows = result.modules.flatMap((module) => module.dependencies.map((dependency) => `${module.source} -> ${dependency.resolved}`))
    expect(arrows).toEqual(
      expect.arrayContaining([
        'src/service/cli/command.ts -> src/service/compose/wiring.ts',
        'src/service/runtime.ts -> src/service/compose/wiring.ts',
        'src/service/operator/calls-a-use-case.ts -> src/service/ops/use-case.ts',
      ]),
    )
  })
})
