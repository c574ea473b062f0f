import type { JobListItem } from '../../src/shared/api/jobs'

/** A jobs-list row whose id and title come from `index`, for the store tests' fake services. */
export function jobRowFixture(index: number, status: JobListItem['status'] = 'COMPLETED'): JobListItem {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    title: `Job ${index}`,
    type: 'TTS',
    url: null,
    status,
    cost: 1,
    systemModelKey: 'espeak-ng',
    relevantJobId: null,
    attributes: {
      apiKey: 'vd_…',
      mediaUrl: null,
      model: 'espeak',
      agentName: null,
      duration: null,
      voice: null,
      aiContentParts: [],
      sourceJob: null,
    },
    apiKey: 'vd_…',
    createdBy: 'user',
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
  }
}
