import { KEYS } from '../metadata/keys';
import { defineOnce, getOwnFact } from '../metadata/site';
import { checkVersionSuffix } from '../metadata/version-suffix';
import { describeValue } from '../util/describe-value';
import { classOrMethodDecorator, ClassOrMethodDecorator } from './class-or-method';
import type { ToolDeclaration } from '../metadata/definitions';
import { DeclarationError } from '../errors/declaration-errors';

/**
 * The tool's contract version: an integer >= 1. Undeclared means 1.
 *
 * @param version an integer >= 1.
 * @example
 * ```ts
 * @Tool({ name: 'approve_loan' })
 * @ToolVersion(2) // a changed contract, served beside version 1 (the class ApproveLoan) under the same name
 * export class ApproveLoanV2 { … }
 * ```
 */
export function ToolVersion(version: number): ClassOrMethodDecorator {
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new DeclarationError(`@ToolVersion must be an integer >= 1 (got ${describeValue(version)}).`);
  }
  return classOrMethodDecorator('ToolVersion', (site) => {
    defineOnce(KEYS.version, 'ToolVersion', version, site);
    checkVersionSuffix(site, getOwnFact<ToolDeclaration>(KEYS.tool, site), version);
  });
}
