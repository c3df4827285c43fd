/**
 * The boundaries DESIGN.md draws: core never imports an adapter; an adapter (and toolwright/testing)
 * imports only the core's public surface, its own files, another entry point's public surface
 * (toolwright/ai builds on toolwright/openai's Toolbox), Node built-ins and libraries. The `toolwright`
 * command (src/cli) is a user of the public surfaces, like an adapter.
 * The public surfaces are the core (`toolwright`, src/index.ts), the adapter kit (`toolwright/kit`,
 * src/adapter-kit/index.ts) and each adapter's entry point; the one unpublished module first-party
 * code may also import is src/adapter-kit/internal.ts (helpers toolwright does not commit to).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const src = path.resolve(__dirname, '..', '..', 'src');
/** What first-party adapters, toolwright/testing and the command may import from outside their own folder. */
const PUBLIC_SURFACES = [path.join(src, 'index'), path.join(src, 'adapter-kit'), path.join(src, 'adapter-kit', 'index')];
const FIRST_PARTY_ONLY = path.join(src, 'adapter-kit', 'internal');
const allowedSurface = (target: string) => PUBLIC_SURFACES.includes(target) || target === FIRST_PARTY_ONLY;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\s+['"]([^'"]+)['"]|require\(['"]([^'"]+)['"]\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

describe('module boundaries', () => {
  const all = files(src);
  const rel = (file: string) => path.relative(src, file);

  it('core never imports an adapter or the testing helpers', () => {
    const offenders = all
      .filter((file) => !rel(file).startsWith('adapters') && !rel(file).startsWith('testing') && !rel(file).startsWith('cli'))
      .flatMap((file) => imports(file).filter((spec) => spec.startsWith('.') && /adapters|testing/.test(path.resolve(path.dirname(file), spec))).map((spec) => `${rel(file)} → ${spec}`));
    expect(offenders).toEqual([]);
  });

  it('adapters and toolwright/testing import only public surfaces, their own files, Node and libraries', () => {
    const entryPoint = (target: string) => /^adapters[\\/][^\\/]+[\\/]index$/.test(path.relative(src, target));
    const offenders = all
      .filter((file) => rel(file).startsWith('adapters') || rel(file).startsWith('testing'))
      .flatMap((file) => {
        const home = rel(file).startsWith('testing') ? path.join(src, 'testing') : path.join(src, ...rel(file).split(path.sep).slice(0, 2));
        return imports(file)
          .filter((spec) => spec.startsWith('.'))
          .filter((spec) => {
            const target = path.resolve(path.dirname(file), spec);
            return !allowedSurface(target) && !entryPoint(target) && !target.startsWith(home + path.sep);
          })
          .map((spec) => `${rel(file)} → ${spec}`);
      });
    expect(offenders).toEqual([]);
  });

  it('the toolwright command imports only public surfaces (the core, the entry points), its own files, Node and libraries', () => {
    const entryPoint = (target: string) => /^adapters[\\/][^\\/]+$/.test(path.relative(src, target)) || /^adapters[\\/][^\\/]+[\\/]index$/.test(path.relative(src, target));
    const cli = all.filter((file) => rel(file).startsWith('cli'));
    const offenders = cli.flatMap((file) =>
      imports(file)
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) => {
          const target = path.resolve(path.dirname(file), spec);
          const ownManifest = target === path.join(src, '..', 'package.json'); // for --version
          return !allowedSurface(target) && !entryPoint(target) && !ownManifest && !target.startsWith(path.join(src, 'cli') + path.sep);
        })
        .map((spec) => `${rel(file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
    expect(cli.length).toBeGreaterThanOrEqual(10);
  });

  it('the first-party-only module is published by no entry point and re-exported by no public surface', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(src, '..', 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(JSON.stringify(pkg.exports)).not.toMatch(/adapter-kit\/internal/);
    const surfaces = ['index.ts', path.join('adapter-kit', 'index.ts'), ...all.filter((file) => /^adapters[\\/][^\\/]+[\\/]index\.ts$/.test(rel(file))).map(rel)];
    const leaks = surfaces.filter((file) => imports(path.join(src, file)).some((spec) => path.resolve(path.dirname(path.join(src, file)), spec) === FIRST_PARTY_ONLY));
    expect(leaks).toEqual([]);
  });

  it('finds the files it checks (the test is not vacuous)', () => {
    expect(all.filter((file) => rel(file).startsWith(path.join('adapters', 'mcp'))).length).toBeGreaterThanOrEqual(5);
  });
});
