import type { Config } from 'jest';
import config, { BROWSER_SUITES } from './jest.config';

/** `npm run test:browser`: exactly the suites `npm test` leaves out (BROWSER_SUITES in jest.config.ts). */
const browser: Config = {
  ...config,
  testMatch: BROWSER_SUITES.map((suite) => `<rootDir>/${suite}`),
  testPathIgnorePatterns: ['/node_modules/'],
};

export default browser;
