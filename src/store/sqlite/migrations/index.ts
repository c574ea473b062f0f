import type { Migration } from '../migrate'
import { initial } from './0001-initial'
import { jobs } from './0002-jobs'
import { webhooks } from './0003-webhooks'
import { shortKeyHints } from './0004-short-key-hints'
import { conversations } from './0005-conversations'
import { jobSourceUrlAndProgress } from './0006-job-source-url-and-progress'
import { agentTurnTaking } from './0007-agent-turn-taking'
import { agentVersions } from './0008-agent-versions'

import { agentTestRuns } from './0009-agent-test-runs'
import { voiceDictionaries } from './0010-voice-dictionaries'
import { callAnalytics } from './0011-call-analytics'
import { analyticsRollup } from './0012-analytics-rollup'
import { sipUsers } from './0013-sip-users'
/** Every migration, in order. Append only: a shipped migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  jobs,
  webhooks,
  shortKeyHints,
  conversations,
  jobSourceUrlAndProgress,
  agentTurnTaking,
  agentVersions,
  agentTestRuns,
  voiceDictionaries,
  callAnalytics,
  analyticsRollup,
  sipUsers,
]
