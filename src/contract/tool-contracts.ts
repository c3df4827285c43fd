/**
 * A tool's input and output contracts: the classes behind `@Expects` / `@Exposes` (inline shapes
 * become classes once), or a method tool's first parameter type.
 */
import 'reflect-metadata';
import { KEYS } from '../metadata/keys';
import { getFact, Site, siteName, declaredAt } from '../metadata/site';
import { describeValue, isClass, isPlainObject } from '../util/describe-value';
import { contractOf } from './build-contract';
import type { Contract } from './field-model';
import type { ContractRef, FieldDeclaration, ToolDeclaration } from '../metadata/definitions';
import type { FieldOptions, InlineShape } from '../metadata/vocabulary';
import { DeclarationError } from '../errors/declaration-errors';

const synthesized = new WeakMap<object, Function>();
const shapeClasses = new WeakSet<Function>();

/** Was this class made from an inline shape (`@Exposes({ … })`)? */
export function isInlineShapeClass(target: Function): boolean {
  return shapeClasses.has(target);
}

/** The class an inline shape stands for, made once per shape object. */
export function classForShape(shape: InlineShape, name: string): Function {
  let target = synthesized.get(shape);
  if (target) return target;
  const made = { [name]: class {} }[name];
  const fields = new Map<string, FieldDeclaration>();
  Object.entries(shape).forEach(([field, entry], position) => {
    if (isPlainObject(entry)) {
      const { ambient, ...options } = entry as FieldOptions & { ambient?: true | { key?: string } };
      fields.set(field, {
        options: options as FieldOptions,
        ambient: ambient ? { key: (ambient === true ? undefined : ambient.key) ?? field } : undefined,
        position,
      });
    } else {
      fields.set(field, { options: { type: entry as FieldOptions['type'] }, position });
    }
  });
  Reflect.defineMetadata(KEYS.fields, fields, made);
  synthesized.set(shape, made);
  shapeClasses.add(made);
  target = made;
  return target;
}

/** The class a recorded contract reference points at. */
export function contractClass(ref: ContractRef, site: Site, decorator: string): Function {
  switch (ref.kind) {
    case 'class':
      return ref.target;
    case 'shape':
      return classForShape(ref.shape, ref.name);
    case 'thunk': {
      const target = ref.thunk();
      if (!isClass(target))
        throw new DeclarationError(
          `${siteName(site)}: ${decorator}: the contract thunk returned ${describeValue(target)}; it must return a DTO class.`,
          declaredAt(site),
        );
      return target;
    }
  }
}

/** The contract of a tool without input: no fields, closed. */
class NoInput {}

/** Built-in constructors a method tool's first parameter can reflect as that are never its input DTO. */
const NOT_INPUT_CLASSES = new Set<unknown>([Object, String, Number, Boolean, Array, Date, Function, Promise, Map, Set]);

function requireFields(contract: Contract, site: Site, what: string): Contract {
  if (contract.fields.length === 0) {
    throw new DeclarationError(
      `${siteName(site)}: ${what} ${contract.name} declares no fields. Decorate its properties with @Field() or class-validator ` +
        'decorators: reflection cannot see undecorated properties.',
      declaredAt(site),
    );
  }
  return contract;
}

/** `@Expects({})`: the explicit declaration of a tool that takes no input. */
function declaresNoInput(ref: ContractRef): boolean {
  return ref.kind === 'shape' && Object.keys(ref.shape).length === 0;
}

/**
 * A class tool whose entry method takes a parameter but which declares no `@Expects` would
 * advertise no fields and refuse every argument: a declaration error, at enumeration and at first
 * derivation. (A class tool's entry method carries no decorator, so TypeScript records no
 * parameter types for it: the parameter count is what there is to see.)
 */
export function checkClassToolInput(site: Site, entry: string): void {
  if (site.method !== undefined || getFact<ContractRef>(KEYS.expects, site)) return;
  const method = (site.target.prototype as Record<string, unknown>)[entry];
  if (typeof method !== 'function' || method.length === 0) return;
  // A fixed resource takes no arguments whatever its entry method's parameters (call(_input, context)).
  const kind = getFact<ToolDeclaration>(KEYS.tool, site)?.member?.kind;
  if (kind === 'resource') return;
  const noun = kind === 'prompt' ? 'prompt' : 'tool';
  throw new DeclarationError(
    `${siteName(site)}: its entry method ${entry}() takes an input, but the class declares no @Expects, so it would accept no ` +
      `arguments at all. Declare the input contract with @Expects(InputDto) or @Expects({ query: String }); a ${noun} that takes no ` +
      `input but reads its context (${entry}(_input, context)) declares @Expects({}).`,
    declaredAt(site),
  );
}

/** The input contract of a tool site (`entry`: a class tool's entry method). */
export function inputContractFor(site: Site, entry?: string): Contract {
  const ref = getFact<ContractRef>(KEYS.expects, site);
  if (ref && declaresNoInput(ref)) return contractOf(NoInput);
  if (ref) return requireFields(contractOf(contractClass(ref, site, '@Expects')), site, 'the input contract');
  if (entry !== undefined) checkClassToolInput(site, entry);
  if (site.method !== undefined) {
    const params: unknown[] | undefined = Reflect.getMetadata('design:paramtypes', site.target.prototype, site.method);
    const first = params?.[0];
    if (first === undefined) return contractOf(NoInput);
    if (!isClass(first) || NOT_INPUT_CLASSES.has(first)) {
      throw new DeclarationError(
        `${siteName(site)}: the input type of the first parameter is not a class reflection can see (${describeValue(first)}). ` +
          'Type the parameter with a DTO class, or declare @Expects(Dto).',
        declaredAt(site),
      );
    }
    return requireFields(contractOf(first), site, 'the input contract');
  }
  return contractOf(NoInput);
}

/** The output contract of a tool site, or undefined when it exposes nothing. */
export function outputContractFor(site: Site): Contract | undefined {
  const ref = getFact<ContractRef>(KEYS.exposes, site);
  if (!ref) return undefined;
  const contract = requireFields(contractOf(contractClass(ref, site, '@Exposes')), site, 'the output contract');
  if (contract.ambientFields.length > 0) {
    throw new DeclarationError(
      `${siteName(site)}: the output contract ${contract.name} has ambient field ${contract.ambientFields[0].name}. ` +
        '@AmbientContext marks inputs from trusted context; remove it from the output.',
      declaredAt(site),
    );
  }
  return contract;
}
