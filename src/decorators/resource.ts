import { declaredAt, Site, siteName } from '../metadata/site';
import type { ResourceAnnotations, ResourceCache, ResourceFacts } from '../metadata/definitions';
import { describeValue, isPlainObject } from '../util/describe-value';
import { cacheHintProblem } from '../util/cache-hint';
import { matchProblem, parseUriTemplate, variablesOf } from '../util/uri-template-parse';
import { DeclarationError } from '../errors/declaration-errors';
import { MEMBER_OPTION_KEYS, MemberArgument, MemberDecorator, MemberOptions, memberDecorator, optionalText } from './member';

/** The options of `@ResourceTemplate(template, { ... })`, and the base of `@Resource`'s: the member options plus the MIME type and annotations. */
export interface ResourceOptions extends MemberOptions {
  /** The MIME type of what it reads as (`text/markdown`, `application/json`, `image/png`). */
  mimeType?: string;
  /** How the resource is meant to be used: who it is for and how important it is. */
  annotations?: ResourceAnnotations;
  /**
   * How long MCP 2026-07-28 clients may keep what it reads (`ttlMs`), and whether shared caches may
   * (`cacheScope`, default `'private'`): `{ ttlMs: 300000, cacheScope: 'public' }`. Without it, the
   * server's `readCache`.
   */
  cache?: ResourceCache;
}

/** The options of `@Resource(uri, { ... })` (a fixed URI): `ResourceOptions` plus its size, when known. */
export interface FixedResourceOptions extends ResourceOptions {
  /** Its size in bytes, when known in advance (clients may show it, or estimate context use). */
  size?: number;
}

/** One argument of `@Resource(uri, ...)` after the URI: an adapter key, `false` (opts out) or `FixedResourceOptions`. */
export type ResourceArgument = MemberArgument<FixedResourceOptions>;
/** One argument of `@ResourceTemplate(template, ...)` after the template: an adapter key, `false` (opts out) or `ResourceOptions`. */
export type ResourceTemplateArgument = MemberArgument<ResourceOptions>;

const RESOURCE_KEYS = [...MEMBER_OPTION_KEYS, 'mimeType', 'annotations', 'cache'];
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(?:\s*;.*)?$/i;

/**
 * Declares a resource at a fixed URI: a class (entry method `call`) or a method whose return value
 * is what the resource reads as (text, bytes, a JSON value, or `Content.resource` parts). A member
 * of every registered adapter that serves resources, or of the adapters named before the options.
 *
 * @param uri the resource's URI, with a scheme: `loans://policy`.
 * @param args adapter keys (none: every adapter), then the options: `mimeType`, `size`, `annotations`, `cache`, `description`, `tags`, ….
 * @example
 * ```ts
 * class LoanDocs {
 *   @Resource('loans://policy', { mimeType: 'text/markdown', description: 'The lending policy' })
 *   policy(): string { return '# Lending policy\n…'; }
 * }
 * ```
 */
export function Resource(uri: string, ...args: [...adapters: string[], options: FixedResourceOptions]): MemberDecorator;
/**
 * Declares a resource at a fixed URI (see above), a member of the adapters named; with none, of
 * every registered adapter that serves resources.
 *
 * @param uri the resource's URI, with a scheme: `loans://policy`.
 * @param adapters adapter keys.
 * @example
 * ```ts
 * @Resource('loans://rates')
 * export class Rates {
 *   call() { return { standard: 0.049, express: 0.059 }; } // read as JSON
 * }
 * ```
 */
export function Resource(uri: string, ...adapters: string[]): MemberDecorator;
/**
 * Keeps a class or method out of every adapter (`false` combined with anything else is an error).
 *
 * @param uri the resource's URI.
 * @param optOut `false`.
 */
export function Resource(uri: string, optOut: false): MemberDecorator;
export function Resource(uri: string, ...args: ResourceArgument[]): MemberDecorator {
  checkUri('Resource', uri, 'URI', 'loans://policy');
  if (/[{}]/.test(uri)) {
    throw new DeclarationError(
      `@Resource(${describeValue(uri)}): a URI with {variables} is a template. Declare it with @ResourceTemplate(${describeValue(uri)}).`,
    );
  }
  return memberDecorator('Resource', args, [...RESOURCE_KEYS, 'size'], (options, site) => ({
    ...common('Resource', options, site),
    kind: 'resource',
    uri,
    variables: Object.freeze([]),
    ...sizeOption(options.size, site),
  }));
}

/**
 * Declares a resource template (RFC 6570): its variables are the member's input contract, checked
 * and coerced like a tool's input. Declare their types with `@Expects` (a DTO or an inline shape
 * whose fields are exactly the variables); without it every variable is a required string. A
 * member of every registered adapter that serves resources, or of the adapters named before the options.
 *
 * @param uriTemplate the template, with a scheme and at least one variable: `loans://applications/{id}`.
 * @param args adapter keys (none: every adapter), then the options: `mimeType`, `annotations`, `cache`, `description`, `tags`, ….
 * @example
 * ```ts
 * @ResourceTemplate('loans://applications/{id}', { mimeType: 'application/json' })
 * @Expects({ id: Integer })
 * export class Application {
 *   constructor(private readonly loans: LoanRepository) {}
 *   call(input: { id: number }) { return this.loans.find(String(input.id)); }
 * }
 * ```
 */
export function ResourceTemplate(uriTemplate: string, ...args: [...adapters: string[], options: ResourceOptions]): MemberDecorator;
/**
 * Declares a resource template (see above), a member of the adapters named; with none, of every
 * registered adapter that serves resources.
 *
 * @param uriTemplate the template: `files://docs{/path*}`.
 * @param adapters adapter keys.
 * @example
 * ```ts
 * class Files {
 *   @ResourceTemplate('files://docs{/path*}') // path: a required string
 *   read(input: { path: string }) { return readDoc(input.path); }
 * }
 * ```
 */
export function ResourceTemplate(uriTemplate: string, ...adapters: string[]): MemberDecorator;
/**
 * Keeps a class or method out of every adapter (`false` combined with anything else is an error).
 *
 * @param uriTemplate the template.
 * @param optOut `false`.
 */
export function ResourceTemplate(uriTemplate: string, optOut: false): MemberDecorator;
export function ResourceTemplate(uriTemplate: string, ...args: ResourceTemplateArgument[]): MemberDecorator {
  checkUri('ResourceTemplate', uriTemplate, 'URI template', 'loans://applications/{id}');
  const parts = parseUriTemplate(uriTemplate);
  if (typeof parts === 'string') {
    throw new DeclarationError(`@ResourceTemplate(${describeValue(uriTemplate)}): not an RFC 6570 URI template: ${parts}.`);
  }
  const unmatchable = matchProblem(parts);
  if (unmatchable !== undefined) {
    throw new DeclarationError(`@ResourceTemplate(${describeValue(uriTemplate)}): URIs cannot be matched against it: ${unmatchable}.`);
  }
  const variables = variablesOf(parts);
  if (variables.length === 0) {
    throw new DeclarationError(
      `@ResourceTemplate(${describeValue(uriTemplate)}) has no {variables}. A fixed URI is a resource: declare it with @Resource(${describeValue(uriTemplate)}).`,
    );
  }
  return memberDecorator('ResourceTemplate', args, RESOURCE_KEYS, (options, site) => ({
    ...common('ResourceTemplate', options, site),
    kind: 'resource-template',
    uri: uriTemplate,
    variables,
  }));
}

function checkUri(decorator: string, uri: unknown, what: string, example: string): void {
  if (typeof uri !== 'string' || !SCHEME.test(uri) || /\s/.test(uri) || uri.length > 2048) {
    throw new DeclarationError(
      `@${decorator}: the first argument must be a ${what} with a scheme and no spaces (up to 2048 characters), e.g. '${example}'; got ${describeValue(uri)}.`,
    );
  }
}

function common(
  decorator: string,
  options: Record<string, unknown>,
  site: Site,
): Pick<ResourceFacts, 'mimeType' | 'annotations' | 'cache'> {
  const mimeType = optionalText(decorator, site, 'mimeType', options.mimeType);
  if (mimeType !== undefined && !MIME.test(mimeType)) {
    throw new DeclarationError(
      `${siteName(site)}: @${decorator} option 'mimeType' must be a MIME type such as 'text/markdown'; got ${describeValue(mimeType)}.`,
      declaredAt(site),
    );
  }
  return {
    ...(mimeType ? { mimeType } : {}),
    ...annotationsOption(decorator, options.annotations, site),
    ...cacheOption(decorator, options.cache, site),
  };
}

function cacheOption(decorator: string, value: unknown, site: Site): { cache?: Readonly<ResourceCache> } {
  if (value === undefined) return {};
  const problem = cacheHintProblem(`${siteName(site)}: @${decorator} option cache`, value, "{ ttlMs: 300000, cacheScope: 'public' }", true);
  if (problem !== undefined) throw new DeclarationError(problem, declaredAt(site));
  const { ttlMs, cacheScope } = value as ResourceCache;
  return { cache: Object.freeze({ ttlMs, ...(cacheScope !== undefined ? { cacheScope } : {}) }) };
}

function annotationsOption(decorator: string, value: unknown, site: Site): { annotations?: ResourceAnnotations } {
  if (value === undefined) return {};
  const problem = (): never => {
    throw new DeclarationError(
      `${siteName(site)}: @${decorator} option 'annotations' must be { audience?: ('user' | 'assistant')[], priority?: a number from 0 to 1 }; ` +
        `got ${describeValue(value)}.`,
      declaredAt(site),
    );
  };
  if (!isPlainObject(value) || Object.keys(value).some((key) => key !== 'audience' && key !== 'priority')) return problem();
  const { audience, priority } = value as { audience?: unknown; priority?: unknown };
  if (audience !== undefined && (!Array.isArray(audience) || audience.some((who) => who !== 'user' && who !== 'assistant'))) problem();
  if (priority !== undefined && (typeof priority !== 'number' || !(priority >= 0 && priority <= 1))) problem();
  return {
    annotations: Object.freeze({
      ...(audience !== undefined ? { audience: Object.freeze([...new Set(audience as ('user' | 'assistant')[])]) } : {}),
      ...(priority !== undefined ? { priority: priority as number } : {}),
    }),
  };
}

function sizeOption(value: unknown, site: Site): { size?: number } {
  if (value === undefined) return {};
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new DeclarationError(
      `${siteName(site)}: @Resource option 'size' must be a whole number of bytes (0 or more); got ${describeValue(value)}.`,
      declaredAt(site),
    );
  }
  return { size: value };
}
