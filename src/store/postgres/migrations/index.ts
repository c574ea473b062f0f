import type { Migration } from '../migrate'
import { initial } from './0001-initial'
import { jobs } from './0002-jobs'
import { webhooks } from './0003-webhooks'
import { media } from './0004-media'
import { changeNotifications } from './0005-change-notifications'
import { jobSearchAndHotClaims } from './0006-job-search-and-hot-claims'
import { jobWords } from './0007-job-words'
import { jobSearchTable } from './0008-job-search-table'
import { conversations } from './0009-conversations'
import { jobSourceUrlAndProgress } from './0010-job-source-url-and-progress'
import { agentTurnTaking } from './0011-agent-turn-taking'
import { agentVersions } from './0012-agent-versions'
import { agentTestRuns } from './0013-agent-test-runs'
import { voiceDictionaries } from './0014-voice-dictionaries'

import { callAnalytics } from './0015-call-analytics'
import { analyticsRollup } from './0016-analytics-rollup'
import { sipUsers } from './0017-sip-users'
/**
 * Every migration of the PostgreSQL schema, in order. Append only: a shipped migration is
 * never edited. Its numbers are its own (SQLite's 0004 cuts long key hints, which a
 * PostgreSQL database never held).
 */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  jobs,
  webhooks,
  media,
  changeNotifications,
  jobSearchAndHotClaims,
  jobWords,
  jobSearchTable,
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
