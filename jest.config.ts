import type { Config } from 'jest';

/**
 * The suites that build the documentation site or drive chromium: their own stage
 * (`npm run test:browser`, jest.browser.config.ts), which `npm run test:ci` and .ci/run run after
 * `npm test`. `npm test` leaves them out: they take minutes and need Debian's chromium.
 */
export const BROWSER_SUITES = ['test/docs/site-build.test.ts', 'test/adapters/http/docs-page.test.ts'];

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...BROWSER_SUITES.map((suite) => `<rootDir>/${suite}`)],
  transform: {
    // Type checking is `tsc --noEmit` in `npm test`; ts-jest only transpiles (isolatedModules).
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
    // jose (the tests' and the loan desk's JWT library) and content-disposition (under @fastify/static,
    // the docs page's) ship only ES modules: compiled to CommonJS for Jest. So do NestJS 12's packages.
    '^.+/node_modules/(jose|content-disposition|@nestjs/[^/]+|light-my-request/node_modules/cookie)/.+\\.js$': '<rootDir>/test/helpers/esm-to-commonjs.js',
  },
  transformIgnorePatterns: ['^(?!.*/node_modules/(jose|content-disposition|@nestjs/[^/]+|light-my-request/node_modules/cookie)/).*/node_modules/'],
  moduleNameMapper: {
    '^toolwright$': '<rootDir>/src/index.ts',
    '^toolwright/kit$': '<rootDir>/src/adapter-kit/index.ts',
    '^toolwright/testing$': '<rootDir>/src/testing/index.ts',
    '^toolwright/mcp$': '<rootDir>/src/adapters/mcp/index.ts',
    '^toolwright/openai$': '<rootDir>/src/adapters/openai/index.ts',
    '^toolwright/ai$': '<rootDir>/src/adapters/ai/index.ts',
    '^toolwright/http$': '<rootDir>/src/adapters/http/index.ts',
    '^toolwright/nest$': '<rootDir>/src/adapters/nest/index.ts',
    '^toolwright/queue$': '<rootDir>/src/adapters/queue/index.ts',
    '^toolwright/mcp-client$': '<rootDir>/src/adapters/mcp-client/index.ts',
    '^toolwright/agents$': '<rootDir>/src/adapters/agents/index.ts',
    '^toolwright/langchain$': '<rootDir>/src/adapters/langchain/index.ts',
    '^toolwright/gemini$': '<rootDir>/src/adapters/gemini/index.ts',
    '^toolwright/anthropic$': '<rootDir>/src/adapters/anthropic/index.ts',
    '^toolwright/toolbox$': '<rootDir>/src/adapters/toolbox/index.ts',
  },
  testTimeout: 30_000,
};

export default config;
