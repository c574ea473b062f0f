import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    environment: 'node',
    // Native SQLite and real servers: separate processes keep each file's state its own.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      // Everything, on SQLite (the embedded default).
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**', 'test/team/**'] } },
      // The HTTP suite, team mode and live calls again, on a real PostgreSQL cluster started for the run.
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/service/http/**/*.test.ts', 'test/team/**/*.test.ts', 'test/conversations/**/*.test.ts'],
          env: { VOICEDESK_TEST_ENGINE: 'postgres' },
          globalSetup: ['test/helpers/postgres-global-setup.ts'],
        },
      },
    ],
  },
})
