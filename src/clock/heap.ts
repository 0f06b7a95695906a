/** A binary min-heap of timed entries; ties keep insertion order. */
export interface Timed {
  at: number;
  seq: number;
}

export class MinHeap<T extends Timed> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const item = items[i]!;
      if (!before(item, items[parent]!)) break;
      items[i] = items[parent]!;
      items[parent] = item;
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && before(items[left]!, items[smallest]!)) smallest = left;
        if (right < items.length && before(items[right]!, items[smallest]!)) smallest = right;
        if (smallest === i) break;
        const item = items[i]!;
        items[i] = items[smallest]!;
        items[smallest] = item;
        i = smallest;
      }
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}

function before(a: Timed, b: Timed): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
