import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // end-to-end tests spawn servers; two cores, so keep the pool small
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
  },
})
