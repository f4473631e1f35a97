/**
 * Where finished export files live until they expire (docs/exports.md "Downloads and the export
 * store"): a local directory under the data dir (embedded default) or S3-compatible object storage.
 * The HTTP layer only sees this interface.
 */

export interface StoredExport {
  /** Unguessable token (≥ 128 random bits, URL-safe) naming the download. */
  token: string;
  /** File name with extension, as offered to the client (`Content-Disposition`). */
  name: string;
  contentType: string;
  size: number;
  /** Strong ETag of the bytes (quoted). */
  etag: string;
  /** Epoch milliseconds after which the file is gone (404). */
  expiresAt: number;
}

/**
 * A file's bytes, whole or in pieces to be written one after the other (never joined: that would
 * hold the file twice), or a file an export thread already wrote to disk (./staged.ts), which
 * the store takes over (moves or uploads, then removes).
 */
/** A finished file on disk, flushed, with its size and ETag (computed while it was written). */
export interface StagedFile {
  stagedPath: string;
  size: number;
  etag: string;
}

export type ExportBytes = Uint8Array | readonly Uint8Array[] | StagedFile;

export interface ExportStore {
  /**
   * Stores a finished file of `owner` (an account id; '' = nobody's) under a new token; resolves
   * once it is durably written. Makes room by evicting expired files and the owner's own oldest,
   * never another owner's live file (./eviction.ts); throws ApiError 507 `export_too_large` or
   * `export_storage_unavailable` (./storage-errors.ts) when it cannot, and a full disk's ENOSPC as it is.
   */
  put(name: string, bytes: ExportBytes, contentType: string, owner?: string): Promise<StoredExport>;
  /**
   * Throws the 507 `export_storage_unavailable` an export of `owner` would meet now (directory not
   * writable, disk below its free-space floor, no room left under the caps by other owners' live
   * files): run before an export is built, so a refusal costs no work.
   */
  checkRoom(owner?: string): Promise<void>;
  /** After a full disk (ENOSPC): removes expired and left-over files, then `owner`'s own oldest; how many went (0: retrying cannot help). */
  makeRoom(owner?: string): Promise<number>;
  /** Metadata of a live file, or null when unknown or expired. */
  head(token: string, name: string): Promise<StoredExport | null>;
  /** The bytes [start, end] (inclusive, already validated against size) of a live file as a stream. */
  read(token: string, name: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream | null>;
  /** Removes every expired file; returns how many went. Run at start and by a timer. */
  sweep(now?: number): Promise<number>;
  close(): Promise<void>;
}
