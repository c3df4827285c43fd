/**
 * The documentation site builds as `npm run docs:build` builds it (TypeDoc's API reference into
 * docs/api, then `vitepress build docs`, once, into a temporary folder), every page of docs/ becomes
 * a page of the site, each entry point of package.json has its API reference page, the landing page
 * links every guide, local search is built in (small: an API page is indexed by its title), every
 * link of the README and of docs/ that the site serves names a page and an anchor the build has
 * (test/docs/links.test.ts checks the rest without a build), the nav links the source repository
 * (package.json), a decorator's API page shows each overload with an example, and the site loads
 * nothing from another host: no emitted `<script src>`,
 * `<link href>` or CSS `url()` (and `@import`) names an `http(s)://` or `//` address, and every local
 * one names a file of the build (so the site works from a file server at `/`). Plain links (`<a
 * href>`) to other sites are allowed: they load nothing until followed.
 *
 * Then the built folder is served over real HTTP on 127.0.0.1 (test/helpers/static-site.ts, clean
 * URLs) and opened in Debian's chromium through playwright-core: the landing page, a guide and an
 * API page render (their h1, the sidebar), a landing-page link, a sidebar link and an API link
 * navigate, the local search finds a guide and opens it (and ranks guides above the API reference),
 * a command synopsis wraps between its options and never inside one, and no page logs a console
 * error, throws, or requests anything from a host but 127.0.0.1 (every other request is recorded
 * and aborted).
 * Screenshots go to a folder in the OS temp dir, printed, to be looked at. Without chromium that
 * part is skipped, except in CI.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repositoryUrl, sitePath } from '../../docs/.vitepress/site-links';
import { chromiumFor, CHROMIUM_LAUNCH } from '../helpers/chromium';
import { markdownLinks } from '../helpers/markdown-links';
import { serveStaticSite, siteFile, type StaticSite } from '../helpers/static-site';

const repo = path.resolve(__dirname, '..', '..');
const docs = path.join(repo, 'docs');

const chromiumAvailable = chromiumFor('the docs site browser test');

/** A guide's title as its page shows it: the first `# ` line of docs/guide/<name>.md. */
function guideTitle(name: string): string {
  const heading = /^# (.+)$/m.exec(fs.readFileSync(path.join(docs, 'guide', `${name}.md`), 'utf8'));
  if (!heading) throw new Error(`docs/guide/${name}.md has no # heading`);
  return heading[1].replace(/`/g, '').trim();
}

function files(folder: string): string[] {
  return (fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }) as string[]).map((file) => path.join(folder, file)).filter((file) => fs.statSync(file).isFile());
}

/** What an emitted page or stylesheet loads: `<script src>`, `<link href>`, CSS `url()` and `@import`. */
function loadedReferences(file: string, text: string): string[] {
  const found: string[] = [];
  if (file.endsWith('.html')) {
    for (const [, tag] of text.matchAll(/<script\b([^>]*)>/gi)) {
      const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(tag);
      if (src) found.push(src[1]);
    }
    for (const [, tag] of text.matchAll(/<link\b([^>]*)>/gi)) {
      const href = /\bhref\s*=\s*["']?([^"'\s>]+)/i.exec(tag);
      if (href) found.push(href[1]);
    }
  }
  // CSS: a stylesheet, or a page's <style> elements and style attributes (not its text, where
  // `@IsUrl(options)` is prose).
  const styles = file.endsWith('.css') ? [text] : [...text.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>|\sstyle\s*=\s*"([^"]*)"/gi)].map((match) => match[1] ?? match[2]);
  for (const css of styles) {
    for (const [, reference] of css.matchAll(/(?<![\w-])url\(\s*["']?([^"')\s]+)["']?\s*\)/gi)) found.push(reference);
    for (const [, reference] of css.matchAll(/@import\s*["']([^"']+)["']/gi)) found.push(reference);
  }
  return found;
}

/** The built page a site path names (`/guide/mcp`, `/api/toolwright/`, `/`), relative to the build. */
function builtPage(pathname: string): string {
  return pathname.endsWith('/') ? `${pathname.slice(1)}index.html` : `${pathname.slice(1)}.html`;
}

/** A page's text as read: tags removed, the few entities Shiki and VitePress write decoded. */
function pageText(html: string): string {
  const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };
  return html.replace(/<[^>]+>/g, '').replace(/&(?:lt|gt|quot|#39|amp);/g, (entity) => entities[entity]);
}

/**
 * Run in the page (as source: the test is compiled without the DOM's types): each `[…]` or `<…>`
 * group and each option (`--all-versions`) of an inline code span that has an option, with the
 * number of lines it is laid out on.
 */
const SYNOPSIS_GROUP_LINES = `(() => {
  const found = [];
  for (const code of document.querySelectorAll('.vp-doc :not(pre) > code')) {
    const text = code.textContent;
    if (!/(?<![\\w-])--?[A-Za-z]/.test(text)) continue;
    const nodes = [];
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(), start = 0; node; start += node.length, node = walker.nextNode()) nodes.push({ node, start });
    const at = (offset, end) => {
      const hit = nodes.find(({ node, start }) => (end ? start < offset && offset <= start + node.length : start <= offset && offset < start + node.length));
      return [hit.node, offset - hit.start];
    };
    for (const match of text.matchAll(/\\[[^\\]]*\\]|<[^>]*>|(?<![\\w\\[-])--?[A-Za-z][\\w-]*/g)) {
      const range = document.createRange();
      range.setStart(...at(match.index, false));
      range.setEnd(...at(match.index + match[0].length, true));
      const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom)));
      found.push({ group: match[0], lines: lines.size });
    }
  }
  return found;
})()`;

const outside = (reference: string): boolean => /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(reference) && !/^data:/i.test(reference);

describe('the site build', () => {
  let out: string;
  let built: string[];

  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-docs-'));
    // The CLIs by path: neither package exports its bin.
    const steps: [string, string[]][] = [
      ['typedoc --options docs/typedoc.json', [path.join(repo, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--options', 'docs/typedoc.json']],
      ['vitepress build docs', [path.join(repo, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), 'build', 'docs', '--outDir', out]],
    ];
    for (const [name, args] of steps) {
      const run = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8', timeout: 300_000 });
      if (run.status !== 0) throw new Error(`${name} failed (status ${run.status}, signal ${run.signal}):\n${run.stdout}\n${run.stderr}`);
    }
    built = files(out);
  }, 600_000);

  afterAll(() => {
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('has a page for every Markdown page of docs/', () => {
    const sources = files(docs).filter((file) => file.endsWith('.md') && !path.relative(docs, file).split(path.sep).includes('.vitepress'));
    expect(sources.length).toBeGreaterThanOrEqual(6);
    const missing = sources
      .map((source) => path.join(out, path.relative(docs, source).replace(/\.md$/, '.html')))
      .filter((page) => !fs.existsSync(page) || !/<h1\b/.test(fs.readFileSync(page, 'utf8')));
    expect(missing).toEqual([]);
  });

  it('has an API reference page for every entry point of package.json, and lists it in the sidebar', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
    const entries = Object.keys(manifest.exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
    expect(entries.length).toBeGreaterThanOrEqual(10);
    expect(entries.filter((entry) => !fs.existsSync(path.join(out, 'api', entry, 'index.html')))).toEqual([]);
    const sidebar = fs.readFileSync(path.join(docs, 'api', 'typedoc-sidebar.json'), 'utf8');
    expect(entries.filter((entry) => !sidebar.includes(`"link":"/api/${entry}/"`))).toEqual([]);
  });

  it('links every guide page (docs/guide) from the landing page', () => {
    // Where each link of the page leads: its guide links are relative (./guide/x), as written for the repository host too.
    const landing = [...fs.readFileSync(path.join(out, 'index.html'), 'utf8').matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)].map(([, href]) => new URL(href, 'http://site/').pathname);
    const guides = files(path.join(docs, 'guide')).map((file) => `/guide/${path.basename(file, '.md')}`);
    expect(guides.length).toBeGreaterThanOrEqual(5);
    expect(guides.filter((guide) => !landing.includes(guide))).toEqual([]);
  });

  it('builds the local search index into the site, small: an API page is indexed by its title only', () => {
    const index = built.filter((file) => /@localSearchIndex/.test(path.basename(file)));
    expect(index).toHaveLength(1);
    // 1.6 MB when each member of each API page was a document of its own (issue 39); about 400 kB now.
    expect(fs.statSync(index[0]).size).toBeLessThan(600_000);
    expect(fs.readFileSync(index[0], 'utf8')).toContain('/guide/contract-guard');
  });

  it('links the source repository (package.json repository.url) from the nav', () => {
    const landing = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(landing).toMatch(new RegExp(`<a[^>]*class="[^"]*VPSocialLink[^"]*"[^>]*href="${repositoryUrl}"|<a[^>]*href="${repositoryUrl}"[^>]*aria-label="The source repository"`));
  });

  it("shows each overload of a decorator with an example on its API page (@Tool's four forms)", () => {
    const page = fs.readFileSync(path.join(out, 'api', 'toolwright', 'functions', 'Tool.html'), 'utf8');
    expect(page.match(/<h2 id="call-signature(?:-\d+)?"/g)?.length).toBeGreaterThanOrEqual(4);
    expect(page.match(/class="language-ts/g)?.length).toBeGreaterThanOrEqual(4);
    const text = pageText(page);
    expect(text).not.toContain('...args: ToolArgument[]');
    for (const form of ["@Tool({ description: 'Approve a pending loan'", "@Tool('mcp', 'openai')", "@Tool('mcp', 'openai', { name: 'approve_loan'", '@Tool(false)']) expect(text).toContain(form);
  });

  it('has the page and the anchor of every link of the README and docs/ that the site serves', () => {
    const missing: string[] = [];
    const idsOf = new Map<string, Set<string>>();
    const check = (from: string, pathname: string, anchor: string | undefined) => {
      const page = builtPage(pathname);
      if (!fs.existsSync(path.join(out, page))) return missing.push(`${from}: ${pathname} (no ${page} in the build)`);
      if (!idsOf.has(page)) idsOf.set(page, new Set([...fs.readFileSync(path.join(out, page), 'utf8').matchAll(/\sid="([^"]+)"/g)].map((match) => match[1])));
      if (anchor && !idsOf.get(page)!.has(decodeURIComponent(anchor))) missing.push(`${from}: ${pathname}#${anchor} (no such id on ${page})`);
    };
    const sources = ['README.md', ...files(docs).filter((file) => file.endsWith('.md') && !/^(?:\.vitepress|api)(?:\/|$)/.test(path.relative(docs, file))).map((file) => path.relative(repo, file))];
    let checked = 0;
    for (const source of sources) {
      for (const { target, line } of markdownLinks(fs.readFileSync(path.join(repo, source), 'utf8'))) {
        const from = `${source}:${line}`;
        const site = sitePath(target);
        const [file, anchor] = target.split('#');
        if (site !== undefined) check(from, site.split('#')[0], site.split('#')[1]);
        else if (source === 'README.md' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        else if (target.startsWith('#')) check(from, `/${path.relative(docs, path.join(repo, source)).replace(/(?:^|\/)index\.md$/, '/').replace(/\.md$/, '')}`.replace(/^\/\//, '/'), anchor);
        else if (target.startsWith('/')) check(from, file, anchor);
        else check(from, `/${path.relative(docs, path.resolve(path.dirname(path.join(repo, source)), file)).replace(/\.md$/, '')}`, anchor);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(missing).toEqual([]);
  });

  it('loads nothing from another host, and every local reference is a file of the build', () => {
    const emitted = built.filter((file) => /\.(?:html|css)$/.test(file));
    expect(emitted.filter((file) => file.endsWith('.html')).length).toBeGreaterThanOrEqual(6);
    const references = emitted.flatMap((file) => loadedReferences(file, fs.readFileSync(file, 'utf8')).map((reference) => ({ file: path.relative(out, file), reference })));
    expect(references.length).toBeGreaterThan(20);
    expect(references.filter(({ reference }) => outside(reference))).toEqual([]);
    const local = references.filter(({ reference }) => !outside(reference) && !/^(?:data:|#)/i.test(reference));
    const unresolved = local.filter(({ file, reference }) => {
      const bare = reference.split(/[?#]/)[0];
      const target = bare.startsWith('/') ? path.join(out, bare) : path.join(out, path.dirname(file), bare);
      return !fs.existsSync(target);
    });
    expect(unresolved).toEqual([]);
  });

  (chromiumAvailable ? describe : describe.skip)('in headless chromium, served over HTTP on 127.0.0.1', () => {
    let site: StaticSite;
    let browser: Browser;
    let context: BrowserContext;
    let screenshots: string;
    /** Every request the pages made to a host other than 127.0.0.1 (aborted, so nothing leaves the machine). */
    const elsewhere = new Set<string>();
    /** Console errors and uncaught page errors, with the page they happened on. */
    const problems: string[] = [];

    beforeAll(async () => {
      site = await serveStaticSite(out);
      screenshots = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-docs-screenshots-'));
      console.log(`The docs site's screenshots: ${screenshots}`);
      browser = await chromium.launch(CHROMIUM_LAUNCH);
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const local = (url: string) => /^(?:data|blob):/.test(url) || new URL(url).hostname === '127.0.0.1';
      context.on('request', (request) => {
        if (!local(request.url())) elsewhere.add(request.url());
      });
      await context.route('**/*', (route) => (local(route.request().url()) ? route.continue() : (elsewhere.add(route.request().url()), route.abort('blockedbyclient'))));
    }, 60_000);

    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await site?.close();
    });

    /** Opens `pathname` in a new tab that reports its console errors and page errors. */
    async function open(pathname: string): Promise<Page> {
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
      const response = await page.goto(site.origin + pathname, { waitUntil: 'networkidle' });
      expect([pathname, response?.status()]).toEqual([pathname, 200]);
      return page;
    }

    /** The page's title heading, once it reads `text` (after a client-side navigation it changes in place). */
    async function heading(page: Page, text: string): Promise<string> {
      const h1 = page.locator('main h1').first();
      await page.locator('main h1', { hasText: text }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
      return (await h1.innerText()).replace(/\u200b/g, '').trim();
    }

    /** The links the sidebar marks as the current page, once it marks `link` (it changes in place too). */
    async function sidebarMarks(page: Page, link: string): Promise<(string | null)[]> {
      const marked = '.VPSidebar .VPSidebarItem.is-active > .item > a';
      await page.locator(`${marked}[href="${link}"]`).waitFor({ timeout: 10_000 }).catch(() => undefined);
      return page.locator(marked).evaluateAll((links) => links.map((element) => element.getAttribute('href')));
    }

    async function shoot(page: Page, name: string): Promise<void> {
      const file = path.join(screenshots, `${name}.png`);
      await page.screenshot({ path: file });
      expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    }

    /** What every page must hold to: no request to another host, no console or page error. */
    function clean(): void {
      expect([...elsewhere]).toEqual([]);
      expect(problems).toEqual([]);
    }

    it('renders the landing page, and its link to a guide leads there', async () => {
      const page = await open('/');
      await expect(page.locator('.VPHero h1 .name').innerText()).resolves.toBe('toolwright');
      await expect(page.locator('.VPNavBar').innerText()).resolves.toContain('Guides');
      await shoot(page, 'landing');
      await page.locator('.vp-doc a[href$="guide/command-line"]').first().click();
      await page.waitForURL(`${site.origin}/guide/command-line`);
      await expect(heading(page, guideTitle('command-line'))).resolves.toBe(guideTitle('command-line'));
      await expect(sidebarMarks(page, '/guide/command-line')).resolves.toEqual(['/guide/command-line']);
      await shoot(page, 'guide-command-line');
      await page.close();
      clean();
    });

    it('renders a guide with the sidebar listing every guide, and a sidebar link leads to another guide', async () => {
      const page = await open('/guide/first-tool');
      await expect(heading(page, guideTitle('first-tool'))).resolves.toBe(guideTitle('first-tool'));
      await expect(page.locator('.VPSidebar').isVisible()).resolves.toBe(true);
      await expect(sidebarMarks(page, '/guide/first-tool')).resolves.toEqual(['/guide/first-tool']);
      const linked = await page.locator('.VPSidebar a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      const guides = fs.readdirSync(path.join(docs, 'guide')).map((file) => `/guide/${path.basename(file, '.md')}`);
      expect(guides.filter((guide) => !linked.includes(guide))).toEqual([]);
      await shoot(page, 'guide-first-tool');
      await page.locator('.VPSidebar a[href="/guide/errors"]').click();
      await page.waitForURL(`${site.origin}/guide/errors`);
      await expect(heading(page, guideTitle('errors'))).resolves.toBe(guideTitle('errors'));
      await expect(sidebarMarks(page, '/guide/errors')).resolves.toEqual(['/guide/errors']);
      await shoot(page, 'guide-errors');
      await page.close();
      clean();
    });

    it("renders an entry point's API reference page with the sidebar, and its link to a function leads there", async () => {
      const page = await open('/api/toolwright/mcp/');
      await expect(heading(page, 'toolwright/mcp')).resolves.toBe('toolwright/mcp');
      await expect(page.locator('.VPSidebar').isVisible()).resolves.toBe(true);
      // The API reference's own sidebar: every entry point, not the guides.
      const linked = await page.locator('.VPSidebar a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect(linked).toEqual(expect.arrayContaining(['/api/toolwright/', '/api/toolwright/mcp/', '/api/toolwright/nest/']));
      expect(linked.filter((link) => link?.startsWith('/guide/') && link !== '/guide/first-tool')).toEqual([]);
      await shoot(page, 'api-toolwright-mcp');
      await page.locator('.vp-doc a', { hasText: /^serveHttp$/ }).click();
      await page.waitForURL(`${site.origin}/api/toolwright/mcp/functions/serveHttp`);
      await expect(heading(page, 'Function: serveHttp()')).resolves.toBe('Function: serveHttp()');
      await shoot(page, 'api-serveHttp');
      await page.close();
      clean();
    });

    it("ranks the guides above the API reference in the local search ('ambient' finds a guide first)", async () => {
      const page = await open('/guide/first-tool');
      await page.locator('#local-search button').click();
      await page.locator('#localsearch-input').fill('ambient');
      const results = page.locator('.VPLocalSearchBox .results a.result');
      await results.first().waitFor({ timeout: 10_000 });
      const hrefs = await results.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      expect(hrefs.length).toBeGreaterThan(3);
      expect(hrefs.slice(0, 3).filter((href) => !href.startsWith('/guide/'))).toEqual([]);
      await shoot(page, 'search-ambient');
      await page.close();
      clean();
    });

    it('wraps a command synopsis between its options, never inside one, nor a flag at its hyphens (the command-line guide)', async () => {
      const page = await open('/guide/command-line');
      // Each `[…]` or `<…>` group and each option of an inline code span with an option: on one line.
      const groups = await page.evaluate<{ group: string; lines: number }[]>(SYNOPSIS_GROUP_LINES);
      expect(groups.length).toBeGreaterThan(60);
      expect(groups.filter(({ lines }) => lines !== 1)).toEqual([]);
      await page.locator('.vp-doc td code', { hasText: '[--all-versions]' }).first().scrollIntoViewIfNeeded();
      await shoot(page, 'command-synopses');
      await page.close();
      clean();
    });

    it("finds a guide with the local search ('drift', on the contract-guard guide) and opens it", async () => {
      const page = await open('/guide/first-tool');
      await page.locator('#local-search button').click();
      await page.locator('#localsearch-input').fill('drift');
      const result = page.locator('.VPLocalSearchBox .results a.result[href^="/guide/contract-guard"]').first();
      await result.waitFor({ timeout: 10_000 });
      await shoot(page, 'search-drift');
      await result.click();
      await page.waitForURL(new RegExp(`^${site.origin}/guide/contract-guard(?:#[\\w-]+)?$`));
      await expect(heading(page, guideTitle('contract-guard'))).resolves.toBe(guideTitle('contract-guard'));
      await expect(sidebarMarks(page, '/guide/contract-guard')).resolves.toEqual(['/guide/contract-guard']);
      await expect(page.locator('.VPLocalSearchBox').count()).resolves.toBe(0);
      await shoot(page, 'search-landed');
      await page.close();
      clean();
    });
  });
});

describe('the static file server of the browser test', () => {
  it('answers clean URLs with the page, a folder with its index, and never leaves the folder', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-static-'));
    try {
      fs.mkdirSync(path.join(root, 'site', 'guide'), { recursive: true });
      fs.mkdirSync(path.join(root, 'site', 'api'));
      for (const file of ['site/index.html', 'site/guide/mcp.html', 'site/api/index.html', 'site/app.js', 'secret.txt']) fs.writeFileSync(path.join(root, file), file);
      const site = path.join(root, 'site');
      const served = (request: string) => siteFile(site, request) && path.relative(root, siteFile(site, request)!);
      expect(['/', '/guide/mcp', '/guide/mcp.html', '/api/', '/api', '/app.js?v=1', '/guide/mcp#limits'].map(served)).toEqual([
        'site/index.html',
        'site/guide/mcp.html',
        'site/guide/mcp.html',
        'site/api/index.html',
        'site/api/index.html',
        'site/app.js',
        'site/guide/mcp.html',
      ]);
      expect(['/../secret.txt', '/%2e%2e/secret.txt', '/guide/..%2f..%2fsecret.txt', '/..\\secret.txt', '/%00', '/%E0%A4%A', '/missing'].map(served)).toEqual(Array(7).fill(undefined));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the outside-reference scan', () => {
  it('finds a script, a stylesheet, a font and an import from another host', () => {
    const page = '<html><head><script type="module" src="https://cdn.example.com/x.js"></script><link rel="stylesheet" href=//fonts.example.com/a.css></head><body><a href="https://example.com">fine</a></body></html>';
    // As a minifier writes it (VitePress' own Google Fonts import, with useWebFonts on, is this).
    const css = '@import"https://fonts.googleapis.com/css2?family=Inter";' + "@font-face { src: url(https://fonts.example.com/inter.woff2) } .a { background: url('data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27/%3E') }";
    expect(loadedReferences('index.html', page).filter(outside)).toEqual(['https://cdn.example.com/x.js', '//fonts.example.com/a.css']);
    expect(loadedReferences('style.css', css).filter(outside)).toEqual(['https://fonts.example.com/inter.woff2', 'https://fonts.googleapis.com/css2?family=Inter']);
    const styled = `<p style="background: url('https://tracker.example.com/p.gif')">@IsUrl(options)</p><style>${css}</style>`;
    expect(loadedReferences('page.html', styled).filter(outside)).toEqual(['https://tracker.example.com/p.gif', 'https://fonts.example.com/inter.woff2', 'https://fonts.googleapis.com/css2?family=Inter']);
  });
});
