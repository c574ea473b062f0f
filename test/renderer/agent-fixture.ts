import type { OperatorAgent } from '../../src/shared/ipc/operations'

/** A stored agent as agents.get answers it. */
export function agentFixture(overrides: Partial<OperatorAgent> = {}): OperatorAgent {
  return {
    id: '0b6f3f9e-5a43-4c1e-9d55-0f2b1f7d9a01',
    agentName: 'Front desk',
    greetingMessage: 'Hello {{customer}}, this is {{agentName}}.',
    description: 'Answers the phone',
    preamble: 'You are {{agentName}}.',
    lang: 'en',
    pokeMessages: ['Are you still there?'],
    realTime: false,
    silenceThreshold: 5,
    interrupt: true,
    endOfTurnSilenceMs: 600,
    maxCallerTurnSeconds: 15,
    outcome: 'Summarise the call.',
    outcomeResponseShape: { type: 'object', properties: { resolved: { type: 'boolean' } }, required: ['resolved'] },
    projectId: '4d7b8f1e-2222-4c1e-9d55-0f2b1f7d9a02',
    apiKeyId: '4d7b8f1e-3333-4c1e-9d55-0f2b1f7d9a03',
    voiceRecordId: 'fe68337a-10d3-4648-99bb-2bb04554b6cf',
    voiceRecord: { id: 'fe68337a-10d3-4648-99bb-2bb04554b6cf', name: 'Ava', lang: 'en', gender: 'female' },
    webhookUrl: null,
    webhookAuth: null,
    params: { agentName: 'Emma', customer: 'Dana' },
    tools: { genderDetection: false, smartCallEnd: true },
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  }
}
