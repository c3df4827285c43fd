/**
 * Every error toolwright throws on purpose is typed (DESIGN: "every deliberate error is a
 * ToolwrightError"); a declaration or setup mistake is a DeclarationError or SetupError. This test
 * reads src/ and fails on any `throw new TypeError(` / `throw new Error(` / `throw new RangeError(`
 * outside the short list below, each entry with its reason, so a new anonymous throw cannot slip in.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.join(__dirname, '..', '..', 'src');

/**
 * Why a plain TypeError/Error stays: a value given while a call runs is not a declaration (a tool
 * body's Content.*, context.* and fail() arguments, a callback's answer, a model's tool call, a job's
 * values: a plain TypeError, as Node's own argument checks are, which the call reports as its
 * exception); a protocol or transport signal to the SDK or BullMQ, or what a remote server offers;
 * and the ground floor, which the error classes are built on.
 */
const RUNTIME_VALUE = 'a value given while a call runs, not a declaration';
const TRANSPORT = 'a protocol or transport signal to a library (SDK, BullMQ), or about a remote server';
const GROUND_FLOOR = 'the ground floor: the error module itself and util/, which errors/ may import';

const ALLOWED: Record<string, { count: number; why: string }> = {
  'content/content.ts': { count: 12, why: RUNTIME_VALUE },
  'invocation/tool-context.ts': { count: 9, why: RUNTIME_VALUE },
  'invocation/failure.ts': { count: 1, why: RUNTIME_VALUE },
  'invocation/pipeline.ts': { count: 1, why: RUNTIME_VALUE },
  'invocation/approval.ts': { count: 1, why: RUNTIME_VALUE },
  'invocation/middleware.ts': { count: 1, why: RUNTIME_VALUE },
  'invocation/ambient.ts': { count: 1, why: RUNTIME_VALUE },
  'adapter-kit/serialize-result.ts': { count: 1, why: RUNTIME_VALUE },
  'adapters/toolbox/tool-calls.ts': { count: 5, why: RUNTIME_VALUE },
  'adapters/openai/messages.ts': { count: 5, why: RUNTIME_VALUE },
  'adapters/gemini/calls.ts': { count: 7, why: `a model's function calls and the records answering them: ${RUNTIME_VALUE}` },
  'adapters/toolbox/toolbox.ts': { count: 4, why: RUNTIME_VALUE },
  'adapters/queue/wire.ts': { count: 3, why: RUNTIME_VALUE },
  'adapters/queue/tool-queue.ts': { count: 3, why: RUNTIME_VALUE },
  'adapters/queue/asks.ts': { count: 1, why: RUNTIME_VALUE },
  'adapters/queue/worker.ts': { count: 1, why: TRANSPORT },
  'adapters/mcp/hosting/stdio.ts': { count: 1, why: TRANSPORT },
  'adapters/mcp/members/member-results.ts': { count: 4, why: `what a resource, prompt or completion returned: ${RUNTIME_VALUE}` },
  'adapters/mcp/hosting/event-store.ts': { count: 1, why: TRANSPORT },
  'adapters/mcp/composition/held-calls.ts': { count: 1, why: `a remote server's request this round cannot answer: ${TRANSPORT}` },
  'adapters/mcp-client/connection.ts': { count: 4, why: `${TRANSPORT}; and a caller's callTool arguments or a call after close(): ${RUNTIME_VALUE}` },
  'adapters/mcp-client/admission.ts': { count: 1, why: TRANSPORT },
  'adapters/toolbox/remote-mcp/mount.ts': { count: 1, why: TRANSPORT },
  'adapters/mcp-client/command-path.ts': { count: 2, why: TRANSPORT },
  'errors/toolwright-error.ts': { count: 1, why: GROUND_FLOOR },
  'util/deprecation.ts': { count: 2, why: GROUND_FLOOR },
  'util/uri-template.ts': { count: 2, why: `${GROUND_FLOOR}; @ResourceTemplate turns a malformed template into a DeclarationError naming it` },
  'util/uri-template-expand.ts': { count: 2, why: `${GROUND_FLOOR}; values given to expand(): ${RUNTIME_VALUE}` },
};

const ANONYMOUS = /\bthrow\s+(?:new\s+)?(?:TypeError|Error|RangeError|SyntaxError)\s*\(/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The anonymous throws in src/, by file (relative, with / separators), found by basename. */
function anonymousThrows(): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of sourceFiles(SRC)) {
    const count = (fs.readFileSync(file, 'utf8').match(ANONYMOUS) ?? []).length;
    if (count > 0) found[path.relative(SRC, file).split(path.sep).join('/')] = count;
  }
  return found;
}

/** Files may move between folders (issue 18): an allowlist entry matches a file of the same name. */
function allowanceFor(file: string): { count: number; why: string } | undefined {
  const exact = ALLOWED[file];
  if (exact) return exact;
  const base = path.posix.basename(file);
  const moved = Object.keys(ALLOWED).filter((key) => path.posix.basename(key) === base);
  return moved.length === 1 ? ALLOWED[moved[0]] : undefined;
}

describe('no anonymous throws in src/', () => {
  it('the pattern finds a throw across lines, with or without new', () => {
    const sample = 'if (x)\n  throw new TypeError(\n    `bad`,\n  );\nthrow Error("y"); throw new DeclarationError("z");';
    expect(sample.match(ANONYMOUS)).toHaveLength(2);
  });

  it('every throw new TypeError/Error outside the reasoned allowlist is typed', () => {
    const unexpected: string[] = [];
    for (const [file, count] of Object.entries(anonymousThrows())) {
      const allowed = allowanceFor(file);
      if (!allowed || count > allowed.count) {
        unexpected.push(
          `src/${file}: ${count} anonymous throw${count > 1 ? 's' : ''}${allowed ? ` (allowed: ${allowed.count}, ${allowed.why})` : ''}. ` +
            'Throw a DeclarationError (a declaration or setup option), a SetupError (tsconfig, imports) or another ToolwrightError.',
        );
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('the allowlist holds no stale entries (a file typed since keeps no allowance)', () => {
    const found = anonymousThrows();
    const counts = new Map<string, number>();
    for (const [file, count] of Object.entries(found)) {
      const base = path.posix.basename(file);
      const key = Object.keys(ALLOWED).find((k) => k === file) ?? Object.keys(ALLOWED).find((k) => path.posix.basename(k) === base);
      if (key) counts.set(key, count);
    }
    const stale = Object.entries(ALLOWED)
      .filter(([key, { count }]) => (counts.get(key) ?? 0) < count)
      .map(([key, { count }]) => `${key}: allows ${count}, has ${counts.get(key) ?? 0}`);
    expect(stale).toEqual([]);
  });
});
