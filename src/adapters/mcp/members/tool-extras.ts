/**
 * What a tool may add to its MCP `tools/list` entry beyond its schema: icons, and the input fields
 * a 2026-07-28 client mirrors into `Mcp-Param-*` HTTP headers (SEP-2243's `x-mcp-header`).
 */
import { DeclarationError, ToolDefinition } from '../../../index';
import { describeValue } from '../../../adapter-kit';
import { isPlainObject } from '../../../adapter-kit/internal';

/** An icon clients may show for the tool (MCP `Icon`): an https: or data: URL. */
export interface McpToolIcon {
  src: string;
  /** e.g. `image/png`, `image/svg+xml`. */
  mimeType?: string;
  /** e.g. `['48x48']`, or `['any']` for a scalable icon. */
  sizes?: string[];
  /** The background the icon is drawn for. */
  theme?: 'light' | 'dark';
}

const ICON_KEYS = ['src', 'mimeType', 'sizes', 'theme'];
/** RFC 9110 token: what an HTTP header name may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SIZE = /^(any|\d+x\d+)$/;
/** What SEP-2243 lets a header carry (clients drop a tool that mirrors anything else, even a `number`). */
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);

/** `icons` setting check: true, or what is wrong. */
export function iconsProblem(icons: unknown): true | string {
  if (icons === undefined) return true;
  if (!Array.isArray(icons) || icons.length === 0)
    return "must be a non-empty list of icons such as [{ src: 'https://example.com/icon.png' }]";
  for (const [index, icon] of icons.entries()) {
    const at = `icons[${index}]`;
    if (!isPlainObject(icon)) return `must be a list of { src, mimeType?, sizes?, theme? } objects; ${at} is not one`;
    const unknown = Object.keys(icon).filter((key) => !ICON_KEYS.includes(key));
    if (unknown.length > 0) return `${at} has unknown key(s) ${unknown.join(', ')} (known: ${ICON_KEYS.join(', ')})`;
    let url: URL | undefined;
    try {
      url = typeof icon.src === 'string' ? new URL(icon.src) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'data:')) {
      return `${at}.src must be an https: or data: URL (clients fetch it; http: and file: are refused)`;
    }
    if (icon.mimeType !== undefined && (typeof icon.mimeType !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(icon.mimeType))) {
      return `${at}.mimeType must be a media type such as 'image/png'`;
    }
    if (
      icon.sizes !== undefined &&
      (!Array.isArray(icon.sizes) || !icon.sizes.every((size) => typeof size === 'string' && SIZE.test(size)))
    ) {
      return `${at}.sizes must be a list such as ['48x48'] or ['any']`;
    }
    if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark') return `${at}.theme must be 'light' or 'dark'`;
  }
  return true;
}

/** `headers` setting check (its shape; the fields are checked against the input schema at enumeration). */
export function headersProblem(headers: unknown): true | string {
  if (headers === undefined) return true;
  if (!isPlainObject(headers)) return "must map input fields to header names, e.g. { region: 'Region' } (sent as Mcp-Param-Region)";
  const seen = new Map<string, string>();
  for (const [field, name] of Object.entries(headers)) {
    if (typeof name !== 'string' || !TOKEN.test(name)) {
      return `maps '${field}' to ${describeValue(name)}, which is not an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~, no spaces)`;
    }
    const other = seen.get(name.toLowerCase());
    if (other !== undefined) return `maps '${other}' and '${field}' to the same header '${name}' (header names ignore case)`;
    seen.set(name.toLowerCase(), field);
  }
  return true;
}

/**
 * The input schema with `x-mcp-header` on each designated field (a copy; the tool's own schema is
 * shared). A field the schema does not have at its top level, or that is not a string, integer or
 * boolean, is a DeclarationError saying the fix.
 */
export function withHeaderFields(
  definition: ToolDefinition,
  inputSchema: Record<string, unknown>,
  headers: Readonly<Record<string, string>> | undefined,
): Record<string, unknown> {
  if (!headers || Object.keys(headers).length === 0) return inputSchema;
  const properties = { ...((inputSchema.properties as Record<string, Record<string, unknown>> | undefined) ?? {}) };
  for (const [field, name] of Object.entries(headers)) {
    const property = properties[field];
    const where = `${definition.id}: @Tool({ adapters: { mcp: { headers } } })`;
    if (!property) {
      const known = Object.keys(properties);
      throw new DeclarationError(
        `${where} names the input field '${field}', which the tool's input does not have at its top level. ` +
          `Name one of ${known.length > 0 ? known.map((key) => `'${key}'`).join(', ') : '(none: the tool takes no input)'}, or drop it.`,
        { class: definition.target },
      );
    }
    if (typeof property.type !== 'string' || !PRIMITIVES.has(property.type)) {
      throw new DeclarationError(
        `${where} mirrors '${field}' into the Mcp-Param-${name} header, and a header carries only a string, an integer or a boolean (SEP-2243; clients drop a tool that mirrors anything else); ` +
          `'${field}' is ${typeof property.type === 'string' ? `of type ${property.type}` : 'not one of those (a nested or union schema)'}. Mirror such a field, or drop it.`,
        { class: definition.target },
      );
    }
    properties[field] = { ...property, 'x-mcp-header': name };
  }
  return { ...inputSchema, properties };
}
