/**
 * Names for generated classes and schema types. Pure functions of their inputs.
 */

/** The base of an inline contract's type name: `ApproveLoan`, or `LoanService_status` for a method tool. */
export function pascal(site: { readonly target: Function; readonly method?: string }): string {
  const base = site.method ? `${site.target.name}_${site.method}` : site.target.name;
  return base || 'Anonymous';
}

/** `search_docs` → `SearchDocs`: a sanitized tool name as a class name. */
export function pascalCase(snake: string): string {
  return snake
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
