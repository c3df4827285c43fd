import { existsSync, readFileSync } from 'node:fs';
import { defineConfig, type DefaultTheme } from 'vitepress';
import { githubSlug, repositoryUrl, sitePath } from './site-links';

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
      { text: 'Anthropic', link: '/guide/anthropic' },
      { text: 'Gemini', link: '/guide/gemini' },
      { text: 'LangChain.js', link: '/guide/langchain' },
      { text: 'The OpenAI Agents SDK', link: '/guide/openai-agents' },
      { text: 'Tool search', link: '/guide/tool-search' },
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

/**
 * What the local search indexes of an API reference page: its title (`Function: serveHttp()`,
 * `Class: ToolCall`), no text and no members: the index stays small and a name is still found.
 */
function apiSearchText(src: string): string {
  return /^# .*$/m.exec(src)?.[0] ?? '';
}

/** An inline code span with a command-line option (`--json`, `-p`): a synopsis, or a flag in prose. */
const FLAG = /(?<![\w-])--?[A-Za-z]/;
/** What must not wrap inside: a `[…]` or `<…>` group, and an option (`--all-versions` would break at its hyphens). */
const UNBROKEN = /(\[[^\]]*\]|<[^>]*>|(?<![\w-])--?[A-Za-z][\w-]*)/;

type Token = { content: string; attrGet(name: string): string | null; attrSet(name: string, value: string): void; type: string; children: Token[] | null };
type MarkdownIt = {
  core: { ruler: { push(name: string, rule: (state: { tokens: Token[] }) => void): void } };
  renderer: { rules: Record<string, ((tokens: Token[], index: number, options: unknown, env: unknown, self: { renderAttrs(token: Token): string }) => string) | undefined> };
  utils: { escapeHtml(text: string): string };
};

/**
 * The site's own Markdown rules:
 * - a link to the documentation site's own URL (package.json `homepage` + `/api/…`, which pages
 *   write so that the link works on the repository host too) becomes a site path;
 * - inline code with a command-line option keeps each option and each `[…]` and `<…>` group on
 *   one line (theme/style.css): a synopsis wraps between its options, not inside one.
 */
function siteMarkdown(md: MarkdownIt): void {
  md.core.ruler.push('site-urls', (state) => {
    for (const token of state.tokens) {
      for (const child of token.children ?? []) {
        const path = child.type === 'link_open' ? sitePath(child.attrGet('href') ?? '') : undefined;
        if (path !== undefined) child.attrSet('href', path);
      }
    }
  });
  const code = md.renderer.rules.code_inline!;
  md.renderer.rules.code_inline = (tokens, index, options, env, self) => {
    const { content } = tokens[index];
    if (!FLAG.test(content)) return code(tokens, index, options, env, self);
    const parts = content.split(UNBROKEN).map((part, at) => (at % 2 ? `<span class="synopsis-group">${md.utils.escapeHtml(part)}</span>` : md.utils.escapeHtml(part)));
    return `<code${self.renderAttrs(tokens[index])}>${parts.join('')}</code>`;
  };
}

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
  markdown: {
    // GitHub's anchors, so that a link `page.md#anchor` works on the site and on the repository host.
    anchor: { slugify: (text: string) => githubSlug(text) },
    config: (md) => siteMarkdown(md as unknown as MarkdownIt),
  },
  themeConfig: {
    // Built into the page at build time (minisearch): no search service is called. The guides are
    // indexed whole; an API reference page by its title only (its members are listed on it), and
    // ranked below the guides.
    search: {
      provider: 'local',
      options: {
        // Arrow functions: VitePress sends the theme config's functions to the browser as source.
        _render: (src: string, env: { relativePath: string; frontmatter?: Record<string, unknown> }, md: { render(src: string, env: unknown): string }) => {
          const api = env.relativePath.startsWith('api/');
          const html = md.render(api ? apiSearchText(src) : src, env);
          return env.frontmatter?.search === false ? '' : html;
        },
        miniSearch: { searchOptions: { boostDocument: (id: string) => (id.startsWith('/api/') ? 0.25 : 1) } },
      },
    },
    nav: [
      { text: 'Guides', link: '/guide/first-tool' },
      { text: 'API', link: '/api/' },
    ],
    // The source repository: package.json's repository.url.
    socialLinks: [{ icon: 'github', link: repositoryUrl, ariaLabel: 'The source repository' }],
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
