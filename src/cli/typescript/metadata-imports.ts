/**
 * SWC writes a decorated parameter's or property's type as `typeof T === "undefined" ? Object : T`
 * and, to keep `T` defined, keeps `import { T } from '…'` even when `T` is only a type there (an
 * interface such as toolwright's `CompletionRequest`). In CommonJS the import is a property read, so
 * a type-only name gives `Object`, as tsc emits; in an ES module it is a binding that must exist,
 * and Node refuses the module ("does not provide an export named 'T'"). For ES modules, a name
 * imported only for that metadata (SWC's own compile without metadata drops its import) is read
 * through a namespace import of the same module instead: the class when it is one, `Object` when it
 * is only a type (what tsc writes); the module still loads once, in order.
 */

/** The metadata SWC writes for a type named `name`. */
const metadataOf = (name: string) => `typeof ${name} === "undefined" ? Object : ${name}`;

/**
 * `import { a, b as c } from 'x';` as SWC prints it: one declaration, named specifiers only, at the
 * start of a line or after the comment that precedes it.
 */
const NAMED_IMPORT = /(^|\*\/[ \t]*)import\s*\{([^}]*)\}\s*from\s*(['"][^'"\n]+['"]);?/gm;

interface Specifier {
  readonly text: string;
  readonly imported: string;
  readonly local: string;
}

function specifiers(list: string): Specifier[] {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((text) => {
      const [imported, local = imported] = text.split(/\s+as\s+/);
      return { text, imported, local };
    });
}

/** Every local name a module's named imports bind, by the module they come from. */
function importedNames(code: string): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const [, , list, from] of code.matchAll(NAMED_IMPORT)) {
    const set = names.get(from) ?? new Set<string>();
    for (const { local } of specifiers(list)) set.add(local);
    names.set(from, set);
  }
  return names;
}

/** Whether a compiled ES module writes any decorator metadata of an imported or declared type. */
export function hasTypeMetadata(code: string): boolean {
  return code.includes('=== "undefined" ? Object : ');
}

/**
 * The ES module SWC compiled with decorator metadata (`compiled`), with every name that its compile
 * without metadata (`withoutMetadata`) no longer imports read through a namespace import.
 */
export function metadataImportsThroughNamespaces(compiled: string, withoutMetadata: string): string {
  const valueImports = importedNames(withoutMetadata);
  const replacements = new Map<string, string>();
  let namespaces = 0;
  const rewritten = compiled.replace(NAMED_IMPORT, (statement, before: string, list: string, from: string) => {
    const kept: string[] = [];
    const moved: Specifier[] = [];
    for (const specifier of specifiers(list)) {
      const forValue = valueImports.get(from)?.has(specifier.local) ?? false;
      if (!forValue && specifier.imported !== 'default' && compiled.includes(metadataOf(specifier.local))) moved.push(specifier);
      else kept.push(specifier.text);
    }
    if (moved.length === 0) return statement;
    const namespace = `__toolwright_types_${namespaces++}`;
    for (const { local, imported } of moved) replacements.set(local, metadataOf(`${namespace}[${JSON.stringify(imported)}]`));
    // On the same line, so the source map's lines stay right.
    return `${before}${kept.length > 0 ? `import { ${kept.join(', ')} } from ${from}; ` : ''}import * as ${namespace} from ${from};`;
  });
  let result = rewritten;
  for (const [local, replacement] of replacements) result = result.split(metadataOf(local)).join(replacement);
  return result;
}
