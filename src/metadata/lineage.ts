/**
 * A class and its ancestors, most derived first (`Object` and `Function.prototype` left out): the
 * one prototype-chain walk toolwright does, for inherited fields, tool facts and `@Type` lookups.
 */
export function lineage(target: Function): Function[] {
  const chain: Function[] = [target];
  for (
    let current: unknown = Object.getPrototypeOf(target);
    typeof current === 'function' && current !== Function.prototype && current !== Object;
    current = Object.getPrototypeOf(current)
  ) {
    chain.push(current as Function);
  }
  return chain;
}
