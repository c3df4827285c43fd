import 'reflect-metadata';
import { DeclarationError, SetupError } from '../errors/declaration-errors';
import type { DeclarationSiteInput } from '../errors/declaration-errors';
import { describeValue } from '../util/describe-value';

/**
 * Where a declaration sits: on a class (a class tool, or a DTO), or on one method of a class
 * (a method tool). Facts are stored with reflect-metadata, as own metadata of the class or of the
 * (prototype, method) pair.
 */
export interface Site {
  readonly target: Function;
  readonly method?: string;
}

/** The site as a declaration error names it: the class and, for a method, the member. */
export function declaredAt(site: Site): DeclarationSiteInput {
  return { class: site.target, member: site.method };
}

export function siteName(site: Site): string {
  const className = site.target.name || '(anonymous class)';
  return site.method ? `${className}.${site.method}` : className;
}

/**
 * Refuses a call made by the TC39 standard decorators (TypeScript without `experimentalDecorators`):
 * their second argument is a context object (`{ kind, name, addInitializer, … }`), never a
 * property key. Every toolwright decorator runs this check first.
 */
export function rejectStandardDecorator(decorator: string, context: unknown): void {
  if (typeof context !== 'object' || context === null) return;
  const { kind, name } = context as { kind?: unknown; name?: unknown };
  if (typeof kind !== 'string' || typeof (context as { addInitializer?: unknown }).addInitializer !== 'function') return;
  const what = kind === 'class' ? `class ${String(name)}` : `${kind} ${typeof name === 'symbol' ? name.toString() : String(name)}`;
  throw new SetupError(
    `@${decorator} on ${what} was applied as a standard (TC39) decorator, and toolwright uses TypeScript's legacy decorators ` +
      '(as class-validator, class-transformer and tsyringe do). Set "experimentalDecorators": true and ' +
      '"emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json.',
  );
}

/** Resolves the site a class-or-method decorator was applied to, refusing what cannot be a tool. */
export function decoratedSite(decorator: string, target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor): Site {
  rejectStandardDecorator(decorator, propertyKey);
  if (propertyKey === undefined) {
    if (typeof target !== 'function') {
      throw new DeclarationError(`@${decorator} must decorate a class or a method; got ${describeValue(target)}.`);
    }
    return { target };
  }
  if (typeof target === 'function') {
    throw new DeclarationError(
      `@${decorator} on static method ${target.name}.${String(propertyKey)}: tools are instance methods, ` +
        'resolved through DI. Make it an instance method.',
      { class: target, member: propertyKey },
    );
  }
  const ctor = (target as { constructor: Function }).constructor;
  if (typeof propertyKey === 'symbol') {
    throw new DeclarationError(
      `@${decorator} on ${ctor.name}[${propertyKey.toString()}]: a symbol-named method cannot be a tool. ` + 'Use a string-named method.',
      { class: ctor, member: propertyKey },
    );
  }
  if (!descriptor || typeof descriptor.value !== 'function') {
    throw new DeclarationError(
      `@${decorator} on ${ctor.name}.${propertyKey}: it decorates classes and methods, not properties or accessors.`,
      { class: ctor, member: propertyKey },
    );
  }
  return { target: ctor, method: propertyKey };
}

function holder(site: Site): [object, string | undefined] {
  return site.method === undefined ? [site.target, undefined] : [site.target.prototype as object, site.method];
}

export function getOwnFact<T>(key: string, site: Site): T | undefined {
  const [object, property] = holder(site);
  return property === undefined
    ? (Reflect.getOwnMetadata(key, object) as T | undefined)
    : (Reflect.getOwnMetadata(key, object, property) as T | undefined);
}

/** Own fact, or for a class site the nearest superclass's. Method sites are never inherited. */
export function getFact<T>(key: string, site: Site): T | undefined {
  if (site.method !== undefined) return getOwnFact<T>(key, site);
  return Reflect.getMetadata(key, site.target) as T | undefined;
}

export function hasOwnFact(key: string, site: Site): boolean {
  return getOwnFact(key, site) !== undefined;
}

export function defineFact(key: string, value: unknown, site: Site): void {
  const [object, property] = holder(site);
  if (property === undefined) Reflect.defineMetadata(key, value, object);
  else Reflect.defineMetadata(key, value, object, property);
}

/**
 * Records a fact that may be declared once per site; a second declaration is a loud mistake
 * (`@ToolVersion` twice on one class), while a subclass may declare its own.
 */
export function defineOnce(key: string, decorator: string, value: unknown, site: Site): void {
  if (hasOwnFact(key, site)) {
    throw new DeclarationError(`${siteName(site)}: @${decorator} is already declared. Declare it once.`, declaredAt(site));
  }
  defineFact(key, value, site);
}
