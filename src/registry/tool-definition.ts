import type { CompletionFacts, FailsOnRule, MemberKind, ResourceFacts, ToolDeclaration } from '../metadata/definitions';
import { KEYS } from '../metadata/keys';
import { lineage } from '../metadata/lineage';
import { getFact, getOwnFact, Site, siteName } from '../metadata/site';
import { deriveToolName, sanitizeToolName } from '../naming/tool-name';
import type { Contract } from '../contract/field-model';
import { classForShape, inputContractFor, outputContractFor } from '../contract/tool-contracts';
import { contractOf } from '../contract/build-contract';
import { KEYS as FACT_KEYS } from '../metadata/keys';
import { contractSchema, JsonSchema, SchemaOptions } from '../schema/build-schema';
import { DeclarationError } from '../errors/declaration-errors';
import { describeValue } from '../util/describe-value';
import { declaredAt } from '../metadata/site';

/** What a registry lends the definitions it builds: naming settings and membership. */
export interface DefinitionHost {
  readonly nameSuffixes: readonly string[];
  isMember(definition: ToolDefinition, adapter: string): boolean;
  adapters(): string[];
  /** The definition of the member declared on a class (or one of its methods). */
  describe(target: Function, method?: string): ToolDefinition;
}

const NO_TAGS: readonly string[] = Object.freeze([]);

/** A completion's input, the same for every completion. */
const CompletionInput = classForShape(
  { argument: String, value: { type: String, allowEmpty: true }, context: { type: Object, default: {}, allowEmpty: true } },
  'CompletionRequest',
);

const DEFINITION_BRAND: unique symbol = Symbol.for('toolwright.tool-definition');

/**
 * One tool as every adapter sees it: identity `(toolName, version)`, membership, description,
 * hints, messages and contracts. Built by a registry (`describeTool`, `Tools.forAdapter`); reads
 * the facts the decorators recorded and never changes the class.
 */
export class ToolDefinition {
  /**
   * A definition made by any copy of toolwright in the process is a ToolDefinition (they share one
   * registry, see metadata/process-stores), as the error brand makes every copy's errors ToolwrightErrors.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ToolDefinition) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [DEFINITION_BRAND]?: unknown })[DEFINITION_BRAND] === true;
  }

  /** @internal */
  constructor(
    private readonly host: DefinitionHost,
    /** The class: the tool class itself, or the service class of a method tool. */
    readonly target: Function,
    /** The method called: the entry method of a class tool, or the decorated method. */
    readonly method: string,
    readonly kind: 'class' | 'method',
  ) {}

  /** Where the tool's own facts are recorded. */
  get site(): Site {
    return this.kind === 'method' ? { target: this.target, method: this.method } : { target: this.target };
  }

  /** A name for messages: `ApproveLoanV2`, or `LoanService.status` for a method tool. */
  get id(): string {
    return siteName(this.site);
  }

  /** The effective `@Tool` declaration: own, or for a class tool the nearest superclass's. */
  get declaration(): ToolDeclaration | undefined {
    // Final once the class is defined; read once, since every call's Result reads the messages.
    if (this.declared === undefined) this.declared = { value: getFact<ToolDeclaration>(KEYS.tool, this.site) };
    return this.declared.value;
  }

  private declared?: { value: ToolDeclaration | undefined };

  get version(): number {
    return getFact<number>(KEYS.version, this.site) ?? 1;
  }

  /** The version the tool declares itself (not inherited), if any. */
  get ownVersion(): number | undefined {
    return getOwnFact<number>(KEYS.version, this.site);
  }

  /** Declared anywhere in the chain (own or inherited)? */
  get declaresVersion(): boolean {
    return getFact<number>(KEYS.version, this.site) !== undefined;
  }

  /** What kind of member this is: a tool, a resource, a resource template, a prompt or a completion. */
  get member(): MemberKind {
    return this.declaration?.member?.kind ?? 'tool';
  }

  /** The tags declared with the member (`@Tool({ tags })`): what a server's `visible` rule reads. */
  get tags(): readonly string[] {
    return this.declaration?.tags ?? NO_TAGS;
  }

  /** A resource's or resource template's URI (or template), MIME type, variables and annotations; undefined for other members. */
  get resource(): ResourceFacts | undefined {
    const facts = this.declaration?.member;
    return facts?.kind === 'resource' || facts?.kind === 'resource-template' ? facts : undefined;
  }

  /**
   * A completion's argument and the prompt or resource template it completes (resolved through the
   * registry that built this definition); undefined for other members.
   */
  get completes(): { readonly argument: string; readonly of: ToolDefinition } | undefined {
    const facts = this.declaration?.member;
    if (facts?.kind !== 'completion') return undefined;
    return (this.completing ??= { argument: facts.argument, of: this.completedMember(facts) });
  }

  private completing?: { readonly argument: string; readonly of: ToolDefinition };

  private completedMember(facts: CompletionFacts): ToolDefinition {
    const target = facts.of.thunk ? (facts.of.target as () => Function)() : (facts.of.target as Function);
    if (typeof target !== 'function' || !target.prototype) {
      throw new DeclarationError(
        `${this.id}: @Complete('${facts.argument}') names ${describeValue(target)} as its prompt or template; it must be a class (or a thunk returning one).`,
        declaredAt(this.site),
      );
    }
    const sameClass = target === this.target && facts.of.method === undefined;
    const of = this.host.describe(target, facts.of.method ?? this.completedMethod(facts, target, sameClass));
    if (of.member !== 'prompt' && of.member !== 'resource-template') {
      throw new DeclarationError(
        `${this.id}: @Complete('${facts.argument}') completes ${of.id}, which is a ${of.member.replace('-', ' ')}; completions are for prompt ` +
          `arguments and resource template variables.` +
          (sameClass ? ` In a class with several members, name the method: @Complete('${facts.argument}', { of: 'method' }).` : ''),
        declaredAt(this.site),
      );
    }
    const names =
      of.member === 'prompt'
        ? of.inputContract.fields.filter((f) => !f.ambient).map((f) => f.name)
        : of.resource!.variables.map((v) => v.name);
    if (!names.includes(facts.argument)) {
      throw new DeclarationError(
        `${this.id}: @Complete('${facts.argument}') completes ${of.id}, which has no ${of.member === 'prompt' ? 'argument' : 'variable'} ` +
          `'${facts.argument}'. Its ${of.member === 'prompt' ? 'arguments' : 'variables'}: ${names.join(', ') || 'none'}.`,
        declaredAt(this.site),
      );
    }
    return of;
  }

  /**
   * Without `of`, on a class that is not itself a member: its one prompt or template method (a
   * class with several must name it).
   */
  private completedMethod(facts: CompletionFacts, target: Function, sameClass: boolean): string | undefined {
    if (getFact<ToolDeclaration>(KEYS.tool, { target }) !== undefined) return undefined;
    const methods = (getOwnFact<string[]>(KEYS.toolMethods, { target }) ?? []).filter((method) => {
      const kind = getOwnFact<ToolDeclaration>(KEYS.tool, { target, method })?.member?.kind;
      return kind === 'prompt' || kind === 'resource-template';
    });
    if (methods.length === 1) return methods[0];
    throw new DeclarationError(
      `${this.id}: @Complete('${facts.argument}') names ${target.name}, which ` +
        (methods.length === 0
          ? 'has no prompt or resource template (on the class or a method). Declare one, or name the class that has it.'
          : `has several prompts and templates as methods (${methods.join(', ')}). ` +
            (sameClass
              ? `Name the one this completes: @Complete('${facts.argument}', { of: '${methods[0]}' }).`
              : `Name the one this completes: @Complete(${target.name}, '${facts.argument}', { of: '${methods[0]}' }).`)),
      declaredAt(this.site),
    );
  }

  get description(): string | undefined {
    return this.nearest((site) => getOwnFact<string>(KEYS.description, site) ?? getOwnFact<ToolDeclaration>(KEYS.tool, site)?.description);
  }

  get title(): string | undefined {
    return this.declaration?.title;
  }

  get hints(): readonly string[] {
    return getFact<readonly string[]>(KEYS.hints, this.site) ?? [];
  }

  /** The failure headline and success message declared with `@Tool({ error, success })`. */
  get messages(): { readonly error?: string; readonly success?: string } {
    const declaration = this.declaration;
    return { error: declaration?.error, success: declaration?.success };
  }

  /** The call's time limit in milliseconds (`@Tool({ timeoutMs })`), or undefined for none declared. */
  get timeoutMs(): number | undefined {
    return this.declaration?.timeoutMs;
  }

  /** Whether calls need a person's approval (`@Tool({ approval })`), or undefined when not declared. */
  get approval(): ToolDeclaration['approval'] {
    return this.declaration?.approval;
  }

  /** `@FailsOn` rules, the tool's own before its superclasses'. */
  get failsOn(): readonly FailsOnRule[] {
    if (this.kind === 'method') return getOwnFact<FailsOnRule[]>(KEYS.failsOn, this.site) ?? [];
    return lineage(this.target).flatMap((target) => getOwnFact<FailsOnRule[]>(KEYS.failsOn, { target }) ?? []);
  }

  /** The registered adapters this tool belongs to. */
  get adapters(): readonly string[] {
    return this.host.adapters().filter((adapter) => this.host.isMember(this, adapter));
  }

  isMemberOf(adapter: string): boolean {
    return this.host.isMember(this, adapter);
  }

  /**
   * The tool's name: for `adapter`, its per-adapter name if declared; then an explicit `name`;
   * otherwise derived from the class (or method) name. Never throws, never blank.
   */
  toolName(adapter?: string): string {
    const declaration = this.declaration;
    const perAdapter = adapter === undefined ? undefined : declaration?.adapters[adapter]?.name;
    if (typeof perAdapter === 'string' && sanitizeToolName(perAdapter)) return sanitizeToolName(perAdapter);
    if (declaration?.name && sanitizeToolName(declaration.name)) return sanitizeToolName(declaration.name);
    return this.derivedName().name;
  }

  /** @internal The derived name and whether it kept a version segment it should not have. */
  derivedName(): { name: string; base: string; suffixVersion?: number } {
    const derived = deriveToolName(this.method && this.kind === 'method' ? this.method : this.target.name, this.host.nameSuffixes);
    const own = this.ownVersion;
    const drop = derived.suffixVersion !== undefined && own !== undefined && own === derived.suffixVersion;
    return { name: drop ? derived.base : derived.full, base: derived.base, suffixVersion: derived.suffixVersion };
  }

  /** Is the tool's name explicit (shared or for this adapter)? */
  hasExplicitName(adapter?: string): boolean {
    const declaration = this.declaration;
    return Boolean(declaration?.name || (adapter !== undefined && declaration?.adapters[adapter]?.name));
  }

  /**
   * The per-tool option bags for an adapter, nearest first: the tool's own declaration, then (for
   * class tools) each superclass's.
   */
  adapterBags(adapter: string): readonly Readonly<Record<string, unknown>>[] {
    // Declarations are final once the classes are defined: read them once per adapter.
    let bags = this.bagsByAdapter.get(adapter);
    if (!bags) {
      const sites: Site[] = this.kind === 'method' ? [this.site] : lineage(this.target).map((target) => ({ target }));
      const found: Readonly<Record<string, unknown>>[] = [];
      for (const site of sites) {
        const bag = getOwnFact<ToolDeclaration>(KEYS.tool, site)?.adapters[adapter];
        if (bag) found.push(bag);
      }
      this.bagsByAdapter.set(adapter, (bags = found));
    }
    return bags;
  }

  private readonly bagsByAdapter = new Map<string, readonly Readonly<Record<string, unknown>>[]>();

  /** The input field model (an empty contract when the tool takes no input). */
  get inputContract(): Contract {
    return (this.input ??= this.memberInput() ?? inputContractFor(this.site, this.kind === 'class' ? this.method : undefined));
  }

  /**
   * The contracts a member kind implies: a completion's request; a resource template's variables
   * as required strings when it declares no `@Expects`.
   */
  private memberInput(): Contract | undefined {
    const facts = this.declaration?.member;
    if (facts?.kind === 'completion') {
      if (getFact(FACT_KEYS.expects, this.site) !== undefined) {
        throw new DeclarationError(
          `${this.id}: a completion's input is always the completion request ({ argument, value, context }); remove its @Expects.`,
          declaredAt(this.site),
        );
      }
      return contractOf(CompletionInput);
    }
    if (facts?.kind !== 'resource-template' || getFact(FACT_KEYS.expects, this.site) !== undefined) return undefined;
    // A method template whose first parameter is a DTO class takes that class, as a method tool does.
    const first =
      this.kind === 'method'
        ? (Reflect.getMetadata('design:paramtypes', this.target.prototype as object, this.method) as unknown[] | undefined)?.[0]
        : undefined;
    if (typeof first === 'function' && first !== Object && first !== String) return undefined;
    const shape: Record<string, unknown> = {};
    for (const variable of facts.variables) shape[variable.name] = variable.explode ? { type: [String] } : String;
    return contractOf(classForShape(shape as never, `${this.target.name}Variables`));
  }

  /** The output field model, or undefined when the tool exposes nothing. */
  get outputContract(): Contract | undefined {
    if (this.output === undefined) this.output = { contract: outputContractFor(this.site) };
    return this.output.contract;
  }

  // Resolved once each; a declaration error is not cached, so it fails again, loudly.
  private input?: Contract;
  private output?: { contract: Contract | undefined };

  /** The JSON Schema of the arguments a caller sends (ambient fields never appear). */
  inputSchema(options?: SchemaOptions): JsonSchema {
    return contractSchema(this.inputContract.target, 'input', options);
  }

  /** The JSON Schema of what a successful call exposes, or undefined when it exposes nothing. */
  outputSchema(options?: SchemaOptions): JsonSchema | undefined {
    const contract = this.outputContract;
    return contract ? contractSchema(contract.target, 'output', options) : undefined;
  }

  toString(): string {
    return `${this.toolName()} (${this.id}, version ${this.version})`;
  }

  private nearest<T>(read: (site: Site) => T | undefined): T | undefined {
    if (this.kind === 'method') return read(this.site);
    for (const target of lineage(this.target)) {
      const value = read({ target });
      if (value !== undefined) return value;
    }
    return undefined;
  }
}

Object.defineProperty(ToolDefinition.prototype, DEFINITION_BRAND, { value: true });
