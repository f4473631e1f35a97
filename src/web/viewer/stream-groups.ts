/**
 * Reads the streamed geometry response (docs/api.md "The response") as it arrives, so the preview
 * can draw each item as soon as its bytes are in: `{"origin":…,"spatialReference":…,"geometry":[
 * {"type":…,"geometryType":…,"<geometryType>":[item, item, …]}, …], "warnings":…, …}`.
 *
 * A small scanner tracks nesting and strings; each item (an object at depth 5) is parsed alone
 * with JSON.parse when its closing brace arrives; a group's header is read when its item array
 * opens; everything outside `geometry` is kept and parsed at the end. Pure (no DOM): tested on
 * real responses in node.
 */

export interface GroupHeader {
  /** The response's `type` (the group name as asked). */
  type: string;
  geometryType: 'meshes' | 'nodes' | 'polylines' | 'elevationMaps' | string;
  /** Position of the group in the response, from 0. */
  index: number;
}

export interface StreamEvents {
  group(header: GroupHeader): void;
  item(header: GroupHeader, item: unknown): void;
  groupEnd(header: GroupHeader): void;
}

/** Depths: 1 the response object, 2 `geometry`, 3 a group, 4 its item array, 5 an item. */
const GROUP = 3,
  ITEMS = 4,
  ITEM = 5;

export class GeometryStreamReader {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Text outside `geometry` (the head and the tail), for `finish`. */
  private outside = '';
  private inGeometry = false;
  private geometryDone = false;
  private groupText = '';
  private itemText = '';
  private header: GroupHeader | null = null;
  private groups = 0;

  constructor(private readonly events: StreamEvents) {}

  push(text: string): void {
    let outsideFrom = this.inGeometry ? -1 : 0;
    let groupFrom = this.depth >= GROUP && this.depth < ITEMS && this.inGeometry ? 0 : -1;
    let itemFrom = this.depth >= ITEM ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92 /* \ */) this.escaped = true;
        else if (c === 34 /* " */) this.inString = false;
        continue;
      }
      if (c === 34) {
        this.inString = true;
        continue;
      }
      if (c === 123 /* { */ || c === 91 /* [ */) {
        this.depth++;
        if (this.depth === 2 && !this.inGeometry && !this.geometryDone && c === 91 && /"geometry"\s*:\s*$/.test(this.outside + text.slice(outsideFrom, i))) {
          this.outside += `${text.slice(outsideFrom, i)}[]`;
          outsideFrom = -1;
          this.inGeometry = true;
        } else if (this.inGeometry && this.depth === GROUP) {
          this.groupText = '';
          groupFrom = i;
        } else if (this.inGeometry && this.depth === ITEMS) {
          this.openGroup(this.groupText + text.slice(groupFrom, i));
          groupFrom = -1;
        } else if (this.inGeometry && this.depth === ITEM) {
          this.itemText = '';
          itemFrom = i;
        }
      } else if (c === 125 /* } */ || c === 93 /* ] */) {
        if (this.inGeometry && this.depth === ITEM) {
          this.events.item(this.header!, JSON.parse(this.itemText + text.slice(itemFrom, i + 1)));
          this.itemText = '';
          itemFrom = -1;
        } else if (this.inGeometry && this.depth === GROUP && this.header) {
          this.events.groupEnd(this.header);
          this.header = null;
          this.groupText = '';
          groupFrom = -1;
        } else if (this.inGeometry && this.depth === 2) {
          this.inGeometry = false;
          this.geometryDone = true;
          outsideFrom = i + 1;
        }
        this.depth--;
      }
    }
    if (outsideFrom >= 0) this.outside += text.slice(outsideFrom);
    if (groupFrom >= 0) this.groupText += text.slice(groupFrom);
    if (itemFrom >= 0) this.itemText += text.slice(itemFrom);
  }

  /** The response without its geometry: origin, spatialReference, warnings, attributions, dataAccess. */
  finish(): Record<string, unknown> {
    if (this.depth !== 0 || this.inString) throw new Error('The response ended before it was complete.');
    return JSON.parse(this.outside) as Record<string, unknown>;
  }

  private openGroup(headText: string): void {
    // the header is `{"type":"…","geometryType":"…","<geometryType>":` — its items follow
    const type = /"type"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(headText);
    const geometryType = /"geometryType"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(headText);
    this.header = {
      type: type ? (JSON.parse(type[1]) as string) : 'unknown',
      geometryType: geometryType ? (JSON.parse(geometryType[1]) as string) : 'unknown',
      index: this.groups++,
    };
    this.groupText = '';
    this.events.group(this.header);
  }
}
