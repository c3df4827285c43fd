/**
 * Debian's chromium for the browser tests, driven by playwright-core (which downloads no browser).
 * CI installs it (.ci/run: apt-get install -y chromium) and a test needing it fails there without
 * it; elsewhere such a test is skipped, with a message saying how to install it.
 */
import * as fs from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The launch options every browser test uses: headless, nothing started in the background. */
export const CHROMIUM_LAUNCH: LaunchOptions = {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** Whether `test` (e.g. "the docs page test") can run: throws in CI when chromium is missing, warns and answers false elsewhere. */
export function chromiumFor(test: string): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: CI installs it (.ci/run: apt-get install -y chromium); ${test} needs it.`);
  console.warn(`Skipping ${test}: no ${CHROMIUM} (apt-get install -y chromium).`);
  return false;
}
