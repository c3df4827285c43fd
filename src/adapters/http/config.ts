import { declareRejectOpaqueExposedValues, defineAdapterConfig } from '../../adapter-kit';

/** The adapter key: `@Tool('http')` membership, `Tools.forAdapter('http')`, per-adapter names. */
export const HTTP_ADAPTER = 'http';

/** An error class a tool fails on (its own, thrown and declared with `@FailsOn`, or `ToolFailure`). */
export type FailureClass = abstract new (...args: never[]) => unknown;

/**
 * The status of a tool's business failures: one status for all of them, or a status per failure
 * class (matched in order with `instanceof` on the error behind the failure) and a `default`.
 */
export type FailureStatus = number | { readonly default?: number; readonly on: ReadonlyArray<readonly [FailureClass, number]> };

/** The status a business failure answers when the tool declares none: 422 Unprocessable Content. */
export const DEFAULT_FAILURE_STATUS = 422;

/** A URL path segment: unreserved characters only, so it needs no escaping and never becomes two segments. */
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

function failureStatusProblem(value: unknown): string | undefined {
  const status = (code: unknown) => Number.isInteger(code) && (code as number) >= 400 && (code as number) <= 599;
  if (typeof value === 'number') return status(value) ? undefined : 'must be an HTTP error status (400-599)';
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { on?: unknown }).on)) {
    return 'must be a status (e.g. 409) or { default?: status, on: [[ErrorClass, status], …] }';
  }
  const { default: fallback, on } = value as { default?: unknown; on: unknown[] };
  if (fallback !== undefined && !status(fallback)) return 'default must be an HTTP error status (400-599)';
  for (const [index, rule] of on.entries()) {
    if (!Array.isArray(rule) || rule.length !== 2 || typeof rule[0] !== 'function' || !status(rule[1])) {
      return `on[${index}] must be [ErrorClass, status] with a status in 400-599`;
    }
  }
  return undefined;
}

/**
 * The HTTP adapter's settings, per tool with `@Tool({ adapters: { http: { … } } })`:
 * `segment`, `failureStatus`, `deprecated`, `tags` and `rejectOpaqueExposedValues`.
 */
export const HttpConfig = defineAdapterConfig(HTTP_ADAPTER, {
  /** The path segment of the tool (default: its `http` tool name): `POST {prefix}/{segment}/v{n}`. */
  segment: {
    default: undefined as string | undefined,
    validate: (value: string | undefined) =>
      value === undefined ||
      (typeof value === 'string' && SEGMENT.test(value)) ||
      "must be a URL path segment of letters, digits, '.', '_', '~' or '-'",
    overridable: true,
  },
  /** The status of a business failure (default 422), or a status per failure class. */
  failureStatus: {
    default: DEFAULT_FAILURE_STATUS as FailureStatus,
    validate: (value: FailureStatus) => failureStatusProblem(value) ?? true,
    overridable: true,
  },
  /** Marks the version deprecated in OpenAPI and with a `Deprecation: true` response header. */
  deprecated: { default: false, oneOf: [true, false], overridable: true },
  /** OpenAPI tags of the tool's operations (default: the tool's name, grouping its versions). */
  tags: {
    default: undefined as readonly string[] | undefined,
    validate: (value: readonly string[] | undefined) =>
      value === undefined ||
      (Array.isArray(value) && value.every((tag) => typeof tag === 'string' && tag.trim() !== '')) ||
      'must be a list of non-empty strings',
    overridable: true,
  },
  /** A published HTTP contract refuses what its author never declared. */
  ...declareRejectOpaqueExposedValues({ default: true }),
});

/** The status of one business failure of a tool, from its `failureStatus`. */
export function failureStatusOf(setting: FailureStatus, error: unknown): number {
  if (typeof setting === 'number') return setting;
  const rule = setting.on.find(([errorClass]) => error instanceof (errorClass as Function));
  return rule ? rule[1] : (setting.default ?? DEFAULT_FAILURE_STATUS);
}

/** Every status a tool's failures can answer, for OpenAPI. */
export function failureStatuses(setting: FailureStatus): number[] {
  if (typeof setting === 'number') return [setting];
  return [...new Set([setting.default ?? DEFAULT_FAILURE_STATUS, ...setting.on.map(([, status]) => status)])].sort();
}
