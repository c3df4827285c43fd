/**
 * Shared nested classes under `components/schemas`: every class reached through a tool's fields
 * gets one component per direction, and each place its schema appears inline becomes a `$ref`.
 */
import { JsonSchema, schemaOf, ToolDefinition } from '../../index';
import { contractOf, TypeNode } from '../../adapter-kit';
import { setOwn } from '../../adapter-kit/internal';

type Direction = 'input' | 'output';

/** Keywords a field adds around a nested class's own schema: kept beside the `$ref`. */
const ANNOTATIONS = new Set(['description', 'default', 'examples', 'title', 'deprecated', 'readOnly', 'writeOnly']);

interface Component {
  readonly target: Function;
  readonly direction: Direction;
  readonly original: JsonSchema;
  readonly canonical: string;
  name: string;
}

/** JSON with sorted keys: two schemas are the same when their canonical forms are. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

function nestedTargets(node: TypeNode, into: Set<Function>): void {
  if (node.target && !into.has(node.target)) {
    into.add(node.target);
    for (const field of contractOf(node.target).fields) nestedTargets(field.type, into);
  }
  if (node.items) nestedTargets(node.items, into);
  for (const member of node.members ?? []) nestedTargets(member, into);
}

export class SchemaComponents {
  private readonly components: Component[] = [];
  // Problem is the adapter's own.
  private readonly names = new Set<string>(['Problem']);

  /** Collects the nested classes of a tool's input and output. */
  addTool(tool: ToolDefinition): void {
    const input = new Set<Function>();
    for (const field of tool.inputContract.inputFields) nestedTargets(field.type, input);
    for (const target of input) this.add(target, 'input');
    const output = new Set<Function>();
    for (const field of tool.outputContract?.fields ?? []) nestedTargets(field.type, output);
    for (const target of output) this.add(target, 'output');
  }

  private add(target: Function, direction: Direction): void {
    if (this.find(target, direction)) return;
    const original = schemaOf(target, { direction });
    const component: Component = { target, direction, original, canonical: canonical(withoutDefs(original)), name: '' };
    this.components.push(component);
  }

  /** Names every component: its `@SchemaName` or class name; `…Input` when the class's input schema differs from its output one. */
  private nameAll(): void {
    const all = this.components;
    for (const component of all) {
      if (component.name) continue;
      const twin = all.find((c) => c !== component && c.target === component.target);
      const own = definitionName(component.target);
      const base = component.direction === 'input' && twin && twin.canonical !== component.canonical ? `${own}Input` : own;
      if (twin && twin.canonical === component.canonical && twin.name) {
        component.name = twin.name;
        continue;
      }
      let name = base || 'Anonymous';
      for (let n = 2; this.names.has(name); n++) name = `${base}${n}`;
      this.names.add(name);
      component.name = name;
    }
  }

  private find(target: Function, direction: Direction): Component | undefined {
    return this.components.find((c) => c.target === target && c.direction === direction);
  }

  /** A tool schema (or a component's) with shared classes as `$ref`s and its own references rewritten. */
  link(schema: JsonSchema, root: Function, direction: Direction, self?: Component): JsonSchema {
    this.nameAll();
    const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
    const defTargets = new Map<string, string>();
    for (const name of Object.keys(defs)) {
      const match =
        this.components.find((c) => c.direction === direction && contractOf(c.target).definitionName === name) ??
        this.components.find((c) => c.direction === direction && c.target.name === name.replace(/\d+$/, ''));
      if (match) defTargets.set(`#/$defs/${name}`, ref(match.name));
    }
    const rootComponent = this.find(root, direction);
    const rewrite = (value: unknown, top: boolean): unknown => {
      if (Array.isArray(value)) return value.map((item) => rewrite(item, false));
      if (typeof value !== 'object' || value === null) return value;
      const node = value as JsonSchema;
      if (typeof node.$ref === 'string') {
        const target = node.$ref === '#' ? (rootComponent ? ref(rootComponent.name) : undefined) : defTargets.get(node.$ref);
        if (target) return { ...node, $ref: target };
        return node;
      }
      if (!top || self === undefined) {
        const match = this.match(node, direction, top ? self : undefined);
        if (match) return match;
      }
      const out: JsonSchema = {};
      for (const [key, child] of Object.entries(node)) {
        if (key === '$defs' && top) continue;
        setOwn(
          out,
          key,
          key === 'properties' || key === '$defs' ? mapValues(child as JsonSchema, (c) => rewrite(c, false)) : rewrite(child, false),
        );
      }
      return out;
    };
    return rewrite(schema, true) as JsonSchema;
  }

  /** `{ $ref, …annotations }` when the node is a component's schema plus field annotations. */
  private match(node: JsonSchema, direction: Direction, self: Component | undefined): JsonSchema | undefined {
    if (node.type !== 'object' || node.properties === undefined) return undefined;
    const core: JsonSchema = {};
    const annotations: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) (ANNOTATIONS.has(key) ? annotations : core)[key] = value;
    const text = canonical(core);
    for (const component of this.components) {
      if (component === self || component.direction !== direction) continue;
      const own = canonical(withoutAnnotations(withoutDefs(component.original)));
      if (own === text) return { $ref: ref(component.name), ...annotations };
    }
    return undefined;
  }

  /** `components/schemas`: every shared class, linked. */
  schemas(): Record<string, JsonSchema> {
    this.nameAll();
    const out: Record<string, JsonSchema> = {};
    for (const component of this.components) {
      if (out[component.name]) continue;
      out[component.name] = this.link(component.original, component.target, component.direction, component);
    }
    return out;
  }
}

/** A class's component name: its `@SchemaName`, else the class name. */
function definitionName(target: Function): string {
  return contractOf(target).definitionName ?? target.name;
}

function ref(name: string): string {
  return `#/components/schemas/${name}`;
}

function withoutDefs(schema: JsonSchema): JsonSchema {
  const { $defs: _defs, ...rest } = schema;
  return rest;
}

function withoutAnnotations(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key)));
}

function mapValues(record: JsonSchema, map: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
