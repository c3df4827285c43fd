/**
 * The documentation site builds as `npm run docs:build` builds it (TypeDoc's API reference into
 * docs/api, then `vitepress build docs`, once, into a temporary folder), every page of docs/ becomes
 * a page of the site, each entry point of package.json has its API reference page, the landing page
 * links every guide, local search is built in, and the site loads nothing from another host: no emitted `<script src>`,
 * `<link href>` or CSS `url()` (and `@import`) names an `http(s)://` or `//` address, and every local
 * one names a file of the build (so the site works from a file server at `/`). Plain links (`<a
 * href>`) to other sites are allowed: they load nothing until followed.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');
const docs = path.join(repo, 'docs');

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
    const landing = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    const guides = files(path.join(docs, 'guide')).map((file) => `/guide/${path.basename(file, '.md')}`);
    expect(guides.length).toBeGreaterThanOrEqual(5);
    expect(guides.filter((guide) => !landing.includes(`href="${guide}"`))).toEqual([]);
  });

  it('builds the local search index into the site', () => {
    expect(built.some((file) => /@localSearchIndex/.test(path.basename(file)))).toBe(true);
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
