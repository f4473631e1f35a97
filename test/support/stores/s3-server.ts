import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3StoreConfig } from '../../../src/export/store/config.ts';

export interface TestS3 {
  /** Connection settings for one fresh bucket on the server. */
  config: S3StoreConfig;
  close(): Promise<void>;
}

/** A real S3 server (s3rver, files in a scratch directory) on a loopback port, with one bucket. */
export async function startTestS3(bucket = 'exports-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'cc-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    config: {
      bucket,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      prefix: 'exports/',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
