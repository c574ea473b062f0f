import type { Migration } from '../migrate'
import { initial } from './0001-initial'

/** Every migration, in order. Append only: a shipped migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [initial]
