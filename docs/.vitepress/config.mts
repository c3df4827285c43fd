import { existsSync, readFileSync } from 'node:fs';
import { defineConfig, type DefaultTheme } from 'vitepress';

/**
 * The API reference, generated from the TSDoc of each entry point by TypeDoc (npm run docs:api,
 * which npm run docs and docs:build run first) into docs/api with its sidebar. Not committed.
 */
const apiSidebarFile = new URL('../api/typedoc-sidebar.json', import.meta.url);
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile) ? JSON.parse(readFileSync(apiSidebarFile, 'utf8')) : [];

/**
 * The toolwright documentation site (issue 29). Guides are by task; each ```ts block on every page
 * is type-checked by test/docs/docs-blocks.test.ts, and test/docs/site-build.test.ts builds the site
 * and checks that no page loads anything from another host.
 *
 * The sidebar is the one list of guides: a page not listed here is not reachable from the landing
 * page's sidebar (the landing page links every guide too).
 */
export const guides: DefaultTheme.SidebarItem[] = [
  {
    text: 'Start',
    items: [
      { text: 'First tool', link: '/guide/first-tool' },
      { text: 'Installing', link: '/guide/install' },
      { text: 'TypeScript setup', link: '/guide/typescript' },
      { text: 'Running your code', link: '/guide/running-your-code' },
    ],
  },
  {
    text: 'Example',
    items: [{ text: 'The loan desk', link: '/guide/example-application' }],
  },
  {
    text: 'Declare',
    items: [
      { text: 'Declaring tools', link: '/guide/declaring-tools' },
      { text: 'Contracts and DTOs', link: '/guide/contracts' },
      { text: 'The registry and tool roots', link: '/guide/registry' },
      { text: 'Dependency injection', link: '/guide/dependency-injection' },
      { text: 'Resources, prompts and completions', link: '/guide/resources-prompts' },
    ],
  },
  {
    text: 'Call',
    items: [
      { text: 'Calling a tool and its results', link: '/guide/calling' },
      { text: 'The call pipeline', link: '/guide/pipeline' },
    ],
  },
  {
    text: 'Serve',
    items: [
      {
        text: 'MCP',
        link: '/guide/mcp',
        collapsed: false,
        items: [
          { text: 'Every server option', link: '/guide/mcp-options' },
          { text: 'Protocol revisions and streaming', link: '/guide/mcp-protocol-revisions' },
          { text: 'The tool context and content', link: '/guide/mcp-tool-context' },
          { text: 'Resources, prompts and completions', link: '/guide/mcp-resources' },
          { text: 'Authentication and visibility', link: '/guide/mcp-auth' },
          { text: 'Limits and host rules', link: '/guide/mcp-limits' },
          { text: 'Mounts: one server from many', link: '/guide/mcp-mounts' },
          { text: 'Scale-out', link: '/guide/mcp-scale-out' },
          { text: 'Conformance', link: '/guide/mcp-conformance' },
        ],
      },
      { text: 'HTTP and OpenAPI', link: '/guide/http' },
      { text: 'Function calling', link: '/guide/function-calling' },
      { text: 'Remote MCP servers', link: '/guide/remote-servers' },
      { text: 'Remote servers: the security policy', link: '/guide/remote-security' },
      { text: 'The queue', link: '/guide/queue' },
      { text: 'MCP tasks on the queue', link: '/guide/queue-tasks' },
      {
        text: 'NestJS',
        link: '/guide/nestjs',
        collapsed: false,
        items: [{ text: 'Guards, interceptors and authentication', link: '/guide/nestjs-guards' }],
      },
    ],
  },
  {
    text: 'Operate and extend',
    items: [
      { text: 'Command line', link: '/guide/command-line' },
      { text: 'The contract guard', link: '/guide/contract-guard' },
      { text: 'Writing an adapter', link: '/guide/adapters' },
      { text: 'Migrating between versions', link: '/guide/migrating' },
    ],
  },
  {
    text: 'Security and errors',
    items: [
      { text: 'Security', link: '/guide/security' },
      { text: 'Errors', link: '/guide/errors' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Entry points and their exports', link: '/guide/entry-points' },
      { text: 'Benchmarks', link: '/guide/benchmarks' },
    ],
  },
];

export default defineConfig({
  title: 'toolwright',
  description:
    'Turn plain TypeScript service classes into tools for MCP servers, LLM function calling, HTTP, a queue and in-process calls.',
  lang: 'en-US',
  // Served from the root of a plain file server (the built site in docs/.vitepress/dist).
  base: '/',
  // /guide/mcp rather than /guide/mcp.html (a file server that tries `.html` serves both).
  cleanUrls: true,
  lastUpdated: false,
  // No request to another host when the site is viewed: VitePress' default theme bundles Inter and
  // only adds Google Fonts when useWebFonts is on; keep it off explicitly.
  useWebFonts: false,
  themeConfig: {
    // Built into the page at build time (minisearch): no search service is called.
    search: { provider: 'local' },
    nav: [
      { text: 'Guides', link: '/guide/first-tool' },
      { text: 'API', link: '/api/' },
    ],
    // A sidebar per part: the guides beside a guide, the entry points and their names beside the API reference.
    sidebar: {
      '/guide/': [...guides, { text: 'API reference', link: '/api/' }],
      '/api/': [
        { text: 'Guides', link: '/guide/first-tool' },
        { text: 'API reference', link: '/api/', items: apiSidebar },
      ],
    },
    outline: { level: [2, 3] },
  },
});
