/**
 * An export's file from its build to the store: a full disk (ENOSPC) met on the way — the export
 * thread writing its staged or spill file, or the store its own — is answered by making room
 * (expired and left-over files, then the account's own oldest: never another account's live link)
 * and one more try; when nothing could be removed, or the second try fails the same way, the
 * client gets 507 `export_storage_unavailable` with `Retry-After`, not a bare 500.
 */
import type { ExportResult } from './run-export.ts';
import { isNoSpace, storageUnavailable } from './store/storage-errors.ts';
import type { ExportStore, StoredExport } from './store/types.ts';

export interface StoredResult {
  result: ExportResult;
  stored: StoredExport;
}

export async function buildAndStore(store: ExportStore, owner: string, build: () => Promise<ExportResult>): Promise<StoredResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await build();
      const stored = await store.put(result.fileName, result.file.bytes, result.file.contentType, owner);
      return { result, stored };
    } catch (err) {
      if (!isNoSpace(err)) throw err;
      if (attempt === 0 && (await store.makeRoom(owner)) > 0) continue;
      throw storageUnavailable('the disk holding the export files is full', { errno: 'ENOSPC' });
    }
  }
}
