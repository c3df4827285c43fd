import { catalogClass } from '../metadata/catalog';
import { decoratedSite, Site } from '../metadata/site';

/** A decorator usable on a class (a class tool) and on a method (a method tool). */
export type ClassOrMethodDecorator = {
  (target: Function): void;
  (target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor): void;
};

/**
 * Builds a class-or-method decorator from a function that checks and records one fact. Every such
 * decorator catalogs its class, so a subclass that only adds `@ToolVersion(2)` is found too.
 */
export function classOrMethodDecorator(name: string, record: (site: Site) => void): ClassOrMethodDecorator {
  return ((target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => {
    const site = decoratedSite(name, target, propertyKey, descriptor);
    record(site);
    catalogClass(site.target);
  }) as ClassOrMethodDecorator;
}
