/**
 * A per-conversation tool registry: the functions one conversation offers, their provider schemas,
 * and the way from a model's tool calls to invocations and back to messages.
 */
import { ApprovalDecision, ApprovalQuestion, Approver, Invoker, ToolDefinition, ToolLike, Tools } from '../../index';
import { defaultInvoker, describeValue } from '../../adapter-kit';
import { joinWords } from '../../adapter-kit/internal';
import { EntryCallOptions, EntryOutcome, localEntry, ToolboxCallOptions, ToolboxEntry } from './entry';
import { PendingApprovals } from './pending-approvals';
import { warnEmptyToolbox } from './empty-toolbox';
import { FunctionApi, FunctionDescription, readDescribeOptions } from './function-schema';
import {
  InvokeAllOptions,
  readCallOptions,
  readInvokeAllOptions,
  readRegisterOptions,
  readToolboxOptions,
  ToolboxOptions,
} from './options';
import { ApiOf, parseArguments, ReadCall, readToolCall, ToolCallInput, ToolCallMatch, ToolCallRecord } from './tool-calls';
import { AddMcpServerOptions, addMcpServer, loadMcpConfig, MountedServer, removeMcpServer } from './remote-mcp/mount';
import { DeclarationError } from '../../index';
import { readDeferred, ToolboxSearch } from './search/deferred';
import type { ToolSearchHit, ToolSearchOptions } from '../../adapter-kit';

/** The options of `toolbox.register(tool, { ... })`. */
export interface RegisterOptions {
  /** Replace a tool registered under the same name, keeping its position (default false). */
  update?: boolean;
}

/** The options of `toolbox.functions({ ... })`: which tools, and the strict projection. */
export interface FunctionsOptions {
  /** Only these names (still in registration order). An unregistered name is an error. */
  only?: readonly string[];
  /** The strict-mode projection (default: the toolbox's `strict`). */
  strict?: boolean;
}

/** Where each match came from, so that `invoke` reads it against its own toolbox. */
const matchSources = new WeakMap<object, ReadCall>();

/** A model's name, quoted for a message it will read; an absurdly long one is shortened. */
function quoteName(name: string): string {
  return name.length > 80 ? `'${name.slice(0, 77)}…'` : `'${name}'`;
}

function toList<T>(items: unknown, where: string, what: string): T[] {
  if (typeof items === 'string' || items === null || typeof items !== 'object' || !(Symbol.iterator in items)) {
    throw new TypeError(`${where}: expected a list of ${what}; got ${describeValue(items)}.`);
  }
  return Array.from(items as Iterable<T>);
}

/** Why a toolbox call cannot ask the user, the model or for roots without a handler. */
const UNAVAILABLE = {
  elicit: 'pass an `elicit` handler in the toolbox options or the call options ({ context: { elicit } }) that asks your user',
  sample: 'pass a `sample` handler in the toolbox options or the call options ({ context: { sample } }) that calls your model',
  roots:
    "pass a `roots` handler in the toolbox options or the call options ({ context: { roots } }) that lists your user's workspace roots",
};

/**
 * The tools of a function-calling conversation, whatever the provider. Tools are shared between
 * toolboxes (they are classes); registrations never are. Names are the tools' `openai` names (the
 * function-calling adapter key's), unique in a toolbox. `functions()` describes them, and each
 * provider adapter formats that list in its own dialect (`toolwright/openai`'s Toolbox, a subclass,
 * adds `schemas()`); `invoke(call)` and `invokeAll(calls)` run the calls the model makes (validated as
 * any call, with trusted ambient values from the toolbox, never from the model) and answer records the
 * provider adapter turns into its tool-result messages. Calls needing approval wait for
 * `approve(record)` or `deny(record)`; remote MCP servers mount with `addMcpServer`.
 *
 * ```ts
 * const toolbox = new Toolbox([CheckCredit, ApproveLoanV2], { ambientContext: { officerId } });
 * const records = await toolbox.invokeAll([{ id: 'call_1', name: 'check_credit', arguments: { applicantId: 'a-1' } }]);
 * ```
 */
export class Toolbox {
  private readonly entries = new Map<string, ToolboxEntry>();
  /** Names whose strict schema this toolbox has listed: their calls are read the strict way. */
  private readonly shownStrict = new Set<string>();
  private readonly settings: ToolboxOptions;
  private readonly invoker: Invoker;
  /** Records waiting for approval, each answerable once. */
  private readonly pending = new PendingApprovals();
  /** Has listing the functions warned that this toolbox is empty (once per toolbox)? */
  private warnedEmpty = false;
  /** @internal Remote MCP servers mounted here, by alias. */
  readonly servers = new Map<string, MountedServer>();
  /** The search index over the functions, and the deferred listing (the `search` option). */
  private readonly searching: ToolboxSearch;

  constructor(tools: Iterable<ToolLike> = [], options: ToolboxOptions = {}) {
    this.settings = readToolboxOptions(options);
    this.invoker = this.settings.invoker ?? defaultInvoker;
    this.searching = new ToolboxSearch(() => this.entries.values(), readDeferred(this.settings.search));
    const entries = toList<ToolLike>(tools, 'new Toolbox', 'tools').map((tool) => localEntry(tool, 'new Toolbox'));
    this.mount(entries, { update: false });
  }

  /** Is this toolbox in strict mode (what `functions()` lists by default, how calls are read)? */
  get strict(): boolean {
    return this.settings.strict === true;
  }

  /**
   * Registers a tool under its `openai` name, or several at once (all or none). A name already in
   * the toolbox is an error unless `update`, which replaces that tool and keeps its position.
   */
  register(tool: ToolLike | readonly ToolLike[], options: RegisterOptions = {}): this {
    const { update } = readRegisterOptions(options);
    const tools = Array.isArray(tool) ? (tool as readonly ToolLike[]) : [tool as ToolLike];
    this.mount(
      tools.map((one) => localEntry(one, 'Toolbox.register')),
      { update },
    );
    return this;
  }

  /** Is there a function of this name, or is this tool registered? */
  has(nameOrTool: string | ToolLike): boolean {
    return this.find(nameOrTool).length > 0;
  }

  /** Removes a function by name, or a tool; false when there was none. */
  remove(nameOrTool: string | ToolLike): boolean {
    const found = this.find(nameOrTool);
    this.unmount(found.map((entry) => entry.name));
    return found.length > 0;
  }

  /** The function names, in registration order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * The functions that best match a few words, best first: `{ name, description, score }`, at most
   * `limit` (default 5, at most 50). Names, titles and descriptions weigh more than the input fields'
   * names and descriptions. It searches every function, listed or not; the index is built at the
   * first search after the functions change.
   */
  search(query: string, options?: ToolSearchOptions): ToolSearchHit[] {
    return this.searching.search(query, options);
  }

  /**
   * The functions, in registration order, as every provider's tool format starts from them: name,
   * description, a fresh parameters schema (change it freely: nothing this toolbox lists later
   * changes), and whether it is the strict projection. `strict` defaults to the toolbox's mode;
   * `only` picks names (still in registration order; an unregistered name is an error). A provider
   * adapter formats these in its own dialect (`toolbox.schemas()` of `toolwright/openai`, the
   * `toolwright/anthropic` tools, …). Calls to a function listed strict read `null` as absent.
   */
  functions(options?: FunctionsOptions): FunctionDescription[] {
    const { strict = this.strict, rest } = readDescribeOptions(options, 'Toolbox.functions', ['only']);
    return this.listFunctions(rest.only, strict);
  }

  /** @internal The functions for `functions()` and a provider's own listing (whose `where` names its method). */
  protected listFunctions(onlyOption: unknown, strict: boolean, where = 'Toolbox.functions'): FunctionDescription[] {
    if (this.entries.size === 0 && !this.warnedEmpty) {
      this.warnedEmpty = true;
      warnEmptyToolbox();
    }
    const only = onlyOption === undefined ? undefined : this.checkOnly(onlyOption, where);
    const selected = [...this.entries.values()].filter((entry) => (only ? only.includes(entry.name) : this.searching.listed(entry.name)));
    if (!only && this.searching.entry) selected.push(this.searching.entry);
    const functions = selected.map((entry) => entry.toFunction(strict));
    if (strict) for (const entry of selected) this.shownStrict.add(entry.name);
    return functions;
  }

  /**
   * Resolves a model's call without running it: a Chat Completions tool call, a Responses API
   * `function_call` item, or `{ name, arguments }`. An unknown name or arguments that are not JSON
   * give a match with `error` set (the text the model will read), never an exception.
   */
  match<C extends ToolCallInput>(call: C): ToolCallMatch<ApiOf<C>> {
    return this.matchRead(readToolCall(call, 'Toolbox.match')) as ToolCallMatch<ApiOf<C>>;
  }

  /**
   * Runs one call through the invoker and returns its record. Bad model input (unknown name,
   * malformed or invalid arguments) and failing tools give a failed record; nothing the model
   * sends makes this throw.
   */
  invoke<A extends FunctionApi>(call: ToolCallMatch<A>, options?: ToolboxCallOptions): Promise<ToolCallRecord<A>>;
  invoke<C extends ToolCallInput>(call: C, options?: ToolboxCallOptions): Promise<ToolCallRecord<ApiOf<C>>>;
  async invoke(call: ToolCallInput | ToolCallMatch, options?: ToolboxCallOptions): Promise<ToolCallRecord> {
    const callOptions = readCallOptions(options, 'Toolbox.invoke');
    return this.run(this.matchRead(this.read(call, 'Toolbox.invoke')), callOptions);
  }

  /**
   * Runs a call that waited for approval (an `approval_required` record from this toolbox), as
   * approved, with exactly the arguments the record showed: they were copied and frozen when the
   * approval was requested (the record is frozen too), and that copy is what runs. Each record is
   * answered once; the returned record is the one to send to the model.
   */
  approve<A extends FunctionApi>(record: ToolCallRecord<A>): Promise<ToolCallRecord<A>> {
    return this.answer(record, true, 'Toolbox.approve') as Promise<ToolCallRecord<A>>;
  }

  /**
   * Refuses a call that waited for approval: it never runs, and the returned record tells the
   * model it was not approved (with `reason`, when given).
   */
  deny<A extends FunctionApi>(record: ToolCallRecord<A>, reason?: string): Promise<ToolCallRecord<A>> {
    if (reason !== undefined && typeof reason !== 'string') {
      throw new TypeError(`Toolbox.deny: the reason must be a string; got ${describeValue(reason)}.`);
    }
    return this.answer(record, { approved: false, reason }, 'Toolbox.deny') as Promise<ToolCallRecord<A>>;
  }

  private answer(record: ToolCallRecord, decision: ApprovalDecision, where: string): Promise<ToolCallRecord> {
    const pending = this.pending.take(record, where);
    // Through the invoker again: the arguments are checked anew, and middleware sees the answer. An
    // approval holds only for the arguments the question was shown from.
    const approve: Approver = (call) =>
      decision === true && call.approvalQuestion().digest !== pending.digest
        ? { approved: false, reason: 'its arguments are not those the question showed' }
        : decision;
    return this.run(pending.match, { ...pending.options, approve }, pending.transport);
  }

  /** @internal Runs a call for another adapter built on this toolbox (the AI SDK's), under its transport name. */
  invokeAs(transport: string, call: ToolCallInput, options: ToolboxCallOptions): Promise<ToolCallRecord> {
    return this.run(this.matchRead(this.read(call, 'Toolbox.invoke')), readCallOptions(options, 'Toolbox.invoke'), transport);
  }

  /**
   * @internal The question of a call that needs a person's approval; undefined when it needs none
   * (and for unknown names and calls that cannot run).
   */
  async approvalQuestionFor(call: ToolCallInput, options: ToolboxCallOptions = {}): Promise<ApprovalQuestion | undefined> {
    const match = this.matchRead(this.read(call, 'Toolbox.invoke'));
    const entry = this.callable(match.name);
    if (match.error !== undefined || !entry?.approvalQuestion) return undefined;
    // Arguments that cannot be shown need no question: the call is refused when it runs, never asked.
    const asked = await entry.approvalQuestion(match.arguments, this.entryOptions(entry, match, options, 'ai'));
    return asked !== undefined && !('status' in asked) ? asked : undefined;
  }

  /**
   * Runs several calls (a model's parallel tool calls), `concurrency` at a time (default: all at
   * once), and returns their records in the order of the calls. Every call envelope is checked
   * before any call runs.
   */
  async invokeAll<C extends ToolCallInput | ToolCallMatch>(
    calls: Iterable<C>,
    options?: InvokeAllOptions,
  ): Promise<Array<ToolCallRecord<C extends ToolCallMatch<infer A> ? A : ApiOf<C>>>> {
    const { concurrency, call: callOptions } = readInvokeAllOptions(options);
    const matches = toList<C>(calls, 'Toolbox.invokeAll', 'tool calls').map((call) => this.matchRead(this.read(call, 'Toolbox.invokeAll')));
    const records: ToolCallRecord[] = new Array(matches.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < matches.length) {
        const index = next++;
        records[index] = await this.run(matches[index], callOptions);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, matches.length) }, worker));
    return records as Array<ToolCallRecord<C extends ToolCallMatch<infer A> ? A : ApiOf<C>>>;
  }

  /**
   * Mounts a remote MCP server's tools as `mcp__{alias}__{tool}`, all or nothing: any tool that
   * cannot be mounted (an invalid or over-long name, a malformed schema, a name a local tool has)
   * leaves the toolbox unchanged and the error says which and why. `config` is `{ command, args?,
   * env?, cwd? }` (stdio) or `{ url, headers? }` (Streamable HTTP). The `security` policy decides
   * what may be started or reached, and with what: a bare command is resolved on this process's
   * PATH, loader variables in `env` and a `cwd` need the policy's allowEnv/allowCwd, and the
   * process receives only the policy's environment allowlist. Omitted, nothing may be started or
   * reached. Returns the mounted names.
   */
  addMcpServer(alias: string, config: unknown, options?: AddMcpServerOptions): Promise<string[]> {
    return addMcpServer(this, alias, config, options);
  }

  /**
   * Mounts every server of a `{ "mcpServers": { alias: config } }` file, all or nothing. Loading
   * a file is not an act of trust: the `security` policy applies to each server, and omitted it
   * allows nothing.
   */
  loadMcpConfig(path: string, options?: AddMcpServerOptions): Promise<Record<string, string[]>> {
    return loadMcpConfig(this, path, options);
  }

  /** Unmounts a remote server's tools and closes its connection; false when there is none. */
  removeMcpServer(alias: string): Promise<boolean> {
    return removeMcpServer(this, alias);
  }

  /** Closes every remote connection and unmounts the remote tools. Local tools stay. */
  async close(): Promise<void> {
    const failures: unknown[] = [];
    for (const alias of [...this.servers.keys()]) await removeMcpServer(this, alias).catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw new AggregateError(failures, `Toolbox.close: ${failures.length} MCP connection(s) failed to close.`);
  }

  /** @internal Removes entries by name. */
  unmount(names: readonly string[]): void {
    this.searching.invalidate();
    for (const name of names) {
      this.entries.delete(name);
      this.shownStrict.delete(name);
    }
  }

  /**
   * @internal Adds entries all or nothing: every entry is checked (its schema in the toolbox's
   * mode, duplicates in the batch, conflicts with the toolbox) before any is added. A name already present is
   * replaced only with `update`, in place; a remote entry never replaces a local one.
   */
  mount(entries: readonly ToolboxEntry[], { update }: { update: boolean }): void {
    const batch = new Map<string, ToolboxEntry>();
    for (const entry of entries) {
      const twin = batch.get(entry.name);
      if (twin) {
        if (twin.tool && entry.tool && twin.tool.target === entry.tool.target && twin.tool.method === entry.tool.method) {
          throw new DeclarationError(`Toolbox: ${entry.owner} is listed twice. List each tool once.`);
        }
        throw new DeclarationError(
          `Toolbox: ${twin.owner} and ${entry.owner} are both named '${entry.name}'. ` +
            "Give one its own name with @Tool({ adapters: { openai: { name: '…' } } }).",
        );
      }
      if (entry.name === this.searching.entry?.name) {
        throw new DeclarationError(
          `Toolbox: ${entry.owner} is named '${entry.name}', the name of this toolbox's search function. ` +
            "Name the search function otherwise with { search: { name: '…' } }, or give the tool its own name.",
        );
      }
      batch.set(entry.name, entry);
      entry.toFunction(this.strict); // a contract the toolbox could not list fails now, not at the first request
      const existing = this.entries.get(entry.name);
      if (!existing) continue;
      if (existing.origin === 'local' && entry.origin !== 'local') {
        throw new DeclarationError(
          `Toolbox: ${entry.owner} cannot take the name '${entry.name}' of the local tool ${existing.owner}; ` +
            'a remote tool never replaces a local one, even with { update: true }.',
        );
      }
      if (!update) {
        throw new DeclarationError(
          `Tool ${entry.name} is already registered (${existing.owner}). Pass { update: true } to replace it, ` +
            `or give ${entry.owner} its own name with @Tool({ adapters: { openai: { name: '…' } } }).`,
        );
      }
    }
    this.searching.invalidate();
    for (const entry of batch.values()) {
      const replaced = this.entries.get(entry.name);
      if (replaced && replaced !== entry) this.shownStrict.delete(entry.name);
      this.entries.set(entry.name, entry);
    }
  }

  private read(call: ToolCallInput | ToolCallMatch, where: string): ReadCall {
    return (typeof call === 'object' && call !== null && matchSources.get(call)) || readToolCall(call, where);
  }

  private matchRead(read: ReadCall): ToolCallMatch {
    const entry = this.callable(read.name);
    const parsed = parseArguments(read.rawArguments);
    let error: string | undefined;
    const search = this.searching.entry?.name;
    if (!entry && search) {
      error = `Unknown tool ${quoteName(read.name)}. Find the tools you need with ${search}.`;
    } else if (!entry) {
      const names = this.names();
      error = `Unknown tool ${quoteName(read.name)}. ${names.length > 0 ? `Available tools: ${joinWords(names)}.` : 'No tools are available.'}`;
    } else if (!parsed.ok) {
      error = parsed.error;
    }
    const match: ToolCallMatch = Object.freeze({
      id: read.id,
      name: read.name,
      api: read.api,
      arguments: parsed.value,
      tool: entry?.tool,
      error,
    });
    matchSources.set(match, read);
    return match;
  }

  private entryOptions(entry: ToolboxEntry, match: ToolCallMatch, options: ToolboxCallOptions, transport: string): EntryCallOptions {
    return {
      invoker: this.invoker,
      ambientContext: options.ambientContext ?? this.settings.ambientContext,
      container: options.container ?? this.settings.container,
      resolver: options.resolver ?? this.settings.resolver,
      signal: options.signal,
      approve: options.approve,
      nullMeansAbsent: this.strict || this.shownStrict.has(entry.name),
      transport,
      callId: match.id,
      context: {
        transport: 'openai',
        requestId: match.id,
        unavailable: UNAVAILABLE,
        ...this.settings.context,
        ...options.context,
      },
    };
  }

  private async run(match: ToolCallMatch, options: ToolboxCallOptions, transport = 'openai'): Promise<ToolCallRecord> {
    const started = performance.now();
    const entry = this.callable(match.name);
    let outcome: EntryOutcome;
    if (match.error !== undefined || !entry) {
      outcome = { status: 'failed', output: match.error ?? `Unknown tool ${quoteName(match.name)}.` };
    } else {
      // A function of the catalogue the model called by name is listed from then on, as if found.
      this.searching.reveal([entry]);
      const entryOptions = this.entryOptions(entry, match, options, transport);
      const asked = options.approve === undefined ? await entry.approvalQuestion?.(match.arguments, entryOptions) : undefined;
      if (asked === undefined) outcome = await entry.call(match.arguments, entryOptions);
      // Arguments that cannot be shown: refused, nobody is asked.
      else if ('status' in asked) outcome = asked;
      else {
        // Nothing runs yet: the application asks a person the question, then answers with approve() or deny().
        const held = this.pending.hold(match, options, transport, performance.now() - started, asked);
        if ('id' in held) return held;
        outcome = held;
      }
    }
    return this.record(match, outcome, started);
  }

  private record(match: ToolCallMatch, outcome: EntryOutcome, started: number): ToolCallRecord {
    return {
      id: match.id,
      name: match.name,
      api: match.api,
      status: outcome.status,
      durationMs: performance.now() - started,
      arguments: match.arguments,
      result: outcome.result,
      output: outcome.output,
      ...(outcome.data !== undefined ? { data: outcome.data } : {}),
      ...(outcome.content !== undefined ? { content: outcome.content } : {}),
    };
  }

  /** The entry a call names: a function of this toolbox, or the search function of deferred loading. */
  private callable(name: string): ToolboxEntry | undefined {
    return this.entries.get(name) ?? (name === this.searching.entry?.name ? this.searching.entry : undefined);
  }

  private find(nameOrTool: string | ToolLike): ToolboxEntry[] {
    if (typeof nameOrTool === 'string') {
      const entry = this.entries.get(nameOrTool);
      return entry ? [entry] : [];
    }
    const definition: ToolDefinition = Tools.resolve(nameOrTool);
    return [...this.entries.values()].filter(
      (entry) => entry.tool !== undefined && entry.tool.target === definition.target && entry.tool.method === definition.method,
    );
  }

  private checkOnly(only: unknown, where: string): string[] {
    if (!Array.isArray(only) || only.some((name) => typeof name !== 'string')) {
      throw new TypeError(`${where}: 'only' must be a list of function names; got ${describeValue(only)}.`);
    }
    const unknown = only.filter((name) => !this.entries.has(name));
    if (unknown.length > 0) {
      throw new TypeError(
        `${where}: no function named ${joinWords(unknown.map((name) => `'${name}'`))} in this toolbox. ` +
          `Registered: ${joinWords(this.names()) || 'none'}.`,
      );
    }
    return only;
  }
}
