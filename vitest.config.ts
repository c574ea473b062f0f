import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Native SQLite and real servers: separate processes keep each file's state its own.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
