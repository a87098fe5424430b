// Test runner settings: one run covers unit, integration (real SQLite, PostgreSQL, Redis) and end-to-end tiers.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    // Hooks start whole worlds (servers, databases, proxies): bounded more loosely than a test, for a busy machine.
    hookTimeout: 180_000,
    // Two cores: keep files in parallel but bounded, the e2e files start real processes.
    maxWorkers: 2,
    // A test that asserts nothing passes whatever the code does: every test must make at least one assertion.
    expect: { requireAssertions: true },
    reporters: ['default'],
  },
});
