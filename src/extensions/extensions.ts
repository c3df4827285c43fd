import { processStore } from '../metadata/process-stores';
import { describeValue, joinWords } from '../util/describe-value';
import { DeclarationError } from '../errors/declaration-errors';

/** Hints every tool may declare; adapters interpret them (MCP annotations, HTTP verbs, …). */
export const BUILT_IN_SEMANTIC_HINTS = ['readOnly', 'idempotent', 'destructive'] as const;
export type BuiltInSemanticHint = (typeof BUILT_IN_SEMANTIC_HINTS)[number];

/** `@Field` options that constrain values (each becomes a JSON Schema keyword). */
export const CONSTRAINT_OPTION_KEYS = [
  'min',
  'max',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
] as const;

/** Options `@Field` owns; a registered field metadata key may never take one of these names. */
export const FIELD_OPTION_KEYS = [
  'type',
  'anyOf',
  'description',
  'optional',
  'nullable',
  'default',
  'enum',
  'example',
  'coerce',
  'allowEmpty',
  'sensitive',
  ...CONSTRAINT_OPTION_KEYS,
  'ambient',
] as const;

/**
 * Names class-validator owns as decorator names or validation options. A registered field metadata
 * key with one of these names would change what that option means for every tool in the process.
 */
const CLASS_VALIDATOR_OWNED = ['each', 'message', 'groups', 'always', 'context', 'validateIf', 'isOptional', 'isDefined', 'validateNested'];

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

// Shared by every copy of toolwright in the process (see metadata/process-stores).
const semanticHints = processStore('semanticHints', () => new Set<string>(BUILT_IN_SEMANTIC_HINTS));
const fieldMetadataKeys = processStore('fieldMetadataKeys', () => new Set<string>());

function checkName(kind: string, name: unknown): string {
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw new DeclarationError(
      `Extensions.register${kind}: ${describeValue(name)} is not a valid name. ` +
        'Use letters, digits and underscores, starting with a letter (e.g. openWorld).',
    );
  }
  return name;
}

/**
 * The extension registry: vocabulary adapters add to core without patching it. Registration is
 * idempotent, so two adapters may register the same hint.
 */
export const Extensions = {
  /** Allows further `@SemanticHints` values (e.g. `openWorld` for MCP). */
  registerSemanticHint(...hints: string[]): void {
    for (const hint of hints) semanticHints.add(checkName('SemanticHint', hint));
  },

  semanticHints(): readonly string[] {
    return [...semanticHints];
  },

  isSemanticHint(hint: unknown): boolean {
    return typeof hint === 'string' && semanticHints.has(hint);
  },

  /**
   * Allows further keys in `@Field({...})` and inline shapes; their values arrive on the field's
   * `metadata`. Namespace them to your adapter (`mcpTitle`, `openapiExample`).
   */
  registerFieldMetadataKey(...keys: string[]): void {
    for (const key of keys) {
      checkName('FieldMetadataKey', key);
      if ((FIELD_OPTION_KEYS as readonly string[]).includes(key) || CLASS_VALIDATOR_OWNED.includes(key)) {
        throw new DeclarationError(
          `Extensions.registerFieldMetadataKey: '${key}' is owned by @Field or class-validator; registering it ` +
            'would change what it means for every tool. Namespace the key to your adapter (e.g. mcpTitle).',
        );
      }
      fieldMetadataKeys.add(key);
    }
  },

  fieldMetadataKeys(): readonly string[] {
    return [...fieldMetadataKeys];
  },

  /** @internal Whether any field metadata key is registered (a cheap check for hot paths). */
  hasFieldMetadataKeys(): boolean {
    return fieldMetadataKeys.size > 0;
  },

  isFieldMetadataKey(key: string): boolean {
    return fieldMetadataKeys.has(key);
  },
};

export function unknownHintMessage(where: string, hint: unknown): string {
  return (
    `${where}: unknown semantic hint ${describeValue(hint)}. Known hints: ${joinWords([...semanticHints], 'and')}. ` +
    'An adapter can add more with Extensions.registerSemanticHint().'
  );
}
