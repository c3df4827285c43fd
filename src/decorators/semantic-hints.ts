import { Extensions, unknownHintMessage } from '../extensions/extensions';
import { KEYS } from '../metadata/keys';
import { defineOnce, siteName, declaredAt } from '../metadata/site';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';
import { DeclarationError } from '../errors/declaration-errors';

/**
 * Advisory hints adapters interpret: `readOnly`, `idempotent`, `destructive`, or one an adapter
 * registered. Inherited; a subclass's own hints replace its parent's.
 *
 * @param hints `'readOnly'`, `'idempotent'`, `'destructive'`, or a hint an adapter registered.
 * @example
 * ```ts
 * @Tool()
 * @SemanticHints('readOnly', 'idempotent') // MCP: readOnlyHint, idempotentHint
 * export class LoanStatus { … }
 * ```
 */
export function SemanticHints(...hints: string[]): ClassOrMethodDecorator {
  return classOrMethodDecorator('SemanticHints', (site) => {
    const where = siteName(site);
    if (hints.length === 0) throw new DeclarationError(`${where}: @SemanticHints needs at least one hint.`, declaredAt(site));
    for (const hint of hints) {
      if (!Extensions.isSemanticHint(hint)) throw new DeclarationError(unknownHintMessage(where, hint), declaredAt(site));
    }
    if (hints.includes('readOnly') && hints.includes('destructive')) {
      throw new DeclarationError(`${where}: a tool cannot be both readOnly and destructive. Keep the one that is true.`, declaredAt(site));
    }
    defineOnce(KEYS.hints, 'SemanticHints', Object.freeze([...new Set(hints)]), site);
  });
}
