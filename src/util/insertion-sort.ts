/**
 * Sorts a short list in place by a numeric rank, stably, and returns it. Field lists and
 * constraint lists are a handful of items, and Array.prototype.sort allocates its merge state
 * (about a kilobyte) whatever the length.
 */
export function insertionSort<T>(items: T[], rank: (item: T) => number): T[] {
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    const itemRank = rank(item);
    let j = i - 1;
    for (; j >= 0 && rank(items[j]) > itemRank; j--) items[j + 1] = items[j];
    items[j + 1] = item;
  }
  return items;
}
