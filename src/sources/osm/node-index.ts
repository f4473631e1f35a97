/**
 * Node id → location index for the import: 16 bytes per node in growable typed arrays
 * (Float64 id, Int32 lat/lon in 1e-7 degrees), looked up by binary search. PBF files are
 * normally sorted by id, so sorting happens only when the input was not.
 */
export class NodeLocationIndex {
  private ids = new Float64Array(1 << 16);
  private lats = new Int32Array(1 << 16);
  private lons = new Int32Array(1 << 16);
  private count = 0;
  private sorted = true;
  private finished = false;

  get size(): number {
    return this.count;
  }

  /** Memory held by the index in bytes (including spare capacity). */
  get byteLength(): number {
    return this.ids.byteLength + this.lats.byteLength + this.lons.byteLength;
  }

  add(id: number, lat7: number, lon7: number): void {
    if (this.finished) throw new Error('NodeLocationIndex: add() after finish()');
    if (this.count === this.ids.length) this.grow();
    if (this.count > 0 && id <= this.ids[this.count - 1]) this.sorted = false;
    this.ids[this.count] = id;
    this.lats[this.count] = lat7;
    this.lons[this.count] = lon7;
    this.count++;
  }

  /** Ends the adding phase: trims spare capacity and sorts by id if the input was out of order. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    const n = this.count;
    if (this.sorted) {
      this.ids = this.ids.slice(0, n);
      this.lats = this.lats.slice(0, n);
      this.lons = this.lons.slice(0, n);
      return;
    }
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const ids = this.ids;
    order.sort((a, b) => ids[a] - ids[b]);
    const sortedIds = new Float64Array(n),
      sortedLats = new Int32Array(n),
      sortedLons = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const j = order[i];
      sortedIds[i] = ids[j];
      sortedLats[i] = this.lats[j];
      sortedLons[i] = this.lons[j];
    }
    this.ids = sortedIds;
    this.lats = sortedLats;
    this.lons = sortedLons;
    this.sorted = true;
  }

  /** Position of the node in the index, or -1. Call finish() first. */
  find(id: number): number {
    if (!this.finished) throw new Error('NodeLocationIndex: find() before finish()');
    const ids = this.ids;
    let lo = 0,
      hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  lat7(position: number): number {
    return this.lats[position];
  }

  lon7(position: number): number {
    return this.lons[position];
  }

  private grow(): void {
    const capacity = this.ids.length * 2;
    const ids = new Float64Array(capacity),
      lats = new Int32Array(capacity),
      lons = new Int32Array(capacity);
    ids.set(this.ids);
    lats.set(this.lats);
    lons.set(this.lons);
    this.ids = ids;
    this.lats = lats;
    this.lons = lons;
  }
}
